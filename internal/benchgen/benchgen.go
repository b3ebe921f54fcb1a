// Package benchgen writes deterministic synthetic vaults for the benchmarks
// of docs/performance.md: the same options always give the same bytes, so a
// figure measured on one machine can be reproduced on another.
//
// The vault looks like a real one grown over two years: ~85% one-line
// memories and ~15% long-form notes, every frontmatter key of spec §3 in
// plausible proportions (projects, imports with clustered dates, stale and
// superseded claims, lessons with signals, pinned memories), Zipf-distributed
// words and ~0.8 wikilinks per file, in a handful of folders.
package benchgen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Options says what to generate.
type Options struct {
	N    int    // number of markdown files, project notes included
	Seed uint64 // same seed, same bytes
}

// now is the date the generated dates are spread around. It is the date the
// end-to-end tests pin MEM_NOW to, so "stale" means the same thing in every
// run no matter when the benchmark is taken.
var now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// QueryWord is a mid-frequency word of the vocabulary (in a few percent of
// one-line memories and a quarter of the notes): the benchmark's search term.
const QueryWord = "postgres"

// Questions are n two-word searches of the generator's real words, no two
// alike: searches that keep finding other files, where ServeQueries find
// the same ones again.
func Questions(n int) []string {
	words := common[slices.Index(common, "team"):] // past the stop words
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		a, b := words[i%len(words)], words[(i/len(words)+1+i)%len(words)]
		if a != b {
			out = append(out, a+" "+b)
		}
	}
	return out
}

// ServeQueries rotate through the searches of mem-bench serve and of the
// in-process search benchmark (pkg/mcpserver): words the generator writes.
var ServeQueries = []string{"deploy pipeline", "database migration", "postgres", "release checklist",
	"cache invalidation", "auth token", "staging outage", "retry budget"}

// Stats counts what a generation produced.
type Stats struct {
	Files, Projects, Notes, Pointers, Memories, Imports, Captures int
	Lessons, Pinned, Stale, Superseding, WithProject, Links       int
	Bytes                                                         int64
}

// vocabularySize is large enough that the tail behaves like real rare terms.
const vocabularySize = 20000

type gen struct {
	r        *rand.Rand
	zipf     *rand.Zipf
	words    []string
	emit     func(rel string, data []byte) error
	names    map[string]bool
	projects []string // project ids
	ids      []string // ids of memories written so far (supersedes, links)
	notes    []string // ids of notes written so far (links)
	sessions []string
	keys     []string
	imports  []importBatch
	stats    Stats
}

type importBatch struct {
	tool      string
	day       time.Time // when the import ran
	center    time.Time // around when the conversations happened
	spreadDay int       // 0: collapsed, every valid_at is the import day
}

// Generate produces the files of a vault in a fixed order and hands each to
// emit with its slash-separated path relative to the vault. mem.yaml and
// .gitignore are not included (Write adds them).
func Generate(opts Options, emit func(rel string, data []byte) error) (Stats, error) {
	if opts.N < 1 {
		return Stats{}, fmt.Errorf("benchgen: N must be at least 1, got %d", opts.N)
	}
	r := rand.New(rand.NewPCG(opts.Seed, opts.Seed^0x9e3779b97f4a7c15))
	g := &gen{
		r:     r,
		zipf:  rand.NewZipf(r, 1.1, 2, vocabularySize-1),
		words: vocabulary(vocabularySize),
		emit:  emit,
		names: map[string]bool{},
	}
	for i := range max(10, opts.N/6) {
		day := now.AddDate(0, 0, -r.IntN(730))
		g.sessions = append(g.sessions, fmt.Sprintf("s-%s-%c", day.Format("2006-01-02"), 'a'+rune(i%4)))
	}
	for range max(5, opts.N/40) {
		g.keys = append(g.keys, vault.Slug(g.phrase(2, 4), 32))
	}
	for i := range 6 {
		b := importBatch{tool: "chatgpt", day: now.AddDate(0, 0, -r.IntN(400)), spreadDay: 10 + r.IntN(60)}
		if i%3 == 2 {
			b.tool = "claude-code"
		}
		if i == 0 {
			b.spreadDay = 0 // the import-collapse failure mode audit must find
		}
		b.center = b.day.AddDate(0, 0, -30-r.IntN(300))
		g.imports = append(g.imports, b)
	}
	nProjects := min(20, max(1, opts.N/10))
	for range nProjects {
		if err := g.project(); err != nil {
			return g.stats, err
		}
	}
	for g.stats.Files < opts.N {
		var err error
		switch u := r.Float64(); {
		case u < 0.17:
			err = g.note(opts.N)
		case u < 0.24:
			err = g.imported()
		case u < 0.26:
			err = g.memory("inbox", "capture:claude-code", "")
		default:
			err = g.memory("memory", "", "")
		}
		if err != nil {
			return g.stats, err
		}
	}
	return g.stats, nil
}

