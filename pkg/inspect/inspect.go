// Package inspect answers the day-two reads (spec §4): mem show (one
// memory, its status, where it renders, what it supersedes and what
// supersedes it) and mem list (memories as lines, filtered). The CLI and
// the MCP server print what it returns. A read applies spec §8: every
// secret is redacted and text that breaks an injection rule is marked
// (rules.Show).
package inspect

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// Statuses lists the values of --status (the words are vault's).
var Statuses = []string{vault.StatusCurrent, vault.StatusStale, vault.StatusSuperseded, vault.StatusRetired, vault.StatusDeprecated, vault.StatusImport}

// Entry is one memory as list prints it.
type Entry struct {
	ID         string `json:"id"`
	Path       string `json:"path"`
	Type       string `json:"type,omitempty"`
	Provenance string `json:"provenance,omitempty"`
	Project    string `json:"project,omitempty"`
	Pinned     bool   `json:"pinned,omitempty"`
	Section    string `json:"section,omitempty"`
	Importance int    `json:"importance"`
	ValidAt    string `json:"valid_at,omitempty"`
	InvalidAt  string `json:"invalid_at,omitempty"`
	Source     string `json:"source,omitempty"`
	Status     string `json:"status"`
	// SupersededBy names the claim that beat this one (status superseded).
	SupersededBy string `json:"superseded_by,omitempty"`
	// Summary is the first line of the text, as a read shows it (§8).
	Summary string `json:"summary"`
	// Unreviewed names who wrote a claim no person wrote or accepted
	// (spec §5.2b, gate.WrittenBy): every read says so.
	Unreviewed bool   `json:"unreviewed,omitempty"`
	WrittenBy  string `json:"written_by,omitempty"`
}

// Vault is a loaded vault with the verdicts every status needs, computed once.
type Vault struct {
	v    *vault.Vault
	Mems []*vault.Memory
	now  time.Time
	res  gate.Resolution // the one verdict on which claims stand
	env  history.Env     // what git runs with when Show reads a note's history
}

// Load reads the vault and reconciles its claims as render does; env is
// what git runs with when Show reads a note's history.
func Load(v *vault.Vault, now time.Time, env history.Env) (*Vault, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	return &Vault{v: v, Mems: mems, now: now, res: gate.Reconcile(mems, now), env: env}, nil
}

// claim reports a file that is a one-line claim (not a note, a project
// note or an OKF reserved file).
func claim(m *vault.Memory) bool {
	return frontmatter.IsMemoryType(m.Meta().Type) && !vault.IsReserved(m.Rel)
}

// Status is m's status and, when superseded, the id of what beat it.
func (x *Vault) Status(m *vault.Memory) (status, by string) { return x.res.Status(m) }

// Rivals are the reconciler's verdicts on claims that supersede one claim
// (two machines correcting it, say), one sentence each, sorted: computed
// from the files, so every machine holding them reaches the same.
func (x *Vault) Rivals() []string {
	var out []string
	for _, c := range x.res.Conflicts {
		if c.Reason == gate.ReasonRival {
			out = append(out, c.Detail)
		}
	}
	slices.Sort(out)
	return out
}

// entry describes m as list prints it.
func (x *Vault) entry(m *vault.Memory) Entry {
	meta := m.Meta()
	e := Entry{ID: m.ID, Path: m.Rel, Type: meta.Type, Provenance: meta.Provenance, Project: meta.Project,
		Pinned: meta.Pinned, Section: meta.Section, Importance: meta.ImportanceOrDefault(),
		ValidAt: meta.ValidAt.String(), InvalidAt: meta.InvalidAt.String(), Source: meta.Source,
		Summary: rules.Show(m.Summary())}
	e.Status, e.SupersededBy = x.Status(m)
	if claim(m) {
		e.WrittenBy = gate.WrittenBy(meta)
		e.Unreviewed = e.WrittenBy != ""
	}
	return e
}

