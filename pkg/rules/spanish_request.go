package rules

import (
	"slices"
	"strings"
	"sync"
)

// Spanish requests told by the verb's form, for Instruction. A request to
// an assistant is written in the infinitive as often as in the imperative
// ("buscar restaurantes cercanos", "abrir spotify"): the infinitive opens
// the clause and no finite verb follows it. A statement that opens with an
// infinitive makes it the subject of a finite verb ("Comer bien es
// sano"). docs/security.md, "Session 27, requests in Spanish (held out)".

// spanishRequest judges text's Spanish requests for Instruction: an
// infinitive opening a clause with no finite verb after it, or a tú
// imperative where its place tells the mood.
func spanishRequest(text string) (rule, msg string) {
	if w := spanishInfinitiveOrder(text); w != "" {
		return "instruction-imperative", "a Spanish infinitive opening a clause with no finite verb after it (" + w + "): a request, not a statement about the world"
	}
	if w := spanishTuOrder(text); w != "" {
		return "instruction-imperative", "a Spanish imperative opening a clause before its object or with its pronoun joined (" + w + "): an order, not a statement about the world"
	}
	if w := spanishTypedOrder(text); w != "" {
		return "instruction-imperative", "a Spanish imperative opening a request typed in lower case (" + w + "): an order, not a statement about the world"
	}
	return "", ""
}

