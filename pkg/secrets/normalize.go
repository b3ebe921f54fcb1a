package secrets

import (
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// An obfuscated secret is matched in a normalised copy of the text: escapes
// decoded (unescape), then compatibility forms, homoglyphs and invisible
// characters folded away (fold). Each step keeps an offmap so that a match
// in the copy is reported, and redacted, at its span in the original text.

// segment says that bytes [n, n+nlen) of a step's output came from bytes
// [o, o+olen) of its input. Equal lengths mean byte for byte; otherwise the
// output is a replacement whose bytes all map to the whole input span.
type segment struct{ n, o, nlen, olen int }

// offmap maps a step's output offsets back to its input. Input bytes that
// produced no output (a stripped zero-width space) lie between segments.
type offmap []segment

// mapper builds a step's output and its offmap.
type mapper struct {
	out []byte
	m   offmap
}

// keep copies src[from:to] unchanged.
func (b *mapper) keep(src string, from, to int) {
	if from == to {
		return
	}
	if k := len(b.m) - 1; k >= 0 {
		if l := &b.m[k]; l.nlen == l.olen && l.n+l.nlen == len(b.out) && l.o+l.olen == from {
			l.nlen += to - from
			l.olen += to - from
			b.out = append(b.out, src[from:to]...)
			return
		}
	}
	b.m = append(b.m, segment{len(b.out), from, to - from, to - from})
	b.out = append(b.out, src[from:to]...)
}

// put writes repl for src[from:to]; an empty repl drops it.
func (b *mapper) put(from, to int, repl []byte) {
	if len(repl) == 0 {
		return
	}
	b.m = append(b.m, segment{len(b.out), from, len(repl), to - from})
	b.out = append(b.out, repl...)
}

// find returns the index of the last segment for which before(segment) is
// true, or -1.
func (m offmap) find(before func(segment) bool) int {
	return sort.Search(len(m), func(i int) bool { return !before(m[i]) }) - 1
}

// start maps the offset where a span begins. Input that produced no
// output just before it (an invisible character) goes with the span.
func (m offmap) start(n int) int {
	k := m.find(func(s segment) bool { return s.n <= n })
	if k < 0 {
		return 0
	}
	s := m[k]
	switch {
	case n >= s.n+s.nlen:
		return s.o + s.olen
	case n == s.n && k > 0:
		return m[k-1].o + m[k-1].olen
	case n == s.n:
		return 0
	case s.nlen == s.olen:
		return s.o + n - s.n
	}
	return s.o
}

// end maps the offset where a span ends (exclusive). Input that produced
// no output just after it goes with the span.
func (m offmap) end(n int, inputLen int) int {
	k := m.find(func(s segment) bool { return s.n < n })
	if k < 0 {
		return 0
	}
	s := m[k]
	switch {
	case n == s.n+s.nlen && k+1 < len(m):
		return m[k+1].o
	case n == s.n+s.nlen:
		return inputLen
	case s.nlen == s.olen:
		return s.o + n - s.n
	}
	return s.o + s.olen
}

// hasEscape reports whether unescape could change text: the fast test
// that keeps clean text off the slow path.
func hasEscape(text string) bool {
	return strings.IndexByte(text, '%') >= 0 || strings.IndexByte(text, '\\') >= 0 || strings.IndexByte(text, '&') >= 0 ||
		hasConcatenation(text)
}

// hasConcatenation reports whether text holds a '+' between two quotes
// of a kind, blanks around it: a concatenation unescape would join.
func hasConcatenation(text string) bool {
	for i := 0; ; {
		n := strings.IndexByte(text[i:], '+')
		if n < 0 {
			return false
		}
		at := i + n
		b := at - 1
		for b >= 0 && (text[b] == ' ' || text[b] == '\t') {
			b--
		}
		if b >= 0 && (text[b] == '"' || text[b] == '\'' || text[b] == '`') && concatenation(text[b:]) > 0 {
			return true
		}
		i = at + 1
	}
}

// concatenation is the length of a string concatenation at the start of
// s — a closing quote, '+' and an opening quote of the same kind, with
// blanks and one line break around the '+' ("AKIA" + "Q3ZR…") — or 0.
func concatenation(s string) int {
	q := s[0]
	if q != '"' && q != '\'' && q != '`' {
		return 0
	}
	i, plus, breaks := 1, false, 0
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t' || c == '\r':
		case c == '\n':
			breaks++
		case c == '+' && !plus:
			plus = true
		case c == q && plus && breaks <= 1:
			return i + 1
		default:
			return 0
		}
	}
	return 0
}

