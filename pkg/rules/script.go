package rules

import (
	_ "embed"
	"maps"
	"slices"
	"strconv"
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
// a quoted name of one word or three characters is judged — or when the
// clause opens with them and holds two of their words apart: its grammar
// is theirs, and the Latin between them names things ("شغِّل Shadowplay
// من Dana", "添加 cross bones style 到 Guest List"). A clause in
// Latin or Cyrillic is unjudged too when it is written in a language no
// lexicon covers (uncoveredLanguage).
func unjudged(text string) (rule, msg string) {
	for _, clause := range splitTrimmed(text, clauseEnds, "") {
		judged, other := 0, 0
		run, words, inWord := 0, 0, false // the current run of unread letters: its weight, its words
		long := false
		var first rune         // the first letter the check cannot read, to name its script
		opens, all := false, 0 // the clause opens with a letter the check cannot read; its unread words
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
					opens = judged == 0
				}
				if !inWord {
					all++
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
				long = long || words >= 2 || run >= 12 || opens && all >= 2
			}
		}
		if other > judged || long {
			return Unjudged, "written in " + scriptName(first) + " script, which the instruction check has no verb model for: it cannot tell an order there from a statement, so the claim counts as possibly an order"
		}
		if lang, seen := uncoveredLanguage(clause); lang != "" {
			return Unjudged, "written in " + lang + " (" + strings.Join(seen, ", ") + "), a language the instruction check has no verb model for: it cannot tell an order there from a statement, so the claim counts as possibly an order"
		}
	}
	if n, read := unread(text); n > 0 {
		how := "none of the " + strconv.Itoa(n) + " words of a clause is"
		if read > 0 {
			how = "only " + strconv.Itoa(read) + " of the " + strconv.Itoa(n) + " words of a clause are"
		}
		return Unjudged, how + " in a language the instruction check has a verb model for: it cannot tell an order there from a statement, so the claim counts as possibly an order"
	}
	return "", ""
}

// A clause of at least unreadWords words is unread when fewer than one in
// readShare of them are words of one covered language: the figures that
// held the most Tagalog, Swahili and Yoruba and the fewest covered-language
// sentences of PUD (docs/security.md#what-the-check-cannot-judge).
const (
	unreadWords = 4
	readShare   = 3
)

// unread finds a clause of text that the instruction check cannot read:
// one of unreadWords words or more of which fewer than one in readShare
// are among the words a covered language writes most (languages.tsv's
// read rows). It inverts uncoveredLanguage's question: not "is this
// clause in a language we know not to read" but "is it in one we do", so
// a language no treebank lists (Tagalog, Yoruba) is unread too. Only
// words in lower case count, and a clause's first word: a capitalised
// word further on is a name (Chicago, Coldplay), and a token holding a
// digit, a capital after its first letter or a sign other than a hyphen
// or an apostrophe is a name of another kind (eu-central-1, snake_case,
// camelCase, Node.js, /etc/hosts, API): agents write technical notes, and
// those words are nobody's language. It returns the first such clause's
// words and the most of them one covered language reads (n 0: none).
func unread(text string) (n, read int) {
	signs := tellingSigns()
	for _, line := range strings.Split(text, "\n") {
		first := true
		var counts [8]int // the clause's words each covered language reads
		count := 0
		fields := strings.Fields(line)
		for i, tok := range fields {
			ws := clauseWords(tok, first)
			for _, w := range ws {
				count++
				for l, mask := 0, signs.reads(w); mask != 0; l, mask = l+1, mask>>1 {
					if mask&1 != 0 {
						counts[l]++
					}
				}
			}
			first = first && ws == nil && !strings.ContainsFunc(tok, unicode.IsLetter) // a bullet or a number does not open it
			last := strings.TrimRightFunc(tok, func(r rune) bool { return unicode.In(r, unicode.Pe, unicode.Pf) || r == '"' || r == '\'' })
			if r, _ := utf8.DecodeLastRuneInString(last); i < len(fields)-1 && !strings.ContainsRune(clauseEnds, r) {
				continue
			}
			best := slices.Max(counts[:])
			if count >= unreadWords && best*readShare < count {
				return count, best
			}
			first, counts, count = true, [8]int{}, 0
		}
	}
	return 0, 0
}

// clauseWords are the words tok stands for in a clause, lower-cased, for
// unread: none for a name (capitalised, unless it opens the clause) or a
// technical token, the parts between its hyphens for any other word.
func clauseWords(tok string, first bool) []string {
	tok = strings.TrimFunc(tok, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.IsMark(r) })
	if tok == "" {
		return nil
	}
	for i, r := range tok {
		switch {
		case unicode.IsUpper(r) && (i > 0 || !first):
			return nil // a name, an acronym, camelCase
		case !unicode.IsLetter(r) && !unicode.IsMark(r) && r != '-' && r != '\'' && r != '’':
			return nil // a number, a path, a version, snake_case, a host name
		}
	}
	return strings.FieldsFunc(strings.ToLower(tok), func(r rune) bool { return r == '-' })
}

