// Package audit measures whether a vault is healthy the way its failures
// were found: by counting (spec §7). It reads the state other packages own
// and never re-implements their rules: the content rules of spec §8 come
// from pkg/rules, conflicts from gate.Reconcile,
// rendered views and their growth from render.Render. What other commands
// leave behind (the index's freshness, the last commit, the held files,
// the last verified backup) it judges but does not read: the caller hands
// it as Options.State (wiring.AuditState reads it), so the audit links
// neither the index nor the git layer.
//
// Counts are over memories: every file of one of mem's types that parses
// except project notes and OKF's reserved index.md/log.md; files of other
// tools' types are counted by their type. Lists are ordered worst first.
// docs/audit.md gives every definition and threshold with its reason.
package audit

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/claimtext"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// Options tunes a run.
type Options struct {
	// Now is "today": staleness, ages and the 30-day growth window.
	Now time.Time
	// Views are the rendered views to check (mem.yaml render.outputs, as
	// render.Outputs reads them). Nil checks none.
	Views []render.Target
	// State is what other commands left behind (wiring.AuditState). The zero
	// State is a vault with no index, never committed and never backed up.
	State State
	// Context, when done (Ctrl-C, a daemon's shutdown), stops the audit
	// while it reads the vault or between its stages, with a
	// fail.Interrupted error. Nil never stops.
	Context context.Context
	// Secrets recalls the secret scan of each text it has seen (lint's
	// whole-vault cache: wiring.Audit); nil scans every file.
	Secrets *rules.Memo
}

// Report is the audit's answer, in the JSON shape `mem audit --json` prints.
type Report struct {
	Now time.Time `json:"now"`
	// Healthy is false when any finding crossed its threshold.
	Healthy  bool      `json:"healthy"`
	Findings []Finding `json:"findings"`
	// Warnings are what is worth knowing but fails nothing: a vault that
	// holds no memory yet has nothing to lose by never having been
	// committed or backed up.
	Warnings []string `json:"warnings,omitempty"`
	Files    int      `json:"files"`
	// Counts sorts the files into memories, notes, projects and
	// unreadable files, as doctor and commit count them.
	Counts
	// Broken files do not parse: no view uses them and they are not
	// counted as memories ('mem lint' explains each).
	Broken []string `json:"broken"`
	// OtherTypes counts the files of other tools' types by their type as
	// written (otherType); Untyped, those with properties but no type.
	// mem treats them as notes: no memory check below counts them.
	OtherTypes map[string]int `json:"other_types"`
	Untyped    int            `json:"untyped"`
	// Rules are the rules of spec §8 files break, by rule: any of them in
	// a memory, a secret anywhere. A vault with any is not healthy.
	Rules          []RuleBreak `json:"rules"`
	ValidAt        Coverage    `json:"valid_at"`
	ImportClusters []Cluster   `json:"import_clusters"`
	ProjectShare   float64     `json:"project_share"` // share of memories carrying a project
	OrphanProjects []Orphan    `json:"orphan_projects"`
	Stale          []Stale     `json:"stale"`
	NoExpiry       []NoExpiry  `json:"no_expiry"`
	Conflicts      []Conflict  `json:"conflicts"`
	Duplicates     []Duplicate `json:"duplicates"`
	Views          []ViewState `json:"views"`
	Growth         []Growth    `json:"growth"`
	// State is Options.State as the audit judged it: the index, the last
	// commit, the last backup and the held files, in the report's JSON
	// as fields of its own.
	State
}

// Finding is one check past its threshold (mem.yaml audit:).
type Finding struct {
	Check string `json:"check"` // the mem.yaml key that was crossed
	// Value is what was measured; null when there is nothing to measure
	// (never committed, never backed up).
	Value   *float64 `json:"value"`
	Limit   float64  `json:"limit"`   // the threshold
	Message string   `json:"message"` // what it means and what to do
}

// RuleBreak is one rule of spec §8 and the files that break it.
type RuleBreak struct {
	Rule  string   `json:"rule"`
	Kind  string   `json:"kind"` // secret, injection or gate
	Count int      `json:"count"`
	Paths []string `json:"paths"`
}