// ungroup joins a key written one character at a time ("A K I A Q 3 Z R
// …", "A-K-I-A-…"): a run of minGroup or more single characters, each
// apart from the next by one space or one hyphen, is copied without its
// separators. Prose has runs of one-letter words only a few long. It
// returns nil for a text it leaves as it is.
func ungroup(text string) (string, offmap) {
	found := groupedRuns(text)
	if len(found) == 0 {
		return text, nil
	}
	sort.Slice(found, func(a, b int) bool { return found[a].start < found[b].start })
	var b mapper
	from := 0
	for _, r := range found {
		if r.start < from {
			continue
		}
		b.keep(text, from, r.start)
		for k := r.start; k < r.end; k += 2 {
			b.keep(text, k, k+1)
		}
		from = r.end
	}
	b.keep(text, from, len(text))
	return string(b.out), b.m
}

// minGroup is the fewest single characters ungroup joins.
const minGroup = 12

// groupedRuns are the spans of text that ungroup joins. A run of minGroup
// singles spans 2·minGroup-1 bytes of alternating characters and
// separators, so probing every 8th byte finds each one: prose costs a
// load or two per 8 bytes.
func groupedRuns(text string) []span {
	var found []span
	for p := 0; p < len(text); p += 8 {
		if !maybeGrouped(text, p) {
			continue
		}
		for _, sep := range []byte{' ', '-'} {
			if r, ok := (grouping{text, sep}).runAt(p); ok {
				found = append(found, r)
				p = max(r.end, p+1) - 8 // go on after the run
				break
			}
		}
	}
	return found
}

// maybeGrouped is the cheap test of a probe at text[p]: a separator two
// bytes on each side of a separator, or around a character.
func maybeGrouped(text string, p int) bool {
	if b := text[p]; b == ' ' || b == '-' {
		return p >= 2 && p+2 < len(text) && text[p-2] == b && text[p+2] == b
	}
	return p >= 1 && p+1 < len(text) && text[p-1] == text[p+1] && (text[p-1] == ' ' || text[p-1] == '-')
}

// grouping is a text read as single characters apart by sep.
type grouping struct {
	text string
	sep  byte
}

// char reports a character of a key or a URL at text[i]: printable ASCII
// other than the separator.
func (g grouping) char(i int) bool {
	return i >= 0 && i < len(g.text) && g.text[i] > ' ' && g.text[i] < 0x7f && g.text[i] != g.sep
}

// single reports a character with none next to it.
func (g grouping) single(i int) bool { return g.char(i) && !g.char(i-1) && !g.char(i+1) }

// runAt returns the run of minGroup or more singles that holds text[p]
// (a single or a separator after one).
func (g grouping) runAt(p int) (span, bool) {
	q := p
	switch {
	case g.text[p] == g.sep && g.single(p-1):
		q = p - 1
	case !g.single(p):
		return span{}, false
	}
	start, end := q, q
	for start >= 2 && g.text[start-1] == g.sep && g.single(start-2) {
		start -= 2
	}
	for end+2 < len(g.text) && g.text[end+1] == g.sep && g.single(end+2) {
		end += 2
	}
	if (end-start)/2+1 < minGroup {
		return span{}, false
	}
	return span{start, end + 1}, true
}

// unescape decodes what hides a secret's characters from a regexp: URL
// %XX, JSON and source escapes (\uXXXX with surrogate pairs, \u{X…}, \xXX,
// \n, \t, \r, \", \', \\, \/), a backslash-newline line continuation with
// the next line's indentation, and HTML character references (&#65;,
// &#x41;, &amp; …). It returns nil for a text it leaves as it is.
func unescape(text string) (string, offmap) {
	var b mapper
	from, changed := 0, false // from: start of the text not yet copied
	var buf [utf8.UTFMax]byte
	for i := 0; i < len(text); {
		end, r, raw := decodeEscape(text, i)
		if end == i {
			i++
			continue
		}
		b.keep(text, from, i)
		switch {
		case r >= 0:
			b.put(i, end, buf[:utf8.EncodeRune(buf[:], r)])
		case raw >= 0:
			buf[0] = byte(raw)
			b.put(i, end, buf[:1])
		}
		i, from, changed = end, end, true
	}
	if !changed {
		return text, nil
	}
	b.keep(text, from, len(text))
	return string(b.out), b.m
}