// languages.tsv is scripts/udlanguages' output: what tells a clause's
// language, drawn from the UD treebanks (never PUD's). A "covered" word
// is frequent in a language the verb lexicon covers and rare in every
// Latin- or Cyrillic-script language it does not; an "uncovered" word the
// other way round (Swahili "katika", Turkish "için", Vietnamese "của",
// Polish "się"); a "letter" is one an uncovered language writes often and
// the covered languages almost never (Turkish ı, Polish ł, Czech ř,
// Vietnamese ư); a "romanized" word is an uncovered one of a language
// written in another script as its speakers type it in Latin letters
// (Hindi's "ke", "liye", "nahi", "kya"); a "read" row is a covered
// language's 5000 most frequent words, sorted, on one line (unread).
//
//go:embed languages.tsv
var languagesTSV string

// languageSigns are languages.tsv parsed: each word and letter with the
// languages it tells, "" for a covered one, and the words each covered
// language reads (its read row, as it lies in the table).
type languageSigns struct {
	words map[string][]string
	// romanized are the telling words of a language written in another
	// script when its speakers type it in Latin letters (Hindi): as an
	// uncovered language's to uncoveredLanguage, and nothing to the
	// statement gate, which reads the covered words such text mixes in.
	romanized map[string][]string
	letters   map[rune][]string
	read      []string // each covered language's read row: its frequent words, sorted, space-separated
	// readLang names the language of each read row.
	readLang []string
}

// stemRunes is how much of a longer word unread compares when the word
// itself is not among a language's frequent ones: Russian's endings
// (предпочитает, пользователь) and English's compounds outnumber what
// 5000 words hold, and the first five letters find their kin.
const stemRunes = 5

// stem is w's first stemRunes letters, or "" when w is no longer.
func stem(w string) string {
	i := 0
	for at := range w {
		if i == stemRunes {
			return w[:at]
		}
		i++
	}
	return ""
}

// reads is the covered languages, a bit each, that write w or, when w
// is longer than stemRunes letters, a longer word of its first stemRunes
// letters often. The rows are sorted, so both are a binary search of the
// embedded table where it lies: nothing is built per process, and only
// the pages a search touches are read.
func (s languageSigns) reads(w string) uint8 {
	st := stem(w)
	var mask uint8
	for l, row := range s.read {
		if at := rowSearch(row, w); rowWord(row, at) == w {
			mask |= 1 << l
			continue
		}
		if st == "" {
			continue
		}
		for at := rowSearch(row, st); at < len(row); at += len(rowWord(row, at)) + 1 {
			if word := rowWord(row, at); !strings.HasPrefix(word, st) {
				break
			} else if stem(word) != "" {
				mask |= 1 << l
				break
			}
		}
	}
	return mask
}

// writes reports w itself among the covered languages' frequent words
// (no kin by its first letters, as reads counts them).
func (s languageSigns) writes(w string) bool {
	for _, row := range s.read {
		if inRow(row, w) {
			return true
		}
	}
	return false
}

// rowSearch is the offset in row (sorted words, space-separated) of the
// first word not less than key, len(row) when there is none.
func rowSearch(row, key string) int {
	lo, hi := 0, len(row) // lo and hi are offsets of words (or len(row))
	for lo < hi {
		at := max(lo, strings.LastIndexByte(row[:(lo+hi)/2], ' ')+1) // the word before or at the middle: lo ≤ at < hi
		if word := rowWord(row, at); word < key {
			lo = min(at+len(word)+1, len(row))
		} else {
			hi = at
		}
	}
	return lo
}

// rowWord is the word of row at offset at ("" at its end).
func rowWord(row string, at int) string {
	if at >= len(row) {
		return ""
	}
	word, _, _ := strings.Cut(row[at:], " ")
	return word
}

// tellingSigns parses languages.tsv when first asked for (most mem
// processes never judge a claim).
var tellingSigns = sync.OnceValue(func() languageSigns {
	s := languageSigns{words: make(map[string][]string, 5000), romanized: map[string][]string{}, letters: map[rune][]string{}}
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
		case "romanized":
			s.romanized[sign] = append(s.romanized[sign], lang)
		case "read":
			s.read = append(s.read, sign)
			s.readLang = append(s.readLang, lang)
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
// own words ("that", "und", "não"). Hindi typed in Latin letters is such a
// language too ("server ka password bhej do"), told by its romanized words.
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
		for _, l := range signs.romanized[lower] {
			add(l, lower)
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
