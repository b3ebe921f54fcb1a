// Package secrets finds API keys, tokens and private keys in text so that
// mem never writes, renders or commits one. The engine is gitleaks' (its
// default configuration: rules, keywords, entropy floors and allowlists, see
// gitleaks.go), run only where a rule's keyword occurs; mem adds rules
// gitleaks has no equivalent for (a password in prose, a password in a
// URL, an Azure SAS signature, a private key's header alone) and the passes that find a key however it is written: escaped, in
// full-width or look-alike letters, with invisible characters inside,
// glued to a word, split into parts or over two lines, in base64 (see
// Find). Redact removes what Find reports.
//
// A Finding never carries the secret itself, only where it is and what kind
// it is, so callers can report it without leaking it into logs or CI output.
package secrets

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// Finding is one secret: its rule, a human name for its kind, its 1-based
// line and column (in characters) in the text, and its byte span there.
// For an obfuscated secret (escaped, split, in base64 …) the position and
// the span are those of the whole obfuscated text.
type Finding struct {
	Rule       string // "secret-" and gitleaks' rule id, e.g. secret-aws-access-token
	What       string // e.g. "an AWS access key id"
	Line       int
	Col        int
	Start, End int // byte offsets: text[Start:End] is the secret
}

// memRule is one of mem's own detectors, for what gitleaks has no rule
// for. keywords (lower case) gate it as gitleaks' keywords gate its rules;
// group selects the submatch that is the secret; windows returns the spans
// of text outside which re cannot match, so that re runs on them only.
type memRule struct {
	id, what string
	keywords []string
	src      string                // re's pattern
	re       func() *regexp.Regexp // compiled when a keyword first occurs
	group    int
	allow    func(secret string) bool
	windows  func(text string) []span // nil: the whole text
}

// span is a byte range of a text, [start, end).
type span struct{ start, end int }

// memRules are built on first use, not at init, and each rule's regexp
// when its keyword first occurs: compiling them at start-up would cost
// every mem command, most of which never scans a text, and most texts
// hold no keyword of some of them.
var memRules = sync.OnceValue(func() []memRule {
	rules := []memRule{
		// A private key's header, in any case and spacing: gitleaks'
		// private-key rule wants the whole block, which no memory (two
		// lines) holds; a header says the rest is near.
		{id: "secret-private-key", what: "a private key block", keywords: []string{"ivate"},
			src: `(?i)-{3,}[\s+]*BEGIN[ +A-Z0-9_-]{0,100}PRIVATE[ +_-]*KEY(?:[ +_-]*BLOCK)?[\s+]*-{3,}`},
		// An Azure shared access signature: the sig= of a SAS URL (gitleaks
		// has no SAS rule; the shape is an HMAC-SHA256 in base64).
		{id: "secret-azure-sas", what: "an Azure shared access signature", keywords: []string{"?sig=", "&sig="},
			src: `(?i)[?&]sig=([A-Za-z0-9%+/]{30,120}={0,2})`, group: 1,
			allow: func(s string) bool { return entropy(s) < 3.5 }},
		// A URL that carries a password (postgres://user:pass@host,
		// https://user:pass@…): gitleaks has no rule for it (its
		// generic-api-key misses a URL's userinfo); the shape is RFC 3986's.
		// The password alone is the secret, so a redacted URL still says
		// where it pointed.
		{id: "secret-url-password", what: "a password in a URL", keywords: []string{"://"},
			src:   `(?i)(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|jdbc:[a-z]+|https?|ftps?|smtps?|ldaps?)://[^\s:@/?#]{1,64}:([^\s:@/?#]{1,128})@[^\s@]`,
			group: 1, allow: placeholder, windows: urlWindows},
		// A password given in prose or a .env line, however short
		// ("the password is hunter2", PASSWORD=s3cret): gitleaks'
		// generic-api-key wants 10 characters and an entropy floor, which
		// a short password is under; a value must mix letters with a
		// digit or a symbol, and not be a word, a variable or code.
		{id: "secret-password", what: "a password", keywords: []string{"passw", "pwd", "passp"},
			src:   "(?i)(?:password|passwd|pwd|passphrase)\\b[\"']?[ \\t]{0,3}(?:(?:is|was)[ \\t]{1,3}|(?:=|:|:=|=>)[ \\t]{0,3})[\"'`]?([^\\s\"'`,;]{3,127}[^\\s\"'`,;.!?:)])",
			group: 1, allow: notPassword, windows: passwordWindows},
	}
	for i := range rules {
		src := rules[i].src
		rules[i].re = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(src) })
	}
	return rules
})

