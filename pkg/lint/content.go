package lint

import (
	"net/url"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/secrets"
	"github.com/mem-md/mem/pkg/vault"
)

// Compiled once: linting a file must not compile anything.
var (
	unquotedLink = regexp.MustCompile(`^(\s*(?:[^\s:"'#][^:"']*:\s*)?(?:-\s*)?)\[\[`)
	// Phrases that try to take over the model reading the memory.
	overridePhrase = regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override)\s+(?:(?:all|any|the|your|of|these|those)\s+)*(?:previous|prior|above|earlier|preceding|system|existing|original)\s+(?:instructions?|prompts?|rules|directions|guidelines|context)\b|\byou\s+are\s+now\s+(?:in\s+)?(?:developer\s+mode|DAN|jailbroken|unrestricted)\b|\bnew\s+(?:system\s+)?instructions\s*:`)
	// A line that pretends to be a turn of the conversation.
	roleTurn = regexp.MustCompile(`(?im)^[ \t>]*(?:#{1,6}[ \t]*)?((?:system|developer)[ \t]*:)`)
	roleTag  = regexp.MustCompile(`(?i)<\s*/?\s*(?:system|system-reminder|developer|assistant|im_start|im_end|instructions?)\s*>|<\|im_(?:start|end)\|>|\[/?INST\]`)
	comment  = regexp.MustCompile(`<!--|(?s)%%.+?%%`)
	// The start of a sentence phrased as an order.
	imperative = regexp.MustCompile(`(?im)(?:^|[.!?;:][ \t]+)[ \t]*(?:>[ \t]*)?(?:[-*+][ \t]+|\d+[.)][ \t]+)?((?:always|never|you[ \t]+must|you[ \t]+should|you[ \t]+need[ \t]+to|must|do[ \t]+not|don't|dont)\b)`)
	// A wikilink, or an embed with the "!" before it, which links scans
	// for: a regexp starting with !? has no literal prefix to skip to, so
	// it ran step by step over every body.
	wikilink    = regexp.MustCompile(`\[\[([^\[\]|\n]*?)(?:\|[^\[\]\n]*)?\]\]`)
	mdLink      = regexp.MustCompile(`\]\(\s*<?([^()\s<>]+?\.md)(?:#[^()\s]*)?>?(?:\s+"[^"]*")?\s*\)`)
	footnote    = regexp.MustCompile(`\[\^([^\]\s]+)\]`)
	footnoteDef = regexp.MustCompile(`(?m)^\[\^[^\]\s]+\]:.*$`)
	codeFence   = regexp.MustCompile("(?m)^[ \t]{0,3}(```|~~~)")
	inlineCode  = regexp.MustCompile("`[^`\n]+`")
	indexEntry  = regexp.MustCompile(`^\s*[*+-]\s+(?:\[[^\]]+\]\([^)\s]+\)|!?\[\[[^\]]+\]\])`)
	logDate     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
)

