package lint

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// Linter holds what the per-file checks need to know about the whole vault,
// computed once, so that linting one file is a map lookup away from every
// cross-file fact (no per-file vault walks).
//
// A Linter for a few named files (see focus) holds only the keys those
// files ask about; the checks cannot tell the difference.
type Linter struct {
	vault *vault.Vault
	now   time.Time
	// ids maps every id to the files that carry it (more than one: a duplicate).
	ids map[string][]string
	// metas maps an id to the first parsed file carrying it.
	metas map[string]*frontmatter.Meta
	// projects is the set of project note ids.
	projects map[string]bool
	// bases maps a lower-cased file base name (without .md) to its files.
	bases map[string][]string
	// targets are the lower-cased names a link can resolve to: paths
	// without .md, base names and ids.
	targets map[string]bool
	// props maps an unknown property name to how many files give it each
	// Obsidian property type, and one example file per type.
	props map[string]map[string]*propUse
	// asked, when not nil, makes this a Linter that knows nothing and
	// records every key the checks look up (see focus).
	asked *keys
	// kind is what the vault says of itself: an OKF bundle or not,
	// Obsidian's property types and templates folder.
	kind kind
	// memo, when not nil, is the secret scan's memory (secretcache.go).
	memo *rules.Memo
}

type propUse struct {
	count   int
	example string
}

// New builds a Linter over all of the vault's files (loaded with or
// without raw bytes); now is "today" for staleness and the gate.
func New(v *vault.Vault, all []*vault.Memory, now time.Time) *Linter {
	l, _ := newFacts(v, all, now)
	return l
}

// newFacts is New, also returning every file's fact (for the context cache).
func newFacts(v *vault.Vault, all []*vault.Memory, now time.Time) (*Linter, []fact) {
	rels := make([]string, len(all))
	facts := make([]fact, len(all))
	for i, m := range all {
		rels[i], facts[i] = m.Rel, factOf(m)
	}
	l, _ := build(v, now, rels, facts, nil, func(i int) *frontmatter.Meta { return all[i].Meta() })
	return l, facts
}

// build fills a Linter from every file's facts (rels sorted). With want
// nil every key goes in; otherwise only the keys in want. metaOf returns
// the metadata of file i, for the ids whose claims may be superseded; nil
// means it could not be had as the facts describe it, and build gives up
// (ok false).
func build(v *vault.Vault, now time.Time, rels []string, facts []fact, want *keys, metaOf func(i int) *frontmatter.Meta) (l *Linter, ok bool) {
	n := len(rels)
	if want != nil {
		n = 0 // the wanted keys are few
	}
	// Sized up front: growing maps of tens of thousands of entries step by
	// step was a fifth of a 10-file hook run's CPU on a 50k vault.
	l = &Linter{
		vault: v, now: now,
		ids:      make(map[string][]string, n),
		metas:    make(map[string]*frontmatter.Meta, n),
		projects: map[string]bool{},
		bases:    make(map[string][]string, n),
		targets:  make(map[string]bool, 3*n), // path, base name and id
		props:    map[string]map[string]*propUse{},
		kind:     readKind(v),
	}
	for i, rel := range rels {
		f := &facts[i]
		base := l.addTargets(rel, f, want)
		if reserved(rel) != "" {
			continue
		}
		if want.base(base) {
			l.bases[base] = append(l.bases[base], rel)
		}
		if f.flags&factProject != 0 && want.project(f.id) {
			l.projects[f.id] = true
		}
		if f.flags&factFrontmatter == 0 {
			continue
		}
		if !l.addClaim(i, rel, f, want, metaOf) {
			return nil, false
		}
		l.addProps(rel, f, want)
	}
	return l, true
}

// addTargets adds the names a link may give file rel by: its path and
// base name without .md, and a Logseq page's title. It returns the base.
func (l *Linter) addTargets(rel string, f *fact, want *keys) string {
	lowPath := strings.TrimSuffix(rel, ".md")
	if f.flags&factLowerPath == 0 {
		lowPath = strings.ToLower(lowPath)
	}
	base := path.Base(lowPath)
	if want.target(lowPath) {
		l.targets[lowPath] = true
	}
	if want.target(base) {
		l.targets[base] = true
	}
	// Logseq names a page's file with its title percent-encoded ("A%3A
	// B.md" is the page "A: B") and a namespace's "/" as "___": the
	// page's own title is a target too, so [[A: B]] resolves.
	if strings.Contains(base, "%") || strings.Contains(base, "___") {
		title := strings.ReplaceAll(base, "___", "/")
		if u, err := url.PathUnescape(title); err == nil {
			title = u
		}
		if want.target(title) {
			l.targets[title] = true
		}
	}
	return base
}