// Coverage is valid_at coverage: the ranking column a hollow write path
// leaves empty without any error.
type Coverage struct {
	Total   int `json:"total"`
	Missing int `json:"missing"`
	// Notes are the notes among Total: stored knowledge sorts on valid_at too.
	Notes    int                    `json:"notes"`
	BySource map[string]*SourceSums `json:"by_source"`
}

// noun names what the coverage counts, so it never contradicts the count
// line ("5 memories, 4 notes" then "1 of 9 memories").
func (c Coverage) noun() string {
	if c.Notes > 0 {
		return "memories and notes"
	}
	return "memories"
}

// SourceSums is the coverage of one source (native, import:<tool>, ...).
type SourceSums struct {
	Total   int `json:"total"`
	Missing int `json:"missing"`
}

// Cluster is one day holding many memories of one import run: the day
// their valid_at falls on (undated imports are no cluster).
type Cluster struct {
	Source string `json:"source"`
	// Imported is the day the run wrote them (generated.at), empty when
	// the files do not say.
	Imported string  `json:"imported"`
	Day      string  `json:"day"`
	Count    int     `json:"count"`
	Share    float64 `json:"share"` // of that run's memories
}

// Orphan is a project value that names no project note or is not shaped
// like a project id, with the memories carrying it.
type Orphan struct {
	Project string   `json:"project"`
	Count   int      `json:"count"`
	Paths   []string `json:"paths"`
}

// Stale is a claim in force past its stale_after.
type Stale struct {
	ID         string `json:"id"`
	Path       string `json:"path"`
	StaleAfter string `json:"stale_after"`
}

// NoExpiry is a claim about current state that can never go stale: an
// observed fact (a tool's reading of the world) with no stale_after.
type NoExpiry struct {
	ID      string `json:"id"`
	Path    string `json:"path"`
	ValidAt string `json:"valid_at"` // empty when undated
}

// Ref names one memory.
type Ref struct {
	ID   string `json:"id"`
	Path string `json:"path"`
}

// Conflict is one disagreement the reconciler settled.
type Conflict struct {
	Subject string `json:"subject"`
	Reason  string `json:"reason"` // a gate.Reason* value
	Winner  Ref    `json:"winner"`
	Losers  []Ref  `json:"losers"`
	Detail  string `json:"detail"`
}

// Duplicate is one text stored in more than one file.
type Duplicate struct {
	Text  string   `json:"text"` // normalised: case-folded, spaces collapsed
	Paths []string `json:"paths"`
}

// Defaults of the thresholds where mem.yaml is silent (docs/audit.md says why).
const (
	defaultMaxMissingValidAtShare = 0.05
	defaultMaxImportClusterShare  = 0.5
	defaultMinImportCluster       = 10
	defaultMaxOrphanProjects      = 0
	defaultMaxStale               = 0
	defaultMaxConflicts           = 0
	defaultMaxDuplicates          = 0
	defaultMaxFossils             = 0
	defaultMaxIndexChanged        = -1 // off: a search refreshes the index itself
	defaultMaxCommitAgeHours      = 168
	defaultMaxBackupAgeHours      = 168
)

// IndexLimit is how many files the index may lag behind the vault before
// the audit fails: mem.yaml audit.max_index_changed, negative (the default)
// when a lag is never a failure, since a search refreshes the index itself.
// Doctor judges the index by it too.
func IndexLimit(c vault.AuditConfig) int { return limitsOf(c).indexChanged }

// limits are the thresholds in force: mem.yaml's, else the defaults.
// A negative limit turns its check off.
type limits struct {
	missingShare, clusterShare, commitHours, backupHours       float64
	minCluster, orphans, stale, conflicts, duplicates, fossils int
	indexChanged                                               int
}

func or[T int | float64](p *T, def T) T {
	if p == nil {
		return def
	}
	return *p
}

