package rules

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Unsafe reports a character no human output prints as it is (spec §8):
// the control characters (C0 but tab and newline, DEL, C1), which a
// terminal acts on, and the invisible characters that reorder or hide a
// line: the bidirectional embeddings, overrides and isolates (U+202A–E,
// U+2066–9, Trojan Source), the line and paragraph separators (U+2028,
// U+2029) and the Unicode tag characters (U+E0000–E007F, text a person
// cannot see). What scripts need to be written (ZWJ, ZWNJ, the
// directional marks) is not among them: a Persian word prints as it is.
func Unsafe(r rune) bool {
	switch {
	case r < 0x80:
		return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f
	case r <= 0x9f:
		return true
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	}
	return r >= 0xE0000 && r <= 0xE007F
}

// Escape is text as a human output prints it: every Unsafe character
// escaped, a C0 character or DEL as \xHH (\r for a bare carriage return;
// CR LF is a line ending and stays), any other as \uHHHH or \UHHHHHHHH,
// and a byte that is not UTF-8 as \xHH (a lone 0x9b is CSI to an 8-bit
// terminal). Text with nothing to escape is returned as it is. A
// backslash is not escaped: the output cannot be read back, only seen.
func Escape(text string) string {
	i := unsafeAt(text, 0)
	if i < 0 {
		return text
	}
	var b strings.Builder
	b.Grow(len(text) + 16)
	start := 0
	for i >= 0 {
		b.WriteString(text[start:i])
		r, size := utf8.DecodeRuneInString(text[i:])
		writeEscape(&b, text[i], r, size)
		start = i + size
		i = unsafeAt(text, start)
	}
	b.WriteString(text[start:])
	return b.String()
}

func writeEscape(b *strings.Builder, c byte, r rune, size int) {
	switch {
	case r == utf8.RuneError && size <= 1:
		fmt.Fprintf(b, `\x%02x`, c)
	case r == '\r':
		b.WriteString(`\r`)
	case r < 0x80:
		fmt.Fprintf(b, `\x%02x`, r)
	case r <= 0xFFFF:
		fmt.Fprintf(b, `\u%04x`, r)
	default:
		fmt.Fprintf(b, `\U%08x`, r)
	}
}

// unsafeAt is the offset of the first character of text from off that
// Escape escapes, or -1: an Unsafe one, a byte that is not UTF-8, or a CR
// not followed by LF.
func unsafeAt(text string, off int) int {
	for i := off; i < len(text); {
		c := text[i]
		if c >= 0x20 && c < 0x7f || c == '\n' || c == '\t' {
			i++
			continue
		}
		if c == '\r' && i+1 < len(text) && text[i+1] == '\n' {
			i += 2
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) {
			return i
		}
		i += size
	}
	return -1
}

// EscapeJSON is encoding/json's output with every Unsafe character it
// leaves raw (DEL, C1, the bidirectional controls, the tag characters)
// written as a JSON \u escape: the same text to a program, nothing a
// terminal acts on when a person reads it. encoding/json escapes C0,
// U+2028 and U+2029 and replaces invalid UTF-8 itself; outside strings
// JSON is ASCII, so every such character is inside a string.
func EscapeJSON(data []byte) []byte {
	i := jsonUnsafeAt(data, 0)
	if i < 0 {
		return data
	}
	out := make([]byte, 0, len(data)+16)
	start := 0
	for i >= 0 {
		out = append(out, data[start:i]...)
		r, size := utf8.DecodeRune(data[i:])
		if r > 0xFFFF {
			r1, r2 := utf16Pair(r)
			out = append(out, `\u`+hex4(r1)+`\u`+hex4(r2)...)
		} else {
			out = append(out, `\u`+hex4(r)...)
		}
		start = i + size
		i = jsonUnsafeAt(data, start)
	}
	return append(out, data[start:]...)
}

func jsonUnsafeAt(data []byte, off int) int {
	for i := off; i < len(data); {
		if data[i] < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if Unsafe(r) {
			return i
		}
		i += size
	}
	return -1
}

func utf16Pair(r rune) (rune, rune) {
	r -= 0x10000
	return 0xD800 + (r>>10)&0x3FF, 0xDC00 + r&0x3FF
}

func hex4(r rune) string {
	s := strconv.FormatInt(int64(r), 16)
	return strings.Repeat("0", 4-len(s)) + s
}

// Terminal is w with everything written to it passed through Escape: the
// one door of a command's stdout and stderr, so no printer, present or
// future, can put a control character from a file, a commit or a remote
// on a person's terminal. A character split between two writes is held
// back until it is whole (Flush writes what is left).
type Terminal struct {
	w    io.Writer
	held []byte
}

// NewTerminal wraps w.
func NewTerminal(w io.Writer) *Terminal { return &Terminal{w: w} }

func (t *Terminal) Write(p []byte) (int, error) {
	data := p
	if len(t.held) > 0 {
		data = append(t.held, p...)
		t.held = nil
	}
	keep := incomplete(data)
	if keep > 0 {
		t.held = append([]byte(nil), data[len(data)-keep:]...)
		data = data[:len(data)-keep]
	}
	s := string(data)
	if out := Escape(s); out != s {
		data = []byte(out)
	}
	if _, err := t.w.Write(data); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what a write left held back.
func (t *Terminal) Flush() error {
	if len(t.held) == 0 {
		return nil
	}
	_, err := t.w.Write([]byte(Escape(string(t.held))))
	t.held = nil
	return err
}

// incomplete is how many bytes at the end of data may be the start of a
// character (or a CR LF) the next write completes.
func incomplete(data []byte) int {
	n := len(data)
	if n > 0 && data[n-1] == '\r' {
		return 1
	}
	for k := 1; k <= 3 && k <= n; k++ {
		c := data[n-k]
		if c < 0x80 {
			return 0
		}
		if utf8.RuneStart(c) {
			if !utf8.FullRune(data[n-k:]) {
				return k
			}
			return 0
		}
	}
	return 0
}
