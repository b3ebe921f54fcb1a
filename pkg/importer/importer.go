// Package importer brings memory kept elsewhere (a ChatGPT export, Claude
// Code transcripts and auto-memory, a hand-kept MEMORY.md) into a vault.
// Each kind is a small adapter that turns its source into Items; one loop
// here dedupes them by import key and writes them through pkg/writer, the
// one door every write takes, keeping the source's own clocks as valid_at
// (spec §1, principle 2). An item the rules of spec §8 refuse is reported
// with its reason and left out; the rest is imported.
package importer

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/vault"
	mw "github.com/mem-md/mem/pkg/writer"
)

// Import kinds (the KIND of `mem import KIND PATH`).
const (
	kindChatGPT    = "chatgpt"
	kindClaudeAI   = "claude-ai"
	kindClaudeCode = "claude-code"
	kindCodex      = "codex"
	kindMemoryMD   = "memory-md"
	kindOpenClaw   = "openclaw"
)

// Kinds lists the import kinds, for usage messages.
var Kinds = []string{kindChatGPT, kindClaudeAI, kindClaudeCode, kindCodex, kindMemoryMD, kindOpenClaw}

// DefaultPath is where a kind's source lives when PATH is not given, under
// the home folder ("" when the kind needs a PATH).
func DefaultPath(kind, home string) string {
	if kind == kindCodex && home != "" {
		return filepath.Join(home, ".codex", "memories")
	}
	return ""
}

// keyField is the extension key holding an imported file's import key. The
// frontmatter package keeps unknown keys verbatim, so it survives edits in
// Obsidian and rewrites by mem.
const keyField = frontmatter.ImportKey

// item is one thing an adapter found: a memory, or (when note is set) a
// note plus a one-line pointer memory to it (spec §1, principle 8).
type item struct {
	// locator names the item inside its source, stably across runs (a
	// conversation and message id, a transcript file, a bullet's text). It is
	// hashed into the import key that makes re-runs write nothing, and
	// into the file's name, so the item has one path on every machine.
	locator string
	// legacy, when set, is the locator an earlier mem gave the same item
	// (a hand-kept file's absolute path): a file already holding its key
	// counts as this item, so upgrading mem re-imports nothing.
	legacy     string
	Type       string // the memory's type (the pointer's, for a note)
	provenance string
	text       string // the memory's text; for a note, the pointer's text
	title      string // the note's title (notes only)
	note       string // the note's body; empty for a plain memory
	section    string
	validAt    frontmatter.Time // from the source; zero when it has none
	project    string
	source     frontmatter.Source
	// links maps a relative link target of text or note ("other.md") to the
	// locator of the item the linked file became: the link is rewritten to
	// that item's id, so it resolves in the vault.
	links map[string]string
	// extra are the source's keys mem has no field for (Claude Code's
	// originSessionId, related), kept in the file that holds the text.
	extra []frontmatter.KeyValue
	// unreadable, when set, is why the source's item could not be read
	// whole (frontmatter that does not parse): it is reported as refused
	// and nothing of it is written, rather than imported without it.
	unreadable *Refused
	// skipped, when set, is why the item is not a claim (a template
	// placeholder): it is reported and nothing of it is written.
	skipped *Refused
}

// Options tunes a run.
type Options struct {
	DryRun bool
	// Now is the write time, stamped into generated.at only; the caller's
	// clock (cmd/mem's, which MEM_NOW pins), never zero: a zero now would
	// date every source in the future.
	Now time.Time
	// Warn receives problems that skip part of the source (a bad JSONL line)
	// without stopping the import. Nil discards them.
	Warn func(msg string)
	// Project is the project of every item the source gives none
	// (mem import --project); "" leaves those global.
	Project string
	// Context, when done (Ctrl-C), stops the import while it reads the
	// vault or between two items: every file written so far is whole and
	// kept, and a later run skips it. The error is then a
	// fail.Interrupted. Nil never stops.
	Context context.Context
	limits  limits // tests lower the caps; zero is the cap
}

// stopped is the error of a run interrupted by its Context after done of
// total items, or nil.
func (o Options) stopped(done, total int) error {
	if o.Context == nil || o.Context.Err() == nil {
		return nil
	}
	return fail.As(fail.Interrupted, fmt.Errorf("interrupted at item %d of %d", done, total))
}

// File is one file written (or, in a dry run, that would be written).
type File struct {
	ID      string // in a dry run, the path stem with * for the writer's suffix
	Path    string
	Type    string
	ValidAt frontmatter.Time
	Project string
	Summary string // the memory's text, or the note's title
}

