package audit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// ViewState is what the audit found for one view.
type ViewState struct {
	Path    string `json:"path"` // vault-relative when inside the vault
	Project string `json:"project,omitempty"`
	Exists  bool   `json:"exists"`
	// Bytes is the size of the view rendered now, against Budget;
	// OverBudget counts the memories that did not fit.
	Bytes      int   `json:"bytes"`
	Budget     int   `json:"budget"`
	OverBudget int   `json:"over_budget"`
	FileBytes  int64 `json:"file_bytes"`
	// Written is the file's modification time: render leaves the file
	// alone when only its time line would change, so this is when its
	// content last changed.
	Written *time.Time `json:"written,omitempty"`
	// Fossil: the file is missing, cannot be rendered, or is not what
	// rendering now gives (its time line aside).
	Fossil  bool `json:"fossil"`
	Added   int  `json:"added"`   // lines rendering now would add
	Removed int  `json:"removed"` // lines it would remove
	// Newest is the most recently modified memory among those whose line
	// the file lacks: the view is older than it.
	Newest  *Changed `json:"newest,omitempty"`
	Problem string   `json:"problem,omitempty"`
}

// Changed is a memory and when its file last changed.
type Changed struct {
	ID       string    `json:"id"`
	Path     string    `json:"path"`
	Modified time.Time `json:"modified"`
}

// Growth is a view's size rendered now against its size rendered 30 days
// ago from the memories already written then (by their generated.at).
type Growth struct {
	Path   string  `json:"path"`
	Bytes  int     `json:"bytes"`
	Before int     `json:"bytes_30d_ago"`
	Share  float64 `json:"growth"` // (bytes - before) / before; the header alone is never empty
}

// State is what other commands leave behind, which the audit judges:
// the index manifest, the git HEAD (no history walk), the sync's held
// files and the backup record. wiring.AuditState reads it.
type State struct {
	Index  Index  `json:"index"`
	Commit Commit `json:"commit"`
	Backup Backup `json:"backup"`
	// Held are a remote's changes to this machine's files that mem sync
	// holds back until 'mem sync --accept-config' (docs/sync.md).
	Held []string `json:"held,omitempty"`
}

// Index is the full-text index's freshness.
type Index struct {
	Exists  bool       `json:"exists"`
	Changed int        `json:"changed"` // files added, changed or removed since the last build
	Files   int        `json:"files"`
	Built   *time.Time `json:"built,omitempty"`
	Problem string     `json:"problem,omitempty"`
}

// Commit is the vault's last commit.
type Commit struct {
	Committed bool       `json:"committed"`
	Hash      string     `json:"hash,omitempty"`
	At        *time.Time `json:"at,omitempty"`
	AgeHours  float64    `json:"age_hours"`
	Problem   string     `json:"problem,omitempty"`
}

// Backup is the last verified backup (history.LastBackup).
type Backup struct {
	Verified bool       `json:"verified"`
	At       *time.Time `json:"at,omitempty"`
	AgeHours float64    `json:"age_hours"`
	Target   string     `json:"target,omitempty"`
	Head     string     `json:"head,omitempty"`
	// Behind is true when the vault has committed since: the backup does
	// not hold the latest history.
	Behind   bool   `json:"behind"`
	Files    int    `json:"files"`
	Memories int    `json:"memories"`
	Problem  string `json:"problem,omitempty"`
}

// renderOverBudget is the reason render gives a memory that did not fit
// (render's unexported reasonBudget).
const renderOverBudget = "over budget"

// growthWindow is how far back boot-file growth looks.
const growthWindow = 30 * 24 * time.Hour

