// Package lint validates a vault's files: frontmatter, OKF v0.2
// conformance, provenance, projects, the promotion gate, secrets, prompt
// injection, Obsidian compatibility and links. It reads through the vault
// loader and returns problems; printing them is the command's job.
//
// Every problem has a stable kebab-case rule name, a severity and the
// position of the key (or text) at fault; docs/lint.md lists the rules.
package lint

import (
	"sort"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Severity is error (fails the run) or warning (reported; fails only with
// --strict).
type Severity string

// Severities.
const (
	Error   Severity = "error"
	Warning Severity = "warning"
)

// Problem is one finding, in the shape `--format json` prints.
type Problem struct {
	Path     string   `json:"path"` // vault-relative, slash-separated
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
}

// Report is the result of a run: how many files were linted and what was
// found, sorted by path, line, column and rule.
type Report struct {
	Files    int       `json:"files"`
	Problems []Problem `json:"problems"`
	// Skipped are named paths the vault does not read (ignored folders,
	// rendered views, non-memory files): they are not linted.
	Skipped []string `json:"-"`
}

// Errors counts the problems of severity error.
func (r *Report) Errors() int {
	n := 0
	for _, p := range r.Problems {
		if p.Severity == Error {
			n++
		}
	}
	return n
}

// Options tunes a run.
type Options struct {
	// Now is "today" for staleness and the gate's signal ages.
	Now time.Time
	// Strict turns every warning into an error (stale claims included), so
	// the run fails on them.
	Strict bool
	// Paths are the vault-relative files to lint; empty lints the vault.
	// Either way the checks that need the whole vault (duplicate ids,
	// project ids, link targets, property types) see every file.
	Paths []string
}

// Run lints the vault, or only opts.Paths with the whole vault as context.
//
// Cost: with Paths, every other file's frontmatter is still loaded (from
// the parse cache when it is fresh, without raw bytes) to learn ids,
// projects, link targets and property types; only the named files are
// scanned for secrets and injection. The per-file checks run on every core.
func Run(v *vault.Vault, opts Options) (*Report, error) {
	rep := &Report{Problems: []Problem{}}
	var all, targets []*vault.Memory
	if len(opts.Paths) == 0 {
		// Load (not List and LoadFiles) so that the parse cache is used, and
		// written when there is none: the next run reads one file.
		var err error
		if all, err = v.Load(vault.LoadOptions{Raw: true}); err != nil {
			return nil, err
		}
		targets = all
	} else {
		var err error
		if all, err = v.Load(vault.LoadOptions{}); err != nil {
			return nil, err
		}
		listed := make(map[string]bool, len(all))
		for _, m := range all {
			listed[m.Rel] = true
		}
		var named []string
		for _, p := range opts.Paths {
			if listed[p] {
				named = append(named, p)
			} else {
				rep.Skipped = append(rep.Skipped, p)
			}
		}
		targets = v.LoadFiles(named, vault.LoadOptions{Raw: true})
		all = merge(all, targets)
	}
	l := New(v, all, opts.Now)
	rep.Files = len(targets)
	for _, found := range l.Files(targets) {
		rep.Problems = append(rep.Problems, found...)
	}
	// Rendered views are not memory files; they are checked for hand edits
	// in a whole-vault run, or when named.
	viewRels := views(v)
	if len(opts.Paths) > 0 {
		viewRels, rep.Skipped = splitViews(v, rep.Skipped)
	}
	rep.Problems = append(rep.Problems, checkViews(v, all, viewRels)...)
	Finish(rep, opts.Strict)
	return rep, nil
}

// splitViews separates the rendered views among skipped paths.
func splitViews(v *vault.Vault, skipped []string) (viewRels, rest []string) {
	for _, p := range skipped {
		if v.IsRenderedOutput(p) {
			viewRels = append(viewRels, p)
		} else {
			rest = append(rest, p)
		}
	}
	return viewRels, rest
}

// merge puts the freshly read named files in place of their copies in the
// vault listing.
func merge(mems, named []*vault.Memory) []*vault.Memory {
	byRel := make(map[string]*vault.Memory, len(named))
	for _, m := range named {
		byRel[m.Rel] = m
	}
	out := make([]*vault.Memory, 0, len(mems)+len(named))
	for _, m := range mems {
		if n, ok := byRel[m.Rel]; ok {
			out = append(out, n)
			delete(byRel, m.Rel)
			continue
		}
		out = append(out, m)
	}
	return out
}

// Finish applies --strict and sorts the problems; Run calls it, and so do
// callers that add problems of their own (the --staged checks).
func Finish(rep *Report, strict bool) {
	if strict {
		for i := range rep.Problems {
			rep.Problems[i].Severity = Error
		}
	}
	sort.SliceStable(rep.Problems, func(i, j int) bool {
		a, b := rep.Problems[i], rep.Problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Column != b.Column {
			return a.Column < b.Column
		}
		return a.Rule < b.Rule
	})
}

// reserved reports OKF's reserved file names (index.md, log.md at any level).
func reserved(rel string) string {
	base := rel[strings.LastIndexByte(rel, '/')+1:]
	if base == "index.md" || base == "log.md" {
		return base
	}
	return ""
}

// isMemory reports whether a parsed file is a claim that views inject into
// a model's context (every type but note and project).
func isMemory(m *vault.Memory) bool {
	return m.Doc != nil && frontmatter.IsMemoryType(m.Meta().Type)
}