// Refused is an item the rules refused: nothing of it was written.
type Refused struct {
	Where string // the item in its source: file and line, conversation and message
	Rule  string
	Msg   string // what is wrong and what to do; never quotes a secret
}

func (r Refused) String() string { return fmt.Sprintf("%s: %s: %s", r.Where, r.Rule, r.Msg) }

// Result is what a run did.
type Result struct {
	Kind     string
	Path     string
	DryRun   bool
	Files    []File
	Existing int // items skipped because an earlier run imported them
	Refused  []Refused
	// Skipped are items that are no claim (template placeholders): reported,
	// not written, and no failure.
	Skipped []Refused
	// Escaped are the items whose HTML tags were escaped to text (spec §8
	// refuses a tag in a memory; an import keeps the item and says so).
	Escaped []string
}

// ByType counts the written files by type.
func (r *Result) ByType() map[string]int {
	out := map[string]int{}
	for _, f := range r.Files {
		out[f.Type]++
	}
	return out
}

// Span returns the earliest and latest valid_at of the written files and
// how many had none.
func (r *Result) Span() (first, last frontmatter.Time, undated int) {
	for _, f := range r.Files {
		switch {
		case f.ValidAt.IsZero():
			undated++
		case first.IsZero():
			first, last = f.ValidAt, f.ValidAt
		case f.ValidAt.Before(first.Time):
			first = f.ValidAt
		case f.ValidAt.After(last.Time):
			last = f.ValidAt
		}
	}
	return first, last, undated
}

// env is what adapters may ask of the vault: project resolution by
// directory (roots, never keywords), a place to report skipped input, and
// the caps on what one item may hold in memory.
type env struct {
	projects []vault.Project
	home     string // the user's home folder (vault.Options.Home); "" for none
	warn     func(string)
	limits   limits
}

// limits lowers the caps (maxTranscriptLine, maxConversation,
// maxZipMember) for a test, which then needs no input of their size; a
// zero field is the cap.
type limits struct {
	transcriptLine, conversation int
	zipMember                    int64
}

func (e env) transcriptLine() int { return cmp.Or(e.limits.transcriptLine, maxTranscriptLine) }
func (e env) conversation() int   { return cmp.Or(e.limits.conversation, maxConversation) }
func (e env) zipMember() int64    { return cmp.Or(e.limits.zipMember, maxZipMember) }

// project returns the id of the project whose root holds dir, or "".
func (e env) project(dir string) string {
	if dir == "" {
		return ""
	}
	if p := vault.ResolveProject(e.projects, dir); p != nil {
		return p.ID
	}
	return ""
}

// sourceName is how an import key names a file: its path under the home
// folder ("~/code/app/CLAUDE.md"), the same on every machine that keeps it
// there, else its absolute path.
func (e env) sourceName(abs string) string {
	if e.home != "" {
		if rel, err := filepath.Rel(e.home, abs); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
			return "~/" + filepath.ToSlash(rel)
		}
	}
	return abs
}

// dailyDate is the date a daily file's name gives (memory/2026-02-19.md,
// 2026-02-19-1338.md), or zero.
func dailyDate(p string) frontmatter.Time {
	base := filepath.Base(p)
	if len(base) < 13 || !strings.HasSuffix(base, ".md") {
		return frontmatter.Time{}
	}
	t, err := frontmatter.ParseTime(base[:10])
	if err != nil || !t.DateOnly || len(base) > 13 && base[10] != '-' && base[10] != '_' && base[10] != ' ' {
		return frontmatter.Time{}
	}
	return t
}

func (e env) warnf(format string, args ...any) {
	if e.warn != nil {
		e.warn(fmt.Sprintf(format, args...))
	}
}

// ErrUnknownKind is returned by Run for a KIND it does not know.
type ErrUnknownKind string

func (e ErrUnknownKind) Error() string {
	return fmt.Sprintf("unknown import kind %q: use one of %s", string(e), strings.Join(Kinds, ", "))
}

// Kind: an unknown kind is a usage error (exit 2).
func (e ErrUnknownKind) Kind() fail.Kind { return fail.Usage }

// adapters turn a source path into items, one per kind.
var adapters = map[string]func(src string, e env) ([]item, error){
	kindChatGPT:    collectChatGPT,
	kindClaudeAI:   collectClaudeAI,
	kindClaudeCode: collectClaudeCode,
	kindCodex:      collectCodex,
	kindMemoryMD:   collectMemoryMD,
	kindOpenClaw:   collectOpenClaw,
}

