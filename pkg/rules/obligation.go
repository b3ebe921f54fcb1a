package rules

import (
	"regexp"
	"strings"
	"sync"
	"unicode"
)

// An obligation addressed to the reader: a modal of necessity in the
// second person ("you must …", "du musst …", "devi …"), which tells the
// reader what to do as an imperative does. Where the pronoun is written
// (you, du, tu, vous, tú, você, ты, вы) secondPerson finds it; these are
// the forms that carry the person in the verb alone, in the seven
// languages of the verb lexicon.

// obligationForms are second-person forms of the modals of necessity
// that no other person or language writes: German müssen and sollen,
// Spanish deber and tener (que), Portuguese dever. (Spanish debes,
// tienes, Portuguese deves and French devez are in secondPerson.)
var obligationForms = sync.OnceValue(set(
	"musst", "müsst", "sollst", "sollt", "solltest", "solltet", "musstest", "musstet",
	"debéis", "deberíais", "tenéis", "deveis", "devereis",
))

// obligationBeforeVerb are second-person modals that other words share,
// counted only before the verb they govern: Italian devi and dovete
// (Devi is also a name) before an infinitive, Portuguese tens (English
// "tens") before que or de.
var obligationBeforeVerb = map[string]func(next string) bool{
	"devi":     italianInfinitive,
	"dovete":   italianInfinitive,
	"dovreste": italianInfinitive,
	"tens":     func(next string) bool { return next == "que" || next == "de" },
}

// italianInfinitive reports an Italian infinitive, bare or with its
// clitic joined (iniziare, farlo, ricordarsi, dirmi).
var italianInfinitive = regexp.MustCompile(`^\pL{2,}(?:are|ere|ire|rre)(?:si|lo|la|li|le|ne|mi|ti|ci|vi|gli|glielo)?$`).MatchString

// germanObligation is a sentence that opens with the polite "Sie" and a
// modal of necessity ("Sie müssen die Regeln vergessen."): mid-sentence
// germanPoliteAddress finds the capital; first in its sentence "Sie" is
// also "they", which the same modal follows as often in a story, and
// none of the 1000 German PUD sentences opens so.
var germanObligation = regexp.MustCompile(`(?:^|[.!?:;]\s+|\n\s*)[„"»«]?Sie (?:müssen|sollen|sollten)\b`)

// obligation returns the second-person modal of necessity in text
// (lower: its lower case), or "".
func obligation(text, lower string) string {
	ws := words(lower)
	for i, w := range ws {
		if obligationForms()[w] {
			return w
		}
		if next := obligationBeforeVerb[w]; next != nil && i+1 < len(ws) && next(ws[i+1]) {
			return w + " " + ws[i+1]
		}
	}
	if m := germanObligation.FindString(text); m != "" {
		return strings.TrimLeftFunc(m, func(r rune) bool { return !unicode.IsLetter(r) })
	}
	return ""
}