// Pending are the claims that wait for a person's review (spec §5.2b:
// agents' writes and imports no person accepted, neither rejected nor
// retired), newest first: by when they were written (generated.at, else
// valid_at), then by id. source, when not empty, keeps those written by
// that actor (import:chatgpt, process:claude-code), or by any actor it
// begins when it ends with ':' (import:, process:).
func (x *Vault) Pending(source string) []Entry {
	type pending struct {
		e  Entry
		at time.Time
	}
	var ps []pending
	for _, m := range x.Mems {
		if !m.OK() || !claim(m) {
			continue
		}
		meta := m.Meta()
		by := gate.WrittenBy(meta)
		if by == "" || meta.IsDeprecated() || meta.IsRetired(x.now) {
			continue
		}
		if source != "" && by != source && !(strings.HasSuffix(source, ":") && strings.HasPrefix(by, source)) {
			continue
		}
		at := meta.ValidAt.Time
		if meta.Generated != nil && !meta.Generated.At.IsZero() {
			at = meta.Generated.At.Time
		}
		ps = append(ps, pending{x.entry(m), at})
	}
	slices.SortFunc(ps, func(a, b pending) int {
		if c := b.at.Compare(a.at); c != 0 {
			return c
		}
		return strings.Compare(a.e.ID, b.e.ID)
	})
	out := make([]Entry, len(ps))
	for i, p := range ps {
		out[i] = p.e
	}
	return out
}

// Filter selects the memories list prints; zero values select all.
type Filter struct {
	Pinned  bool
	Project string // a project id, or "none" for global memories
	Type    string
	Status  string // one of Statuses
	Since   time.Time
}

// Check reports a filter value list cannot honour, naming its flag as name does.
func (f Filter) Check(name func(string) string) error {
	if f.Status != "" && !slices.Contains(Statuses, f.Status) {
		return fmt.Errorf("%s %q: use one of %s", name("status"), f.Status, strings.Join(Statuses, ", "))
	}
	if f.Project != "" && f.Project != "none" && !vault.ProjectIDPattern().MatchString(f.Project) {
		return fmt.Errorf("%s %q: a project id looks like proj_name, or use none for global memories", name("project"), f.Project)
	}
	return nil
}

// CheckProject refuses a filter whose project no project note has, as
// render refuses it (exit 2, the known ids listed), naming its flag as
// name does: an unknown project is a usage error on every path.
func (x *Vault) CheckProject(f Filter, name func(string) string) error {
	if f.Project == "" || f.Project == "none" {
		return nil
	}
	_, err := render.NamedProject(x.v.Projects(x.Mems), f.Project, name("project"))
	return err
}