// ErrNothing is a source in which the importer found nothing to import:
// a failed check (exit 1), never a silent run that writes 0 files.
type ErrNothing struct{ Of, Path string }

func (e ErrNothing) Error() string {
	return fmt.Sprintf("%s: found nothing to import as %s (%s); nothing was written: check the path, or see docs/import.md for what each kind reads", e.Path, e.Of, kindNames[e.Of])
}

// Kind: the import ran and its answer is no (exit 1).
func (ErrNothing) Kind() fail.Kind { return fail.Check }

// Run imports src as kind into v: it reads the source, skips every item an
// earlier run already imported, and writes the rest (unless DryRun).
func Run(v *vault.Vault, kind, src string, opts Options) (*Result, error) {
	collect, ok := adapters[kind]
	if !ok {
		return nil, ErrUnknownKind(kind)
	}
	// One import at a time, so two runs cannot both see an item as new.
	unlock, err := v.Lock("import")
	if err != nil {
		return nil, err
	}
	defer unlock()
	mems, err := v.Load(vault.LoadOptions{Context: opts.Context})
	if err != nil {
		return nil, err
	}
	if err := opts.stopped(0, 0); err != nil {
		return nil, err
	}
	if is := sniff(src); is != "" && is != kind {
		return nil, wrongKind(src, is, kind)
	}
	items, err := collect(src, env{projects: v.Projects(mems), home: v.Home, warn: opts.Warn, limits: opts.limits})
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(items, func(it item) bool { return it.skipped == nil }) {
		// Nothing but skipped items (or none): say why each was skipped,
		// and fail, never a silent run that writes 0 files.
		res := &Result{Kind: kind, Path: src, DryRun: opts.DryRun}
		for _, it := range items {
			res.Skipped = append(res.Skipped, *it.skipped)
		}
		return res, ErrNothing{Of: kind, Path: src}
	}
	w := &writer{v: v, kind: kind, opts: opts, existing: existingKeys(mems),
		res: &Result{Kind: kind, Path: src, DryRun: opts.DryRun}}
	for i, it := range linkOrder(items) {
		if err := opts.stopped(i, len(items)); err != nil {
			return w.res, err
		}
		if err := w.write(normalize(w.relink(it))); err != nil {
			return w.res, err
		}
	}
	return w.res, nil
}

// existingKeys maps the import key of every file already in the vault to its id.
func existingKeys(mems []*vault.Memory) map[string]string {
	keys := map[string]string{}
	for _, m := range mems {
		if m.Doc == nil {
			continue
		}
		if key, ok := m.Doc.KeptText(keyField); ok {
			keys[key] = m.ID
		}
	}
	return keys
}

// importKey is the stable key of an item: its kind and a hash of its locator.
func importKey(kind, locator string) string {
	sum := sha256.Sum256([]byte(kind + "\x00" + locator))
	return kind + ":" + hex.EncodeToString(sum[:8])
}

// normalize turns a memory whose text is too long for a memory into a note
// plus a pointer, as `mem remember` would advise (spec §4).
func normalize(it item) item {
	it.text = strings.TrimSpace(it.text)
	if it.note != "" || vault.CheckBoundary(it.text) == nil {
		return it
	}
	it.note = it.text
	it.title = firstLine(it.text, 80)
	it.text = it.title
	return it
}

// firstLine is the first non-empty line of s, cut at a word boundary to at
// most max runes.
func firstLine(s string, max int) string {
	line := frontmatter.Summary(s)
	r := []rune(line)
	if len(r) <= max {
		return line
	}
	cut := string(r[:max])
	if i := strings.LastIndexByte(cut, ' '); i > max/2 {
		cut = cut[:i]
	}
	return strings.TrimSpace(cut) + "…"
}

type writer struct {
	v        *vault.Vault
	kind     string
	opts     Options
	existing map[string]string // import key → id
	res      *Result
}

// linkOrder orders items so that an item comes after the items it links
// to (item.links), so their ids are known when it is written; items in a
// cycle keep their order at the end. Otherwise the source's order stays.
func linkOrder(items []item) []item {
	pending := map[string]bool{}
	for _, it := range items {
		if len(it.links) > 0 {
			pending[it.locator] = true
		}
	}
	if len(pending) == 0 {
		return items
	}
	out := make([]item, 0, len(items))
	var later []item
	for _, it := range items {
		if len(it.links) == 0 {
			out = append(out, it)
		} else {
			later = append(later, it)
		}
	}
	for len(later) > 0 {
		var rest []item
		for _, it := range later {
			ready := true
			for _, loc := range it.links {
				if pending[loc] && loc != it.locator {
					ready = false
				}
			}
			if ready {
				out = append(out, it)
				delete(pending, it.locator)
			} else {
				rest = append(rest, it)
			}
		}
		if len(rest) == len(later) { // a cycle: write the rest as they come
			return append(out, rest...)
		}
		later = rest
	}
	return out
}