// placeholder reports a URL password that stands for one: a variable
// (${DB_PASS}, $PASS, %s, <password>) or a mask (****, xxxx).
func placeholder(s string) bool {
	return strings.ContainsAny(s[:1], "${<%[") || strings.Trim(s, "*xX.") == ""
}

// identifier reports a value made of words joined by hyphens, underscores
// or dots, with at most short version-like parts ("samguk-network-v1",
// "release_2024_q3"): a name, not a secret, whatever its entropy.
func identifier(s string) bool {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' })
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) > 4 && !word(p) {
			return false
		}
	}
	return true
}

// word reports a run of letters in one case, or capitalised.
func word(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || i == 0 && c >= 'A' && c <= 'Z') {
			return strings.ToUpper(s) == s && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
		}
	}
	return true
}

// notPassword reports a value of the password rule that is not one: no
// letter, or letters only (a word: "the password is stored …"), a
// placeholder or a variable, code (a call, a field) or an identifier.
func notPassword(s string) bool {
	letter, other := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		case c >= 0x80:
			return true // prose in another language
		default:
			other = true
		}
	}
	return !letter || !other || entropy(s) < 2 || placeholder(s) || strings.ContainsAny(s, "(){}<>[]") || identifier(s)
}

// urlWindows are the spans around each "://" where a URL with a password
// can lie (the longest scheme is 15 bytes, then the userinfo and one
// byte of the host): the case-insensitive alternation of schemes has no
// literal prefix, and "://" is in every URL.
func urlWindows(text string) []span {
	var out []span
	for i := 0; ; {
		n := strings.Index(text[i:], "://")
		if n < 0 {
			return out
		}
		at := i + n
		i = at + 3
		end, ok := userinfo(text, at+3)
		if !ok {
			continue
		}
		w := span{max(at-16, 0), min(end+2, len(text))}
		if k := len(out) - 1; k >= 0 && w.start <= out[k].end {
			out[k].end = w.end
		} else {
			out = append(out, w)
		}
		i = end
	}
}

// userinfo returns where a URL's userinfo with a password, starting at
// text[from], ends (its '@'). Most URLs have none: the host ends at '/',
// '?', '#', a blank or the end before any '@'.
func userinfo(text string, from int) (int, bool) {
	colon, end := false, from
	for ; end < len(text) && end < from+64+1+128; end++ {
		c := text[end]
		if c == '@' || c == '/' || c == '?' || c == '#' || c <= ' ' {
			break
		}
		colon = colon || c == ':'
	}
	return end, colon && end < len(text) && text[end] == '@'
}

