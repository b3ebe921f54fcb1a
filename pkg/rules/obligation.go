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

// obligationBeforeVerb reports w, a second-person modal that other
// words share, before next, the verb it governs: Italian devi and dovete
// (Devi is also a name) before an infinitive, Portuguese tens (English
// "tens") before que or de.
func obligationBeforeVerb(w, next string) bool {
	switch w {
	case "devi", "dovete", "dovreste":
		return italianInfinitive.MatchString(next)
	case "tens":
		return next == "que" || next == "de"
	}
	return false
}

// italianInfinitive is an Italian infinitive, bare or with its clitic
// joined (iniziare, farlo, ricordarsi, dirmi).
var italianInfinitive = regexp.MustCompile(`^\pL{2,}(?:are|ere|ire|rre)(?:si|lo|la|li|le|ne|mi|ti|ci|vi|gli|glielo)?$`)

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
		if i+1 < len(ws) && obligationBeforeVerb(w, ws[i+1]) {
			return w + " " + ws[i+1]
		}
	}
	if m := germanObligation.FindString(text); m != "" {
		return strings.TrimLeftFunc(m, func(r rune) bool { return !unicode.IsLetter(r) })
	}
	return ""
}