// decodeEscape decodes the escape at text[i]: it returns the end of the
// escape and either the rune it stands for (r ≥ 0), a raw byte (raw ≥ 0:
// %XX and \xXX, which may be part of a UTF-8 sequence), or neither (a line
// continuation or a concatenation, which stand for nothing). end == i means
// no escape.
func decodeEscape(text string, i int) (end int, r rune, raw int) {
	if d := escapes[text[i]]; d != nil {
		return d(text, i)
	}
	return i, -1, -1
}

// escapes decode an escape by its first byte; each returns end == i for
// none.
var escapes = [256]func(text string, i int) (end int, r rune, raw int){
	'%':  decodePercent,
	'\\': decodeBackslash,
	'"':  decodeConcatenation,
	'\'': decodeConcatenation,
	'`':  decodeConcatenation,
	'&':  decodeReference,
}

// decodePercent decodes URL's %XX, a raw byte.
func decodePercent(text string, i int) (int, rune, int) {
	if rest := text[i:]; len(rest) >= 3 && isHex(rest[1]) && isHex(rest[2]) {
		return i + 3, -1, int(unhex(rest[1])<<4 | unhex(rest[2]))
	}
	return i, -1, -1
}

// decodeConcatenation drops a string concatenation ("AKIA" + "Q3ZR…").
func decodeConcatenation(text string, i int) (int, rune, int) {
	return i + concatenation(text[i:]), -1, -1
}

// backslashed are the one-character escapes of JSON and source code.
var backslashed = [256]rune{'n': '\n', 't': '\t', 'r': '\r', '"': '"', '\'': '\'', '\\': '\\', '/': '/'}

// decodeBackslash decodes an escape that starts with a backslash: \uXXXX
// and \u{X…}, \xXX, a one-character escape, or a line continuation.
func decodeBackslash(text string, i int) (int, rune, int) {
	if len(text)-i < 2 {
		return i, -1, -1
	}
	switch c := text[i+1]; c {
	case 'u':
		return decodeUnicode(text, i)
	case 'x':
		if rest := text[i:]; len(rest) >= 4 && isHex(rest[2]) && isHex(rest[3]) {
			return i + 4, -1, int(unhex(rest[2])<<4 | unhex(rest[3]))
		}
	case '\n', '\r':
		return lineContinuation(text, i), -1, -1
	default:
		if r := backslashed[c]; r != 0 {
			return i + 2, r, -1
		}
	}
	return i, -1, -1
}

// lineContinuation is the end of a backslash-newline at text[i] and the
// next line's indentation: it joins the lines, as a shell or a YAML
// double-quoted string does.
func lineContinuation(text string, i int) int {
	j := i + 2
	if text[i+1] == '\r' && j < len(text) && text[j] == '\n' {
		j++
	}
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j
}

// decodeUnicode decodes \u{X…} and \uXXXX, a pair of the latter being
// a surrogate pair: JSON's way to write a rune above U+FFFF.
func decodeUnicode(text string, i int) (int, rune, int) {
	rest := text[i:]
	if len(rest) >= 4 && rest[2] == '{' {
		return decodeBracedUnicode(text, i)
	}
	hi, ok := hex4(rest[2:])
	if !ok {
		return i, -1, -1
	}
	if hi >= 0xd800 && hi < 0xdc00 && len(rest) >= 12 && rest[6] == '\\' && rest[7] == 'u' {
		if lo, ok := hex4(rest[8:]); ok && lo >= 0xdc00 && lo < 0xe000 {
			return i + 12, (hi-0xd800)<<10 | (lo - 0xdc00) + 0x10000, -1
		}
	}
	return i + 6, hi, -1
}

// decodeBracedUnicode decodes \u{X…}, 1 to 6 hex digits.
func decodeBracedUnicode(text string, i int) (int, rune, int) {
	rest := text[i:]
	if n, ok := hexRun(rest[3:], 1, 6); ok && len(rest) > 3+n && rest[3+n] == '}' {
		if v, _ := strconv.ParseUint(rest[3:3+n], 16, 32); v <= unicode.MaxRune {
			return i + 4 + n, rune(v), -1
		}
	}
	return i, -1, -1
}