// addClaim records the id of file i (rel), with the metadata of the
// first file that claims it, and the id as a link target. It is false
// when metaOf cannot give that metadata.
func (l *Linter) addClaim(i int, rel string, f *fact, want *keys, metaOf func(i int) *frontmatter.Meta) bool {
	if want.id(f.id) {
		l.ids[f.id] = append(l.ids[f.id], rel)
		if _, seen := l.metas[f.id]; !seen && f.flags&factOK != 0 {
			meta := metaOf(i)
			if meta == nil {
				return false
			}
			l.metas[f.id] = meta
		}
	}
	if f.flags&factIDIsPath == 0 { // else it is lowPath, in already
		if id := strings.ToLower(f.id); want.target(id) {
			l.targets[id] = true
		}
	}
	return true
}

// addProps counts the kinds of value file rel gives each property, what
// the property-type check votes with.
func (l *Linter) addProps(rel string, f *fact, want *keys) {
	for _, p := range f.props {
		// A template's placeholders ({{date}}) are not values: they
		// do not vote on a property's type.
		if !want.prop(p.key) || l.kind.inTemplates(rel) {
			continue
		}
		uses := l.props[p.key]
		if uses == nil {
			uses = map[string]*propUse{}
			l.props[p.key] = uses
		}
		if u := uses[p.kind]; u != nil {
			u.count++
		} else {
			uses[p.kind] = &propUse{1, rel}
		}
	}
}

// File lints one file against the vault-wide knowledge of l.
func (l *Linter) File(m *vault.Memory) []Problem {
	c := &check{l: l, m: m, bad: map[string]bool{}}
	c.run()
	return c.out
}

// Errors lints m, a file about to be written, among all (the vault's
// files with m in its place): its problems of severity error, each as
// "path:line:col: rule: message". It is the writer.Lint of an edit.
func Errors(v *vault.Vault, all []*vault.Memory, m *vault.Memory, now time.Time) []string {
	var out []string
	for _, p := range New(v, all, now).File(m) {
		if p.Severity == Error {
			out = append(out, fmt.Sprintf("%s:%d:%d: %s: %s", p.Path, p.Line, p.Column, p.Rule, p.Message))
		}
	}
	return out
}

// Files lints the files on every core: a Linter is read-only once built,
// and the regexps of the content checks are what a whole-vault run spends
// its time on. found[i] holds files[i]'s problems, so the order does not
// depend on scheduling.
func (l *Linter) Files(files []*vault.Memory) (found [][]Problem) {
	found = make([][]Problem, len(files))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(files)) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < len(files); i = int(next.Add(1)) - 1 {
				found[i] = l.File(files[i])
			}
		})
	}
	wg.Wait()
	return found
}

// check is one file's run: the problems found so far and the keys whose
// values already failed to decode (so no second, derived problem is
// reported for them).
type check struct {
	l    *Linter
	m    *vault.Memory
	doc  *frontmatter.Document
	meta *frontmatter.Meta
	text string // the file normalised like the parser sees it (no BOM, LF)
	// lineStarts indexes c.text's lines, built on first use by at.
	lineStarts []int
	last       frontmatter.Pos // the position at lastOff, for at's next call
	lastOff    int
	bad        map[string]bool
	out        []Problem
	// The body as markdown.Scan read it, once (content.go's scan).
	scanned markdown.Body
	didScan bool
}

func (c *check) add(rule string, sev Severity, pos frontmatter.Pos, format string, args ...any) {
	if pos.Line < 1 {
		pos = frontmatter.Pos{Line: 1, Col: 1}
	}
	if pos.Col < 1 {
		pos.Col = 1
	}
	c.out = append(c.out, Problem{Path: c.m.Rel, Line: pos.Line, Column: pos.Col, Severity: sev, Rule: rule, Message: fmt.Sprintf(format, args...)})
}

// keyPos is where key is written, else the top of the file.
func (c *check) keyPos(key string) frontmatter.Pos {
	if p, ok := c.doc.Keys[key]; ok {
		return p
	}
	return frontmatter.Pos{Line: 1, Col: 1}
}