func limitsOf(c vault.AuditConfig) limits {
	return limits{
		missingShare: or(c.MaxMissingValidAtShare, defaultMaxMissingValidAtShare),
		clusterShare: or(c.MaxImportClusterShare, defaultMaxImportClusterShare),
		minCluster:   or(c.MinImportCluster, defaultMinImportCluster),
		orphans:      or(c.MaxOrphanProjects, defaultMaxOrphanProjects),
		stale:        or(c.MaxStale, defaultMaxStale),
		conflicts:    or(c.MaxConflicts, defaultMaxConflicts),
		duplicates:   or(c.MaxDuplicates, defaultMaxDuplicates),
		fossils:      or(c.MaxFossils, defaultMaxFossils),
		indexChanged: or(c.MaxIndexChanged, defaultMaxIndexChanged),
		commitHours:  or(c.MaxCommitAgeHours, defaultMaxCommitAgeHours),
		backupHours:  or(c.MaxBackupAgeHours, defaultMaxBackupAgeHours),
	}
}

// Run audits the vault: one load, one reconciliation, two renders per view
// (now and 30 days ago), and the judgement of opts.State.
func Run(v *vault.Vault, opts Options) (*Report, error) {
	mems, err := v.Load(vault.LoadOptions{Raw: true, Context: opts.Context})
	if err != nil {
		return nil, err
	}
	projects := v.Projects(mems)
	r := measure(mems, projects, opts.Now)
	r.Rules = ruleBreaks(mems, opts.Now, v.Config.Gate, opts.Secrets)
	if err := fail.Stopped(opts.Context, "the audit"); err != nil {
		return nil, err
	}
	r.checkViews(v, mems, projects, opts.Views, opts.Now)
	if err := fail.Stopped(opts.Context, "the audit"); err != nil {
		return nil, err
	}
	r.State = opts.State
	r.judge(limitsOf(v.Config.Audit))
	return r, nil
}

// measure counts over the loaded files alone (everything but views,
// index, git and backup), at now.
func measure(mems []*vault.Memory, projects []vault.Project, now time.Time) *Report {
	r := &Report{
		Now: now, Files: len(mems), Counts: Count(mems), Broken: []string{}, OtherTypes: map[string]int{},
		ValidAt:        Coverage{BySource: map[string]*SourceSums{}},
		ImportClusters: []Cluster{}, OrphanProjects: []Orphan{}, Stale: []Stale{}, NoExpiry: []NoExpiry{},
		Conflicts: []Conflict{}, Duplicates: []Duplicate{}, Views: []ViewState{}, Growth: []Growth{},
	}
	t := &tally{r: r, projects: projects, importDays: map[importRun]map[string]int{}, orphans: map[string]*Orphan{},
		texts: map[uint64][]*vault.Memory{}, seed: maphash.MakeSeed(), live: make([]*vault.Memory, 0, len(mems))}
	for _, m := range mems {
		if meta := t.claimOf(m); meta != nil {
			t.add(m, meta, now)
		}
	}
	t.finish()
	res := gate.Reconcile(mems, now)
	r.Conflicts = conflicts(res)
	r.ages(t.live, res, now)
	r.Duplicates = duplicates(t.texts)
	return r
}

// tally is what measure gathers in its one pass over the files.
type tally struct {
	r          *Report
	projects   []vault.Project
	importDays map[importRun]map[string]int // import run → day → count
	orphans    map[string]*Orphan
	texts      map[uint64][]*vault.Memory // hash of the normalised body → memories
	seed       maphash.Seed
	buf        []byte
	live       []*vault.Memory // the claims neither deprecated nor retired
	scoped     int             // claims with a project
	claims     int             // every parsed file but project notes
}

// claimOf is m's frontmatter when m is a claim of mem's; a broken file or
// another tool's is counted as such, and nil returned for it as for a
// reserved file, a plain note or a project note.
func (t *tally) claimOf(m *vault.Memory) *frontmatter.Meta {
	switch {
	case vault.IsReserved(m.Rel) || IsPlainNote(m):
		return nil // the loader wants frontmatter these files need not have
	case !m.OK():
		t.r.Broken = append(t.r.Broken, m.Rel)
		return nil
	}
	if typ, other := otherType(m); other {
		// Another tool's file (an OKF Metric) is that tool's: it owes
		// mem no valid_at and is no import of mem's.
		if typ == "" {
			t.r.Untyped++
		} else {
			t.r.OtherTypes[typ]++
		}
		return nil
	}
	if meta := m.Meta(); meta.Type != frontmatter.TypeProject {
		return meta
	}
	return nil
}

