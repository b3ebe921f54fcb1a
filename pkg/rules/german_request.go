package rules

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// German requests typed in lower case, for Instruction. German writes the
// first word of a sentence with a capital, and every noun; a text whose
// first word is typed in lower case is typed as a request to an assistant
// is, and there the verb's place tells the mood a capital would hide:
//
//   - the singular imperative, with its -e or without it ("stoppe alle
//     Timer", "fahr die Rollos runter", "entriegel die Haustür"): no
//     statement opens with a verb's stem;
//   - a verb in -t opening the text before "sich", a subject pronoun or
//     the particle that ends the clause ("schaltet im Wohnzimmer die
//     Lüfter aus", "befindet sich jemand zu Hause"): the plural
//     imperative, or a question (a statement puts its finite verb
//     second);
//   - an article opening the text and an infinitive ending it ("die
//     Lautstärke auf 10 stellen"): the impersonal order, its object
//     first.
//
// docs/security.md, "Session 27, Home Assistant's requests in French,
// Portuguese, Italian, German and English (held out)".

// germanTypedParticles are the separable particles that end a clause whose
// verb they belong to (germanParticles, and the compound ones).
var germanTypedParticles = sync.OnceValue(set("aus", "ab", "an", "auf", "ein", "zurück", "vor", "mit", "weg", "los", "fest", "um", "nach", "zu", "her", "hin",
	"hinzu", "runter", "rauf", "hoch", "herunter", "hinunter", "herauf", "hinauf", "zusammen", "fort", "weiter", "aufwärts", "abwärts"))

// germanTypedSubjects follow a verb that opens a question: "sich" and the
// pronouns no object is.
var germanTypedSubjects = sync.OnceValue(set("sich", "er", "sie", "es", "man", "jemand", "irgendjemand", "niemand", "jeder", "wir", "ihr", "du"))

var germanTypedArticles = sync.OnceValue(set("der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "alle"))

// germanStemVerb reports w as a German verb's stem: w+"en" or w+"n" the
// infinitive of a verb the lexicon holds (fahr: fahren, entriegel:
// entriegeln), or w in -e and its stem one.
func germanStemVerb(w string, f treebankForms) bool {
	if utf8.RuneCountInString(w) < 4 {
		return false
	}
	return f.germanVerb(w+"en") || hasSuffixAny(w, "el", "er") && f.germanVerb(w+"n") || strings.HasSuffix(w, "e") && germanTypedVerb(w+"n", f)
}

// germanTypedVerb reports inf as the infinitive of a verb the lexicon
// holds, or of one in -ieren, the class German makes its borrowed verbs in
// (pausieren, aktivieren).
func germanTypedVerb(inf string, f treebankForms) bool {
	return f.germanVerb(inf) || strings.HasSuffix(inf, "ieren") && utf8.RuneCountInString(inf) >= 8
}

// germanTypedPhrase open a phrase after a verb that opens its clause: a
// preposition with its article joined, and the determiners of an object.
var germanTypedPhrase = sync.OnceValue(set("im", "am", "zum", "zur", "vom", "beim", "ins", "die", "das", "den", "dem", "alle", "sämtliche", "jeden", "jede", "meine", "meinen", "unsere", "unseren"))

var germanUmlautOff = strings.NewReplacer("ä", "a", "ö", "o", "ü", "u")

// germanTVerb reports w as a verb's form in -t or -et (schaltet, befindet),
// its stem's umlaut taken off (fährt: fahren).
func germanTVerb(w string, f treebankForms) bool {
	stem, ok := strings.CutSuffix(w, "t")
	if !ok || utf8.RuneCountInString(stem) < 3 {
		return false
	}
	for _, s := range []string{stem, strings.TrimSuffix(stem, "e")} {
		plain := germanUmlautOff.Replace(s)
		if f.germanVerb(s+"en") || f.germanVerb(plain+"en") || hasSuffixAny(s, "el", "er") && f.germanVerb(s+"n") {
			return true
		}
	}
	return false
}

// germanTypedOrder returns the word by which a German text typed in lower
// case is a request, or "".
func germanTypedOrder(text string) string {
	s := strings.TrimSpace(text)
	head, _, _ := strings.Cut(s, ",")
	head, _, _ = strings.Cut(head, ":")
	ws := words(head)
	// The text opens with its word, not a number before it ("1538
	// warnte …").
	if len(ws) < 2 || !strings.HasPrefix(s, ws[0]) || ws[0] != strings.ToLower(ws[0]) || utf8.RuneCountInString(ws[0]) < 2 {
		return ""
	}
	if otherLatinBut(strings.ToLower(s), "German", germanObjects) || !germanWritten(ws) {
		return ""
	}
	f := treebank()
	// A finite verb after the first word makes the first a subject's or
	// an adverb's (nicht alle … waren; anfang Oktober nutzte …).
	if slices.ContainsFunc(ws[1:], func(w string) bool { return germanFinite()[w] || germanPast(w, f) }) {
		return ""
	}
	first, last := ws[0], ws[len(ws)-1]
	switch {
	case germanTypedArticles()[first]:
		// Not before a comma: "die Richtlinien bestimmen, dass …" is a
		// plural subject and its verb.
		if len(ws) >= 4 && !strings.ContainsAny(s, ",;") && last == strings.ToLower(last) && germanTypedVerb(last, f) {
			return last
		}
	case germanNotVerbs[first] || germanFinite()[first] || germanClauseOpeners()[first] || f.sub[first]:
	case germanStemVerb(first, f):
		return first
	case germanTVerb(first, f):
		if germanTypedSubjects()[ws[1]] || len(ws) >= 3 && germanTypedParticles()[last] {
			return first
		}
	// A form in -et the lexicon lacks opening the text before the
	// particle that ends it (schaltet … aus), or one in -e before a
	// phrase (stoppe im Wohnzimmer …, beende sämtliche Timer): no finite
	// verb follows, so no noun is its subject.
	case strings.HasSuffix(first, "et") && len(ws) >= 3 && germanTypedParticles()[last],
		strings.HasSuffix(first, "e") && utf8.RuneCountInString(first) >= 5 && germanTypedPhrase()[ws[1]] && !treebank().words["German"][first]:
		return first
	}
	return ""
}

// germanPast reports w as a weak verb's past (nutzte, schalteten) on a
// stem the lexicon holds.
func germanPast(w string, f treebankForms) bool {
	for _, e := range []string{"te", "ten", "tet", "test"} {
		if stem, ok := strings.CutSuffix(w, e); ok && utf8.RuneCountInString(stem) >= 3 && (f.germanVerb(stem+"en") || f.germanVerb(strings.TrimSuffix(stem, "e")+"en")) {
			return true
		}
	}
	return false
}

// germanWritten reports words of a German text: a noun's capital after
// the first word, or ä, ö, ü, ß.
func germanWritten(ws []string) bool {
	for _, w := range ws[1:] {
		if strings.ContainsAny(w, "äöüßÄÖÜ") || w != strings.ToLower(w) {
			return true
		}
	}
	return strings.ContainsAny(ws[0], "äöüß")
}