// relink rewrites it's relative links to imported items as wikilinks to
// their ids; a link whose target was not imported (refused, or linking
// back in a cycle) keeps its text and loses the link, which would not
// resolve in the vault.
func (w *writer) relink(it item) item {
	if len(it.links) == 0 {
		return it
	}
	to := func(target string) (string, bool) {
		loc, ok := it.links[target]
		if !ok {
			return "", false
		}
		// A long item is a note and its pointer: link to the note.
		key := importKey(w.kind, loc)
		return cmp.Or(w.existing[key+"/note"], w.existing[key]), true
	}
	it.text = markdown.RewriteLinks(it.text, to)
	it.note = markdown.RewriteLinks(it.note, to)
	return it
}

func (w *writer) memDir() string  { return path.Join("imports", w.kind) }
func (w *writer) noteDir() string { return path.Join("imports", w.kind, "notes") }

// write imports one item unless an earlier run did. A note's pointer is
// written even when only the note survived an interrupted earlier run. An
// item the writer refuses is recorded in the result and skipped.
func (w *writer) write(it item) error {
	if it.unreadable != nil {
		w.res.Refused = append(w.res.Refused, *it.unreadable)
		return nil
	}
	if it.skipped != nil {
		w.res.Skipped = append(w.res.Skipped, *it.skipped)
		return nil
	}
	var escText, escNote bool
	it.text, escText = escapeHTML(it.text)
	it.note, escNote = escapeHTML(it.note)
	if escText || escNote {
		w.res.Escaped = append(w.res.Escaped, where(it))
	}
	err := w.item(it)
	var r *mw.Refusal
	if errors.As(err, &r) {
		w.res.Refused = append(w.res.Refused, Refused{Where: where(it), Rule: r.Rule, Msg: r.Msg})
		return nil
	}
	return err
}