// add counts the claim m: its valid_at, its import run's day, its project;
// and, while it stands for something at now, its body for duplicates.
func (t *tally) add(m *vault.Memory, meta *frontmatter.Meta, now time.Time) {
	t.claims++
	source := cmp.Or(meta.Source, "native")
	t.validAt(meta, source)
	if strings.HasPrefix(meta.Source, "import:") {
		t.importDay(meta, source)
	}
	if meta.Project != "" {
		t.project(m, meta)
	}
	if meta.IsDeprecated() || meta.IsRetired(now) {
		return // a retired claim stands for nothing: not stale, not in conflict, not a duplicate
	}
	t.live = append(t.live, m)
	if t.buf = claimtext.AppendNormalised(t.buf[:0], m.Doc.Body); len(t.buf) > 0 {
		h := maphash.Bytes(t.seed, t.buf)
		t.texts[h] = append(t.texts[h], m)
	}
}

// validAt counts the claim in its source's valid_at coverage.
func (t *tally) validAt(meta *frontmatter.Meta, source string) {
	sums := t.r.ValidAt.BySource[source]
	if sums == nil {
		sums = &SourceSums{}
		t.r.ValidAt.BySource[source] = sums
	}
	// A deprecated claim (a rejected import, a retraction) ranks
	// nowhere, so its valid_at is no column a ranker reads.
	if meta.IsDeprecated() {
		return
	}
	sums.Total++
	if meta.Type == frontmatter.TypeNote {
		t.r.ValidAt.Notes++
	}
	if meta.ValidAt.IsZero() {
		sums.Missing++
	}
}

// importDay counts an imported claim under its import run and the day it
// is dated.
func (t *tally) importDay(meta *frontmatter.Meta, source string) {
	run := importRun{source: source}
	if meta.Generated != nil {
		run.day = meta.Generated.At.Day()
	}
	// An undated import is not a collapse: the importer left it undated
	// rather than stamping its own day (the valid_at check counts it).
	// Dating it by generated.at here made one.
	day := meta.ValidAt.Day()
	if day == "" {
		return
	}
	if t.importDays[run] == nil {
		t.importDays[run] = map[string]int{}
	}
	t.importDays[run][day]++
}

// project counts a claim with a project, and as an orphan when the
// project is malformed or has no project note.
func (t *tally) project(m *vault.Memory, meta *frontmatter.Meta) {
	t.scoped++
	if vault.ProjectIDPattern().MatchString(meta.Project) && vault.FindProject(t.projects, meta.Project) != nil {
		return
	}
	o := t.orphans[meta.Project]
	if o == nil {
		o = &Orphan{Project: meta.Project}
		t.orphans[meta.Project] = o
	}
	o.Count++
	o.Paths = append(o.Paths, m.Rel)
}

// finish turns the tally into the report's totals, shares, import
// clusters and orphan projects (most claims first).
func (t *tally) finish() {
	r := t.r
	for _, s := range r.ValidAt.BySource {
		r.ValidAt.Total += s.Total
		r.ValidAt.Missing += s.Missing
	}
	if t.claims > 0 {
		r.ProjectShare = round(float64(t.scoped)/float64(t.claims), 4)
	}
	r.ImportClusters = clusters(t.importDays)
	for _, o := range t.orphans {
		r.OrphanProjects = append(r.OrphanProjects, *o)
	}
	slices.SortFunc(r.OrphanProjects, func(a, b Orphan) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Project, b.Project))
	})
}

// ages lists the live claims that are stale at now, and those about the
// current state with no stale_after, oldest first. Ages are asked of the
// claims still in force: one that lost to another says nothing about the
// present any more.
func (r *Report) ages(live []*vault.Memory, res gate.Resolution, now time.Time) {
	for _, m := range live {
		meta := m.Meta()
		if _, lost := res.Lost[m.ID]; lost {
			continue
		}
		switch {
		case meta.IsStale(now):
			r.Stale = append(r.Stale, Stale{ID: m.ID, Path: m.Rel, StaleAfter: meta.StaleAfter.Day()})
		case aboutCurrentState(meta):
			r.NoExpiry = append(r.NoExpiry, NoExpiry{ID: m.ID, Path: m.Rel, ValidAt: meta.ValidAt.String()})
		}
	}
	// Oldest first; a date-only stale_after sorts by its day.
	slices.SortFunc(r.Stale, func(a, b Stale) int {
		return cmp.Or(strings.Compare(a.StaleAfter, b.StaleAfter), strings.Compare(a.Path, b.Path))
	})
	// Oldest first, undated (the oldest that can be known: never) before all.
	slices.SortFunc(r.NoExpiry, func(a, b NoExpiry) int {
		return cmp.Or(strings.Compare(a.ValidAt, b.ValidAt), strings.Compare(a.Path, b.Path))
	})
}