func (c *check) run() {
	if c.m.View {
		return // a view mem rendered: render's to keep, not a file to lint
	}
	keep := c.all()
	if c.m.IsMemory() {
		return
	}
	// A note belongs to the user or another tool (spec §2): mem's enums,
	// ranges and claim rules are advice to it. What no tool can read and
	// the §8 rules (reported up to keep) stay errors, and so do OKF's own
	// errors in an OKF bundle.
	for i := keep; i < len(c.out); i++ {
		if p := &c.out[i]; p.Severity == Error && !c.errorEverywhere(p.Rule) {
			p.Severity = Warning
		}
	}
}

// errorEverywhere reports the rules that are errors in a note too: a key
// given twice (YAML forbids it; parsers refuse or disagree on the value);
// in an OKF bundle, OKF's base-conformance errors; a missing type where
// the vault asks for one in every file.
func (c *check) errorEverywhere(rule string) bool {
	switch rule {
	case "key-duplicate":
		return true
	case "index-malformed", "log-malformed":
		return c.l.kind.okf
	case "type-missing":
		return c.l.kind.okf || c.l.vault != nil && c.l.vault.Config.Lint.RequireFrontmatter
	}
	return false
}

// readError reports why the file could not be read as a memory, if it
// could not, and returns the parser's error (nil for any other).
func (c *check) readError() *frontmatter.Error {
	m := c.m
	fileErr, _ := m.Err.(*frontmatter.Error)
	switch {
	case m.Err == nil:
	case fileErr == nil:
		c.add("file-unreadable", Error, frontmatter.Pos{}, "%v", m.Err)
	case fileErr.Rule == "frontmatter-missing":
		// A plain note (spec §2): searchable, never rendered.
		sev := Warning
		if c.l.vault != nil && c.l.vault.Config.Lint.RequireFrontmatter {
			sev = Error
		}
		c.add(fileErr.Rule, sev, fileErr.Pos, "no frontmatter: a plain note, searchable but never rendered; to make it a memory start the file with a line '---', then YAML with at least 'type:', then '---'")
	default:
		c.add(fileErr.Rule, Error, fileErr.Pos, "%s", fileErr.Msg)
	}
	return fileErr
}

// all runs every check and returns how many problems come first that no
// note is spared: the file's own (unreadable, not YAML) and the §8 rules.
func (c *check) all() (keep int) {
	m := c.m
	c.text = normalize(m.Raw)
	c.doc = m.Doc
	if fileErr := c.readError(); fileErr != nil && fileErr.Rule == "file-binary" {
		return len(c.out)
	}
	if c.text != "" {
		c.rules()
	}
	if i := strings.IndexByte(c.text, 0); i >= 0 {
		// A stray NUL in valid UTF-8 (vault.ParseFile reads the note):
		// a warning, never an error that hides a healthy note.
		c.add("file-nul", Warning, c.at(i), "a NUL byte: invisible in an editor and cut off by some tools; delete it (the note is read and searched as it is)")
	}
	keep = len(c.out)
	if c.doc == nil {
		return keep
	}
	c.meta = &c.doc.Meta
	if c.l.kind.okf {
		// OKF's reserved files, in an OKF bundle only: elsewhere an
		// index.md is a folder note, a log.md a note like any other.
		switch reserved(m.Rel) {
		case "index.md":
			c.index()
			return keep
		case "log.md":
			c.log()
			return keep
		}
	}
	if m.Err == nil && c.doc.HasFrontmatter {
		c.fieldProblems()
		c.memType()
		c.provenance()
		c.statusAndSection()
		c.dates()
		c.actors()
		c.identity()
		c.projects()
		c.keys()
		c.properties()
		c.claimRules()
		c.okf()
	}
	c.name()
	c.basename()
	c.body()
	return keep
}

// fieldProblems turns the parser's per-key problems into rules.
func (c *check) fieldProblems() {
	note := !c.m.IsMemory()
	for _, fe := range c.doc.Problems {
		c.bad[fe.Key] = true
		if note && fe.Kind == frontmatter.WrongType && c.otherList(fe.Key) {
			// Another tool's list property (Obsidian's `type: []`, kepano's
			// status: ["[[Published]]"]): mem reads no value from it.
			continue
		}
		rule := "key-type"
		switch {
		case fe.Kind == frontmatter.Duplicate:
			rule = "key-duplicate"
		case fe.Kind == frontmatter.Alias:
			rule = "frontmatter-alias"
		case fe.Key == "importance":
			rule = "importance-range"
		case fe.Kind == frontmatter.BadDate && fe.Key == "stale_after":
			rule = "stale-after-invalid"
		case fe.Kind == frontmatter.BadDate:
			rule = "date-invalid"
		}
		c.add(rule, Error, fe.Pos, "%s: %s", fe.Key, fe.Msg)
	}
}