// formattingTag is an inline formatting tag without attributes (<u>,
// </b>, <br/>): it hides nothing, loads nothing and names no role.
var formattingTag = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)^</?(?:u|b|i|em|strong|br|sub|sup|kbd|mark|s|del|ins|small|big|tt|code|wbr|hr)\s*/?>$`)
})

// escapeHTML turns every inline formatting tag of s (as the markdown parse
// reads raw HTML, outside code) into text by escaping its '<', so a reader
// sees the tag as written and nothing of the view's structure changes.
// Spec §8 refuses a tag in a memory; one <u> in a topic must not refuse
// the whole topic (docs/import.md). Any other tag is left for the rules,
// which refuse the item.
func escapeHTML(s string) (string, bool) {
	if !strings.Contains(s, "<") {
		return s, false
	}
	spans := markdown.Scan(s, 0).HTML
	done := false
	for i := len(spans) - 1; i >= 0; i-- {
		sp := spans[i]
		if !formattingTag().MatchString(s[sp.Start:sp.End]) {
			continue // a role tag, an image, a hidden span: the rules refuse the item
		}
		s = s[:sp.Start] + strings.ReplaceAll(s[sp.Start:sp.End], "<", "&lt;") + s[sp.End:]
		done = true
	}
	return s, done
}

// where names an item by its source's own coordinates, never by its text
// (which may be what was refused).
func where(it item) string {
	if it.source.ID == "" {
		return it.source.Resource
	}
	return it.source.Resource + ":" + it.source.ID
}

func (w *writer) item(it item) error {
	key := importKey(w.kind, it.locator)
	if it.legacy != "" {
		old := importKey(w.kind, it.legacy)
		if _, ok := w.existing[old]; ok {
			w.res.Existing++
			return nil
		}
	}
	if it.note == "" {
		if _, ok := w.existing[key]; ok {
			w.res.Existing++
			return nil
		}
		doc := w.memory(it, it.text, key)
		doc.Extra = append(doc.Extra, it.extra...)
		return w.create(w.memDir(), frontmatter.Summary(it.text), doc)
	}
	noteKey := key + "/note"
	noteID, noteDone := w.existing[noteKey]
	_, pointerDone := w.existing[key]
	if pointerDone {
		w.res.Existing++
		return nil
	}
	note := w.doc(it, frontmatter.TypeNote, "", noteKey, it.note)
	note.Meta.Title = it.title
	note.Extra = append(note.Extra, it.extra...)
	// Both files are checked before either is written (the pointer with a
	// placeholder id as long as the real one), so a refused pointer never
	// leaves a note behind.
	placeholder := noteID
	if !noteDone {
		placeholder = path.Join(w.noteDir(), vault.Slug(it.title, 48)+"-"+keySuffix(noteKey, false))
		if err := mw.Check(w.v, mw.Front{}, note, w.opts.Now); err != nil {
			return err
		}
	}
	if err := mw.Check(w.v, mw.Front{}, w.memory(it, vault.PointerText(it.text, placeholder), key), w.opts.Now); err != nil {
		return err
	}
	if !noteDone {
		id, err := w.createID(w.noteDir(), it.title, note)
		if err != nil {
			return err
		}
		noteID = id
	}
	return w.create(w.memDir(), it.text, w.memory(it, vault.PointerText(it.text, noteID), key))
}

func (w *writer) memory(it item, text, key string) *frontmatter.Document {
	return w.doc(it, it.Type, it.provenance, key, text)
}

// doc builds the frontmatter of an imported file directly rather than
// from a vault.NewMemory, which stamps valid_at with now when the source
// has no date; an import must stay undated instead (spec §1.2).
func (w *writer) doc(it item, typ, provenance, key, body string) *frontmatter.Document {
	meta := frontmatter.Meta{
		Type: typ, Provenance: provenance, Project: cmp.Or(it.project, w.opts.Project), ValidAt: it.validAt,
		Source: "import:" + w.kind, Sources: []frontmatter.Source{it.source},
	}
	if typ != frontmatter.TypeNote {
		meta.Section = it.section
	}
	doc := &frontmatter.Document{Meta: meta, Body: strings.TrimSpace(body) + "\n", HasFrontmatter: true}
	doc.SetKeptText(keyField, key)
	return doc
}

func (w *writer) create(dir, slugText string, doc *frontmatter.Document) error {
	_, err := w.createID(dir, slugText, doc)
	return err
}

// keySuffix is the file-name suffix of the item whose import key is key:
// six hex digits of its hash, or sixteen when long (a name the short one
// found taken by another file). It is the same on every machine, so two
// machines importing one export write one path, which sync merges as one
// file (spec §9).
func keySuffix(key string, long bool) string {
	sum := sha256.Sum256([]byte(key))
	if long {
		return hex.EncodeToString(sum[:8])
	}
	return hex.EncodeToString(sum[:3])
}

// createID writes doc through the writer (or, in a dry run, checks it and
// records it) and returns its id. The name comes from the item's import
// key (keySuffix), never from chance.
func (w *writer) createID(dir, slugText string, doc *frontmatter.Document) (string, error) {
	f := File{Type: doc.Meta.Type, ValidAt: doc.Meta.ValidAt, Project: doc.Meta.Project, Summary: doc.Summary()}
	if doc.Meta.Type == frontmatter.TypeNote {
		f.Summary = doc.Meta.Title
	}
	key, _ := doc.KeptText(keyField)
	if w.opts.DryRun {
		if err := mw.Check(w.v, mw.Front{}, doc, w.opts.Now); err != nil {
			return "", err
		}
		f.Path = path.Join(dir, vault.Slug(slugText, 48)+"-"+keySuffix(key, false)+".md")
		f.ID = strings.TrimSuffix(f.Path, ".md")
		w.res.Files = append(w.res.Files, f)
		w.written(doc, f.ID)
		return f.ID, nil
	}
	m, err := mw.Create(w.v, mw.Front{}, dir, slugText, keySuffix(key, false), doc, w.opts.Now)
	if errors.Is(err, fs.ErrExist) {
		// Another file took the short name (a different item with the
		// same slug and suffix, or a hand-made file): the long one.
		m, err = mw.Create(w.v, mw.Front{}, dir, slugText, keySuffix(key, true), doc, w.opts.Now)
	}
	if err != nil {
		return "", err
	}
	f.ID, f.Path = m.ID, m.Rel
	w.res.Files = append(w.res.Files, f)
	w.written(doc, m.ID)
	return m.ID, nil
}

// written records the id of a file just written under its import key, so
// later items link to it (relink).
func (w *writer) written(doc *frontmatter.Document, id string) {
	if key, ok := doc.KeptText(keyField); ok {
		w.existing[key] = id
	}
}

// sortedKeys returns m's keys in order, for deterministic output.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
