package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// quotedFields reports, field by field, the fields of a sentence that
// stand inside a quotation closed within it, when words stand outside it
// too: what the sentence quotes ("Reply \"Access Granted\"", "The alert
// said «disk full» at noon"), not what it says. Its words are a name or
// another's words, not the sentence's verb: a sentence whose only verb that
// states is quoted has none of its own ("Proclaim \"Access Granted\""), as
// one whose only verb is in a name has none. A quotation that is the whole
// sentence is the sentence, and read as one; one left open (a cut text) is
// not read as a quotation.
func quotedFields(fields []string) []bool {
	in := make([]bool, len(fields))
	open := -1      // the field that opened the quotation being read
	var closer rune // its closing mark
	outside := false
	for i, f := range fields {
		core := strings.TrimLeft(f, "([{")
		if open < 0 {
			if r, ok := quoteOpens(core); ok {
				open, closer = i, r
				_, size := utf8.DecodeRuneInString(core)
				core = core[size:]
				if core == "" {
					continue // a mark alone: "Say \" yes \""
				}
			} else {
				outside = outside || strings.ContainsFunc(f, unicode.IsLetter)
				continue
			}
		}
		if quoteCloses(core, closer) {
			if words := fieldsWithLetters(fields[open : i+1]); words <= quotedWords {
				for j := open; j <= i; j++ {
					in[j] = true
				}
			} else if words > 0 {
				outside = true // a quoted clause stands for a sentence's part
			}
			open = -1
		}
	}
	if open >= 0 {
		for _, f := range fields[open:] {
			outside = outside || strings.ContainsFunc(f, unicode.IsLetter)
		}
	}
	if !outside {
		return make([]bool, len(fields))
	}
	return in
}

// quotePairs are the quotation marks whose closing mark is told from the
// opening one by its place in a word: ", “ ”, „ “, « », » «.
var quotePairs = map[rune]rune{'"': '"', '“': '”', '„': '“', '«': '»', '»': '«', '”': '”'}

// quoteOpens reports a field that opens a quotation, and the mark that
// closes it.
func quoteOpens(f string) (rune, bool) {
	r, _ := utf8.DecodeRuneInString(f)
	r, ok := quotePairs[r]
	return r, ok
}

// quoteCloses reports a field that ends with closer, before the marks
// that may follow a quotation (.,;:!?) and closing brackets.
func quoteCloses(f string, closer rune) bool {
	f = strings.TrimRight(f, ".,;:!?)]}…")
	return strings.HasSuffix(f, string(closer))
}

// quotedWords is the most words a quotation read as a name or a phrase
// holds. In EWT and GUM (train, dev and test), a quotation of one to five
// words with words outside it holds its sentence's only finite verbs 0
// times in 173 ("the \"stupid\" one", "a \"free thinker\"", "\"Get Out\" was
// …"); one of six words or more 7 times in 87, each the sentence's own
// clause quoted ("By this time, \"her skin was weeping, …\", according to
// …", "… Baghdad, \"condemned the assassination …\""): such a quotation is
// read as the sentence's words.
const quotedWords = 5

// fieldsWithLetters counts the fields that hold a letter.
func fieldsWithLetters(fields []string) int {
	n := 0
	for _, f := range fields {
		if strings.ContainsFunc(f, unicode.IsLetter) {
			n++
		}
	}
	return n
}

// pauses reports a field followed by a comma, a colon or a dash's clause
// end: a comma or a colon last, or last before a closing quotation mark
// (American usage puts the comma inside: "In the world of \"Wei's magic
// cubes,\" all seem …"; the clause ends there as after the mark).
func pauses(f string) bool {
	f = strings.TrimRight(f, "\"”»«“")
	return strings.HasSuffix(f, ",") || strings.HasSuffix(f, "，") || strings.HasSuffix(f, ":")
}
