package rules

import (
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
// annotate.
func italianTu(w string) bool {
	if utf8.RuneCountInString(w) < 4 {
		return false
	}
	return lemmaEnding(w, "Italian", [2]string{"a", "are"}, [2]string{"i", "ere"}, [2]string{"i", "ire"}, [2]string{"i", "rre"})
}

func italianTuOrder(text string) string {
	return tuOrder(text, italianTu, nil, italianStrong(), italianWeak())
}