// otherList reports whether key's value, kept in Extra, is a YAML list
// that names none of mem's memory types: another tool's list property,
// not a memory with a misshapen value (type: [fact, lesson]).
func (c *check) otherList(key string) bool {
	for _, kv := range c.doc.Extra {
		if kv.Key != key {
			continue
		}
		if kv.Value.Kind() != frontmatter.ListValue {
			return false
		}
		for _, item := range kv.Value.Items() {
			if frontmatter.IsMemoryType(item.Text()) {
				return false
			}
		}
		return true
	}
	return false
}

// memType checks the type: present where a memory or OKF needs one, and
// not a near miss of one of mem's.
func (c *check) memType() {
	meta := c.meta
	switch {
	case c.bad["type"]:
	case strings.TrimSpace(meta.Type) == "":
		// Properties with no type and none of a memory's keys are an
		// Obsidian note's (aliases, tags): a note, like a plain one, and
		// only OKF asks it for a type.
		required := c.l.vault != nil && c.l.vault.Config.Lint.RequireFrontmatter
		if c.memoryKeys() || required || c.l.kind.okf {
			c.add("type-missing", Error, c.keyPos("type"), "no type: OKF v0.2 wants a non-empty 'type' in every file; for a memory use one of %s", strings.Join(frontmatter.Types, ", "))
		}
	case frontmatter.EffectiveType(meta.Type) != meta.Type:
		// Other tools' types (OKF's Metric, Claude Code's feedback) are kept
		// as written without a word; only a misspelling of one of mem's is
		// worth a warning.
		if near := typeTypo(meta.Type); near != "" {
			c.add("type-enum", Warning, c.keyPos("type"), "type %q is not one of mem's types (did you mean %q?): it is kept but treated as a note", meta.Type, near)
		}
	}
}

// provenance checks the provenance of a memory: one of the three, and
// observed with its evidence.
func (c *check) provenance() {
	meta := c.meta
	if meta.Provenance != "" && frontmatter.ProvenanceRank(meta.Provenance) == 0 {
		c.add("provenance-enum", Error, c.keyPos("provenance"), "provenance %q: use stated (the user said it), observed (verified with a tool) or inferred (a guess)", meta.Provenance)
	} else if meta.Provenance == "" && !c.bad["provenance"] && frontmatter.IsMemoryType(meta.Type) {
		c.add("provenance-missing", Error, c.keyPos("type"), "a %s needs 'provenance: stated|observed|inferred': provenance decides which claim wins", meta.Type)
	} else if meta.Provenance == frontmatter.Observed && frontmatter.IsMemoryType(meta.Type) && strings.TrimSpace(meta.Evidence) == "" {
		// A warning: a person's hand-written claim may predate the key,
		// while agents are refused such a claim at write time (spec §11).
		c.add("evidence-missing", Warning, c.keyPos("provenance"), "provenance observed with no evidence: add 'evidence:' (the command and its result, a file and its hash, a commit, a URL and when), or write it as inferred")
	}
}

// statusAndSection checks the two enumerations OKF and mem define.
func (c *check) statusAndSection() {
	meta := c.meta
	switch meta.Status {
	case "", frontmatter.StatusDraft, frontmatter.StatusStable, frontmatter.StatusDeprecated:
	default:
		if !c.m.IsMemory() && !c.l.kind.okf {
			break // another tool's status (Dendron's Next, basic-memory's active)
		}
		c.add("status-invalid", Error, c.keyPos("status"), "status %q: use draft, stable or deprecated", meta.Status)
	}
	if meta.Section != "" && !contains(frontmatter.Sections, meta.Section) {
		c.add("section-enum", Error, c.keyPos("section"), "section %q: use one of %s", meta.Section, strings.Join(frontmatter.Sections, ", "))
	}
}

// memoryKeys reports whether the frontmatter holds a key only a memory
// has, so that a missing type is a broken memory, not a note.
func (c *check) memoryKeys() bool {
	for _, k := range []string{"provenance", "valid_at", "invalid_at", "stale_after", "pinned", "section", "importance", "supersedes", "project", "signals"} {
		if _, ok := c.doc.Keys[k]; ok {
			return true
		}
	}
	return false
}

