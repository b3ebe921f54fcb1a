package rules

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Italian requests told by the verb's form (romance_request.go): the
// infinitive opening a clause with no finite verb after it ("fermare i
// timer in cucina"), and the imperative of tu (-a of -are, -i of -ere and
// -ire) opening a clause before its object ("togli 5 minuti", "chiudi
// tutto").

var (
	italianFiniteClosed = sync.OnceValue(set("è", "sono", "era", "erano", "fu", "sarà", "saranno", "sarebbe", "ha", "hanno", "aveva", "avevano", "può", "possono", "poteva", "deve", "devono", "doveva", "fa", "fanno", "va", "vanno", "permette", "serve", "significa", "richiede", "resta", "rimane", "sembra", "aiuta", "io", "lui", "lei", "noi", "voi", "loro", "c'è"))
	italianStrong       = sync.OnceValue(set("questo", "questa", "questi", "queste", "quel", "quello", "quella", "quei", "quelle", "mio", "mia", "miei", "mie", "tutto", "tutta", "tutti", "tutte"))
	italianWeak         = sync.OnceValue(set("il", "lo", "la", "l'", "i", "gli", "le", "un", "uno", "una", "un'"))
)

func italianInf(w string) bool {
	return hasSuffixAny(w, "are", "ere", "ire", "rre") && utf8.RuneCountInString(w) >= 5 && treebank().lemmas["Italian"][w]
}

// italianFinite reports w as a finite Italian verb or a subject pronoun:
// the closed class, and the imperfect, the simple past and the future of
// a verb the treebanks annotate ("spegneva", "chiuse", "aprirà").
func italianFinite(w string) bool {
	if italianFiniteClosed()[w] {
		return true
	}
	return lemmaEnding(w, "Italian", [2]string{"ava", "are"}, [2]string{"avano", "are"}, [2]string{"eva", "ere"}, [2]string{"evano", "ere"},
		[2]string{"iva", "ire"}, [2]string{"ivano", "ire"}, [2]string{"ò", "are"}, [2]string{"arono", "are"}, [2]string{"ì", "ire"},
		[2]string{"erà", "are"}, [2]string{"erà", "ere"}, [2]string{"irà", "ire"}, [2]string{"eranno", "are"}, [2]string{"eranno", "ere"})
}

func italianInfinitiveOrder(text string) string {
	return infinitiveOrder(text, italianInf, func(w string) bool { return italianFinite(w) || spanishFinite(w) })
}

// italianTu reports w as the imperative of tu of a verb the treebanks
// annotate, with the -isc- of finire ("inserisci") and the -gli of
// togliere ("togli").
func italianTu(w string) bool {
	if utf8.RuneCountInString(w) < 4 {
		return false
	}
	if strings.HasSuffix(w, "gli") && lemmaEnding(w, "Italian", [2]string{"", "ere"}) {
		return true // togliere, scegliere: togli, scegli
	}
	return lemmaEnding(w, "Italian", [2]string{"a", "are"}, [2]string{"i", "ere"}, [2]string{"i", "ire"}, [2]string{"i", "rre"}, [2]string{"isci", "ire"})
}

func italianTuOrder(text string) string {
	return tuOrder(text, italianTu, nil, italianStrong(), italianWeak())
}

var (
	// italianFronting opens a place or a time put before the verb ("in
	// cucina accendi la luce", "tra 5 minuti, apri la porta").
	italianFronting = sync.OnceValue(set("in", "nel", "nella", "nello", "nell'", "nei", "negli", "nelle", "tra", "fra", "dopo", "entro", "sul", "sulla"))
	// italianTuIrregular are second persons of tu the paradigm does not
	// make: of andare, fare, dare, stare, uscire, venire, tenere.
	italianTuIrregular = sync.OnceValue(set("vai", "fai", "dai", "stai", "esci", "vieni", "tieni"))
	// italianNounTail follows a plural noun more than a verb: "leggi
	// dello Stato", "fondi e prestiti", "parti che …".
	italianNounTail = sync.OnceValue(set("di", "del", "della", "dello", "dell'", "dei", "degli", "delle", "e", "ed", "o", "che", "come", "non"))
	// italianAfterIntransitive follows a verb with no object: a
	// preposition, an adverb, a conjunction ("funziona su Linux", "resta
	// sempre", "supporta anche"); "di" and its articles follow a noun
	// ("programma dei film", Portuguese "data de hoje").
	italianAfterIntransitive = sync.OnceValue(set("a", "ad", "al", "alla", "allo", "all'", "ai", "agli", "alle", "su", "sul", "sulla", "sui", "in", "nel", "nella", "con", "col", "per", "da", "dal", "dalla", "di", "del", "della", "dello", "dell'", "dei", "degli", "delle", "de", "tra", "fra",
		"anche", "solo", "soltanto", "bene", "male", "sempre", "mai", "non", "più", "meno", "così", "quando", "se", "e", "o", "ma", "come", "ancora", "già", "molto", "poco", "spesso", "qui", "qua", "lì", "là", "oggi", "ora", "adesso", "senza", "dopo", "prima", "tutto", "niente", "nulla", "si", "ne", "ci", "mi", "ti", "vi", "che"))
)

// italianTypedOrder returns the imperative of tu that opens the first
// clause of text typed in lower case (typedOrder): the -i of -ere and
// -ire ("spegni", "aggiungi"), -isci, -gli and the irregular ones are the
// second person whatever they are (indicative or imperative: addressed to
// the reader); the -a of -are is also the third person ("funziona su
// Linux").
func italianTypedOrder(text string) string {
	return typedOrder(text, italianTyped())
}

var italianTyped = sync.OnceValue(func() typedLang {
	return typedLang{
		imp:       func(w string) bool { return italianTu(w) || italianTuIrregular()[w] },
		second:    func(w string) bool { return strings.HasSuffix(w, "i") || italianTuIrregular()[w] },
		finite:    italianFinite,
		fronting:  italianFronting(),
		strong:    italianStrong(),
		weak:      italianWeak(),
		nounTail:  italianNounTail(),
		intransit: italianAfterIntransitive(),
	}
})