// Write generates a vault into dir, which must not exist or be empty (so
// nothing left over can change the bytes). Files are written without fsync:
// this is throwaway benchmark data, not a user's memory.
func Write(dir string, opts Options) (Stats, error) {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return Stats{}, fmt.Errorf("%s: not empty: give a new directory so the generated bytes are exactly those of seed %d", dir, opts.Seed)
	}
	if _, err := vault.Init(dir, nil); err != nil {
		return Stats{}, fmt.Errorf("%s: %w", dir, err)
	}
	made := map[string]bool{}
	return Generate(opts, func(rel string, data []byte) error {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if d := filepath.Dir(p); !made[d] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				return err
			}
			made[d] = true
		}
		return os.WriteFile(p, data, 0o644)
	})
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) word() string { return g.words[g.zipf.Uint64()] }

// phrase is n words (n between lo and hi) without punctuation.
func (g *gen) phrase(lo, hi int) string {
	n := lo + g.r.IntN(hi-lo+1)
	ws := make([]string, n)
	for i := range ws {
		ws[i] = g.word()
	}
	return strings.Join(ws, " ")
}

// sentence is a capitalised phrase ending with a full stop.
func (g *gen) sentence(lo, hi int) string {
	s := g.phrase(lo, hi)
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

func (g *gen) title() string {
	ws := strings.Fields(g.phrase(2, 6))
	for i, w := range ws {
		ws[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(ws, " ")
}

// path returns a fresh file path in dir named like the vault writer names
// files: a slug of the text and a six-hex-digit suffix.
func (g *gen) path(dir, text string) string {
	for {
		rel := fmt.Sprintf("%s/%s-%06x.md", dir, vault.Slug(text, 48), g.r.Uint32()&0xffffff)
		if !g.names[rel] {
			g.names[rel] = true
			return rel
		}
	}
}

func (g *gen) write(rel string, doc *frontmatter.Document) error {
	doc.HasFrontmatter = true
	data := doc.Marshal()
	g.stats.Files++
	g.stats.Bytes += int64(len(data))
	g.stats.Links += strings.Count(doc.Body, "[[")
	if doc.Meta.Project != "" {
		g.stats.WithProject++
	}
	return g.emit(rel, data)
}

// pick returns one of items, favouring the front (a few projects and
// recent ids get most of the attention, as in a real vault).
func pick[T any](g *gen, items []T) T {
	u := g.r.Float64()
	return items[int(float64(len(items))*u*u)]
}

func (g *gen) link() string {
	switch u := g.r.Float64(); {
	case u < 0.05:
		return "[[" + vault.Slug(g.phrase(2, 3), 32) + "]]" // a dangling link, as real vaults have
	case u < 0.45 && len(g.notes) > 0:
		return "[[" + g.notes[g.r.IntN(len(g.notes))] + "]]"
	case u < 0.6:
		return "[[projects/" + strings.TrimPrefix(pick(g, g.projects), "proj_") + "]]"
	case len(g.ids) > 0:
		return "[[" + g.ids[g.r.IntN(len(g.ids))] + "]]"
	}
	return "[[projects/" + strings.TrimPrefix(g.projects[0], "proj_") + "]]"
}

// dayTime is a datetime on the given day, or the day itself (date-only), as
// writers produce both.
func (g *gen) dayTime(t time.Time, dateOnly bool) frontmatter.Time {
	if dateOnly {
		return frontmatter.NewDate(t)
	}
	y, m, d := t.Date()
	return frontmatter.NewTime(time.Date(y, m, d, 7+g.r.IntN(14), g.r.IntN(60), g.r.IntN(60), 0, time.UTC))
}

func (g *gen) actor(at time.Time, human bool) *frontmatter.Actor {
	by := vault.Producer()
	if human {
		by = "human:dana"
	}
	return &frontmatter.Actor{By: by, At: frontmatter.NewTime(at)}
}

func (g *gen) tags() []string {
	if !g.chance(0.45) {
		return nil
	}
	var out []string
	for range 1 + g.r.IntN(3) {
		t := g.word()
		if g.chance(0.05) {
			t = "durable"
		}
		if len(t) > 2 && !contains(out, t) {
			out = append(out, t)
		}
	}
	return out
}

// commandLike reports text a lint would flag as a command rather than data
// (spec §6); generated claims avoid it so a clean vault lints clean.
func commandLike(text string) bool {
	first, _, _ := strings.Cut(strings.ToLower(text), " ")
	return first == "always" || first == "never" || first == "you"
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (g *gen) project() error {
	name := g.title()
	slug := vault.Slug(name, 24)
	for g.names["projects/"+slug+".md"] {
		slug += "-x"
	}
	rel := "projects/" + slug + ".md"
	g.names[rel] = true
	id := "proj_" + slug
	g.projects = append(g.projects, id)
	roots := []string{"~/src/" + slug}
	if g.chance(0.3) {
		roots = append(roots, "code/"+slug)
	}
	body := "# " + name + "\n\n" + g.paragraph() + "\n"
	doc := &frontmatter.Document{Meta: frontmatter.Meta{
		ID: id, Type: frontmatter.TypeProject, Title: name, Description: g.sentence(6, 14),
		Roots: roots, Tags: []string{"project"},
		Generated: g.actor(now.AddDate(0, 0, -400-g.r.IntN(300)), true),
	}, Body: body}
	g.stats.Projects++
	return g.write(rel, doc)
}

func (g *gen) paragraph() string {
	var b strings.Builder
	for i := range 2 + g.r.IntN(5) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(g.sentence(6, 20))
	}
	return b.String()
}

// note writes a long-form note of 3–20 paragraphs and, usually, the
// one-line pointer memory `mem note` adds with it.
func (g *gen) note(n int) error {
	title := g.title()
	dir := "notes"
	if g.chance(0.25) {
		dir = "notes/decisions"
	}
	rel := g.path(dir, title)
	id := strings.TrimSuffix(rel, ".md")
	valid := g.dayTime(now.AddDate(0, 0, -g.r.IntN(730)), g.chance(0.6))
	paras := make([]string, 3+g.r.IntN(18))
	for i := range paras {
		if g.chance(0.15) {
			paras[i] = "- " + g.sentence(4, 10) + "\n- " + g.sentence(4, 10) + "\n- " + g.sentence(4, 10)
		} else {
			paras[i] = g.paragraph()
		}
	}
	for range g.r.IntN(6) {
		i := g.r.IntN(len(paras))
		paras[i] += " Related: " + g.link() + "."
	}
	meta := frontmatter.Meta{
		ID: id, Type: frontmatter.TypeNote, Title: title, ValidAt: valid, Tags: g.tags(),
		Generated: g.actor(valid.Time.Add(time.Duration(g.r.IntN(48))*time.Hour), g.chance(0.4)),
	}
	if g.chance(0.4) {
		meta.Project = pick(g, g.projects)
	}
	if g.chance(0.5) {
		meta.Description = g.sentence(6, 14)
	}
	if g.chance(0.1) {
		meta.Aliases = []string{g.title()}
	}
	doc := &frontmatter.Document{Meta: meta, Body: "# " + title + "\n\n" + strings.Join(paras, "\n\n") + "\n"}
	g.stats.Notes++
	if err := g.write(rel, doc); err != nil {
		return err
	}
	g.notes = append(g.notes, id)
	if g.stats.Files >= n || !g.chance(0.8) {
		return nil
	}
	g.stats.Pointers++
	return g.memory("memory", "", title+": see [["+id+"]]")
}

// imported writes a memory from a chat export: its valid_at comes from the
// conversation, clustered around the batch's dates (or, for the collapsed
// batch, all on the day the import ran).
func (g *gen) imported() error {
	b := g.imports[g.r.IntN(len(g.imports))]
	valid := b.day
	if b.spreadDay > 0 {
		valid = b.center.AddDate(0, 0, g.r.IntN(2*b.spreadDay+1)-b.spreadDay)
	}
	valid = time.Date(valid.Year(), valid.Month(), valid.Day(), 8+g.r.IntN(14), g.r.IntN(60), 0, 0, time.UTC)
	text := g.sentence(6, 22)
	types := []string{frontmatter.TypeFact, frontmatter.TypeFact, frontmatter.TypePreference, frontmatter.TypeDecision}
	prov := []string{frontmatter.Stated, frontmatter.Stated, frontmatter.Observed, frontmatter.Inferred}
	meta := frontmatter.Meta{
		Type: types[g.r.IntN(len(types))], Provenance: prov[g.r.IntN(len(prov))],
		Source: "import:" + b.tool, ValidAt: frontmatter.NewTime(valid),
		Sources: []frontmatter.Source{{
			Resource: "conversations.json", ID: fmt.Sprintf("%08x", g.r.Uint32()), Title: g.title(),
			LastModified: frontmatter.NewTime(valid.Add(time.Duration(g.r.IntN(90)) * time.Minute)),
		}},
		Generated: &frontmatter.Actor{By: "process:import-" + b.tool, At: frontmatter.NewTime(b.day)},
	}
	if g.chance(0.4) {
		meta.Project = pick(g, g.projects)
	}
	rel := g.path("imports/"+b.tool, text)
	meta.ID = strings.TrimSuffix(rel, ".md")
	g.stats.Imports++
	g.stats.Memories++
	g.ids = append(g.ids, meta.ID)
	return g.write(rel, &frontmatter.Document{Meta: meta, Body: text + "\n"})
}

var memoryTypes = []struct {
	t string
	p float64
}{
	{frontmatter.TypeFact, 0.56}, {frontmatter.TypePreference, 0.12}, {frontmatter.TypeDecision, 0.10},
	{frontmatter.TypeLesson, 0.12}, {frontmatter.TypeIdentity, 0.02}, {frontmatter.TypeRule, 0.04},
	{frontmatter.TypeCorrection, 0.04},
}

func (g *gen) memoryType() string {
	u := g.r.Float64()
	for _, mt := range memoryTypes {
		if u < mt.p {
			return mt.t
		}
		u -= mt.p
	}
	return frontmatter.TypeFact
}

func (g *gen) provenance(t string) string {
	u := g.r.Float64()
	switch t {
	case frontmatter.TypeLesson:
		if u < 0.7 {
			return frontmatter.Inferred
		}
		return frontmatter.Observed
	case frontmatter.TypeRule:
		if u < 0.8 {
			return frontmatter.Stated
		}
		return frontmatter.Inferred
	case frontmatter.TypeCorrection:
		return frontmatter.Stated
	case frontmatter.TypeIdentity, frontmatter.TypePreference:
		if u < 0.85 {
			return frontmatter.Stated
		}
		return frontmatter.Observed
	}
	switch {
	case u < 0.5:
		return frontmatter.Stated
	case u < 0.85:
		return frontmatter.Observed
	}
	return frontmatter.Inferred
}

// signals gives an inferred lesson 1–5 signals; an inferred rule gets enough
// recent signals from two sessions to pass the promotion gate (spec §6), as
// `mem promote` would have required.
func (g *gen) signals(t string, valid time.Time) []frontmatter.Signal {
	n := 1 + g.r.IntN(5)
	if t == frontmatter.TypeRule {
		n = 3 + g.r.IntN(3)
	}
	out := make([]frontmatter.Signal, n)
	for i := range out {
		s := g.sessions[g.r.IntN(len(g.sessions))]
		at := valid.AddDate(0, 0, g.r.IntN(20))
		if t == frontmatter.TypeRule {
			s = g.sessions[i%2]
			at = now.AddDate(0, 0, -g.r.IntN(20))
		}
		out[i] = frontmatter.Signal{Session: s, At: frontmatter.NewDate(at), Evidence: g.phrase(2, 6)}
	}
	return out
}

// memory writes a one-line memory into dir. source is empty for native
// memories; text is the pointer line for a note, else generated. Its
// steps draw from g's random source in this order: a change of order
// changes every vault a seed makes.
func (g *gen) memory(dir, source, text string) error {
	t, text := g.memoryText(text)
	meta := frontmatter.Meta{Type: t, Provenance: g.provenance(t), Source: source, Tags: g.tags()}
	if text != "" && strings.Contains(text, ": see [[") {
		meta.Provenance = frontmatter.Stated
	}
	valid, genAt := g.memoryDates(&meta)
	g.memoryPlace(&meta)
	g.memoryLife(&meta, valid)
	g.memoryContext(&meta, source, genAt)
	var extra []frontmatter.KeyValue
	if g.chance(0.01) {
		// Unknown keys are kept verbatim (spec §3); real vaults have a few.
		extra = append(extra, frontmatter.KeyValue{Key: "cssclasses", Value: frontmatter.NewList("wide")})
	}
	rel := g.path(dir, text)
	meta.ID = strings.TrimSuffix(rel, ".md")
	g.ids = append(g.ids, meta.ID)
	g.stats.Memories++
	if source != "" {
		g.stats.Captures++
	}
	return g.write(rel, &frontmatter.Document{Meta: meta, Extra: extra, Body: text + "\n"})
}

// memoryText is a memory's type and text: text as given (a note's
// pointer, a fact), else a generated line of a generated type, within
// vault.MaxMemoryChars.
func (g *gen) memoryText(text string) (typ, line string) {
	t := frontmatter.TypeFact
	if text == "" {
		t = g.memoryType()
		switch t {
		case frontmatter.TypeLesson:
			// Lessons are data, never commands (spec §4).
			text = "When " + g.phrase(4, 9) + ", " + g.phrase(3, 8) + " fixed it."
		default:
			text = g.sentence(5, 22)
			for commandLike(text) {
				text = g.sentence(5, 22)
			}
		}
		if g.chance(0.42) {
			text = strings.TrimSuffix(text, ".") + ", see " + g.link() + "."
		}
	}
	for len(text) > vault.MaxMemoryChars {
		text = text[:strings.LastIndexByte(text[:vault.MaxMemoryChars-1], ' ')] + "."
	}
	return t, text
}

// memoryDates sets valid_at (most memories have one) and who generated
// the memory when; it returns valid_at (zero when undated) and that time.
func (g *gen) memoryDates(meta *frontmatter.Meta) (valid, genAt time.Time) {
	if g.chance(0.97) {
		valid = now.AddDate(0, 0, -g.r.IntN(730)).Add(-time.Duration(g.r.IntN(86400)) * time.Second)
		meta.ValidAt = g.dayTime(valid, g.chance(0.3))
	}
	genAt = meta.ValidAt.Time
	if genAt.IsZero() {
		genAt = now.AddDate(0, 0, -g.r.IntN(730))
	}
	meta.Generated = g.actor(genAt.Add(time.Duration(g.r.IntN(3600))*time.Second), g.chance(0.25))
	return valid, genAt
}

// memoryPlace sets where a memory renders: its project, importance, and
// for a few its pin and section.
func (g *gen) memoryPlace(meta *frontmatter.Meta) {
	if g.chance(0.4) {
		meta.Project = pick(g, g.projects)
	}
	if g.chance(0.45) {
		meta.Importance = 1 + (g.r.IntN(10)+g.r.IntN(11))/2
	}
	if g.chance(0.006) || (meta.Type == frontmatter.TypeIdentity && g.chance(0.3)) {
		meta.Pinned = true
		g.stats.Pinned++
		if g.chance(0.2) {
			meta.Section = frontmatter.Sections[g.r.IntN(len(frontmatter.Sections))]
		}
	}
}

// memoryLife sets how a claim ages and is beaten: a lesson's signals,
// stale_after, invalid_at, what it supersedes, its key and status.
func (g *gen) memoryLife(meta *frontmatter.Meta, valid time.Time) {
	t := meta.Type
	if (t == frontmatter.TypeLesson || t == frontmatter.TypeRule) && meta.Provenance == frontmatter.Inferred && !valid.IsZero() {
		meta.Signals = g.signals(t, valid)
	}
	if t == frontmatter.TypeLesson {
		g.stats.Lessons++
	}
	if !valid.IsZero() && (t == frontmatter.TypeFact || t == frontmatter.TypeDecision) && g.chance(0.15) {
		meta.StaleAfter = frontmatter.StaleInstant(valid.AddDate(0, 0, 14+g.r.IntN(520)))
		if !meta.StaleAfter.After(now) {
			g.stats.Stale++
		}
	}
	if !valid.IsZero() && g.chance(0.015) {
		meta.InvalidAt = frontmatter.NewDate(valid.AddDate(0, 0, 1+g.r.IntN(300)))
	}
	if len(g.ids) > 0 && g.chance(0.04) {
		meta.Supersedes = []string{g.ids[len(g.ids)-1-int(math.Min(float64(len(g.ids)-1), float64(g.r.IntN(500))))]}
		g.stats.Superseding++
	}
	if g.chance(0.03) {
		meta.Key = g.keys[g.r.IntN(len(g.keys))]
	}
	switch u := g.r.Float64(); {
	case u < 0.01:
		meta.Status = frontmatter.StatusDeprecated
	case u < 0.02:
		meta.Status = frontmatter.StatusDraft
	}
}

// memoryContext sets where a memory came from: its session (every
// capture's), a verification of it after genAt, its sources.
func (g *gen) memoryContext(meta *frontmatter.Meta, source string, genAt time.Time) {
	if source != "" || g.chance(0.6) {
		meta.Session = g.sessions[g.r.IntN(len(g.sessions))]
	}
	if g.chance(0.04) {
		by := "process:ci"
		if g.chance(0.5) {
			by = "human:dana"
		}
		meta.Verified = []frontmatter.Actor{{By: by, At: frontmatter.NewTime(genAt.AddDate(0, 0, g.r.IntN(30)))}}
	}
	if g.chance(0.03) {
		meta.Sources = []frontmatter.Source{{Resource: "https://example.com/" + vault.Slug(g.phrase(2, 4), 40), Title: g.title()}}
	}
}
