package secrets

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A secret may be hidden in base64 ("QUtJQV…"): runs of base64 that decode
// to printable text are scanned as text of their own, and a secret in one
// is reported at the whole run.

const (
	// minBase64 is the shortest run decoded: base64 of an AWS key id,
	// the shortest key in use that a rule matches, is 27 characters
	// without its padding.
	minBase64 = 24
	// maxDepth bounds base64 inside base64.
	maxDepth = 2
)

// b64 classes the bytes of base64, standard and URL-safe (0: not base64).
var b64 = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c >= 'A' && c <= 'Z':
			t[c] = b64Upper
		case c >= 'a' && c <= 'z' || c >= '0' && c <= '9':
			t[c] = b64Other
		case c == '+' || c == '/':
			t[c] = b64Std
		case c == '-' || c == '_':
			t[c] = b64URL
		}
	}
	return t
}()

const (
	b64Upper = 1 << iota
	b64Other // lower-case letter or digit
	b64Std   // + or /
	b64URL   // - or _
)

// base64Runs calls fn for each maximal run of base64 characters at least
// minBase64 long that can be base64 of text: it holds an upper-case letter
// and a lower-case letter or digit (as base64 of text does, and a
// lower-case slug, a path or a hex hash does not) and one alphabet only.
func (t *scanned) base64Runs(fn func(start, end int)) {
	for _, r := range t.b64Runs() {
		if r.class&b64Upper != 0 && r.class&b64Other != 0 && r.class&(b64Std|b64URL) != b64Std|b64URL {
			fn(r.start, r.end)
		}
	}
}

// scanned is a text being matched, with the runs that several rules and
// decoders ask of it found once: a scan costs one skip-ahead pass per
// alphabet, not one per rule.
type scanned struct {
	text       string
	b64, hex   []classRun
	b64d, hexd bool // found
}

// classRun is a maximal run of one alphabet's bytes and their classes.
type classRun struct {
	start, end int
	class      uint8
}

// b64Runs are the text's runs of base64 characters at least minBase64 long.
func (t *scanned) b64Runs() []classRun {
	if !t.b64d {
		t.b64, t.b64d = allRuns(t.text, &b64, minBase64), true
	}
	return t.b64
}

// hexRuns are the text's runs of hex digits at least 32 long (a key of
// 16 bytes).
func (t *scanned) hexRuns() []classRun {
	if !t.hexd {
		t.hex, t.hexd = allRuns(t.text, &hexDigits, 32), true
	}
	return t.hex
}

func allRuns(s string, table *[256]uint8, min int) []classRun {
	var out []classRun
	runs(s, table, min, func(start, end int, class uint8) { out = append(out, classRun{start, end, class}) })
	return out
}

// Base64Runs calls fn, in order, with each maximal run of at least min
// characters of the standard and URL base64 alphabets, found by the
// skip-ahead scan the scanner's decoders use: lint's base64-blob rule
// looks at every file.
func Base64Runs(s string, min int, fn func(start, end int)) {
	runs(s, &b64, min, func(start, end int, _ uint8) { fn(start, end) })
}

// runs calls fn for each maximal run at least min long of the bytes table
// classes (non-zero), with the union of their classes. It skips ahead min
// bytes at a time and looks back only to the last byte outside the table,
// so prose, whose words are short, costs a few loads per min bytes, not
// one per byte.
func runs(s string, table *[256]uint8, min int, fn func(start, end int, class uint8)) {
	for i := 0; ; {
		p := i + min - 1
		if p >= len(s) {
			return
		}
		class := table[s[p]]
		if class == 0 {
			i = p + 1
			continue
		}
		q := p - 1
		for ; q >= i; q-- {
			c := table[s[q]]
			if c == 0 {
				break
			}
			class |= c
		}
		if q >= i {
			i = q + 1
			continue
		}
		end := p + 1
		for ; end < len(s); end++ {
			c := table[s[end]]
			if c == 0 {
				break
			}
			class |= c
		}
		fn(i, end, class)
		i = end + 1
	}
}

// Hex and base32 hide a key as base64 does: "414b4941…", "IFFUSQK…".
const (
	minHex    = 40 // an AWS key id, 20 bytes
	minBase32 = 32
)

// hexDigits and base32Chars class the bytes of hex and of base32 (RFC
// 4648, upper case); 2 marks a letter.
var hexDigits, base32Chars = func() (h, b [256]uint8) {
	for c := range h {
		switch {
		case c >= '0' && c <= '9':
			h[c] = 1
		case c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			h[c] = 2
		}
		switch {
		case c >= '2' && c <= '7':
			b[c] = 1
		case c >= 'A' && c <= 'Z':
			b[c] = 2
		}
	}
	return h, b
}()

// encodedRuns calls fn with each run of hex or base32 in the text that decodes
// to printable text, and the text.
func (t *scanned) encodedRuns(fn func(start, end int, dec string)) {
	s := t.text
	for _, r := range t.hexRuns() {
		if r.class == 3 && r.end-r.start >= minHex {
			n := (r.end - r.start) &^ 1
			if dec, err := hex.DecodeString(s[r.start : r.start+n]); err == nil && printable(dec) {
				fn(r.start, r.end, string(dec))
			}
		}
	}
	runs(s, &base32Chars, minBase32, func(start, end int, class uint8) {
		if class != 3 {
			return
		}
		run := s[start:end]
		// Unpadded base32 is whole at these lengths mod 8.
		for n := len(run) % 8; n == 1 || n == 3 || n == 6; n = len(run) % 8 {
			run = run[:len(run)-1]
		}
		if dec, err := base32.StdEncoding.WithPadding(base32.NoPadding).DecodeString(run); err == nil && printable(dec) {
			pad := end
			for pad < len(s) && s[pad] == '=' {
				pad++
			}
			fn(start, pad, string(dec))
		}
	})
}

// DecodeBase64 decodes a run of base64 (standard or URL alphabet, padding
// left off) that is valid, printable UTF-8: base64 of text, not of data.
func DecodeBase64(run string) (string, bool) {
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		enc = base64.RawURLEncoding
	}
	if len(run)%4 == 1 { // a stray last character holds no whole byte
		run = run[:len(run)-1]
	}
	// Binary (an image, a hash) shows in its first bytes: decode those
	// before the whole run.
	if len(run) > 64 {
		head, err := enc.DecodeString(run[:64])
		if err != nil || !printable(head) {
			return "", false
		}
	}
	dec, err := enc.DecodeString(run)
	if err != nil || !printable(dec) {
		return "", false
	}
	return string(dec), true
}

// printable reports whether b is valid UTF-8 made of printable characters
// and white space; a last character cut short by the end is forgiven.
func printable(b []byte) bool {
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			return len(b) < utf8.UTFMax && !utf8.FullRune(b)
		}
		if !unicode.IsPrint(r) && r != '\n' && r != '\t' && r != '\r' {
			return false
		}
		b = b[size:]
	}
	return true
}
