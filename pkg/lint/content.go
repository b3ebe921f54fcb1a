package lint

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"sync"

	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/rules"

	"github.com/mem-md/mem/pkg/vault"
)

// Compiled once, on first use: linting a file must not compile anything,
// and a command that lints none must not compile them at start-up.
var (
	unquotedLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*(?:[^\s:"'#][^:"']*:\s*)?(?:-\s*)?)\[\[`) })
	footnoteDef  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\[\^[^\]\s]+\]:.*$`) })
	indexEntry   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\s*[*+-]\s+(?:\[[^\]]+\]\([^)\s]+\)|!?\[\[[^\]]+\]\])`)
	})
	indexBullet = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*[*+-]\s+\S`) })
	logDate     = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`) })
	quotedDate  = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)?$`)
	})
)

// contentSeverity: text that views inject into every session (a memory)
// is an error; the same text in a note, read only on demand, is a warning.
func (c *check) contentSeverity() Severity {
	if isMemory(c.m) {
		return Error
	}
	return Warning
}

// at converts a byte offset of c.text to a position. Line starts are
// indexed once per file so that a long note with many links stays linear.
func (c *check) at(off int) frontmatter.Pos {
	if c.lineStarts == nil {
		c.lineStarts = []int{0}
		for i := 0; i < len(c.text); i++ {
			if c.text[i] == '\n' {
				c.lineStarts = append(c.lineStarts, i+1)
			}
		}
	}
	off = min(max(off, 0), len(c.text))
	line := sort.SearchInts(c.lineStarts, off+1) // first start after off
	// Scans report in increasing offsets: counting on from the last
	// position keeps a file that is one long line linear.
	from, col := c.lineStarts[line-1], 1
	if c.last.Line == line && c.lastOff >= from && c.lastOff <= off {
		from, col = c.lastOff, c.last.Col
	}
	c.last = frontmatter.Pos{Line: line, Col: col + utf8.RuneCountInString(c.text[from:off])}
	c.lastOff = off
	return c.last
}

// rules reports what breaks a rule of spec §8 (pkg/rules owns them):
// secrets and injection everywhere in the file, the gate and provenance
// rules on a claim's fields. Text that views inject into every session (a
// memory) is an error; the same text in a note, read only on demand, is a
// warning, except characters that make the reader and the model see
// different text.
func (c *check) rules() {
	var found []rules.Finding
	if c.doc != nil {
		found = rules.FileScanned(c.text, c.bodyOffset(), c.scan(), c.l.memo)
	} else {
		found = rules.Secrets(c.text) // a file that did not parse still holds no key
	}
	for _, f := range found {
		c.addRule(f, c.at(f.Off))
	}
	if c.doc != nil {
		c.decodedRules(found)
	}
}

// Content is what lint reports of m under the §8 content rules alone —
// secrets, injection and control characters, in the file as read and in
// each frontmatter value as YAML decodes it — at the severity lint gives
// them (in a memory every one is an error; in a note secrets, control,
// bidi and tag characters are). It needs no other file: mem sync checks
// what a remote sends with it, so a vault takes from a remote no file
// that lint would fail on here. memo (nil: none) recalls secret scans.
func Content(m *vault.Memory, memo *rules.Memo) []Problem {
	if m.View {
		return nil // a view mem rendered: lint reads none (check.run)
	}
	c := &check{l: &Linter{memo: memo}, m: m}
	c.text, c.doc = normalize(m.Raw), m.Doc
	if fileErr, _ := m.Err.(*frontmatter.Error); c.text != "" && (fileErr == nil || fileErr.Rule != "file-binary") {
		c.rules()
	}
	return c.out
}

// addRule reports f at pos: secrets and the characters that make a reader
// and a model see different text are errors anywhere; the rest is an
// error in a memory and a warning in a note (contentSeverity).
func (c *check) addRule(f rules.Finding, pos frontmatter.Pos) {
	switch {
	case f.Kind == rules.Secret, f.Rule == "unicode-bidi", f.Rule == "unicode-tag", f.Rule == "control-character":
		c.add(f.Rule, Error, pos, "%s", f.Msg)
	default:
		c.add(f.Rule, c.contentSeverity(), pos, "%s", f.Msg)
	}
}

// decodedRules applies the rules to each frontmatter value YAML decoded
// into text the file does not hold as it is written: a double-quoted
// "\e]8;;…\a", "\x9b" or "\u202e" is plain ASCII on disk and a control
// or bidi character in every reader, as the writer checks it (writer.Check
// runs the rules on each value). A rule the raw scan already reported for
// the file is not reported twice.
func (c *check) decodedRules(raw []rules.Finding) {
	head := c.text
	if off := c.bodyOffset(); off >= 0 {
		head = c.text[:off]
	}
	seen := map[string]bool{}
	for _, f := range raw {
		seen[f.Rule] = true
	}
	// The id too: the writer makes it, a hand-written file may hold any.
	for _, t := range append(c.doc.Texts(), frontmatter.Text{Key: "id", Name: "id", Value: c.doc.Meta.ID}) {
		if strings.TrimSpace(t.Value) == "" || strings.Contains(head, t.Value) {
			continue
		}
		for _, f := range rules.Text(t.Value) {
			if !seen[f.Rule] {
				seen[f.Rule] = true
				c.addRule(f, c.keyPos(t.Key))
			}
		}
	}
}

// claimRules applies the gate and provenance rules (spec §6, §8).
func (c *check) claimRules() {
	for _, f := range rules.Claim(c.meta, c.doc.Body, c.l.now, c.l.vault.Config.Gate) {
		switch f.Rule {
		case "gate-unearned":
			c.add(f.Rule, Error, c.keyPos("type"), "%s", f.Msg)
		case "valid-at-future":
			c.add(f.Rule, Error, c.keyPos("valid_at"), "%s", f.Msg)
		default:
			c.add(f.Rule, Error, c.at(c.bodyOffset()+f.Off), "%s", f.Msg)
		}
	}
}

// bodyOffset is where the body starts in c.text (the body is its tail), or
// -1 when the raw text is not at hand.
func (c *check) bodyOffset() int {
	if c.text == "" || c.doc == nil || len(c.doc.Body) > len(c.text) {
		return -1
	}
	return len(c.text) - len(c.doc.Body)
}

// body checks the markdown body: links, the memory/note boundary and
// lessons phrased as commands. Code blocks and spans are not prose.
func (c *check) body() {
	start := c.bodyOffset()
	if start < 0 {
		return
	}
	found := c.scan()
	c.links(found.Links, start)
	if isMemory(c.m) {
		// Footnote definitions cite sources (spec §3); they are not the claim.
		if err := vault.CheckBoundary(footnoteDef().ReplaceAllString(c.doc.Body, "")); err != nil {
			c.add("memory-too-long", Warning, frontmatter.Pos{Line: c.doc.BodyLine, Col: 1}, "%v", err)
		}
	}
	// Footnotes are keyed to sources (OKF §5.1) in a file that lists them;
	// and in a memory; elsewhere a footnote is an ordinary one.
	if len(found.Footnotes) > 0 && c.m.Err == nil && (len(c.meta.Sources) > 0 || frontmatter.IsMemoryType(c.meta.Type)) {
		c.footnotes(found.Footnotes, start)
	}
}

// scan reads the body once for its links, footnotes and comments, none in
// code (pkg/markdown: goldmark with the Obsidian extension); nil when the
// body's place in c.text is not known.
func (c *check) scan() *markdown.Body {
	start := c.bodyOffset()
	if start < 0 {
		return nil
	}
	if !c.didScan {
		c.scanned, c.didScan = markdown.Scan(c.text[start:], maxLinks), true
	}
	return &c.scanned
}

// footnotes reports the first footnote label, of a reference or a
// definition, that names no sources entry.
func (c *check) footnotes(notes []markdown.Footnote, start int) {
	ids := map[string]bool{}
	for _, s := range c.meta.Sources {
		ids[s.ID] = true
	}
	for _, f := range notes {
		if !ids[f.Label] {
			c.add("footnote-unmatched", Warning, c.at(start+f.Off), "footnote [^%s] names no sources entry: add sources: [{id: %s, resource: ...}]", f.Label, f.Label)
			return
		}
	}
}

// maxLinks bounds the links checked per file and per kind: a hostile file
// of a million links must not cost a million reports.
const maxLinks = 1000

// links resolves the body's wikilinks, embeds and markdown links to .md
// files; start is the body's offset in c.text.
func (c *check) links(links []markdown.Link, start int) {
	dir := path.Dir(c.m.Rel)
	for _, l := range links {
		target := l.Target
		if l.Kind == markdown.Inline {
			if !strings.HasSuffix(target, ".md") || hasScheme(target) {
				continue // https://…, mailto:x@y.md, an image: not a note of the vault
			}
			if u, err := url.PathUnescape(target); err == nil {
				target = u
			}
			c.resolve(strings.TrimSuffix(target, ".md"), dir, start+l.Off, false)
			continue
		}
		if target = c.l.kind.wikiTarget(target, l.Alias); target == "" {
			continue // [[#Heading]] points into this file
		}
		if ext := path.Ext(target); ext != "" && ext != ".md" && !strings.ContainsAny(ext, " ") && (!c.l.kind.dendron || attachment[strings.ToLower(ext)]) {
			continue // attachments are not loaded; Obsidian resolves them by name
		}
		c.resolve(strings.TrimSuffix(target, ".md"), dir, start+l.Off, true)
	}
}

// attachment are the file types Obsidian embeds (its "accepted file
// formats"): in a Dendron vault, where a note's name is dotted
// (dendron.ref.commands), only these extensions mark an attachment.
var attachment = map[string]bool{
	".avif": true, ".bmp": true, ".gif": true, ".jpeg": true, ".jpg": true, ".png": true, ".svg": true, ".webp": true,
	".flac": true, ".m4a": true, ".mp3": true, ".ogg": true, ".wav": true, ".webm": true, ".3gp": true,
	".mkv": true, ".mov": true, ".mp4": true, ".ogv": true, ".pdf": true, ".canvas": true, ".base": true,
}

// hasScheme reports a URL scheme (RFC 3986: a letter, then letters,
// digits, +, - or ., then ':') before any '/'.
func hasScheme(target string) bool {
	i := strings.IndexByte(target, ':')
	if i < 1 || strings.ContainsRune(target[:i], '/') {
		return false
	}
	for j, r := range target[:i] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || j > 0 && (r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.')) {
			return false
		}
	}
	return true
}

// resolve looks a link target up among the vault's files. Wikilinks
// resolve by name anywhere in the vault, or by path from the root or from
// the file's folder; markdown links by path only (OKF §6).
func (c *check) resolve(target, dir string, off int, wiki bool) {
	var candidates []string
	if strings.HasPrefix(target, "/") {
		candidates = []string{path.Clean(target[1:])}
	} else {
		rel := path.Join(dir, target)
		if rel == ".." || strings.HasPrefix(rel, "../") {
			c.add("link-broken", Warning, c.at(off), "link %q leaves the vault: link to a file inside it", target)
			return
		}
		candidates = []string{rel}
		if wiki {
			candidates = append(candidates, path.Clean(target))
		}
	}
	for _, cand := range candidates {
		if c.l.isTarget(strings.ToLower(cand)) {
			return
		}
	}
	c.add("link-broken", Warning, c.at(off), "link %q resolves to no file in the vault: fix the name or create the note", target)
}

// index checks OKF §8: frontmatter only at the bundle root with only
// okf_version, and entries that are pointers (errors, as OKF's own).
func (c *check) index() {
	if c.doc.HasFrontmatter {
		for key, pos := range c.doc.Keys {
			if c.m.Rel != "index.md" || key != "okf_version" {
				c.add("index-malformed", Error, pos, "index.md may carry no frontmatter but okf_version in the vault's root index.md: remove %q", key)
			}
		}
	}
	start := c.bodyOffset()
	if start < 0 {
		return
	}
	body := markdown.MaskCode(c.text[start:])
	off := start
	for _, line := range strings.SplitAfter(body, "\n") {
		// OKF §8: an entry is link-first; prose between entries is
		// allowed, as OKF's validator allows it.
		if indexBullet().MatchString(line) && !indexEntry().MatchString(line) {
			c.add("index-malformed", Error, c.at(off), "an index.md entry is link-first: '* [Title](path.md) - description' (OKF §8); link the entry or make it prose")
		}
		off += len(line)
	}
}

// log checks OKF §9: level-2 headings are dates (a MUST: an error), newest
// first (described, not required: a warning).
func (c *check) log() {
	start := c.bodyOffset()
	if start < 0 {
		return
	}
	body := markdown.MaskCode(c.text[start:])
	off, last := start, ""
	for _, line := range strings.SplitAfter(body, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			h = strings.TrimSpace(h)
			switch {
			case !logDate().MatchString(h):
				c.add("log-malformed", Error, c.at(off), "log.md headings are dates: write '## YYYY-MM-DD', not %q", h)
			case last != "" && h > last:
				// OKF §9 describes newest first; only the date form is a MUST.
				c.add("log-malformed", Warning, c.at(off), "log.md lists entries newest first (OKF §9): %s comes after %s; move the entry up", h, last)
			default:
				last = h
			}
		}
		off += len(line)
	}
}

func normalize(raw string) string {
	s := strings.TrimPrefix(raw, "\uFEFF")
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}