// The words that let the injection regexps run: a text holding none of a
// regexp's words, in any case, is not matched against it.
var (
	injectionWords = secrets.NewKeywords("ignore", "disregard", "forget", "override", "you are now", "instructions",
		"system", "developer", "[inst", "[/inst")
	overrideWords = injectionWords.Mask("ignore", "disregard", "forget", "override", "you are now", "instructions")
	roleWords     = injectionWords.Mask("system", "developer")
	instWords     = injectionWords.Mask("[inst", "[/inst")
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

func (c *check) secrets() {
	for _, f := range secrets.Find(c.text) {
		c.add(f.Rule, Error, frontmatter.Pos{Line: f.Line, Col: f.Col}, "%s: remove it from the file and rotate it (it may already be in git history); a memory is injected into a model's context and pushed to backups", f.What)
	}
}

// content checks the whole text for prompt injection (OWASP LLM01) and
// for text a reader cannot see but a model can.
func (c *check) content() {
	sev := c.contentSeverity()
	// Cheap substring tests keep the regexps off the common, clean file:
	// one pass finds the words, case-insensitively; the punctuation needs
	// no folding.
	words := injectionWords.Find(c.text)
	if words&overrideWords != 0 {
		if loc := overridePhrase.FindStringIndex(c.text); loc != nil {
			c.add("injection-override", sev, c.at(loc[0]), "text that tries to override a model's instructions: memory is injected into every session; state the fact instead")
		}
	}
	if body := c.bodyOffset(); body >= 0 && words&roleWords != 0 {
		if loc := roleTurn.FindStringSubmatchIndex(c.text[body:]); loc != nil {
			c.add("injection-role", sev, c.at(body+loc[2]), "a line posing as a system or developer turn: rewrite it as plain text (\"the system prompt says ...\")")
		}
	}
	if strings.IndexByte(c.text, '<') >= 0 || words&instWords != 0 {
		if loc := roleTag.FindStringIndex(c.text); loc != nil {
			c.add("injection-role", sev, c.at(loc[0]), "a chat-role tag (%s): it can make a model treat the memory as instructions; remove it", c.text[loc[0]:loc[1]])
		}
	}
	if strings.Contains(c.text, "<!--") || strings.Contains(c.text, "%%") {
		if loc := comment.FindStringIndex(c.text); loc != nil {
			c.add("hidden-comment", sev, c.at(loc[0]), "a comment hidden in Obsidian's reading view but read by the model: move the text into the visible body or delete it")
		}
	}
	if start, n := base64Run(c.text); n > 0 {
		c.add("base64-blob", sev, c.at(start), "a %d-character base64 blob: encoded text hides what a model will read; store a link to the data instead", n)
	}
	c.unicode()
}

// minBase64 is the shortest run reported: longer than a SHA-256 in hex (64)
// and than the ids and slugs mem writes.
const minBase64 = 100

// base64Run finds the first run of at least minBase64 base64 characters
// (standard or URL alphabet, with padding) that mixes upper case, lower
// case and digits, as encoded data does and hex hashes and words do not.
func base64Run(s string) (start, n int) {
	for i := 0; i < len(s); {
		if !isB64[s[i]] {
			i++
			continue
		}
		j := i
		for j < len(s) && isB64[s[j]] {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if j-i >= minBase64 && mixedCase(s[i:j]) {
			return i, end - i
		}
		i = j
	}
	return 0, 0
}

// isB64 marks the bytes of the standard and URL base64 alphabets (a table:
// base64Run looks at every byte of every file).
var isB64 = func() (t [256]bool) {
	for _, b := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-") {
		t[b] = true
	}
	return t
}()

func mixedCase(s string) bool {
	var up, low, digit bool
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			up = true
		case r >= 'a' && r <= 'z':
			low = true
		case r >= '0' && r <= '9':
			digit = true
		}
	}
	return up && low && digit
}

// unicode reports, once per file and kind, characters that change how text
// displays without being seen: bidirectional overrides (Trojan Source),
// Unicode tag characters (ASCII smuggling) and zero-width characters. A
// zero-width joiner or non-joiner after a non-ASCII letter or emoji is
// how emoji sequences and several scripts are written, so it is allowed.
func (c *check) unicode() {
	type hit struct {
		off, n int
	}
	var bidi, tag, invisible hit
	var prev rune
	for off, r := range c.text {
		switch {
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
			if bidi.n == 0 {
				bidi.off = off
			}
			bidi.n++
		case r >= 0xE0000 && r <= 0xE007F:
			if tag.n == 0 {
				tag.off = off
			}
			tag.n++
		case r == 0x200B || r == 0x2060 || r == 0xFEFF || r == 0x00AD,
			(r == 0x200C || r == 0x200D) && (prev < 0x80 || unicode.IsSpace(prev)):
			if invisible.n == 0 {
				invisible.off = off
			}
			invisible.n++
		}
		prev = r
	}
	if bidi.n > 0 {
		c.add("unicode-bidi", Error, c.at(bidi.off), "%d bidirectional control character(s): they reorder how text displays, so a reader and a model see different things; delete them", bidi.n)
	}
	if tag.n > 0 {
		c.add("unicode-tag", Error, c.at(tag.off), "%d invisible Unicode tag character(s): they smuggle text a model reads and a person cannot see; delete them", tag.n)
	}
	if invisible.n > 0 {
		c.add("unicode-invisible", Warning, c.at(invisible.off), "%d zero-width character(s): invisible text can hide words from a reader; delete them", invisible.n)
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
	body := maskCode(c.text[start:])
	c.links(body, start)
	if isMemory(c.m) {
		// Footnote definitions cite sources (spec §3); they are not the claim.
		if err := vault.CheckBoundary(footnoteDef.ReplaceAllString(c.doc.Body, "")); err != nil {
			c.add("memory-too-long", Warning, frontmatter.Pos{Line: c.doc.BodyLine, Col: 1}, "%v", err)
		}
	}
	if gate.NeedsGate(c.meta) {
		if m := imperative.FindStringSubmatchIndex(body); m != nil {
			c.add("lesson-imperative", Error, c.at(start+m[2]), "an inferred %s phrased as a command (%q): lessons are data, not orders; rewrite it as \"when X happened, Y helped\"", c.meta.Type, body[m[2]:m[3]])
		}
	}
	if strings.Contains(body, "[^") && c.m.Err == nil {
		c.footnotes(body, start)
	}
}

// footnotes reports the first footnote label that names no sources entry.
func (c *check) footnotes(body string, start int) {
	ids := map[string]bool{}
	for _, s := range c.meta.Sources {
		ids[s.ID] = true
	}
	for _, l := range footnote.FindAllStringSubmatchIndex(body, -1) {
		if label := body[l[2]:l[3]]; !ids[label] {
			c.add("footnote-unmatched", Warning, c.at(start+l[0]), "footnote [^%s] names no sources entry: add sources: [{id: %s, resource: ...}]", label, label)
			return
		}
	}
}

// maskCode blanks fenced code blocks and inline code spans, keeping every
// offset and newline in place.
func maskCode(s string) string {
	if strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "~~~") {
		return s // no fence, no span: nothing to blank (most files)
	}
	b := []byte(s)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	fences := codeFence.FindAllStringIndex(s, -1)
	for i := 0; i < len(fences); i += 2 {
		end := len(s)
		if i+1 < len(fences) {
			end = fences[i+1][1]
		}
		blank(fences[i][0], end)
	}
	for _, loc := range inlineCode.FindAllIndex(b, -1) {
		blank(loc[0], loc[1])
	}
	return string(b)
}