// ruleBreaks counts the files that break a rule of spec §8, by rule. A
// memory render could inject is held to every rule, as render holds it; a
// note (read only on demand), a project note, a reserved file or a file
// that does not parse is held to the secret rules alone, since a secret
// must not be in any file that is committed and pushed.
func ruleBreaks(mems []*vault.Memory, now time.Time, cfg vault.GateConfig, memo *rules.Memo) []RuleBreak {
	// Scanning every file is most of an audit's CPU: one worker per core,
	// each taking every n-th file; the counting after is in order.
	found := make([][]rules.Finding, len(mems))
	var wg sync.WaitGroup
	n := runtime.GOMAXPROCS(0)
	for w := range n {
		wg.Go(func() {
			for i := w; i < len(mems); i += n {
				m := mems[i]
				switch meta := m.Meta(); {
				case m.Raw == "":
				case !m.OK() || vault.IsReserved(m.Rel) || meta.Type == frontmatter.TypeProject ||
					frontmatter.EffectiveType(meta.Type) == frontmatter.TypeNote:
					found[i] = rules.SecretsRecalled(m.Raw, memo)
				default:
					found[i] = rules.MemoryRecalled(m.Raw, m.Doc, now, cfg, memo)
				}
			}
		})
	}
	wg.Wait()
	byRule := map[string]*RuleBreak{}
	for i, m := range mems {
		seen := map[string]bool{}
		for _, f := range found[i] {
			if seen[f.Rule] {
				continue
			}
			seen[f.Rule] = true
			b := byRule[f.Rule]
			if b == nil {
				b = &RuleBreak{Rule: f.Rule, Kind: f.Kind.String()}
				byRule[f.Rule] = b
			}
			b.Count++
			b.Paths = append(b.Paths, m.Rel)
		}
	}
	out := make([]RuleBreak, 0, len(byRule))
	for _, b := range byRule {
		out = append(out, *b)
	}
	slices.SortFunc(out, func(a, b RuleBreak) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Rule, b.Rule))
	})
	return out
}

// aboutCurrentState reports a claim about the present state of the world
// that should carry an expiry: an observed fact, a tool's reading (a
// version, a port, a path) that goes on changing after it was read.
// Stated facts, preferences and decisions hold until someone says
// otherwise.
func aboutCurrentState(meta *frontmatter.Meta) bool {
	return meta.StaleAfter.IsZero() && meta.Type == frontmatter.TypeFact && meta.Provenance == frontmatter.Observed
}

// duplicates turns the memories grouped by the hash of their normalised
// text into groups of the same text (a hash collision splits apart here),
// most copies first.
func duplicates(byHash map[uint64][]*vault.Memory) []Duplicate {
	out := []Duplicate{}
	var buf []byte
	for _, ms := range byHash {
		if len(ms) < 2 {
			continue
		}
		byText := map[string][]string{}
		shown := map[string]string{} // the text as the report may print it
		for _, m := range ms {
			buf = claimtext.AppendNormalised(buf[:0], m.Doc.Body)
			byText[string(buf)] = append(byText[string(buf)], m.Rel)
			if _, ok := shown[string(buf)]; !ok {
				// A report is a read (spec §8): redacted before the case
				// folding, which would hide an upper-case key from the scan.
				shown[string(buf)] = claimtext.Normalise(rules.Redact(m.Doc.Body))
			}
		}
		for t, paths := range byText {
			if len(paths) > 1 {
				out = append(out, Duplicate{Text: shown[t], Paths: paths})
			}
		}
	}
	slices.SortFunc(out, func(a, b Duplicate) int {
		return cmp.Or(cmp.Compare(len(b.Paths), len(a.Paths)), strings.Compare(a.Text, b.Text))
	})
	return out
}

