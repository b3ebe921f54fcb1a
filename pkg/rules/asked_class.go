package rules

import (
	"iter"
	"slices"
	"strings"
	"sync"
)

// Questions without their mark, told by where the verb stands: German
// puts the finite verb first in a yes-or-no question and second after an
// interrogative's phrase, and a statement's subordinate clause puts it
// last; Italian asks with an interrogative before the verb. Each reads a
// clause with no comma (a subordinate clause takes its main clause after
// one: "Wie erwartet, stieg …", "Come è noto, il …") in a text that holds
// no telling word of another covered language written in Latin letters.

// germanAsked returns the words that make a clause of lower (lower
// case) a German question, or "": a finite verb of the lexicon in the
// present (its stem and -t: spielt, bleibt) or one of the auxiliaries and
// modals that open a question (askVerbFirst) opening it ("spielt … im
// Kino", "wird … kühler sein"), or "es" after a verb in -t ("schneit es
// in Kanada"); an interrogative with one word before its verb and more
// after it ("wie heiß wird es", "welche Filme spielen in …", "wie viel
// Zeit bleibt …": the plural's form is the infinitive's), or with the verb
// of the lexicon straight after it ("wann spielt …"; not "wie" and "was",
// as and what: "wie folgt", "was bleibt"). A participle that ends as the
// present does (erwartet, bestellt) opens a statement before its
// auxiliary ("Erwartet wird …"): the verbs with an inseparable prefix
// or in -ieren are left out, and an auxiliary after the first word
// makes no question.
func germanAsked(lower string) string {
	f := treebank()
	if otherLatin(lower, "German") {
		return ""
	}
	for ws := range commaFree(clauses(lower)) {
		// "wie viel Zeit bleibt …": the interrogative's phrase is three
		// words.
		if len(ws) > 2 && ws[0] == "wie" && (ws[1] == "viel" || ws[1] == "viele") {
			ws = append([]string{"wie"}, ws[2:]...)
		}
		if len(ws) < 2 {
			continue
		}
		switch {
		case askVerbFirst()[ws[0]] && germanOnlyAux[ws[0]],
			f.germanPresent(ws[0]) && !germanFinite()[ws[1]] && !askVerbs()[ws[1]],
			strings.HasSuffix(ws[0], "t") && ws[1] == "es" && len(ws) > 2:
			return ws[0] + " " + ws[1]
		case germanAskers[ws[0]] && (f.germanPresent(ws[1]) && ws[0] != "wie" && ws[0] != "was" || len(ws) > 3 && (askVerbs()[ws[2]] || f.germanPresent(ws[2]) || f.deLemma[ws[2]])):
			return ws[0]
		}
	}
	return ""
}

// germanOnlyAux are the auxiliaries and modals of askVerbFirst that are
// German's and no noun's (Soll and Muss are nouns too).
var germanOnlyAux = map[string]bool{"ist": true, "sind": true, "kann": true, "können": true, "kannst": true, "hast": true, "gibt": true, "wird": true, "werden": true, "darf": true}

// germanAskers are German's interrogatives; "wie" and "was" are also
// "as" and "what" of a relative clause, which puts its verb last.
var germanAskers = map[string]bool{"wie": true, "was": true, "wo": true, "wann": true, "warum": true, "wieso": true, "weshalb": true, "wer": true, "welche": true, "welcher": true, "welches": true, "welchen": true}

// germanPresent reports w, the third person singular present of a German
// verb of the lexicon (its stem and -t, -et after d or t), whose
// participle is not the same form: no inseparable prefix, not -ieren.
func (f treebankForms) germanPresent(w string) bool {
	stem, ok := strings.CutSuffix(w, "t")
	if !ok || len(stem) < 3 {
		return false
	}
	for _, inf := range []string{stem + "en", strings.TrimSuffix(stem, "e") + "en", stem + "n"} {
		if !f.deLemma[inf] || strings.HasSuffix(inf, "ieren") {
			continue
		}
		if slices.ContainsFunc([]string{"be", "ge", "er", "ver", "zer", "ent", "emp", "miss"}, func(p string) bool { return strings.HasPrefix(inf, p) }) {
			continue
		}
		return true
	}
	return false
}

// italianAsked returns the interrogative that opens a clause of lower
// (lower case) as an Italian question, or "": che or quanto with the
// copula or fare straight after it or after one word ("che tempo fa",
// "quanto caldo sarà"), come with their future ("come sarà il tempo").
func italianAsked(lower string) string {
	if otherLatin(lower, "Italian") {
		return ""
	}
	for ws := range commaFree(clauses(lower)) {
		if len(ws) >= 3 && ws[0] == "a" {
			ws = ws[1:]
		}
		if len(ws) < 2 || !italianAskers[ws[0]] {
			continue
		}
		verbs := italianAskVerbs()
		if ws[0] == "come" {
			// "Come è noto …" (as is known) opens a statement.
			verbs = italianFutureAskVerbs()
		}
		if verbs[ws[1]] || len(ws) > 2 && verbs[ws[2]] {
			return ws[0]
		}
	}
	return ""
}

// italianAskers are the interrogatives italianAsked reads; "quando" (when)
// opens a clause of time as often, with no comma before its main clause.
var italianAskers = map[string]bool{"che": true, "quanto": true, "quanta": true, "quanti": true, "quante": true, "come": true}

// italianAskVerbs are the forms of essere, fare and stare a question puts
// after its interrogative, and Italian's alone.
var italianAskVerbs = sync.OnceValue(set("è", "sarà", "saranno", "sono", "era", "erano", "fa", "farà", "fanno", "faranno", "sta", "starà", "c'è", "ci"))

var italianFutureAskVerbs = sync.OnceValue(set("sarà", "saranno", "farà", "faranno", "starà"))

// commaFree yields the words of each of cs that holds no comma: a clause
// a subordinate one opens takes its main clause after a comma ("Wie
// erwartet, stieg …"), and what its first words say is not the main one's.
func commaFree(cs []string) iter.Seq[[]string] {
	return func(yield func([]string) bool) {
		for _, c := range cs {
			if !strings.ContainsAny(c, ",，") && !yield(words(c)) {
				return
			}
		}
	}
}