func (c *check) dates() {
	meta := c.meta
	if frontmatter.IsMemoryType(meta.Type) && meta.ValidAt.IsZero() && !c.bad["valid_at"] {
		c.add("valid-at-missing", Warning, c.keyPos("type"), "no valid_at: the claim renders as [undated] and loses to dated claims; add when it became true (YYYY-MM-DD)")
	}
	if !meta.StaleAfter.IsZero() && !meta.StaleAfter.DateOnly && !hasOffset(c.rawValue("stale_after")) {
		c.add("stale-after-invalid", Warning, c.keyPos("stale_after"), "stale_after %s has no offset, read as UTC: OKF wants an RFC 3339 datetime with an explicit offset; add Z or +hh:mm", c.rawValue("stale_after"))
	}
	if meta.StaleAfter.DateOnly {
		c.add("stale-after-date", Warning, c.keyPos("stale_after"), "stale_after %s is a bare date, read as midnight UTC: OKF wants an RFC 3339 datetime with an offset, write stale_after: %sT00:00:00Z", meta.StaleAfter, meta.StaleAfter.Day())
	}
	for _, d := range []struct {
		key string
		t   frontmatter.Time
	}{{"stale_after", meta.StaleAfter}, {"invalid_at", meta.InvalidAt}} {
		if !d.t.IsZero() && !meta.ValidAt.IsZero() && !d.t.After(meta.ValidAt.Time) {
			c.add("date-order", Error, c.keyPos(d.key), "%s %s is not after valid_at %s: a claim cannot end before it began", d.key, d.t, meta.ValidAt)
		}
	}
	if meta.IsStale(c.l.now) && !meta.IsDeprecated() && !meta.IsRetired(c.l.now) {
		c.add("stale", Warning, c.keyPos("stale_after"), "stale since %s: check the claim and move stale_after forward, or retire it with invalid_at", meta.StaleAfter.Day())
	}
}

// rawValue is a one-line key's value as written (quotes removed), or ""
// when the raw text is not at hand.
func (c *check) rawValue(key string) string {
	pos, ok := c.doc.Keys[key]
	if !ok || c.text == "" {
		return ""
	}
	if c.lineStarts == nil {
		c.at(0) // indexes the lines
	}
	if pos.Line < 1 || pos.Line > len(c.lineStarts) {
		return ""
	}
	line := c.text[c.lineStarts[pos.Line-1]:]
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	_, v, _ := strings.Cut(line, ":")
	return strings.Trim(strings.TrimSpace(v), `"'`)
}

// hasOffset reports whether a written datetime ends in Z or ±hh:mm; ""
// (not known) counts as having one.
func hasOffset(v string) bool {
	if v == "" || strings.HasSuffix(v, "Z") || strings.HasSuffix(v, "z") {
		return true
	}
	if len(v) > 6 {
		tail := v[len(v)-6:]
		return (tail[0] == '+' || tail[0] == '-') && tail[3] == ':'
	}
	return false
}

// actors checks OKF's generated/verified pairs.
func (c *check) actors() {
	meta := c.meta
	if g := meta.Generated; g != nil {
		if strings.TrimSpace(g.By) == "" {
			c.add("generated-missing-by", Warning, c.keyPos("generated"), "generated has no 'by': name the writer (producer/version, human:<id> or process:<id>)")
		} else if !validActor(g.By) {
			c.add("actor-malformed", Error, c.keyPos("generated"), "generated.by %q is not an actor: write <producer>/<version>, human:<id> or process:<id>", g.By)
		}
	}
	for i, v := range meta.Verified {
		switch {
		case strings.TrimSpace(v.By) == "" || v.At.IsZero():
			c.add("verified-shape", Warning, c.keyPos("verified"), "verified entry %d needs both 'by' and 'at'", i+1)
		case !validActor(v.By):
			c.add("actor-malformed", Error, c.keyPos("verified"), "verified entry %d: %q is not an actor: write <producer>/<version>, human:<id> or process:<id>", i+1, v.By)
		}
	}
	for i, s := range meta.Sources {
		if strings.TrimSpace(s.Resource) == "" {
			c.add("sources-entry-missing-resource", Warning, c.keyPos("sources"), "sources entry %d has no 'resource': name the URL or path it came from", i+1)
		}
	}
	if _, ok := c.doc.Keys["timestamp"]; ok && c.l.kind.okf {
		c.add("timestamp-legacy", Warning, c.keyPos("timestamp"), "'timestamp' is OKF v0.1: write generated: {by: ..., at: ...} instead")
	}
}