// List returns the claims f selects, in id order; with a Type that is not
// one of mem's (OKF's Metric), the files of that type, as written.
func (x *Vault) List(f Filter) []Entry {
	out := []Entry{}
	for _, m := range x.Mems {
		if !m.OK() || !claim(m) && (f.Type == "" || frontmatter.IsMemoryType(f.Type) || m.Meta().Type != f.Type) {
			continue
		}
		if !f.selects(m.Meta()) {
			continue
		}
		e := x.entry(m)
		if f.Status != "" && e.Status != f.Status {
			continue
		}
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b Entry) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// selects reports whether a claim's fields pass f (its status aside).
func (f Filter) selects(meta *frontmatter.Meta) bool {
	switch {
	case f.Pinned && !meta.Pinned,
		f.Type != "" && meta.Type != f.Type,
		f.Project == "none" && meta.Project != "",
		f.Project != "" && f.Project != "none" && meta.Project != f.Project,
		!f.Since.IsZero() && (meta.ValidAt.IsZero() || meta.ValidAt.Before(f.Since)):
		return false
	}
	return true
}

// Detail is one memory or note as show prints it.
type Detail struct {
	Entry
	// Hash is the content hash of the file: pass it to a write (--hash,
	// MCP expected_hash) to refuse the write if the file changed since.
	Hash string `json:"hash"`
	// Text is the whole body, as a read shows it (§8).
	Text      string           `json:"text"`
	Flagged   []string         `json:"flagged,omitempty"`
	Tags      []string         `json:"tags,omitempty"`
	Key       string           `json:"key,omitempty"`
	Stale     string           `json:"stale_after,omitempty"`
	Reason    string           `json:"invalid_reason,omitempty"`
	Evidence  string           `json:"evidence,omitempty"`
	Placement render.Placement `json:"placement"`
	// Supersedes and SupersededBy name the claims on either side.
	Supersedes  []string `json:"supersedes,omitempty"`
	Superseders []string `json:"superseders,omitempty"`
	// WayBack says, for a superseded claim, what would make it stand again.
	WayBack string             `json:"way_back,omitempty"`
	Changes []history.LogEntry `json:"changes,omitempty"`
	// Lost are the versions of the file a sync merge turned down (spec §9).
	Lost         []history.Decision `json:"lost_versions,omitempty"`
	Problem      string             `json:"problem,omitempty"`
	GeneratedBy  string             `json:"generated_by,omitempty"`
	ProjectTitle string             `json:"project_title,omitempty"`
}

// maxChanges bounds the history show prints.
const maxChanges = 5

// Show describes the file ref names (a short id works, as everywhere).
func (x *Vault) Show(ref string) (*Detail, error) {
	m, err := x.v.FindMemory(x.Mems, ref)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(m.Path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", m.Rel, err)
	}
	d := &Detail{Entry: x.entry(m), Hash: vault.Hash(data)}
	if m.Doc != nil {
		d.Text = rules.Show(strings.TrimSpace(m.Doc.Body))
		d.Flagged = rules.Names(rules.Unredacted(rules.Memory(string(data), m.Doc, x.now, x.v.Config.Gate)))
	}
	if audit.IsPlainNote(m) && !m.View {
		// What lint and render say of it too (spec §2): no problem.
		d.Placement = render.Placement{Reason: "a plain note (no frontmatter): searchable, never rendered; " +
			"to make it a memory, start it with frontmatter (see 'mem lint " + m.Rel + "')"}
		return d, nil
	}
	if !m.OK() {
		d.Problem = fmt.Sprintf("%s:%v", m.Rel, m.Err)
		d.Placement = render.Placement{Reason: "the file does not parse: render skips it with a warning"}
		return d, nil
	}
	meta := m.Meta()
	d.Tags, d.Key, d.Stale, d.Supersedes = meta.Tags, meta.Key, meta.StaleAfter.String(), meta.Supersedes
	if reason, ok := m.Doc.KeptText(writer.ReasonKey); ok {
		d.Reason = rules.Show(reason)
	}
	d.Evidence = rules.Show(meta.Evidence)
	if meta.Generated != nil {
		d.GeneratedBy = meta.Generated.By
	}
	d.Superseders = x.superseders(m)
	d.WayBack = x.wayBack(m, d.SupersededBy)
	projects := x.v.Projects(x.Mems)
	var p *vault.Project
	if meta.Project != "" {
		if p = vault.FindProject(projects, meta.Project); p != nil {
			d.ProjectTitle = p.Name
		}
	}
	// Render says why a note does not render too: whether a pointer memory
	// renders in its place, or none links to it.
	if d.Placement, err = render.Place(x.Mems, m.ID, render.OptionsFor(x.v, p, 0, x.now)); err != nil {
		return nil, err
	}
	if r, err := history.Open(x.v, x.env); err == nil {
		d.Changes, _ = r.Log(m.Rel, maxChanges)
		d.Lost, _ = r.LostVersions(m.Rel)
	}
	return d, nil
}

// superseders are the claims that supersede m, each marked when it is
// retired or deprecated.
func (x *Vault) superseders(m *vault.Memory) []string {
	var out []string
	for _, o := range x.Mems {
		if o.OK() && slices.Contains(o.Meta().Supersedes, m.ID) {
			name := o.ID
			if s, _ := x.Status(o); s == vault.StatusRetired || s == vault.StatusDeprecated {
				name += " (" + s + ")"
			}
			out = append(out, name)
		}
	}
	return out
}

// wayBack says what would make m, which lost to w, stand again, by the
// conflict the reconciler recorded.
func (x *Vault) wayBack(m *vault.Memory, w string) string {
	if w == "" {
		return ""
	}
	for _, c := range x.res.Conflicts {
		if c.Winner.ID != w || !slices.Contains(c.Losers, m) {
			continue
		}
		switch c.Reason {
		case gate.ReasonSupersedes:
			return fmt.Sprintf("a supersession says this claim was wrong: retiring %s keeps it superseded; "+
				"only a retraction brings it back (status: deprecated on %s, docs/obsidian.md)", w, w)
		case gate.ReasonRival:
			return fmt.Sprintf("%s and this claim both supersede %s and %s wins (docs/gate.md): "+
				"retire %s, or correct this claim so it supersedes %s", w, c.Subject, w, w, w)
		}
		return c.Detail
	}
	return ""
}