// importRun is one import: the memories of one source written on one day
// (generated.at; empty when the files do not say).
type importRun struct{ source, day string }

// clustersPerRun bounds the days listed per import run: the top days are
// what tell a collapse from a spread.
const clustersPerRun = 3

// clusters lists each import run's busiest days, at most clustersPerRun
// each, busiest first, with their share of the run. The share is taken per
// run rather than per source: several good imports of one tool must not
// dilute the one that put every memory on a single day. Days holding one
// memory are no cluster at all.
func clusters(byRun map[importRun]map[string]int) []Cluster {
	out := []Cluster{}
	for run, days := range byRun {
		total := 0
		var cs []Cluster
		for day, n := range days {
			total += n
			if n > 1 {
				cs = append(cs, Cluster{Source: run.source, Imported: run.day, Day: day, Count: n})
			}
		}
		slices.SortFunc(cs, func(a, b Cluster) int { return cmp.Or(cmp.Compare(b.Count, a.Count), strings.Compare(a.Day, b.Day)) })
		for i := range cs[:min(len(cs), clustersPerRun)] {
			cs[i].Share = round(float64(cs[i].Count)/float64(total), 4)
			out = append(out, cs[i])
		}
	}
	slices.SortFunc(out, func(a, b Cluster) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(b.Share, a.Share), strings.Compare(a.Source, b.Source),
			strings.Compare(a.Day, b.Day), strings.Compare(a.Imported, b.Imported))
	})
	return out
}

// severity orders conflict reasons worst first: two claims correcting one
// leave a chain with two current ends (the reconciler picks one, but the
// files still disagree); a tie was settled only by id; a refused
// supersedes is a writer's mistake; provenance and valid_at are the rules
// working; an accepted supersedes is the normal way a claim is replaced.
var severity = map[string]int{
	gate.ReasonRival: 0, gate.ReasonTie: 1, gate.ReasonRefused: 2, gate.ReasonProvenance: 3, gate.ReasonValidAt: 4, gate.ReasonSupersedes: 5,
}

// needsAttention reports the conflicts counted against max_conflicts.
func needsAttention(c Conflict) bool {
	return c.Reason == gate.ReasonRival || c.Reason == gate.ReasonTie || c.Reason == gate.ReasonRefused
}

func conflicts(res gate.Resolution) []Conflict {
	out := make([]Conflict, 0, len(res.Conflicts))
	for _, c := range res.Conflicts {
		a := Conflict{Subject: c.Subject, Reason: c.Reason, Winner: Ref{c.Winner.ID, c.Winner.Rel}, Detail: c.Detail}
		for _, l := range c.Losers {
			a.Losers = append(a.Losers, Ref{l.ID, l.Rel})
		}
		out = append(out, a)
	}
	slices.SortStableFunc(out, func(a, b Conflict) int {
		return cmp.Or(cmp.Compare(severity[a.Reason], severity[b.Reason]), strings.Compare(a.Subject, b.Subject))
	})
	return out
}

// importedOn says when an import ran, for a message.
func importedOn(day string) string {
	if day == "" {
		return "on an unknown day"
	}
	return "on " + day
}

func round(x float64, places int) float64 {
	p := math.Pow(10, float64(places))
	return math.Round(x*p) / p
}

// judge applies the thresholds and sets Healthy.
func (r *Report) judge(l limits) {
	r.Findings = []Finding{}
	r.judgeRules()
	r.judgeContent(l)
	r.judgeSafety(l)
	r.Healthy = len(r.Findings) == 0
}

// over adds a finding when value passes limit (a limit below 0: off).
func (r *Report) over(check string, value, limit float64, format string, args ...any) {
	if limit >= 0 && value > limit {
		r.Findings = append(r.Findings, Finding{Check: check, Value: &value, Limit: limit, Message: fmt.Sprintf(format, args...)})
	}
}