// spanishInfinitive reports w as the infinitive of a verb the treebanks
// annotate, bare or with its object pronoun joined ("convertirse").
func spanishInfinitive(w string) bool {
	lemmas := treebank().lemmas["Spanish"]
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
// future and the conditional on a verb the treebanks annotate
// ("ayudó", "permitía", "cambiará"; not "categoría").
func spanishFinite(w string) bool {
	switch w {
	case "es", "son", "era", "eran", "fue", "fueron", "sea", "está", "están", "estaba", "ha", "han", "había", "hay", "habrá", "puede", "pueden", "podía", "debe", "deben", "tiene", "tienen", "será", "serán", "sería", "va", "van", "parece", "resulta", "supone", "implica", "requiere", "significa", "permite", "ayuda", "exige":
		return true
	}
	lemmas := treebank().lemmas["Spanish"]
	for _, e := range []struct{ end, inf string }{
		{"ó", "ar"}, {"ió", "er"}, {"ió", "ir"}, {"aba", "ar"}, {"aban", "ar"},
		{"ía", "er"}, {"ía", "ir"}, {"ían", "er"}, {"ían", "ir"},
	} {
		if stem, ok := strings.CutSuffix(w, e.end); ok && stem != "" && lemmas[stem+e.inf] {
			return true
		}
	}
	for _, e := range []string{"á", "án", "ía", "ían"} {
		if inf, ok := strings.CutSuffix(w, e); ok && lemmas[inf] {
			return true
		}
	}
	return false
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

// spanishIrregular are the tú imperatives no paradigm makes: a closed
// class of eight.
var spanishIrregular = map[string]bool{"pon": true, "haz": true, "di": true, "sal": true, "ten": true, "ven": true, "ve": true, "sé": true}

// spanishTu reports w as the tú imperative of a verb the treebanks
// annotate: its stem and -a (-ar) or -e (-er, -ir), the stem's last vowel
// diphthongized or raised as the present makes it (comprobar: comprueba,
// cerrar: cierra, repetir: repite). The form is also the third person of
// the present, so the place it stands in must tell the mood.
func spanishTu(w string) bool {
	if spanishIrregular[w] {
		return true
	}
	lemmas := treebank().lemmas["Spanish"]
	var infs []string
	switch {
	case strings.HasSuffix(w, "a"):
		infs = []string{"ar"}
	case strings.HasSuffix(w, "e"):
		infs = []string{"er", "ir"}
	default:
		return false
	}
	stem := w[:len(w)-1]
	stems := []string{stem}
	for _, ch := range []struct{ from, to string }{{"ue", "o"}, {"ie", "e"}, {"i", "e"}} {
		if i := strings.LastIndex(stem, ch.from); i >= 0 {
			stems = append(stems, stem[:i]+ch.to+stem[i+len(ch.from):])
		}
	}
	for _, s := range stems {
		for _, inf := range infs {
			if len(s) >= 2 && lemmas[s+inf] {
				return true
			}
		}
	}
	return false
}

// spanishMonosyllable reports w as an irregular tú imperative of one
// syllable with its object pronoun joined ("dime", "ponlo", "hazme"),
// which takes no written accent, so spanishEnclitic (order.go) does not
// read it.
func spanishMonosyllable(w string) bool {
	// Not "se" nor "os" (di-os is a noun), and "ve" (go) only as "vete"
	// (ve-la, ve-los are nouns).
	for _, p := range []string{"me", "te", "nos", "le", "les", "lo", "la", "los", "las"} {
		if v, ok := strings.CutSuffix(w, p); ok && spanishIrregular[v] && v != "sé" && (v != "ve" || p == "te") {
			return true
		}
	}
	return false
}

// spanishTuOrder returns the tú imperative that opens a clause of text
// before a demonstrative, a possessive or "algo" (its object: a subject
// after its verb takes the article), or an irregular one with its
// pronoun joined, or "". Before an article the form is read as an order
// only in a clause typed in lower case, as a request to an assistant is
// ("comprueba la humedad"): a statement may put its subject after its
// verb ("Llega la primavera") but opens its sentence with a capital.
// "Para" is the preposition.
func spanishTuOrder(text string) string {
	if otherLatin(strings.ToLower(text), "Spanish") {
		return ""
	}
	return tuOrder(text, func(w string) bool { return w != "para" && spanishTu(w) }, spanishMonosyllable, spanishStrong(), spanishWeak())
}

var (
	// spanishStrong open a tú imperative's object: a demonstrative, a
	// possessive, "algo".
	spanishStrong = sync.OnceValue(set("ese", "esa", "esos", "esas", "este", "esta", "estos", "estas", "mi", "mis", "tu", "tus", "algo"))
	// spanishWeak are the articles, read after the imperative only in a
	// clause typed in lower case.
	spanishWeak = sync.OnceValue(set("el", "la", "los", "las", "un", "una"))
)

// spanishTypedOrder returns the tú or usted imperative that opens the
// first clause of text typed in lower case (typedOrder): the irregular
// ones but "ve" and "sé" ("pon", "haz", "sal"), "detén", "mantén" of
// -tener, and usted's (spanishUsted) are no third person of the
// indicative; the -a and -e of the paradigm are also the
// third person ("funciona bien"). A form the treebanks lack is read by
// Portuguese's lemmas, whose verbs Spanish mostly shares ("apaga" of
// apagar).
func spanishTypedOrder(text string) string {
	if otherLatin(strings.ToLower(text), "Spanish") {
		return ""
	}
	return typedOrder(text, spanishTyped())
}

var spanishTyped = sync.OnceValue(func() typedLang {
	second := func(w string) bool {
		if spanishIrregular[w] && w != "ve" && w != "sé" || spanishUsted(w, "Spanish") || spanishUsted(w, "Portuguese") {
			return true
		}
		stem, ok := strings.CutSuffix(w, "én")
		return ok && stem != "" && treebank().lemmas["Spanish"][stem+"ener"]
	}
	return iberianTyped(typedLang{
		imp: func(w string) bool {
			if spanishNotVerb()[w] || spanishStrong()[w] || spanishWeak()[w] {
				return false
			}
			return second(w) || spanishTu(w) || lemmaEnding(w, "Portuguese", [2]string{"a", "ar"}, [2]string{"e", "er"}, [2]string{"e", "ir"})
		},
		second:   second,
		fronting: set("en", "dentro")(),
		strong:   spanishStrong(),
		weak:     spanishWeak(),
	})
})

var (
	// spanishNotVerb are words spelt as a tú imperative that open a text
	// as something else: prepositions, pronouns ("nada" of nadar), and
	// "hace", only the third person ("hace calor").
	spanishNotVerb = sync.OnceValue(set("para", "nada", "hace", "entre", "sobre", "contra", "cerca", "fuera", "ahora", "toda", "todo"))
	// spanishAfterIntransitive follows a verb with no object: a
	// preposition, an adverb, a conjunction, a clitic ("funciona bien",
	// "depende de", "llega a"); "de" and "del" follow a noun.
	spanishAfterIntransitive = sync.OnceValue(set("a", "al", "en", "con", "por", "para", "de", "del", "desde", "hasta", "sobre", "entre", "sin", "según", "hacia", "contra", "durante", "tras",
		"también", "tampoco", "solo", "sólo", "bien", "mal", "siempre", "nunca", "jamás", "no", "más", "menos", "así", "cuando", "si", "y", "e", "o", "u", "pero", "como", "ya", "muy", "mucho", "poco", "aquí", "allí", "allá", "acá", "hoy", "ahora", "todavía", "aún", "casi", "que", "se", "me", "te", "le", "lo", "les", "nos", "os", "mejor", "peor", "bastante", "demasiado", "antes", "después", "tarde", "pronto", "cada", "otra", "otro", "mismo", "misma"))
)

// spanishUstedIrregular are usted's imperatives no paradigm makes.
var spanishUstedIrregular = sync.OnceValue(set("ponga", "haga", "diga", "salga", "tenga", "venga", "traiga", "vaya", "sepa", "oiga"))

// spanishUsted reports w as the imperative of usted (the present
// subjunctive) of a verb lang's treebanks annotate, where it is not also
// the indicative: -e of -ar only ("apague", "busque", "lance"), -a of -er
// and -ir only ("encienda", "abra", "establezca"), the stem's vowel
// diphthongized as the present makes it. Portuguese's lemmas read the
// -ar verbs Spanish's lack ("apague").
func spanishUsted(w, lang string) bool {
	if spanishUstedIrregular()[w] {
		return true
	}
	lemmas := treebank().lemmas[lang]
	var mine, other []string
	var stem string
	switch {
	case strings.HasSuffix(w, "que"), strings.HasSuffix(w, "gue"), strings.HasSuffix(w, "ce"):
		switch {
		case strings.HasSuffix(w, "que"):
			stem = strings.TrimSuffix(w, "que") + "c"
		case strings.HasSuffix(w, "gue"):
			stem = strings.TrimSuffix(w, "gue") + "g"
		default:
			stem = strings.TrimSuffix(w, "ce") + "z"
		}
		mine, other = []string{"ar"}, nil
	case strings.HasSuffix(w, "zca"):
		stem, mine = strings.TrimSuffix(w, "zca")+"c", []string{"er", "ir"}
	case strings.HasSuffix(w, "e"):
		stem, mine, other = w[:len(w)-1], []string{"ar"}, []string{"er", "ir"}
	case strings.HasSuffix(w, "a"):
		stem, mine, other = w[:len(w)-1], []string{"er", "ir"}, []string{"ar"}
	default:
		return false
	}
	if lang != "Spanish" && !slices.Contains(mine, "ar") {
		return false // -er and -ir by Spanish's lemmas only: "tina", "comida"
	}
	stems := []string{stem}
	for _, ch := range []struct{ from, to string }{{"ue", "o"}, {"ie", "e"}} {
		if i := strings.LastIndex(stem, ch.from); i >= 0 {
			stems = append(stems, stem[:i]+ch.to+stem[i+len(ch.from):])
		}
	}
	for _, s := range stems {
		if len(s) < 2 || slices.ContainsFunc(other, func(e string) bool { return lemmas[s+e] }) {
			continue
		}
		if slices.ContainsFunc(mine, func(e string) bool { return lemmas[s+e] }) {
			return true
		}
	}
	return false
}