// maxLinks bounds the links checked per file and per kind: a hostile file
// of a million links must not cost a million reports.
const maxLinks = 1000

func (c *check) links(body string, start int) {
	dir := path.Dir(c.m.Rel)
	end := 0 // of the last wikilink
	for _, m := range wikilink.FindAllStringSubmatchIndex(body, maxLinks) {
		// An embed's "!" is part of the link (see wikilink).
		if m[0] > end && body[m[0]-1] == '!' {
			m[0]--
		}
		end = m[1]
		target := body[m[2]:m[3]]
		if i := strings.IndexAny(target, "#^"); i >= 0 {
			target = target[:i]
		}
		target = strings.TrimSpace(target)
		if target == "" {
			continue // [[#Heading]] points into this file
		}
		if ext := path.Ext(target); ext != "" && ext != ".md" && !strings.ContainsAny(ext, " ") {
			continue // attachments are not loaded; Obsidian resolves them by name
		}
		c.resolve(strings.TrimSuffix(target, ".md"), dir, start+m[0], true)
	}
	for _, m := range mdLink.FindAllStringSubmatchIndex(body, maxLinks) {
		target := body[m[2]:m[3]]
		if strings.Contains(target, "://") {
			continue
		}
		if u, err := url.PathUnescape(target); err == nil {
			target = u
		}
		c.resolve(strings.TrimSuffix(target, ".md"), dir, start+m[0]+2, false)
	}
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

// gate applies spec §6: an inferred rule stands only while its signals
// pass the promotion gate.
func (c *check) gate() {
	meta := c.meta
	if meta.Type != frontmatter.TypeRule || !gate.NeedsGate(meta) {
		return
	}
	if v := gate.Evaluate(meta, c.l.now, c.l.vault.Config.Gate); !v.Eligible {
		c.add("gate-unearned", Error, c.keyPos("type"), "an inferred rule whose signals do not pass the promotion gate (weight %.1f from %d session(s)): it %s; make it a lesson until it does", v.Weight, v.Sessions, v.Missing)
	}
}

// index checks OKF §8: index.md holds headings and pointer lines, and
// frontmatter only at the bundle root with only okf_version.
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
	body := maskCode(c.text[start:])
	off := start
	for _, line := range strings.SplitAfter(body, "\n") {
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "#") && !indexEntry.MatchString(line) {
			c.add("index-malformed", Error, c.at(off), "index.md holds only headings and pointer lines like '* [Title](path.md) - description': move this text into a note")
		}
		off += len(line)
	}
}

// log checks OKF §9: level-2 headings are dates, newest first.
func (c *check) log() {
	start := c.bodyOffset()
	if start < 0 {
		return
	}
	body := maskCode(c.text[start:])
	off, last := start, ""
	for _, line := range strings.SplitAfter(body, "\n") {
		if h, ok := strings.CutPrefix(line, "## "); ok {
			h = strings.TrimSpace(h)
			switch {
			case !logDate.MatchString(h):
				c.add("log-malformed", Error, c.at(off), "log.md headings are dates: write '## YYYY-MM-DD', not %q", h)
			case last != "" && h > last:
				c.add("log-malformed", Error, c.at(off), "log.md is newest first: %s comes after %s; move the entry up", h, last)
			default:
				last = h
			}
		}
		off += len(line)
	}
}

func normalize(raw []byte) string {
	s := strings.TrimPrefix(string(raw), "\uFEFF")
	if strings.IndexByte(s, '\r') >= 0 {
		s = strings.ReplaceAll(s, "\r\n", "\n")
	}
	return s
}