// never adds a finding for what has never happened (no commit, no
// verified backup); in a fresh vault, with nothing to lose yet, a warning.
func (r *Report) never(check string, limit float64, msg string) {
	if r.Memories == 0 {
		r.Warnings = append(r.Warnings, msg)
		return
	}
	if limit >= 0 {
		r.Findings = append(r.Findings, Finding{Check: check, Limit: limit, Message: msg})
	}
}

// judgeRules adds the files that break a rule of spec §8: not a threshold
// of mem.yaml, for the rules are not advice.
func (r *Report) judgeRules() {
	breaking := map[string]bool{}
	var names []string
	for _, b := range r.Rules {
		names = append(names, b.Rule)
		for _, p := range b.Paths {
			breaking[p] = true
		}
	}
	r.over("rules", float64(len(breaking)), 0,
		"%d file(s) break a rule of docs/security.md (%s): render skips them and commit leaves out a secret; run 'mem lint' and fix each", len(breaking), strings.Join(names, ", "))
}

// judgeContent weighs what the memories hold: dates, imports, projects,
// staleness, conflicts, duplicates, views and the index.
func (r *Report) judgeContent(l limits) {
	if r.ValidAt.Total > 0 {
		share := round(float64(r.ValidAt.Missing)/float64(r.ValidAt.Total), 4)
		r.over("max_missing_valid_at_share", share, l.missingShare,
			"%d of %d %s have no valid_at: they sort as undated; give them the date each became true", r.ValidAt.Missing, r.ValidAt.Total, r.ValidAt.noun())
	}
	for _, c := range r.ImportClusters {
		if l.minCluster >= 0 && c.Count >= l.minCluster {
			r.over("max_import_cluster_share", c.Share, l.clusterShare,
				"%d %s memories imported %s fall on %s: an import that stamped one date (often its own run) on many items; check where their valid_at came from and re-import with the source's dates", c.Count, c.Source, importedOn(c.Imported), c.Day)
		}
	}
	orphaned := 0
	for _, o := range r.OrphanProjects {
		orphaned += o.Count
	}
	r.over("max_orphan_projects", float64(orphaned), float64(l.orphans),
		"%d memories name %d project value(s) no project note has: they never render in a project; fix the value or add the project note", orphaned, len(r.OrphanProjects))
	r.over("max_stale", float64(len(r.Stale)), float64(l.stale),
		"%d claim(s) past stale_after: check each and move stale_after forward, or retire it with invalid_at", len(r.Stale))
	attention := 0
	for _, c := range r.Conflicts {
		if needsAttention(c) {
			attention++
		}
	}
	r.over("max_conflicts", float64(attention), float64(l.conflicts),
		"%d conflict(s) the files leave open (two claims correcting one, a tie, or a refused supersedes): state which claim holds (provenance, valid_at) or retire one", attention)
	r.over("max_duplicates", float64(len(r.Duplicates)), float64(l.duplicates),
		"%d text(s) stored in more than one file: keep one file per fact", len(r.Duplicates))
	fossils := 0
	for _, vs := range r.Views {
		if vs.Fossil {
			fossils++
		}
	}
	r.over("max_fossils", float64(fossils), float64(l.fossils),
		"%d rendered view(s) not what rendering now gives: run 'mem render --all' (or 'mem watch')", fossils)
	r.over("max_index_changed", float64(r.Index.Changed), float64(l.indexChanged),
		"%d files changed since the index was built: run 'mem rebuild-index'", r.Index.Changed)
}

// judgeSafety weighs how much would be lost: the age of the last commit
// and of the last verified backup.
func (r *Report) judgeSafety(l limits) {
	if !r.Commit.Committed {
		r.never("max_commit_age_hours", l.commitHours, r.Commit.Problem)
	} else {
		r.over("max_commit_age_hours", r.Commit.AgeHours, l.commitHours,
			"the last commit is %.0f hours old: run 'mem commit' (hourly from cron, or 'mem watch')", r.Commit.AgeHours)
	}
	if !r.Backup.Verified {
		r.never("max_backup_age_hours", l.backupHours, r.Backup.Problem)
	} else {
		r.over("max_backup_age_hours", r.Backup.AgeHours, l.backupHours,
			"the last verified backup is %.0f hours old: run 'mem backup'", r.Backup.AgeHours)
	}
}
