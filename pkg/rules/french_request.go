package rules

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// French requests told by the verb's form (romance_request.go). French
// writes the subject of every finite verb, so an infinitive opening a
// clause with no subject pronoun and no finite verb after it is a request
// ("activer le ventilateur de plafond"); a statement opening with one
// makes it the subject of a finite verb ("Manger bien est sain").

var (
	// frenchFiniteClosed are the finite forms of French's auxiliaries,
	// copulas and commonest verbs, and its subject pronouns: a finite
	// verb follows them.
	frenchFiniteClosed = sync.OnceValue(set("est", "sont", "était", "étaient", "fut", "sera", "seront", "serait", "a", "ont", "avait", "avaient", "aura", "peut", "peuvent", "pouvait", "doit", "doivent", "devait", "fait", "font", "va", "vont", "permet", "permettent", "reste", "semble", "devient", "demande", "exige", "suffit", "signifie", "consiste", "je", "j'", "il", "elle", "on", "ils", "elles", "nous", "vous", "c'est", "n'est", "s'est", "qu'il", "qu'elle", "qu'on"))
	// frenchObject open the object of a French imperative: a
	// determiner, a demonstrative, a possessive.
	frenchObject = sync.OnceValue(set("ce", "cet", "cette", "ces", "mon", "ma", "mes", "ton", "ta", "tes", "tout", "toutes", "tous", "le", "la", "les", "l'", "un", "une", "des", "du"))
	// frenchIrregular are second-singular imperatives of -re and -ir
	// verbs in -s, which no -er paradigm makes: a closed class.
	frenchIrregular = sync.OnceValue(set("mets", "met", "remets", "fais", "refais", "dis", "prends", "reprends", "éteins", "rejoins", "lis", "relis", "écris", "sors", "viens", "tiens", "choisis", "remplis", "finis"))
)

// frenchInfinitive reports w as the infinitive of a French verb the
// treebanks annotate.
func frenchInfinitive(w string) bool {
	return hasSuffixAny(w, "er", "ir", "re") && utf8.RuneCountInString(w) >= 4 && treebank().lemmas["French"][w]
}

// frenchFinite reports w as a finite French verb or a subject pronoun:
// the closed class, the imperfect, the future and the simple past of a
// verb the treebanks annotate ("allumait", "fermera", "monta").
func frenchFinite(w string) bool {
	if frenchFiniteClosed()[w] || strings.HasPrefix(w, "l'") && frenchFiniteClosed()[w[2:]] {
		return true
	}
	return lemmaEnding(w, "French", [2]string{"ait", "er"}, [2]string{"aient", "er"}, [2]string{"era", "er"}, [2]string{"eront", "er"},
		[2]string{"a", "er"}, [2]string{"èrent", "er"}, [2]string{"ait", "re"}, [2]string{"issait", "ir"}, [2]string{"ira", "ir"}, [2]string{"ra", "re"})
}

func frenchInfinitiveOrder(text string) string {
	return infinitiveOrder(text, frenchInfinitive, frenchFinite)
}

// frenchTu reports w as the second singular imperative of a French -er
// verb the treebanks annotate, its stem's è written e in the infinitive
// (enlève: enlever), or one of the closed class in -s.
func frenchTu(w string) bool {
	if frenchIrregular()[w] {
		return true
	}
	// The prepositions entre, contre and outre are no imperatives.
	if !strings.HasSuffix(w, "e") || utf8.RuneCountInString(w) < 4 || w == "entre" || w == "contre" || w == "outre" {
		return false
	}
	lemmas := treebank().lemmas["French"]
	return lemmas[w+"r"] || lemmas[strings.Replace(w, "è", "e", 1)+"r"]
}

// frenchTuOrder reads the imperative before an article whatever its
// case: French writes the subject of every finite verb, so only an order
// opens its sentence with the verb before its object ("Mets le minuteur
// en pause").
func frenchTuOrder(text string) string {
	return tuOrder(text, frenchTu, nil, frenchObject(), nil)
}
