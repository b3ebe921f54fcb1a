package mcpserver

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

// maxPaths bounds the paths listed per finding: a summary for a model's
// context, not the full report.
const maxPaths = 20

// Paths is a count with the first few offending files.
type Paths struct {
	Count int      `json:"count"`
	Paths []string `json:"paths,omitempty"`
}

func (p *Paths) add(rel string) {
	p.Count++
	if len(p.Paths) < maxPaths {
		p.Paths = append(p.Paths, rel)
	}
}

// AuditOutput is the health summary of a vault (a subset of spec §7).
type AuditOutput struct {
	Files int `json:"files"`
	// Broken files do not parse; every view skips them.
	Broken Paths `json:"broken"`
	// Claims are the memory-type files (all but notes and project notes).
	Claims       int            `json:"claims"`
	Notes        int            `json:"notes"`
	ByType       map[string]int `json:"by_type"`
	ByProvenance map[string]int `json:"by_provenance"`
	// NoValidAt counts claims with no valid_at, by source (native,
	// import:<tool>, ...): they sort on the wrong thing.
	NoValidAt map[string]int `json:"no_valid_at"`
	// ValidAtCoverage is the share of claims that carry valid_at, 0–1.
	ValidAtCoverage float64 `json:"valid_at_coverage"`
	// Stale claims are past stale_after and still in force.
	Stale Paths `json:"stale"`
	// Retired claims are past invalid_at; deprecated ones have status: deprecated.
	Retired    int `json:"retired"`
	Deprecated int `json:"deprecated"`
	// Superseded claims lost to another (supersedes, or a shared key).
	Superseded int `json:"superseded"`
	Conflicts  int `json:"conflicts"`
	// UnknownProject claims name a project no project note has.
	UnknownProject Paths `json:"unknown_project"`
}

// AuditInput takes nothing; the struct gives the tool an object schema.
type AuditInput struct{}

func (s *server) audit(_ context.Context, _ *mcp.CallToolRequest, _ AuditInput) (*mcp.CallToolResult, AuditOutput, error) {
	mems, err := s.load(vault.LoadOptions{})
	if err != nil {
		return nil, AuditOutput{}, err
	}
	return nil, Audit(mems, s.Vault.Projects(mems), s.Now()), nil
}

// Audit summarises mems at now. Supersession and conflicts come from the
// reconciler that render and lint use, over the claims still in force.
func Audit(mems []*vault.Memory, projects []vault.Project, now time.Time) AuditOutput {
	a := AuditOutput{Files: len(mems), ByType: map[string]int{}, ByProvenance: map[string]int{}, NoValidAt: map[string]int{}}
	dated := 0
	live := make([]*vault.Memory, 0, len(mems)) // what the reconciler weighs: claims still in force
	for _, m := range mems {
		if !m.OK() {
			a.Broken.add(m.Rel)
			continue
		}
		meta := m.Meta()
		retired := meta.Status == frontmatter.StatusDeprecated || (!meta.InvalidAt.IsZero() && !meta.InvalidAt.After(now))
		if !retired {
			live = append(live, m)
		}
		typ := frontmatter.EffectiveType(meta.Type)
		a.ByType[typ]++
		if !frontmatter.IsMemoryType(typ) {
			if typ == frontmatter.TypeNote {
				a.Notes++
			}
			continue
		}
		a.Claims++
		a.ByProvenance[meta.Provenance]++
		if meta.ValidAt.IsZero() {
			source := meta.Source
			if source == "" {
				source = "native"
			}
			a.NoValidAt[source]++
		} else {
			dated++
		}
		if meta.Project != "" && vault.FindProject(projects, meta.Project) == nil {
			a.UnknownProject.add(m.Rel)
		}
		switch {
		case meta.Status == frontmatter.StatusDeprecated:
			a.Deprecated++
		case !meta.InvalidAt.IsZero() && !meta.InvalidAt.After(now):
			a.Retired++
		case !meta.StaleAfter.IsZero() && !now.Before(meta.StaleAfter.Time):
			a.Stale.add(m.Rel)
		}
	}
	if a.Claims > 0 {
		a.ValidAtCoverage = float64(dated) / float64(a.Claims)
	}
	res := gate.Reconcile(live)
	a.Superseded, a.Conflicts = len(res.Lost), len(res.Conflicts)
	return a
}