// okf checks what OKF v0.2 asks of a concept's body and of an attested
// computation (§10.2, §13.1), as warnings: consumers must not reject them.
func (c *check) okf() {
	if !c.l.kind.okf {
		return // OKF's v0.1 legacy and Appendix A shapes: an OKF bundle's concern
	}
	isComputation := c.meta.Type == "Attested Computation"
	if !isComputation && !strings.Contains(c.doc.Body, "itations") {
		return // neither check can fire: no parse
	}
	heads := markdown.Headings([]byte(c.doc.Body))
	bodyPos := func(off int) frontmatter.Pos {
		if start := c.bodyOffset(); start >= 0 {
			return c.at(start + off)
		}
		return frontmatter.Pos{Line: c.doc.BodyLine, Col: 1}
	}
	for _, h := range heads {
		if h.Level == 1 && strings.EqualFold(h.Text, "Citations") {
			c.add("citations-legacy", Warning, bodyPos(h.Off), "a body '# Citations' list is OKF v0.1: list the sources in frontmatter 'sources' (OKF §5.1) and cite them with footnotes [^id]")
		}
	}
	if !isComputation {
		return
	}
	// One finding naming every gap, as OKF's validator reports it.
	var missing []string
	if _, ok := c.doc.Keys["runtime"]; !ok {
		missing = append(missing, "'runtime' (OKF §10.2: how the executor and attester read the computation), e.g. runtime: bigquery")
	}
	if _, ok := c.doc.Keys["computation"]; !ok && !slices.ContainsFunc(heads, func(h markdown.Heading) bool { return strings.EqualFold(h.Text, "Computation") && h.Code }) {
		missing = append(missing, "a computation: a '# Computation' heading followed by a code fence, or 'computation: <path>' (OKF §10.3)")
	}
	if len(missing) > 0 {
		c.add("attested-computation-incomplete", Warning, c.keyPos("type"), "an Attested Computation needs %s", strings.Join(missing, "; and "))
	}
}

func (c *check) identity() {
	if others := c.l.idFiles(c.m.ID); len(others) > 1 {
		var rest []string
		for _, r := range others {
			if r != c.m.Rel {
				rest = append(rest, r)
			}
		}
		c.add("id-duplicate", Error, c.keyPos("id"), "id %q is also used by %s: ids must be unique; give one of them another id", c.m.ID, strings.Join(rest, ", "))
	}
	for _, old := range c.meta.Supersedes {
		switch {
		case old == c.m.ID:
			c.add("supersedes-unknown", Warning, c.keyPos("supersedes"), "supersedes its own id %q: remove it", old)
		case c.l.idFiles(old) == nil:
			c.add("supersedes-unknown", Warning, c.keyPos("supersedes"), "supersedes %q, which no file has as its id: check the id", old)
		case c.l.metas[old] != nil:
			// The writer's own check (gate.CheckSupersedes): no superseding a
			// stronger claim, nor a newer one with an older fact. (A recording
			// Linter has asked for old's files above, which covers its meta.)
			var se *gate.SupersessionError
			if err := gate.CheckSupersedes(c.meta, old, c.l.metas[old]); errors.As(err, &se) {
				c.add(se.Rule, Error, c.keyPos("supersedes"), "%s", se.Msg)
			}
		}
	}
}

func (c *check) projects() {
	meta := c.meta
	if _, ok := c.doc.Keys["project"]; ok && !c.bad["project"] {
		switch {
		case !vault.ProjectIDPattern().MatchString(meta.Project):
			c.add("project-shape", Error, c.keyPos("project"), "project %q is not a project id: write proj_ then a-z, 0-9, _ or - (e.g. proj_mem), or remove the key for a global memory", meta.Project)
		case !c.l.isProject(meta.Project):
			c.add("project-unknown", Error, c.keyPos("project"), "project %s names no project note: create one with 'type: project' and 'id: %s', or fix the id", meta.Project, meta.Project)
		}
	}
	if vault.IsProjectMemory(c.m) && !c.bad["roots"] {
		// Claude Code's type: project is a memory about a project, not
		// mem's project note.
		c.add("project-memory", Warning, c.keyPos("type"), "type: project without 'id: proj_…' and roots is a memory about a project (Claude Code's type), not a project note: write type: fact with project: proj_<name>, or make it a project note with id: proj_<name> and roots: [~/src/name]")
	} else if meta.Type == frontmatter.TypeProject {
		if !vault.ProjectIDPattern().MatchString(c.m.ID) {
			c.add("project-id-shape", Warning, c.keyPos("id"), "project note id %q is not a project id, so no memory can name it: add 'id: proj_<name>'", c.m.ID)
		}
		if len(meta.Roots) == 0 && !c.bad["roots"] {
			c.add("project-roots-missing", Warning, c.keyPos("type"), "project note has no roots: mem cannot tell which directories belong to it; add roots: [~/src/name]")
		}
	}
}

