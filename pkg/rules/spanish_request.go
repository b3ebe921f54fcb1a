package rules

import (
	"strings"
	"sync"
)

// Spanish requests told by the verb's form, for Instruction. A request to
// an assistant is written in the infinitive as often as in the imperative
// ("buscar restaurantes cercanos", "abrir spotify"): the infinitive opens
// the clause and no finite verb follows it. A statement that opens with an
// infinitive makes it the subject of a finite verb ("Comer bien es
// sano"). docs/security.md, "Session 27, requests in Spanish (held out)".

// spanishLemmas holds the infinitives of the Spanish verb rows of
// imperatives.tsv (their last column): the verbs the treebanks annotate.
var spanishLemmas = sync.OnceValue(func() map[string]bool {
	m := map[string]bool{}
	for rest := imperativesTSV; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if !strings.HasPrefix(line, "verb\tSpanish\t") {
			continue
		}
		m[line[strings.LastIndexByte(line, '\t')+1:]] = true
	}
	return m
})

// spanishInfinitive reports w as the infinitive of a verb the treebanks
// annotate, bare or with its object pronoun joined ("convertirse").
func spanishInfinitive(w string) bool {
	lemmas := spanishLemmas()
	if lemmas[w] && hasSuffixAny(w, "ar", "er", "ir") {
		return true
	}
	for _, p := range []string{"se", "me", "te", "lo", "la", "le", "nos", "los", "las", "les"} {
		if v, ok := strings.CutSuffix(w, p); ok && lemmas[v] && hasSuffixAny(v, "ar", "er", "ir") {
			return true
		}
	}
	return false
}

// spanishFinite reports w as a finite form of a verb, by the closed class
// of the auxiliaries and copulas and by the endings of the past, the
// future and the conditional.
func spanishFinite(w string) bool {
	switch w {
	case "es", "son", "era", "eran", "fue", "fueron", "sea", "está", "están", "estaba", "ha", "han", "había", "hay", "habrá", "puede", "pueden", "podía", "debe", "deben", "tiene", "tienen", "será", "serán", "sería", "va", "van", "parece", "resulta", "supone", "implica", "requiere", "significa", "permite", "ayuda", "exige":
		return true
	}
	return hasSuffixAny(w, "ó", "aba", "aban", "ía", "ían", "rá", "rán") && len([]rune(w)) > 3
}

// spanishInfinitiveOrder returns the infinitive that opens a clause of
// text with no finite verb after it, or "".
func spanishInfinitiveOrder(text string) string {
	lower := strings.ToLower(text)
	if otherLatin(lower, "Spanish") {
		return ""
	}
	for _, c := range clauses(lower) {
		ws := words(c)
		if len(ws) < 2 || !spanishInfinitive(ws[0]) {
			continue
		}
		finite := false
		for _, w := range ws[1:] {
			if spanishFinite(w) {
				finite = true
				break
			}
		}
		if !finite {
			return ws[0]
		}
	}
	return ""
}
