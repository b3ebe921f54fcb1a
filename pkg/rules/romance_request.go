package rules

import (
	"math/bits"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Requests to an assistant in French, Portuguese and Italian told by the
// verb's form, for Instruction: an infinitive opening a clause with no
// finite verb after it ("activer le ventilateur", "cancelar o
// temporizador", "fermare i timer"), and the familiar imperative opening
// a clause before its object. docs/security.md, "Session 27, Home
// Assistant's requests in French, Portuguese, Italian, German and English
// (held out)".

// romanceRequest judges text's French, Portuguese and Italian requests:
// each language's rules only where text holds no telling word of another
// covered language written in Latin letters (latinTelling).
func romanceRequest(text string) (rule, msg string) {
	tells := latinTelling(strings.ToLower(text))
	if bits.OnesCount8(tells) > 1 {
		return "", ""
	}
	for _, j := range []struct {
		lang string
		find func(string) string
		msg  string
	}{
		{"French", frenchInfinitiveOrder, "a French infinitive opening a clause with no finite verb after it (%s): a request, not a statement about the world"},
		{"French", frenchTuOrder, "a French imperative opening a clause before its object (%s): an order, not a statement about the world"},
		{"Portuguese", portugueseInfinitiveOrder, "a Portuguese infinitive opening a clause with no finite verb after it (%s): a request, not a statement about the world"},
		{"Portuguese", portugueseTuOrder, "a Portuguese imperative opening a clause before its object (%s): an order, not a statement about the world"},
		{"Portuguese", portugueseTypedOrder, "a Portuguese imperative opening a request typed in lower case (%s): an order, not a statement about the world"},
		{"Italian", italianInfinitiveOrder, "an Italian infinitive opening a clause with no finite verb after it (%s): a request, not a statement about the world"},
		{"Italian", italianTuOrder, "an Italian imperative opening a clause before its object (%s): an order, not a statement about the world"},
		{"Italian", italianTypedOrder, "an Italian imperative opening a request typed in lower case (%s): an order, not a statement about the world"},
	} {
		if tells != 0 && tells != latinBit(j.lang) {
			continue
		}
		if w := j.find(text); w != "" {
			return "instruction-imperative", strings.Replace(j.msg, "%s", w, 1)
		}
	}
	return "", ""
}

// infinitiveOrder returns the infinitive (by isInf) that opens a clause
// of text with no finite verb (by finite: the language's, and for
// Portuguese and Italian Spanish's too, whose infinitives they share,
// "Buscar errores … ayudó") after it,
// or "" (romanceRequest has asked that text hold no other language's
// telling word). A
// clause after a colon is left alone: there an infinitive explains what
// came before ("une seule chance : battre l'Angleterre").
func infinitiveOrder(text string, isInf, finite func(string) bool) string {
	lower := strings.ToLower(text)
	for _, c := range splitTrimmed(lower, ".!;\n。！；", " \t0123456789") {
		c, _, _ = strings.Cut(c, ":")
		ws := words(c)
		if len(ws) < 2 || !isInf(ws[0]) {
			continue
		}
		if !slices.ContainsFunc(ws[1:], finite) {
			return ws[0]
		}
	}
	return ""
}

// lemmaEnding reports w as a lemma of lang minus one of the infinitive
// endings, plus one of the given endings: stem+end where stem+inf is a
// lemma, for each {end, inf} pair.
func lemmaEnding(w, lang string, pairs ...[2]string) bool {
	lemmas := treebank().lemmas[lang]
	for _, p := range pairs {
		if stem, ok := strings.CutSuffix(w, p[0]); ok && len(stem) >= 2 && lemmas[stem+p[1]] {
			return true
		}
	}
	return false
}

// tuOrder returns the imperative (by isImp) that opens a clause of text
// before a word of strong (a demonstrative, a possessive: its object), or
// before a word of weak (an article) in a clause typed in lower case, as
// a request to an assistant is: a statement may put its subject after its
// verb but opens its sentence with a capital. joined, when not nil, reads
// a clause's first word alone as an imperative with its pronoun joined.
func tuOrder(text string, isImp, joined func(string) bool, strong, weak map[string]bool) string {
	for _, c := range clauses(text) {
		ws := words(c)
		if len(ws) > 0 && joined != nil && joined(strings.ToLower(ws[0])) {
			return strings.ToLower(ws[0])
		}
		if len(ws) < 2 {
			continue
		}
		typed := ws[0] == strings.ToLower(ws[0])
		first, next := strings.ToLower(ws[0]), strings.ToLower(ws[1])
		if i := strings.IndexAny(next, "'’"); i > 0 {
			next = next[:i] + "'" // French elides its article: l'interrupteur
		}
		if !isImp(first) {
			continue
		}
		if strong[next] || typed && weak[next] {
			return first
		}
	}
	return ""
}

// typedLang are a language's words for typedOrder.
type typedLang struct {
	// imp reports the familiar imperative; second, those of its forms
	// that are the second person whatever their mood (addressed to the
	// reader), not also the third person.
	imp, second, finite func(string) bool
	// infinitive, when not nil, reports the infinitive a verb with no
	// object of its own may take ("visa levar").
	infinitive func(string) bool
	// fronting opens a place or a time put before the verb; strong and
	// weak open an object (a demonstrative or a possessive, an article);
	// nounTail follows a plural noun more than a verb; intransit
	// follows a verb with no object (a preposition, an adverb, a
	// conjunction, a clitic).
	fronting, strong, weak, nounTail, intransit map[string]bool
}

// typedOrder returns the imperative (by l.imp) that opens the first
// clause of text typed in lower case, as a request to an assistant is
// typed (a statement opens its sentence with a capital), after a fronted
// place or time if any, before what no statement puts there:
//   - a second person (l.second) is addressed to the reader whatever its
//     mood, so anything may follow but what follows a plural noun or a
//     finite verb; alone it is an order too;
//   - a form that is also the third person is an order only opening the
//     text before a bare object (not a preposition, an adverb, a
//     conjunction, a clitic, a gerund or an infinitive) or an article; after a fronted phrase,
//     before an article or a demonstrative only (as tuOrder).
func typedOrder(text string, l typedLang) string {
	cs := clauses(text)
	if len(cs) == 0 {
		return ""
	}
	ws := words(cs[0])
	first, _ := utf8.DecodeRuneInString(strings.TrimSpace(text))
	if len(ws) == 0 || !unicode.IsLower(first) {
		return ""
	}
	i := l.fronted(ws)
	if i < 0 {
		return ""
	}
	w, next := ws[i], ""
	if i+1 < len(ws) {
		next = ws[i+1]
	}
	switch {
	case l.second(w):
		if l.nounTail[next] || l.finite(next) {
			return ""
		}
		return w
	case i > 0:
		if l.strong[next] || l.weak[next] {
			return w
		}
		return ""
	case next == "" || l.intransit[next] || hasSuffixAny(next, "mente", "ndo") || l.finite(next) || l.infinitive != nil && l.infinitive(next):
		return ""
	}
	return w
}

// fronted returns the index in ws of the imperative opening the clause,
// or its first one within four words after a fronted place or time ("in
// soggiorno il climatizzatore spegni"), or -1. A word right after the
// preposition or an article is the place's noun ("in una nota la CGIA
// afferma"), not the verb.
func (l typedLang) fronted(ws []string) int {
	if l.imp(ws[0]) {
		return 0
	}
	if !l.fronting[ws[0]] {
		return -1
	}
	for i := 1; i < len(ws) && i <= 4; i++ {
		after := ws[i-1]
		if l.imp(ws[i]) && !l.fronting[after] && !l.weak[after] && !l.strong[after] {
			return i
		}
		if l.finite(ws[i]) {
			return -1
		}
	}
	return -1
}

// iberianTyped fills what Spanish and Portuguese share in typedOrder:
// their verbs are spelt alike ("funciona", "depende", "liga") and a
// request in one language holds no telling word of the other, so each
// reads the finite verbs, infinitives and function words of both
// ("funciona bien", "depende da versão").
func iberianTyped(l typedLang) typedLang {
	l.finite = func(w string) bool { return spanishFinite(w) || portugueseFinite(w) }
	imp := l.imp
	l.imp = func(w string) bool { return !l.finite(w) && imp(w) } // "tiene", "fica"
	l.infinitive = func(w string) bool { return spanishInfinitive(w) || portugueseInfinitive(w) }
	l.intransit = iberianAfterIntransitive()
	l.nounTail = iberianNounTail()
	return l
}

var (
	iberianNounTail = sync.OnceValue(func() map[string]bool {
		return union(set("de", "del", "y", "e", "o", "u", "que", "como", "no")(), set("de", "do", "da", "dos", "das", "e", "ou", "que", "como", "não")())
	})
	iberianAfterIntransitive = sync.OnceValue(func() map[string]bool {
		return union(spanishAfterIntransitive(), portugueseAfterIntransitive())
	})
)
