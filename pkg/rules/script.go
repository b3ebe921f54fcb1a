package rules

import "unicode"

// clauseEnds are where unjudged cuts a text into clauses: the ends of
// sentences in the scripts mem meets (Latin, CJK full-width, Devanagari
// danda, Arabic question mark and semicolon, Urdu full stop) and lines.
const clauseEnds = ".!?;\n。！？；｡।॥؟؛۔"

// unjudged reports a text holding a clause that Instruction cannot
// judge: one whose letters are mostly in a script other than Latin and
// Cyrillic, the two the verb lexicons generated from the Universal
// Dependencies treebanks cover (imperatives.tsv). For Arabic, Hebrew,
// Greek, Devanagari, Bengali, Thai, Han, Kana, Hangul and the rest there
// are only a few hand rules, and an order they miss would render; so a
// claim the check cannot read is treated as possibly an order and waits
// for a person (docs/security.md#what-the-check-cannot-judge).
//
// The clause decides, not the text: a Chinese sentence with an English
// word is not judged, and a Latin sentence that quotes a Chinese name is.
// A character of Han, Kana, Hangul or Yi writes a syllable or a morpheme,
// as much as a Latin word's two or three letters, and counts three; a
// letter or vowel sign of any other script counts one. Combining marks of
// no script of their own (Arabic short vowels, accents) and everything
// that is not a letter count nothing. A clause is unjudged when the
// letters the check cannot read outweigh those it can (a tie is judged),
// or when they hold a run long enough to say "do this to that" whatever
// Latin pads it: two words, or a weight of 12 (four Han characters) —
// a quoted name of one word or three characters is judged.
func unjudged(text string) (rule, msg string) {
	for _, clause := range splitTrimmed(text, clauseEnds, "") {
		judged, other := 0, 0
		run, words, inWord := 0, 0, false // the current run of unread letters: its weight, its words
		long := false
		var first rune // the first letter the check cannot read, to name its script
		for _, r := range clause {
			switch {
			case !unicode.IsLetter(r) && !unicode.IsMark(r), unicode.In(r, unicode.Inherited, unicode.Common):
				inWord = inWord && unicode.IsMark(r)
			case unicode.In(r, unicode.Latin, unicode.Cyrillic):
				judged++
				run, words, inWord = 0, 0, false
			default:
				if first == 0 {
					first = r
				}
				w := 1
				if unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Yi) {
					w = 3
				}
				other += w
				run += w
				if !inWord {
					words++
					inWord = true
				}
				long = long || words >= 2 || run >= 12
			}
		}
		if other > judged || long {
			return "instruction-unjudged", "written in " + scriptName(first) + " script, which the instruction check has no verb model for: it cannot tell an order there from a statement, so the claim counts as possibly an order"
		}
	}
	return "", ""
}

// scriptName is the Unicode name of r's script ("Arabic", "Han").
func scriptName(r rune) string {
	for name, table := range unicode.Scripts {
		if unicode.Is(table, r) {
			return name
		}
	}
	return "an unknown"
}
