package rules

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestControls: every C0 character but tab and newline, DEL and every C1
// character is refused as control-character, once per text, at its first
// offset; the line breaks among them are injection-linebreak's, and CR LF
// is a line ending, refused by neither.
func TestControls(t *testing.T) {
	t.Parallel()
	for r := rune(0); r <= 0xA0; r++ {
		text := "a " + string(r) + " b"
		found := Text(text)
		got := ruleAt(found, "control-character")
		want := r < 0x20 && r != '\t' && r != '\n' && !LineBreak(r) || r >= 0x7f && r <= 0x9f && r != 0x85
		if (got >= 0) != want {
			t.Errorf("U+%04X: control-character found=%v, want %v (%v)", r, got >= 0, want, Names(found))
		}
		if want && got != 2 {
			t.Errorf("U+%04X: at %d, want 2", r, got)
		}
		if LineBreak(r) && r != '\n' && ruleAt(found, "injection-linebreak") < 0 {
			t.Errorf("U+%04X: a line break not refused: %v", r, Names(found))
		}
	}
	if found := Text("one\r\ntwo\r\nthree"); len(found) != 0 {
		t.Errorf("CRLF line endings: %v, want nothing", Names(found))
	}
	found := Text("x\x1b]52;c;eA==\a y \x1b[2J")
	if len(found) != 1 || found[0].Rule != "control-character" || !strings.Contains(found[0].Msg, `3 control character(s)`) || !strings.Contains(found[0].Msg, `first \x1b`) {
		t.Errorf("OSC 52 and CSI: %+v", found)
	}
}

func ruleAt(found []Finding, rule string) int {
	for _, f := range found {
		if f.Rule == rule {
			return f.Off
		}
	}
	return -1
}

// TestEscape: what a human output prints for each kind of character.
func TestEscape(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"plain text, tab\tand\nnewline":       "plain text, tab\tand\nnewline",
		"Persian URL\u200cها, emoji 👩\u200d💻": "Persian URL\u200cها, emoji 👩\u200d💻",
		"\x1b]52;c;eA==\a":                    `\x1b]52;c;eA==\x07`,
		"\x1b[2Jcleared":                      `\x1b[2Jcleared`,
		"crlf\r\nbare\rcr":                    "crlf\r\nbare\\rcr",
		"del\x7f nul\x00":                     `del\x7f nul\x00`,
		"c1 \u009b2J next\u0085":              `c1 \u009b2J next\u0085`,
		"exe.\u202egnp and \u2066iso\u2069":   `exe.\u202egnp and \u2066iso\u2069`,
		"sep\u2028par\u2029":                  `sep\u2028par\u2029`,
		"tag\U000E0041\U000E007F":             `tag\U000e0041\U000e007f`,
		"bad \x9b\xff utf8":                   `bad \x9b\xff utf8`,
		"cut \xe2\x80":                        `cut \xe2\x80`,
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if got := Escape(in); unsafeAt(got, 0) >= 0 {
			t.Errorf("Escape(%q) = %q still holds a character to escape", in, got)
		}
	}
	s := "nothing to escape"
	if got := Escape(s); got != s {
		t.Errorf("clean text changed: %q", got)
	}
}

// TestEscapeJSON: encoding/json's output keeps its meaning (it decodes to
// the same text) and holds no character a terminal acts on.
func TestEscapeJSON(t *testing.T) {
	t.Parallel()
	text := "del\x7f esc\x1b c1\u009b bidi\u202e sep\u2028 tag\U000E0041 fine é 👩\u200d💻"
	raw, err := json.Marshal(map[string]string{"s": text})
	if err != nil {
		t.Fatal(err)
	}
	out := EscapeJSON(raw)
	for _, r := range string(out) {
		if Unsafe(r) {
			t.Errorf("EscapeJSON left U+%04X in %s", r, out)
		}
	}
	var back map[string]string
	if err := json.Unmarshal(out, &back); err != nil || back["s"] != text {
		t.Errorf("EscapeJSON(%s) = %s: decodes to %q (%v), want %q", raw, out, back["s"], err, text)
	}
	if clean := []byte(`{"a":"é"}`); &EscapeJSON(clean)[0] != &clean[0] {
		t.Error("clean JSON was copied")
	}
}

// TestTerminal: a character or a CR LF split between writes is escaped
// (or kept) as if written whole.
func TestTerminal(t *testing.T) {
	t.Parallel()
	text := "a\x1b[2J é\u202e\r\nz\u009b \U000E0041 end\r"
	for cut := range len(text) + 1 {
		var b bytes.Buffer
		w := NewTerminal(&b)
		if n, err := w.Write([]byte(text[:cut])); err != nil || n != cut {
			t.Fatalf("write %d: %d, %v", cut, n, err)
		}
		w.Write([]byte(text[cut:]))
		w.Flush()
		if got, want := b.String(), Escape(text); got != want {
			t.Errorf("cut at %d: %q, want %q", cut, got, want)
		}
	}
}

// FuzzEscape: whatever the text, the escaped form holds no Unsafe
// character and no invalid UTF-8, and text with nothing to escape is kept.
func FuzzEscape(f *testing.F) {
	f.Add("\x1b]8;;http://x\a\u202e\r\xff")
	f.Add("\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Escape(s)
		if !utf8.ValidString(out) {
			t.Fatalf("Escape(%q) = %q: not UTF-8", s, out)
		}
		for i, r := range out {
			// CR LF is a line ending and stays; any other CR is escaped.
			if r == '\r' && !strings.HasPrefix(out[i:], "\r\n") || r != '\r' && Unsafe(r) {
				t.Fatalf("Escape(%q) = %q: U+%04X left", s, out, r)
			}
		}
		if unsafeAt(s, 0) < 0 && out != s {
			t.Fatalf("clean %q changed to %q", s, out)
		}
	})
}