// hex4 decodes the four hex digits at the start of s.
func hex4(s string) (rune, bool) {
	if _, ok := hexRun(s, 4, 4); !ok {
		return 0, false
	}
	v, _ := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), true
}

// decodeReference decodes an HTML character reference: &#65; or &#x41;
// (the semicolon optional) or a named one (&amp;).
func decodeReference(text string, i int) (int, rune, int) {
	rest := text[i:]
	if len(rest) >= 4 && rest[1] == '#' {
		return decodeNumericReference(text, i)
	}
	for name, r := range htmlEntities {
		if len(rest) > len(name)+1 && rest[1:1+len(name)] == name && rest[1+len(name)] == ';' {
			return i + len(name) + 2, r, -1
		}
	}
	return i, -1, -1
}

// decodeNumericReference decodes &#DDD and &#xHHH, at most 8 digits and
// an optional semicolon.
func decodeNumericReference(text string, i int) (int, rune, int) {
	digits, base, at := text[i+2:], 10, 2
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base, at = text[i+3:], 16, 3
	}
	n := 0
	for n < len(digits) && n < 8 && (base == 16 && isHex(digits[n]) || base == 10 && digits[n] >= '0' && digits[n] <= '9') {
		n++
	}
	if n == 0 {
		return i, -1, -1
	}
	v, _ := strconv.ParseUint(digits[:n], base, 32)
	if v > unicode.MaxRune {
		return i, -1, -1
	}
	end := i + at + n
	if end < len(text) && text[end] == ';' {
		end++
	}
	return end, rune(v), -1
}

// htmlEntities are the named references a note or an export commonly
// carries; the numeric ones cover every other character.
var htmlEntities = map[string]rune{"amp": '&', "lt": '<', "gt": '>', "quot": '"', "apos": '\'', "nbsp": ' ', "sol": '/', "plus": '+', "equals": '=', "colon": ':', "lowbar": '_', "hyphen": '-', "period": '.'}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// hexRun returns the length of the run of hex digits at the start of s if
// it is between lo and hi long (it stops at hi).
func hexRun(s string, lo, hi int) (int, bool) {
	n := 0
	for n < len(s) && n < hi && isHex(s[n]) {
		n++
	}
	return n, n >= lo
}

