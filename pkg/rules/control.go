package rules

import (
	"fmt"
	"unicode/utf8"
)

// controls reports the control characters of text a memory may not hold:
// C0 but tab and newline, DEL, and C1 (U+0080–U+009F). A terminal acts on
// them (ESC [2J clears the screen, ESC ]52 writes the clipboard, ESC ]8
// hides a link behind other text, U+009B is CSI on its own) and a model
// reads what a person who printed the file never saw. The line breaks
// among them (a bare CR, VT, FF, U+0085) are injection-linebreak's, so one
// character is one finding; CR before LF is a line ending, not a control
// character: a file saved with CRLF line endings is refused by neither.
// nul says whether a NUL counts (see scan).
func controls(text string, nul bool) []Finding {
	n, first := 0, -1
	for off := 0; off < len(text); {
		c := text[off]
		if c >= 0x20 && c < 0x7f {
			off++
			continue
		}
		r, size := rune(c), 1
		if c >= 0x80 {
			r, size = utf8.DecodeRuneInString(text[off:])
		}
		if Control(r) && !LineBreak(r) && (nul || r != 0) {
			if n == 0 {
				first = off
			}
			n++
		}
		off += size
	}
	if n == 0 {
		return nil
	}
	return []Finding{{Rule: "control-character", Kind: Injection, Off: first, Msg: fmt.Sprintf(
		"%d control character(s) (C0 but tab and newline, DEL, C1; first %s): a terminal acts on them (clearing the screen, writing the clipboard, hiding a link) and a model reads what a person never saw; delete them, and write what they stood for as plain text",
		n, Escape(string(firstRune(text, first))))}}
}

func firstRune(text string, off int) rune {
	r, _ := utf8.DecodeRuneInString(text[off:])
	return r
}

// Control reports a control character other than tab and newline: C0,
// DEL and C1, line breaks among them (CR, VT, FF, U+0085).
func Control(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r >= 0x7f && r <= 0x9f
}
