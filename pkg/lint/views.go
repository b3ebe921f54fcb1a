package lint

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// checkViews reports rendered views (MEMORY.md, render.outputs, spliced
// zones) that differ from what `mem render` produces for their recorded
// inputs, other than the time line: someone edited a view by hand.
//
// The recorded inputs are the vault and the render time in the header,
// plus the output's mem.yaml entry. A view older than a memory file it
// could show is stale, not edited (mem audit reports it as a fossil), so it
// is not judged. When the entry does not fix the project (a plain
// `mem render -o MEMORY.md` from some directory), the view passes if it is
// the render for no project or for any project note.
func checkViews(v *vault.Vault, all []*vault.Memory, rels []string) []Problem {
	var out []Problem
	projects := v.Projects(all)
	// The entries as render --all reads them; a broken entry is render's
	// and doctor's to report, and leaves every view unfixed here.
	targets, _ := render.Outputs(v)
	for _, rel := range rels {
		data, err := os.ReadFile(filepath.Join(v.Root, filepath.FromSlash(rel)))
		if err != nil {
			continue // no view there
		}
		view, ok := render.ReadView(data)
		if !ok || newerThan(all, view.At) {
			continue // not a mem render, or stale rather than edited
		}
		t := render.Target{}
		candidates := []*vault.Project{nil}
		for i := range projects {
			candidates = append(candidates, &projects[i])
		}
		for i, e := range targets {
			if v.Rel(e.Output) != rel {
				continue
			}
			t = e
			if o := v.Config.Render.Outputs[i]; o.Project != "" || o.Cwd != "" {
				p, err := e.Resolve(projects)
				if err != nil {
					p = nil // render --all reports the entry
				}
				candidates = []*vault.Project{p}
			}
		}
		// The view is judged where it is: its zone when it has one.
		t.Splice = view.Spliced
		bestLine, matched := 0, false
		for _, p := range candidates {
			opts := render.OptionsFor(v, p, t.Budget, view.At)
			opts.Vault = view.Vault // as the view's header recorded it
			res, err := render.Render(all, opts)
			if err != nil {
				continue
			}
			if t.Holds(data, res.Doc) {
				matched = true
				break
			}
			bestLine = max(bestLine, firstDiff(view.Doc, res.Doc))
		}
		if !matched {
			out = append(out, Problem{Path: rel, Line: view.Line + bestLine - 1, Column: 1, Severity: Error, Rule: "render-hand-edited",
				Message: "this rendered view differs from what 'mem render' produces for its recorded inputs: it was edited by hand; put the change in a memory ('mem remember') and re-render"})
		}
	}
	return out
}

func newerThan(all []*vault.Memory, t time.Time) bool {
	for _, m := range all {
		if m.ModTime.After(t) {
			return true
		}
	}
	return false
}

// firstDiff is the 1-based line where a and b first differ, the time line
// aside.
func firstDiff(a, b []byte) int {
	la, lb := strings.Split(string(a), "\n"), strings.Split(string(b), "\n")
	for i := range la {
		if i == 1 {
			continue
		}
		if i >= len(lb) || la[i] != lb[i] {
			return i + 1
		}
	}
	return len(la)
}