// checkViews renders each view as it would be rendered now and compares it
// with the file. The comparison, not a clock, decides a fossil: a view
// rendered after the newest memory can still be out of date (a claim went
// stale), and a memory touched after the view may change nothing.
func (r *Report) checkViews(v *vault.Vault, mems []*vault.Memory, projects []vault.Project, views []render.Target, now time.Time) {
	var byID map[string]*vault.Memory // built on the first fossil that needs it
	var earlier []*vault.Memory       // the memories written 30 days ago, built on the first view
	cutoff := now.Add(-growthWindow)
	for _, vw := range views {
		vs := ViewState{Path: relIfInside(v, vw.Output), Budget: vw.Budget}
		if vs.Budget == 0 {
			vs.Budget = v.Config.Render.Budget
		}
		res, p, err := vw.Render(v, mems, projects, now)
		if err != nil {
			vs.Fossil, vs.Problem = true, err.Error()
			r.Views = append(r.Views, vs)
			continue
		}
		if p != nil {
			vs.Project = p.ID
		}
		vs.Bytes = len(res.Doc)
		if earlier == nil {
			earlier = writtenBy(mems, cutoff)
		}
		ropts := render.OptionsFor(v, p, vs.Budget, cutoff)
		if then, err := render.Render(earlier, ropts); err == nil {
			before := len(then.Doc)
			r.Growth = append(r.Growth, Growth{Path: vs.Path, Bytes: vs.Bytes, Before: before,
				Share: round(float64(vs.Bytes-before)/float64(before), 4)})
		}
		for _, d := range res.Dropped {
			if d.Reason == renderOverBudget {
				vs.OverBudget++
			}
		}
		old, fi, err := readFile(vw.Output)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			vs.Fossil, vs.Problem = true, "missing: run 'mem render --all'"
		case err != nil:
			vs.Fossil, vs.Problem = true, err.Error()
		default:
			vs.Exists, vs.FileBytes = true, fi.Size()
			t := fi.ModTime().UTC()
			vs.Written = &t
			if vw.Holds(old, res.Doc) {
				break
			}
			vs.Fossil = true
			zone, _ := vw.Current(old)
			var added []string
			added, vs.Removed = lineDiff(zone, res.Doc)
			vs.Added = len(added)
			if len(added) > 0 {
				if byID == nil {
					byID = make(map[string]*vault.Memory, len(mems))
					for _, m := range mems {
						byID[m.ID] = m
					}
				}
				vs.Newest = newest(res.Items, added, byID)
			}
		}
		r.Views = append(r.Views, vs)
	}
}

// relIfInside names a file by its vault path when it lies in the vault.
func relIfInside(v *vault.Vault, p string) string {
	rel := v.Rel(p)
	if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return p
	}
	return rel
}

func readFile(p string) ([]byte, fs.FileInfo, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return nil, nil, err
	}
	data, err := os.ReadFile(p)
	return data, fi, err
}

// lineDiff returns the lines of doc the old view lacks and how many of the
// old view's lines doc lacks, as multisets, the time line (second) of each
// aside.
func lineDiff(old, doc []byte) (added []string, removed int) {
	have := map[string]int{}
	for i, l := range strings.Split(string(old), "\n") {
		if i != 1 {
			have[l]++
		}
	}
	for i, l := range strings.Split(string(doc), "\n") {
		if i == 1 {
			continue
		}
		if have[l] > 0 {
			have[l]--
		} else {
			added = append(added, l)
		}
	}
	for _, n := range have {
		removed += n
	}
	return added, removed
}

// newest finds, among the rendered items whose line is in added, the
// memory whose file changed last.
func newest(items []render.Item, added []string, byID map[string]*vault.Memory) *Changed {
	want := make(map[string]bool, len(added))
	for _, l := range added {
		want[l] = true
	}
	var best *vault.Memory
	for _, it := range items {
		m := byID[it.ID]
		if !want[it.Line] || m == nil {
			continue
		}
		if best == nil || m.ModTime.After(best.ModTime) {
			best = m
		}
	}
	if best == nil {
		return nil
	}
	return &Changed{ID: best.ID, Path: best.Rel, Modified: best.ModTime.UTC()}
}

// writtenBy is the vault as it stood at t, as far as the files tell:
// the memories whose generated.at (the last meaningful write, stamped by
// every writer) is not after t. Files without generated are taken as
// older. The loaded files are all the audit has: git holds the views
// nowhere (mem commit never commits them) and reading every file at a
// past commit is one blob per memory, docs/audit.md says more.
func writtenBy(mems []*vault.Memory, t time.Time) []*vault.Memory {
	out := make([]*vault.Memory, 0, len(mems))
	for _, m := range mems {
		if g := m.Meta().Generated; g != nil && g.At.After(t) {
			continue
		}
		out = append(out, m)
	}
	return out
}