// passwordWindows are the spans from each keyword of the password rule
// to the longest match from it.
func passwordWindows(text string) []span {
	var out []span
	// One pass finds passw…, passphrase and pwd from their 'p'.
	for at := 0; at+3 <= len(text); at++ {
		if foldASCII[text[at]] != 'p' {
			continue
		}
		var rest string
		switch {
		case equalASCIIFold(text[at+1:at+3], "wd"):
			rest = text[at+3:]
		case at+5 <= len(text) && equalASCIIFold(text[at+1:at+5], "assw"):
			rest = text[at+4:]
		case at+10 <= len(text) && equalASCIIFold(text[at+1:at+10], "assphrase"):
			rest = text[at+10:]
		default:
			continue
		}
		end := min(at+len("passphrase")+1+3+3+3+1+128, len(text))
		if assigned(rest[:end-(len(text)-len(rest))]) {
			out = append(out, span{at, end})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	merged := out[:0]
	for _, w := range out {
		if k := len(merged) - 1; k >= 0 && w.start <= merged[k].end {
			merged[k].end = max(merged[k].end, w.end)
			continue
		}
		merged = append(merged, w)
	}
	return merged
}

// assigned reports whether s, the text after a password keyword, can go on
// to a value as the rule's regexp wants: the rest of the keyword's word, a
// quote, at most 3 blanks, then "is", "was" or an operator.
func assigned(s string) bool {
	i := skip(s, 0, 6, func(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' })
	i = skip(s, i, 1, func(c byte) bool { return c == '"' || c == '\'' })
	i = skip(s, i, 3, func(c byte) bool { return c == ' ' || c == '\t' })
	rest := s[i:]
	return strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":") || startsWord(rest, "is") || startsWord(rest, "was")
}

// startsWord reports whether s starts with w (in any ASCII case), then a
// blank and more.
func startsWord(s, w string) bool {
	return len(s) > len(w)+1 && equalASCIIFold(s[:len(w)], w) && (s[len(w)] == ' ' || s[len(w)] == '\t')
}

// hit is a secret found by rules()[rule] at text[start:end].
type hit struct{ start, end, rule int }

// Find returns every secret in text, in order of position. Overlapping
// matches of different rules are reported once, by the first rule.
//
// It sees through obfuscation: the text is matched as a reader would read
// it (escapes decoded, compatibility forms, lookalikes and invisible
// characters folded, a key split into parts joined, base64 decoded), and
// each finding is reported at its place in text as given.
func Find(text string) []Finding { return findings(text, scanFile(text)) }

// findings are the Findings of hits, the hits of text.
func findings(text string, hits []hit) []Finding {
	out := make([]Finding, 0, len(hits))
	// Hits are in order: count lines and columns on from the last one, so
	// a file of many secrets stays linear.
	line, col, last := 1, 1, 0
	for _, h := range hits {
		if nl := strings.LastIndexByte(text[last:h.start], '\n'); nl >= 0 {
			line += strings.Count(text[last:h.start], "\n")
			col, last = 1, last+nl+1
		}
		col += utf8.RuneCountInString(text[last:h.start])
		last = h.start
		out = append(out, Finding{Rule: rules().kinds[h.rule].id, What: rules().kinds[h.rule].what, Line: line, Col: col, Start: h.start, End: h.end})
	}
	return out
}

// has reports whether text holds a secret: len(Find(text)) > 0 without
// computing positions.
func has(text string) bool { return len(scanFile(text)) > 0 }

// scanFile is scan, and when it finds nothing, a key split between a
// field of the frontmatter and the body (seam).
func scanFile(text string) []hit {
	if hits := scan(text, 0); len(hits) > 0 {
		return hits
	}
	return seam(text)
}

// Redact returns text with every secret Find reports replaced by
// "[redacted: <rule>]", an obfuscated one whole: what search snippets,
// show and log print. The result holds no secret Find reports: should
// replacing one make another (two halves of a key around a first), it is
// redacted in turn, and a text that keeps making new ones is replaced
// whole.
func Redact(text string) string {
	for range 4 {
		hits := scanFile(text)
		if len(hits) == 0 {
			return text
		}
		var b strings.Builder
		last := 0
		for _, h := range hits {
			b.WriteString(text[last:h.start])
			b.WriteString(Redaction(rules().kinds[h.rule].id))
			last = h.end
		}
		b.WriteString(text[last:])
		text = b.String()
	}
	if hits := scanFile(text); len(hits) > 0 {
		return Redaction(rules().kinds[hits[0].rule].id)
	}
	return text
}

// Redaction is what stands in for a secret of the rule named: the one
// spelling of "[redacted: <rule>]", for Redact and for a caller that
// replaces a whole value (a path, a line of a commit message).
func Redaction(rule string) string { return "[redacted: " + rule + "]" }

// scan returns the secrets of text in order, without overlaps. Clean ASCII
// text, the common case, costs the keyword pass, three byte searches and a
// skip over base64-like runs; only text that holds an escape or a non-ASCII
// character is normalised (depth counts base64 levels).
func scan(text string, depth int) []hit {
	n := normalise(text)
	hits := match(n.text)
	if depth < maxDepth {
		hits = decoded(n.text, hits, depth)
	}
	return n.unmap(hits)
}

// normalised is a text after scan's steps, with the offmap of each step
// that changed it and the length of that step's input.
type normalised struct {
	text   string
	maps   []offmap
	inputs []int
}

// normalise runs scan's steps over text: escapes decoded, non-ASCII
// characters folded, keys written a character at a time joined.
func normalise(text string) normalised {
	n := normalised{text: text}
	if hasEscape(text) {
		n.step(unescape)
	}
	if !isASCII(n.text) {
		n.step(fold)
	}
	n.step(ungroup)
	return n
}

// step runs one step; a step that returns no offmap left the text as is.
func (n *normalised) step(f func(string) (string, offmap)) {
	if out, m := f(n.text); m != nil {
		n.text, n.maps, n.inputs = out, append(n.maps, m), append(n.inputs, len(n.text))
	}
}

// decoded adds to hits (the secrets of s) those in s's base64 runs and
// other encoded runs (depth counts the levels).
func decoded(s string, hits []hit, depth int) []hit {
	t := &scanned{text: s}
	var found []hit
	t.base64Runs(func(start, end int) {
		if overlaps(hits, start, end) {
			return
		}
		if dec, ok := DecodeBase64(s[start:end]); ok {
			if sub := scan(dec, depth+1); len(sub) > 0 {
				// The padding goes with the run.
				pad := end
				for pad < len(s) && pad-end < 2 && s[pad] == '=' {
					pad++
				}
				found = append(found, hit{start, pad, sub[0].rule})
			}
		}
	})
	hits = merge(hits, found)
	found = nil
	t.encodedRuns(func(start, end int, dec string) {
		if overlaps(hits, start, end) || len(found) > 0 && start < found[len(found)-1].end {
			return
		}
		if sub := scan(dec, depth+1); len(sub) > 0 {
			found = append(found, hit{start, end, sub[0].rule})
		}
	})
	sort.Slice(found, func(i, j int) bool { return found[i].start < found[j].start })
	return merge(hits, found)
}

// unmap maps hits of the normalised text back to the text given, in
// order. Spans apart in the normalised text may meet in the original (two
// matches in one decoded escape): they are merged.
func (n normalised) unmap(hits []hit) []hit {
	for i := len(n.maps) - 1; i >= 0; i-- {
		for j := range hits {
			hits[j].start, hits[j].end = n.maps[i].start(hits[j].start), n.maps[i].end(hits[j].end, n.inputs[i])
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].start < hits[j].start })
	out := hits[:0]
	for _, h := range hits {
		if k := len(out) - 1; k >= 0 && h.start < out[k].end {
			out[k].end = max(out[k].end, h.end)
			continue
		}
		out = append(out, h)
	}
	return out
}

// merge returns the hits of a and b, each in order and apart, in order.
func merge(a, b []hit) []hit {
	if len(b) == 0 {
		return a
	}
	out := make([]hit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].start < b[0].start {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// overlaps reports whether [start, end) overlaps one of hits, which are in
// order and apart.
func overlaps(hits []hit, start, end int) bool {
	k := sort.Search(len(hits), func(k int) bool { return hits[k].end > start })
	return k < len(hits) && hits[k].start < end
}

// wordByte reports whether b is a word character for the regexp's \b
// (ASCII letters, digits and underscore).
func wordByte(b byte) bool { return b < 0x80 && !nonWordASCII(b) }

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// nonWordASCII reports whether b is an ASCII byte that is not a word
// character for the regexp's \b (letters, digits, underscore).
func nonWordASCII(b byte) bool {
	return b < 0x80 && !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_')
}

// Keywords finds which of up to 64 lower-case ASCII words (two bytes or
// longer) a text holds, in one pass over it, with the answer of
// strings.Contains(strings.ToLower(text), word) for each: the cheap gate
// that keeps regexps off texts that cannot match (lint's injection checks).
type Keywords struct {
	words *wordIndex
	index map[string]int
}

// NewKeywords indexes words (duplicates are kept once). It panics on a
// word that is not lower-case ASCII of at least two bytes, or on more than
// 64 words: the word lists are constants of the program.
func NewKeywords(words ...string) *Keywords {
	k := &Keywords{index: map[string]int{}}
	var list []string
	for _, w := range words {
		if _, ok := k.index[w]; ok {
			continue
		}
		if len(list) == 64 {
			panic("secrets.NewKeywords: " + strconv.Quote(w) + ": need at most 64 words")
		}
		k.index[w] = len(list)
		list = append(list, w)
	}
	k.words = newWordIndex(list)
	return k
}

// Mask is the set of bits Find uses for words, which must have been given
// to NewKeywords.
func (k *Keywords) Mask(words ...string) uint64 {
	var m uint64
	for _, w := range words {
		n, ok := k.index[w]
		if !ok {
			panic("secrets.Keywords.Mask: " + strconv.Quote(w) + " was not indexed")
		}
		m |= 1 << n
	}
	return m
}

// Find returns the words text holds, as bits to test against Mask.
func (k *Keywords) Find(text string) uint64 {
	var found uint64
	k.words.each(text, func(_, w int) bool { found |= 1 << w; return true })
	return found
}

// wordIndex finds every occurrence of many lower-case ASCII words (two
// bytes or longer) in a text, in any ASCII case, in one pass: a table load
// per byte turns most positions away. It is the keyword gate of gitleaks'
// rules (gitleaks' own, an Aho-Corasick trie over a lowered copy of the
// text, costs an allocation and several times the time per byte).
type wordIndex struct {
	words []string
	// pairs maps the first two bytes of the words to 1 + their index in
	// starts (0: no word starts so).
	pairs [1 << 16]uint16
	// starts lists the words that begin with each pair.
	starts [][]int
}

// newWordIndex indexes words, which must be lower-case ASCII of two bytes
// or more, and distinct (it panics otherwise: they are the program's).
func newWordIndex(words []string) *wordIndex {
	k := &wordIndex{words: words}
	for n, w := range words {
		if len(w) < 2 || strings.ToLower(w) != w || !isASCII(w) {
			panic("secrets: keyword " + strconv.Quote(w) + ": need lower-case ASCII words of two bytes or more")
		}
		p := pair(w[0], w[1])
		if k.pairs[p] == 0 {
			k.starts = append(k.starts, nil)
			k.pairs[p] = uint16(len(k.starts))
		}
		k.starts[k.pairs[p]-1] = append(k.starts[k.pairs[p]-1], n)
	}
	return k
}

// any reports whether text holds one of the words.
func (k *wordIndex) any(text string) bool {
	found := false
	k.each(text, func(int, int) bool { found = true; return false })
	return found
}

// each calls fn with the offset and the index of each word text holds, in
// order of offset, until fn returns false.
//
// Folding ASCII letters in place gives the same answer as lowering the
// text, because every other character lowers to non-ASCII bytes and so can
// be no part of a word, except two: İ (U+0130) lowers to i and the Kelvin
// sign (U+212A) to k. A text holding either is lowered first (the offsets
// are then the lowered text's: the scanner folds both before it gets here).
func (k *wordIndex) each(text string, fn func(at, w int) bool) {
	if !isASCII(text) && (strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a")) {
		text = strings.ToLower(text)
	}
	if len(text) < 2 {
		return
	}
	// p is the folded pair ending at text[i], rolled on a byte at a time:
	// one table load per byte.
	p := uint16(foldASCII[text[0]])
	for i := 1; i < len(text); i++ {
		p = p<<8 | uint16(foldASCII[text[i]])
		g := k.pairs[p]
		if g == 0 {
			continue
		}
		at := i - 1
		for _, n := range k.starts[g-1] {
			if w := k.words[n]; len(text)-at >= len(w) && equalASCIIFold(text[at:at+len(w)], w) {
				if !fn(at, n) {
					return
				}
			}
		}
	}
}

// isASCII tests eight bytes at a time (as utf8.ValidString does): Find
// asks it of every file.
func isASCII(s string) bool {
	for len(s) >= 8 {
		first := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
		second := uint32(s[4]) | uint32(s[5])<<8 | uint32(s[6])<<16 | uint32(s[7])<<24
		if (first|second)&0x80808080 != 0 {
			return false
		}
		s = s[8:]
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func pair(a, b byte) uint16 { return uint16(foldASCII[a])<<8 | uint16(foldASCII[b]) }

// foldASCII lowers ASCII letters and keeps every other byte: a table load
// per byte, no branch, in Find's loop over every byte of the vault.
var foldASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// equalASCIIFold reports whether s lowers (ASCII letters only) to lower.
func equalASCIIFold(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		if foldASCII[s[i]] != lower[i] {
			return false
		}
	}
	return true
}

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var h float64
	add := func(c, n int) {
		if c > 0 {
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	if isASCII(s) { // every secret a rule matches: no map to allocate
		var counts [128]int
		for i := 0; i < len(s); i++ {
			counts[s[i]]++
		}
		for _, c := range counts {
			add(c, len(s))
		}
		return h
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	for _, c := range counts {
		add(c, n)
	}
	return h
}

// Position converts a byte offset in text to a 1-based line and a 1-based
// column counted in characters, the way editors count.
func Position(text string, offset int) (line, col int) {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	line = 1 + strings.Count(before, "\n")
	start := strings.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCountInString(before[start:])
}