// otherKeys are front matter keys of the tools a vault's files come from
// (Obsidian, Claude Code memories and skills, OKF, Hugo, Jekyll): none is
// a misspelling of one of mem's, however close (version, tools, season).
var otherKeys = map[string]bool{
	// Obsidian and common note properties
	"date": true, "kind": true, "name": true, "url": true, "link": true, "links": true,
	"author": true, "authors": true, "created": true, "updated": true, "modified": true,
	"cssclasses": true, "cssclass": true, "publish": true, "permalink": true, "image": true,
	"cover": true, "banner": true, "status": true, "state": true, "states": true, "keys": true,
	"season": true, "episode": true, "rating": true, "topic": true, "topics": true,
	// Claude Code memories and skills
	"metadata": true, "version": true, "tools": true, "allowed-tools": true, "model": true,
	"license": true, "argument-hint": true, "disable-model-invocation": true, "color": true,
	// OKF
	"resource": true, "runtime": true, "parameters": true, "computation": true,
	"executor": true, "attester": true, "okf_version": true, "usage_window": true, "timestamp": true,
	// Hugo
	"draft": true, "lastmod": true, "publishdate": true, "expirydate": true, "weight": true,
	"slug": true, "summary": true, "keywords": true, "layout": true, "linktitle": true,
	"series": true, "categories": true, "menu": true, "menus": true, "params": true,
	"outputs": true, "resources": true, "cascade": true, "headless": true, "markup": true,
	"sitemap": true, "build": true, "translationkey": true, "images": true, "videos": true,
	// Jekyll
	"published": true, "category": true, "excerpt": true, "excerpt_separator": true, "lang": true,
}

func (c *check) keys() {
	for key, pos := range c.doc.Keys {
		// Keys of one or two letters are too short to call a misspelling.
		if len(key) < 3 || isKnownKey(key) || otherKeys[strings.ToLower(key)] {
			continue
		}
		if near := nearestKey(key); near != "" {
			c.add("key-typo", Warning, pos, "unknown key %q looks like %q: rename it, or mem ignores the value", key, near)
		}
	}
}

// properties checks Obsidian's rules for the frontmatter: one type per
// property name across the vault, links quoted.
func (c *check) properties() {
	for _, kv := range c.doc.Extra {
		if isKnownKey(kv.Key) || c.l.kind.inTemplates(c.m.Rel) {
			continue
		}
		kind := propertyKind(kv.Value)
		if kind == "" {
			continue
		}
		// What the user told Obsidian is the type; the vote is only for
		// the properties .obsidian/types.json does not name.
		if want, ok := c.l.kind.declared(kv.Key); ok {
			if !fits(kind, want) {
				c.add("obsidian-property-type", Warning, c.keyPos(kv.Key), "property %q is %s here but .obsidian/types.json declares it %s: Obsidian shows a type mismatch; change the value or the declared type", kv.Key, article(kind), c.l.kind.types[kv.Key])
			}
			continue
		}
		uses := c.l.propUses(kv.Key)
		if len(uses) < 2 {
			continue
		}
		major, n := majority(uses)
		if !fits(kind, major) {
			c.add("obsidian-property-type", Warning, c.keyPos(kv.Key), "property %q is %s here but %s in %d other file(s), e.g. %s: Obsidian keeps one type per property name; make them agree", kv.Key, article(kind), article(major), n, uses[major].example)
		}
	}
	c.unquotedLinks()
}

func (c *check) unquotedLinks() {
	if c.text == "" {
		return
	}
	lines := strings.Split(c.text, "\n")
	for i := 1; i < c.doc.BodyLine-2 && i < len(lines); i++ {
		if !strings.Contains(lines[i], "[[") {
			continue
		}
		if loc := unquotedLink().FindStringSubmatchIndex(lines[i]); loc != nil {
			col := 1 + len([]rune(lines[i][:loc[3]]))
			c.add("obsidian-link-unquoted", Warning, frontmatter.Pos{Line: i + 1, Col: col}, "an unquoted [[link]] in a property is a nested YAML list, not a link: quote it (\"[[...]]\")")
		}
	}
}

// name reports a file name holding a control character (rules.NameControl).
func (c *check) name() {
	if i := rules.NameControl(c.m.Rel); i >= 0 {
		c.add("control-character", Error, frontmatter.Pos{}, "the file name holds the control character %#02x: a terminal acts on it and every other machine's mem sync refuses the commit that adds it; rename the file", c.m.Rel[i])
	}
}

