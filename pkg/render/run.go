package render

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// Target is one view to render: the project it is for and where it goes.
type Target struct {
	// Cwd resolves the project when Project is empty; "" is the working
	// directory the run was given (RunOptions.Cwd).
	Cwd string
	// CwdFrom names what gave Cwd ("--cwd", a render.outputs entry), for
	// the error when it is no directory; "" skips that check.
	CwdFrom string
	Project string // a project id, instead of resolving one from Cwd
	// projectFrom names what gave Project, for the error when no project
	// note has it; "" is "--project".
	projectFrom string
	Budget      int    // most bytes of the view; 0 is render.budget
	Output      string // the file the view goes to; "" is the caller's to print
	Splice      bool   // Output holds the view in its mem zone
	Format      string // markdown, hook or json; only markdown goes to a file
}

// Outputs are mem.yaml's render.outputs as Targets, their paths read with
// vault.Path: what `mem render --all` renders and what audit and doctor
// check. None when mem.yaml lists none.
func Outputs(v *vault.Vault) ([]Target, error) {
	cfg := filepath.Join(v.Root, vault.ConfigFile)
	var ts []Target
	for i, o := range v.Config.Render.Outputs {
		if o.Path == "" {
			return nil, fmt.Errorf("%s: render.outputs[%d] has no path: give each output a path", cfg, i)
		}
		from := fmt.Sprintf("%s: render.outputs[%d]", cfg, i)
		t := Target{Cwd: v.Path(o.Cwd), CwdFrom: from + ".cwd", Project: o.Project, projectFrom: from + ".project", Budget: o.Budget, Output: v.Path(o.Path), Splice: o.Splice, Format: "markdown"}
		if t.Cwd == "" {
			t.Cwd = v.Root
		}
		ts = append(ts, t)
	}
	return ts, nil
}

// RunOptions are the settings of a Run shared by its targets.
type RunOptions struct {
	Now     time.Time
	Cwd     string // the working directory, for a Target without its own
	Explain bool   // every Result holds its Items and Dropped, for Result.Explain
	Strict  bool   // refuse a render that skips files (see StrictError)
}

// Rendered is one target of a Run and its render.
type Rendered struct {
	Target
	Result *Result
	// Warn is what to warn about, in order: the result's warnings no
	// earlier target of the run had, and a hook budget over hookCap.
	Warn []string
	// Refused: Strict refused this render (the run's error says so);
	// report its warnings but do not emit it.
	Refused bool
}

// StrictError refuses a render that would skip files (RunOptions.Strict).
type StrictError struct{ Skipped int }

func (e *StrictError) Error() string {
	files := " files"
	if e.Skipped == 1 {
		files = " file"
	}
	return strconv.Itoa(e.Skipped) + files + " would be skipped; --strict refuses to render (fix them, or drop --strict)"
}

// Kind: the vault failed the check --strict asked for (exit 1).
func (e *StrictError) Kind() fail.Kind { return fail.Check }

// Run renders targets in order from one scan of the vault, reusing what an
// earlier run kept and keeping what it computed for the next. It stops at
// the first failure and returns the targets rendered before it (and, for a
// StrictError, the refused one, last) with the error. Writing or printing
// each view is the caller's (Target.Write), in the order returned. Once
// ctx is done it renders no further target and returns the ones rendered
// with a fail.Interrupted error.
func Run(ctx context.Context, v *vault.Vault, targets []Target, opts RunOptions) ([]Rendered, error) {
	rd, err := newRenderer(v, opts.Now)
	if err != nil {
		return nil, err
	}
	defer rd.keep()
	projects := rd.projects()
	warned := map[string]bool{}
	var done []Rendered
	for _, t := range targets {
		if err := fail.Stopped(ctx, stoppedRender); err != nil {
			return done, err
		}
		if t.Cwd == "" {
			t.Cwd = opts.Cwd
		}
		p, err := t.Resolve(projects)
		if err != nil {
			return done, err
		}
		res, err := rd.Render(p, t.Budget, t.Format == "json" || opts.Explain)
		if err != nil {
			return done, err
		}
		r := Rendered{Target: t, Result: res}
		for _, w := range res.Warnings {
			if !warned[w] {
				warned[w] = true
				r.Warn = append(r.Warn, w)
			}
		}
		if opts.Strict && len(res.Warnings) > 0 {
			r.Refused = true
			return append(done, r), &StrictError{len(res.Warnings)}
		}
		if t.Format == "hook" && res.Budget > hookCap {
			r.Warn = append(r.Warn, fmt.Sprintf("budget %d bytes is over Claude Code's %d-character cap on hook output: the view may be cut; lower render.budget or --budget", res.Budget, hookCap))
		}
		done = append(done, r)
	}
	return done, nil
}

// stoppedRender is what a render stopped by its context says: the views
// written before it stay written, and no other file was changed.
const stoppedRender = "the render (no further view was written)"

// Resolve is the target's project: the named one, or the one whose root
// holds the cwd (nil: none).
func (t Target) Resolve(projects []vault.Project) (*vault.Project, error) {
	if t.Project == "" {
		// A typo (…/acme/biling) would otherwise resolve, silently, to the
		// project holding its parent.
		if fi, err := os.Stat(t.Cwd); t.CwdFrom != "" && (err != nil || !fi.IsDir()) {
			return nil, errors.New(t.CwdFrom + " " + t.Cwd + ": no such directory: give the directory the session works in, or --project ID")
		}
		return vault.ResolveProject(projects, t.Cwd), nil
	}
	from := t.projectFrom
	if from == "" {
		from = "--project"
	}
	return NamedProject(projects, t.Project, from)
}

// NamedProject is the project whose note has id, or a usage error (exit 2)
// naming from (the flag or key that gave id) and the known ids: every
// command that takes a project id refuses an unknown one alike.
func NamedProject(projects []vault.Project, id, from string) (*vault.Project, error) {
	if p := vault.FindProject(projects, id); p != nil {
		return p, nil
	}
	known := ""
	for _, p := range projects {
		known += " " + p.ID
	}
	if known == "" {
		known = " (none: add a note with type: project)"
	}
	return nil, fail.As(fail.Usage, errors.New(from+" "+id+": no project note has that id; known:"+known))
}

// Render renders the target from mems at now as Run would, without the
// kept renders: audit and doctor judge a view on disk against it.
func (t Target) Render(v *vault.Vault, mems []*vault.Memory, projects []vault.Project, now time.Time) (*Result, *vault.Project, error) {
	p, err := t.Resolve(projects)
	if err != nil {
		return nil, nil, err
	}
	res, err := Render(mems, OptionsFor(v, p, t.Budget, now))
	return res, p, err
}

// Current is the part of file, the bytes of t.Output, that holds the view:
// all of it, or for a spliced view its zone. ok is false when a spliced
// view's file has no zone (or broken markers).
func (t Target) Current(file []byte) (view []byte, ok bool) {
	doc, _, spliced := viewfmt.Doc(file)
	return doc, spliced || !t.Splice
}

// Holds reports whether file holds doc, but for the time line.
func (t Target) Holds(file, doc []byte) bool {
	zone, ok := t.Current(file)
	return ok && sameButTime(zone, doc)
}

// Write puts doc into the target's Output (WriteFile, or SpliceFile for a
// spliced view) and reports whether the file changed.
func (t Target) Write(doc []byte) (bool, error) {
	if t.Splice {
		return SpliceFile(t.Output, doc)
	}
	return WriteFile(t.Output, doc)
}
