// Package lint validates a vault's files: frontmatter, OKF v0.2
// conformance, provenance, projects, the promotion gate, secrets, prompt
// injection, Obsidian compatibility and links. It reads through the vault
// loader and returns problems; printing them is the command's job.
//
// Every problem has a stable kebab-case rule name, a severity and the
// position of the key (or text) at fault; docs/lint.md lists the rules.
package lint

import (
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/rules"
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
	// secretScans counts the files a whole-vault run scanned for secrets
	// rather than recalled from the secrets cache (for its tests).
	secretScans int
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
// Cost: with Paths, the vault is scanned (a stat of every file) and what
// the checks need to know of the other files comes from the context cache
// (context.go), re-reading only files changed since it was written. When
// the cache cannot serve (none yet, many files changed, a rendered view
// named), every other file's frontmatter is loaded (from the parse cache
// when it is fresh, without raw bytes) and the cache rewritten. Only the
// named files are scanned for secrets and injection. The per-file checks
// run on every core.
func Run(v *vault.Vault, opts Options) (*Report, error) {
	// Reading the context cache and scanning the vault each take
	// milliseconds on a big vault: do both at once.
	ctxc := make(chan context, 1)
	go func() { ctxc <- readContext(v) }()
	var memo chan *rules.Memo
	if len(opts.Paths) == 0 {
		memo = make(chan *rules.Memo, 1)
		go func() { memo <- ReadSecrets(v) }()
	}
	snap, err := v.Scan()
	if err != nil {
		return nil, err
	}
	ctx := <-ctxc
	var rep *Report
	if len(opts.Paths) > 0 {
		if rep = runCached(v, snap, ctx, opts); rep == nil {
			rep = runLoaded(v, snap, ctx, nil, opts)
		}
	} else {
		m := <-memo
		rep = runLoaded(v, snap, ctx, m, opts)
		SaveSecrets(v, m)
		rep.secretScans = m.Scans()
	}
	uncacheSecrets(v, rep)
	if len(snap.Held) > 0 {
		heldNames(rep, snap.Held, opts)
	}
	return rep, nil
}

// heldNames reports the files the scan held back because their name holds
// a secret (vault.Snapshot.Held): every one in a whole-vault run, the named
// ones in a run of named files. Their path is printed redacted.
func heldNames(rep *Report, held []vault.HeldName, opts Options) {
	for _, h := range held {
		if len(opts.Paths) > 0 {
			i := slices.Index(rep.Skipped, h.Rel)
			if i < 0 {
				continue
			}
			rep.Skipped = slices.Delete(rep.Skipped, i, i+1)
		}
		rep.Files++
		for _, f := range rules.Name(h.Rel) {
			rep.Problems = append(rep.Problems, Problem{Path: rules.RedactPath(h.Rel), Severity: Error, Rule: f.Rule, Message: f.Msg})
		}
	}
	Finish(rep, opts.Strict)
}

// runLoaded is Run with the whole vault loaded; it rewrites the context
// cache unless ctx, the cache as read, holds for snap already. memo, when
// not nil, is the secrets cache (a whole-vault run's).
func runLoaded(v *vault.Vault, snap *vault.Snapshot, ctx context, memo *rules.Memo, opts Options) *Report {
	rep := &Report{Problems: []Problem{}}
	// LoadSnapshot (not List and LoadFiles) so that the parse cache is
	// used, and written when there is none: the next run reads one file.
	all := v.LoadSnapshot(snap, vault.LoadOptions{Raw: len(opts.Paths) == 0})
	targets := all
	if len(opts.Paths) > 0 {
		var named []string
		named, rep.Skipped = splitNamed(snap.Rels, opts.Paths)
		targets = v.LoadFiles(named, vault.LoadOptions{Raw: true})
		all = merge(all, targets)
	}
	l, facts := newFacts(v, all, opts.Now)
	l.memo = memo
	rep.Files = len(targets)
	for _, found := range l.Files(targets) {
		rep.Problems = append(rep.Problems, found...)
	}
	// Rendered views are not memory files; they are checked for hand edits
	// in a whole-vault run, or when named.
	viewRels := v.ViewRels()
	if len(opts.Paths) > 0 {
		// A named view is checked (for hand edits), so it counts as linted.
		viewRels, rep.Skipped = splitViews(v, rep.Skipped)
		rep.Files += len(viewRels)
	}
	rep.Problems = append(rep.Problems, checkViews(v, all, viewRels)...)
	Finish(rep, opts.Strict)
	if ctx.snap != nil {
		if changed, removed := snap.Changed(ctx.snap); changed == nil && removed == nil {
			return rep // every fact is the cache's already
		}
	}
	saveContext(v, snap, facts)
	return rep
}

// Context cache thresholds: past maxStale changed files (a few percent of
// the vault) loading the vault is cheaper than reading them one by one;
// past rewriteAfter a named run rewrites the cache so the next ones
// re-read fewer.
const rewriteAfter = 32

func maxStale(files int) int { return max(64, files/20) }

// runCached is Run for opts.Paths with the context cache (read into ctx)
// standing in for the files not named; nil when it cannot serve the run.
func runCached(v *vault.Vault, snap *vault.Snapshot, ctx context, opts Options) *Report {
	old := ctx.snap
	if old == nil {
		return nil
	}
	changed, removed := snap.Changed(old)
	if len(changed)+len(removed) > maxStale(len(snap.Rels)) {
		return nil
	}
	named, skipped := splitNamed(snap.Rels, opts.Paths)
	for _, p := range skipped {
		if v.IsRenderedOutput(p) {
			return nil // a view is judged against the whole vault
		}
	}
	fresh := v.LoadFiles(toRead(changed, named), vault.LoadOptions{Raw: true})
	byRel := make(map[string]*vault.Memory, len(fresh))
	for _, m := range fresh {
		byRel[m.Rel] = m
	}
	facts := mergeFacts(snap.Rels, old.Rels, ctx.facts, fresh, removed == nil)
	if facts == nil {
		return nil
	}
	// The claims a named file supersedes are read when asked for, and must
	// still be what the cache says (else: doubt, load the vault).
	metaOf := func(i int) *frontmatter.Meta {
		m := byRel[snap.Rels[i]]
		if m == nil {
			m = v.LoadFiles(snap.Rels[i:i+1], vault.LoadOptions{})[0]
			if !m.OK() || m.ID != facts[i].id {
				return nil
			}
		}
		return m.Meta()
	}
	targets := make([]*vault.Memory, len(named))
	for i, rel := range named {
		targets[i] = byRel[rel]
	}
	l, ok := focus(v, opts.Now, snap.Rels, facts, targets, metaOf)
	if !ok {
		return nil
	}
	rep := &Report{Files: len(targets), Problems: []Problem{}, Skipped: skipped}
	for _, found := range l.Files(targets) {
		rep.Problems = append(rep.Problems, found...)
	}
	Finish(rep, opts.Strict)
	if len(changed)+len(removed) >= rewriteAfter {
		saveContext(v, snap, facts)
	}
	return rep
}

// toRead are the files a cached run reads: those changed since the cache
// (sorted), then each named file not among them, once even when named
// twice.
func toRead(changed, named []string) []string {
	read := slices.Clip(changed) // appending must not write into changed
	seen := make(map[string]bool, len(named))
	for _, p := range named {
		if _, ok := slices.BinarySearch(changed, p); !ok && !seen[p] {
			read = append(read, p)
		}
		seen[p] = true
	}
	return read
}

// mergeFacts is every file's fact (for rels): the fresh ones from the
// files just read, the others from the cache (oldRels, oldFacts). When no
// file was added or removed (same, and the lengths agree) the lists are
// the same and the cache's facts are patched in place; otherwise the
// sorted lists are merged. nil when a file is in neither (which cannot
// happen, but is never guessed at).
func mergeFacts(rels, oldRels []string, oldFacts []fact, fresh []*vault.Memory, same bool) []fact {
	if same && len(rels) == len(oldRels) {
		for _, m := range fresh {
			i, ok := slices.BinarySearch(rels, m.Rel)
			if !ok {
				return nil
			}
			oldFacts[i] = factOf(m)
		}
		return oldFacts
	}
	slices.SortFunc(fresh, func(a, b *vault.Memory) int { return strings.Compare(a.Rel, b.Rel) })
	facts := make([]fact, len(rels))
	j, k := 0, 0
	for i, rel := range rels {
		if k < len(fresh) && fresh[k].Rel == rel {
			facts[i] = factOf(fresh[k])
			k++
			continue
		}
		for j < len(oldRels) && oldRels[j] < rel {
			j++
		}
		if j == len(oldRels) || oldRels[j] != rel {
			return nil
		}
		facts[i] = oldFacts[j]
	}
	return facts
}

// splitNamed separates the named paths the vault lists (rels, sorted)
// from the others, keeping their order.
func splitNamed(rels, paths []string) (named, skipped []string) {
	for _, p := range paths {
		if _, ok := slices.BinarySearch(rels, p); ok {
			named = append(named, p)
		} else {
			skipped = append(skipped, p)
		}
	}
	return named, skipped
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
