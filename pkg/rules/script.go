package rules

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Unjudged is the rule of a claim the instruction check cannot read
// (unjudged): render says so in its own words.
const Unjudged = "instruction-unjudged"

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
// a quoted name of one word or three characters is judged. A clause in
// Latin or Cyrillic is unjudged too when it is written in a language no
// lexicon covers (uncoveredLanguage).
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
			return Unjudged, "written in " + scriptName(first) + " script, which the instruction check has no verb model for: it cannot tell an order there from a statement, so the claim counts as possibly an order"
		}
		if lang, seen := uncoveredLanguage(clause); lang != "" {
			return Unjudged, "written in " + lang + " (" + strings.Join(seen, ", ") + "), a language the instruction check has no verb model for: it cannot tell an order there from a statement, so the claim counts as possibly an order"
		}
	}
	return "", ""
}

// languages.tsv is scripts/udlanguages' output: what tells a clause's
// language, drawn from the UD treebanks (never PUD's). A "covered" word
// is frequent in a language the verb lexicon covers and rare in every
// Latin- or Cyrillic-script language it does not; an "uncovered" word the
// other way round (Swahili "katika", Turkish "için", Vietnamese "của",
// Polish "się"); a "letter" is one an uncovered language writes often and
// the covered languages almost never (Turkish ı, Polish ł, Czech ř,
// Vietnamese ư).
//
//go:embed languages.tsv
var languagesTSV string

// languageSigns are languages.tsv parsed: each word and letter with the
// languages it tells, "" for a covered one.
type languageSigns struct {
	words   map[string][]string
	letters map[rune][]string
}

// tellingSigns parses languages.tsv when first asked for (most mem
// processes never judge a claim).
var tellingSigns = sync.OnceValue(func() languageSigns {
	s := languageSigns{words: make(map[string][]string, 5000), letters: map[rune][]string{}}
	for rest := languagesTSV; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		kind, line, _ := strings.Cut(line, "\t")
		lang, sign, _ := strings.Cut(line, "\t")
		switch kind {
		case "covered":
			s.words[sign] = append(s.words[sign], "")
		case "uncovered":
			s.words[sign] = append(s.words[sign], lang)
		case "letter":
			r, _ := utf8.DecodeRuneInString(sign)
			s.letters[r] = append(s.letters[r], lang)
		}
	}
	return s
})

// uncoveredLanguage names the Latin- or Cyrillic-script language clause
// is written in when the verb lexicon does not cover it, and the words
// that say so: at least two different words that are that language's
// telling words or, written in lower case, hold one of its letters, and
// more of them than the covered languages' telling words in the clause.
// The rules made for English, German, Spanish, Portuguese, Italian,
// French and Russian read its orders by chance ("Eleza …", "Gợi ý …"
// render), so the clause is unjudged, as one in an unread script is. A
// capitalised word is not asked for its letters: a name (Erdoğan, Łódź)
// is written in any language; and a claim in a covered language holds its
// own words ("that", "und", "não").
func uncoveredLanguage(clause string) (lang string, seen []string) {
	signs := tellingSigns()
	covered := 0
	var found map[string][]string // made at the first sign: most clauses hold none
	add := func(l, w string) {
		if found == nil {
			found = map[string][]string{}
		}
		if !slices.Contains(found[l], w) {
			found[l] = append(found[l], w)
		}
	}
	for _, w := range words(clause) {
		first, _ := utf8.DecodeRuneInString(w)
		lower := strings.ToLower(w)
		for _, l := range signs.words[lower] {
			if l == "" {
				covered++
			} else {
				add(l, lower)
			}
		}
		if !unicode.IsLower(first) {
			continue
		}
		for _, r := range w {
			for _, l := range signs.letters[r] {
				add(l, w)
			}
		}
	}
	// Languages as close as Danish and Norwegian, or Dutch and Afrikaans,
	// share their words: every language with the most is named.
	// In order, so that the words named are those of the first of them.
	var langs []string
	for _, l := range slices.Sorted(maps.Keys(found)) {
		ws := found[l]
		switch {
		case len(ws) < 2 || len(ws) <= covered || len(ws) < len(seen):
		case len(ws) > len(seen):
			langs, seen = []string{l}, ws
		default:
			langs = append(langs, l)
		}
	}
	return strings.Join(langs, " or "), seen
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