// fold rewrites every non-ASCII character the way a reader would read it
// in a key: its compatibility decomposition (NFKD: fullwidth Ａ, 𝐀 and Ⓐ
// are A), accents and other combining marks dropped, Cyrillic and Greek
// lookalikes as the Latin letter (А in AKIA), and invisible characters
// (zero-width, soft hyphen, bidi controls, every format character)
// removed. Secrets are ASCII, so nothing a rule matches is lost. Per
// character NFKD rather than NFKC of the whole text keeps the offset map
// exact; no rule's characters compose. It returns nil for a text it leaves
// as it is.
func fold(text string) (string, offmap) {
	var b mapper
	from, changed := 0, false
	var buf []byte
	for i := 0; i < len(text); {
		if text[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size == 1 {
			i++
			continue
		}
		buf = foldRune(buf[:0], text[i:i+size], r)
		if string(buf) != text[i:i+size] {
			b.keep(text, from, i)
			b.put(i, i+size, buf)
			from, changed = i+size, true
		}
		i += size
	}
	if !changed {
		return text, nil
	}
	b.keep(text, from, len(text))
	return string(b.out), b.m
}

// foldRune appends the folded form of r (whose UTF-8 is s) to dst: the
// explicit homoglyphs first, then the compatibility decomposition (exact
// for mathematical, enclosed and full-width letters), then Unicode's
// confusables (Cherokee, Armenian, small capitals …); white space of every
// kind is a space.
func foldRune(dst []byte, s string, r rune) []byte {
	if invisible(r) {
		return dst
	}
	if l, ok := homoglyphs[r]; ok {
		return append(dst, l)
	}
	d := norm.NFKD.PropertiesString(s).Decomposition()
	if d == nil {
		if l, ok := confusables[r]; ok {
			return append(dst, l)
		}
		if unicode.IsSpace(r) {
			return append(dst, ' ')
		}
		return append(dst, s...)
	}
	for len(d) > 0 {
		r, size := utf8.DecodeRune(d)
		if l, ok := homoglyphs[r]; ok {
			dst = append(dst, l)
		} else if l, ok := confusables[r]; ok {
			dst = append(dst, l)
		} else if !invisible(r) {
			dst = append(dst, d[:size]...)
		}
		d = d[size:]
	}
	return dst
}

// invisible reports a character that shows nothing, or only changes how
// its neighbours show: format characters (zero-width space and joiners,
// soft hyphen, bidi controls, word joiner, BOM, tag characters),
// combining and enclosing marks (variation selectors among them), and the
// fillers that render as blank (Hangul, the blank braille pattern).
func invisible(r rune) bool {
	switch r {
	case 0x115f, 0x1160, 0x3164, 0xffa0, 0x2800:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Mn, unicode.Me)
}

// Folded is a text as the rules of secrets and injection match it (one
// folding for both, spec §8): Text is the folded copy, and Orig maps an
// offset in it back to the text given.
type Folded struct {
	Text string
	m    offmap
}

// Fold folds text as Find does before matching: compatibility forms
// (NFKD), mathematical, enclosed and full-width letters as the plain
// letter, combining marks and invisible characters removed, homoglyphs
// and Unicode's confusables mapped to ASCII. ASCII text is returned as is.
func Fold(text string) Folded {
	if isASCII(text) {
		return Folded{Text: text}
	}
	f, m := fold(text)
	return Folded{Text: f, m: m}
}

// Orig is the offset in the text given of the folded copy's byte off:
// the first byte of what it came from (a dropped invisible character
// before it does not count).
func (f Folded) Orig(off int) int {
	k := f.m.find(func(s segment) bool { return s.n <= off })
	if k < 0 {
		return off
	}
	s := f.m[k]
	switch {
	case off >= s.n+s.nlen:
		return s.o + s.olen + off - (s.n + s.nlen)
	case s.nlen == s.olen:
		return s.o + off - s.n
	}
	return s.o
}

// homoglyphs are the Cyrillic, Greek and other letters that look like a
// Latin letter or digit in most fonts (Unicode's confusables for the
// characters keys are made of).
var homoglyphs = map[rune]byte{
	// Cyrillic
	'А': 'A', 'В': 'B', 'Е': 'E', 'З': '3', 'І': 'I', 'Ј': 'J', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O',
	'Р': 'P', 'С': 'C', 'Ѕ': 'S', 'Т': 'T', 'У': 'Y', 'Х': 'X', 'Ү': 'Y', 'Ԛ': 'Q', 'Ԝ': 'W', 'Һ': 'H',
	'а': 'a', 'е': 'e', 'і': 'i', 'ј': 'j', 'о': 'o', 'р': 'p', 'с': 'c', 'ѕ': 's', 'у': 'y', 'х': 'x',
	'һ': 'h', 'ԛ': 'q', 'ԝ': 'w', 'ү': 'y', 'ԁ': 'd', 'ɡ': 'g', 'ı': 'i', 'ȷ': 'j',
	// Greek
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O',
	'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X', 'ο': 'o', 'ν': 'v', 'ρ': 'p', 'ι': 'i', 'κ': 'k', 'χ': 'x',
	'α': 'a', 'υ': 'u',
	// Armenian
	'օ': 'o', 'ս': 'u', 'հ': 'h', 'ո': 'n',
	// Small capitals (most are not in confusables.txt as a Latin letter).
	'ᴀ': 'a', 'ʙ': 'b', 'ᴄ': 'c', 'ᴅ': 'd', 'ᴇ': 'e', 'ꜰ': 'f', 'ɢ': 'g', 'ʜ': 'h', 'ɪ': 'i', 'ᴊ': 'j',
	'ᴋ': 'k', 'ʟ': 'l', 'ᴍ': 'm', 'ɴ': 'n', 'ᴏ': 'o', 'ᴘ': 'p', 'ǫ': 'q', 'ʀ': 'r', 'ꜱ': 's', 'ᴛ': 't',
	'ᴜ': 'u', 'ᴠ': 'v', 'ᴡ': 'w', 'ʏ': 'y', 'ᴢ': 'z',
	// Line and paragraph separators break a line like \n.
	'\u2028': '\n', '\u2029': '\n', '\u0085': '\n',
}