func (c *check) basename() {
	if reserved(c.m.Rel) != "" {
		return
	}
	base := strings.ToLower(path.Base(strings.TrimSuffix(c.m.Rel, ".md")))
	if others := c.l.baseFiles(base); len(others) > 1 {
		var rest []string
		for _, r := range others {
			if r != c.m.Rel {
				rest = append(rest, r)
			}
		}
		c.add("obsidian-duplicate-basename", Warning, frontmatter.Pos{}, "%s has the same name as %s: a [[%s]] link is ambiguous in Obsidian; rename one", path.Base(c.m.Rel), capList(rest, 3), path.Base(strings.TrimSuffix(c.m.Rel, ".md")))
	}
}

// capList joins the first n items and counts the rest: 42 SKILL.md files
// must not make each message name all 41 others.
func capList(items []string, n int) string {
	if len(items) <= n {
		return strings.Join(items, ", ")
	}
	return fmt.Sprintf("%s and %d other file(s)", strings.Join(items[:n], ", "), len(items)-n)
}

// propertyKind is the Obsidian property type a YAML value reads as; ""
// for an empty value, which Obsidian accepts for any type.
func propertyKind(v frontmatter.Value) string {
	switch v.Kind() {
	case frontmatter.ListValue:
		return "list"
	case frontmatter.MapValue:
		return "map"
	case frontmatter.NumberValue:
		return "number"
	case frontmatter.BoolValue:
		return "checkbox"
	case frontmatter.DateValue:
		return "date"
	case frontmatter.TextValue:
		if quotedDate().MatchString(v.Text()) {
			return "date" // Obsidian reads '2026-03-18', quoted or not, as a date
		}
		return "text"
	}
	return ""
}

func majority(uses map[string]*propUse) (string, int) {
	kinds := make([]string, 0, len(uses))
	for k := range uses {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	best := kinds[0]
	for _, k := range kinds[1:] {
		if uses[k].count > uses[best].count {
			best = k
		}
	}
	return best, uses[best].count
}

func article(kind string) string {
	if kind == "" {
		return "empty"
	}
	return "a " + kind
}

func isKnownKey(key string) bool { return contains(frontmatter.KnownKeys, key) }

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// validActor checks OKF's actor convention: <producer>/<version>,
// human:<id> or process:<id>, with no spaces.
func validActor(s string) bool {
	if strings.ContainsAny(s, " \t\n") {
		return false
	}
	for _, p := range []string{"human:", "process:"} {
		if rest, ok := strings.CutPrefix(s, p); ok {
			return rest != ""
		}
	}
	producer, version, ok := strings.Cut(s, "/")
	return ok && producer != "" && version != "" && !strings.Contains(producer, ":")
}

// otherTypes are the type values of the tools whose files a vault holds
// (Claude Code's memory types, OKF's reference bundles): never a typo of
// one of mem's, however close the spelling (reference, preference).
var otherTypes = map[string]bool{"user": true, "feedback": true, "reference": true}

// typeTypo is the mem type a type value misspells, or "". mem's types are
// lower-case words, so a capitalised value (OKF's Reference, Metric) is
// another vocabulary; the allowed distance grows with the word's length.
func typeTypo(t string) string {
	if t != strings.ToLower(t) || otherTypes[t] {
		return ""
	}
	return Nearest(t, frontmatter.Types)
}

// Nearest is the candidate s misspells (a key, a type, a command name), with the edits allowed
// relative to the candidate's length (one per five letters, at least one),
// so a short word is not taken for another: version is two edits from
// session, tools from roots. Only the case differing counts too ("Type").
func Nearest(s string, candidates []string) string {
	best, bestD := "", 3
	ls := strings.ToLower(s)
	for _, cand := range candidates {
		if ls == cand {
			if s != cand {
				return cand
			}
			return ""
		}
		limit := max(1, len(cand)/5)
		if abs(len(s)-len(cand)) > limit {
			continue
		}
		if d := editDistance(ls, cand, limit); d <= limit && d < bestD {
			best, bestD = cand, d
		}
	}
	return best
}

// nearestKey is the known key an unknown key misspells, or "".
func nearestKey(key string) string { return Nearest(key, frontmatter.KnownKeys) }

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// editDistance is the optimal-string-alignment distance (a swap of two
// neighbours is one edit: "vaild" → "valid"), giving up above limit.
func editDistance(a, b string, limit int) int {
	ra, rb := []rune(a), []rune(b)
	if d := len(ra) - len(rb); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}
