package rules

import (
	"strings"
	"sync"
	"unicode/utf8"
)

// Portuguese requests told by the verb's form (romance_request.go), in
// European and Brazilian spelling alike: the infinitive opening a clause
// with no finite verb after it ("cancelar o temporizador na cozinha"),
// and the imperative of tu or você (the present's third person, the
// subjunctive's) opening a clause before its object ("abra as
// cortinas", "fecha a persiana").

var (
	portugueseFiniteClosed = sync.OnceValue(set("é", "são", "era", "eram", "foi", "foram", "está", "estão", "estava", "estavam", "tem", "têm", "tinha", "tinham", "há", "havia", "pode", "podem", "podia", "deve", "devem", "vai", "vão", "será", "serão", "seria", "faz", "fazem", "fica", "ficam", "parece", "permite", "ajuda", "significa", "exige", "requer", "implica", "ele", "ela", "eles", "elas", "eu", "nós", "você"))
	portugueseStrong       = sync.OnceValue(set("esse", "essa", "esses", "essas", "este", "esta", "estes", "estas", "meu", "minha", "meus", "minhas", "todo", "toda", "todos", "todas", "tudo"))
	portugueseWeak         = sync.OnceValue(set("o", "a", "os", "as", "um", "uma", "uns", "umas"))
	portuguesePrepositions = sync.OnceValue(set("para", "entre", "conforme", "sobre", "contra", "consoante", "segundo", "mediante", "perante", "desde", "durante", "tirante"))
	// portugueseIrregular are imperatives no paradigm makes.
	portugueseIrregular = sync.OnceValue(set("põe", "ponha", "faz", "faça", "diz", "diga", "traz", "traga", "dá", "dê", "vê", "veja"))
)

func portugueseInfinitive(w string) bool {
	return hasSuffixAny(w, "ar", "er", "ir", "or") && utf8.RuneCountInString(w) >= 4 && treebank().lemmas["Portuguese"][w]
}

// portugueseFinite reports w as a finite Portuguese verb or a subject
// pronoun: the closed class, and the simple past, the imperfect and the
// future of a verb the treebanks annotate ("ligou", "abria", "fechará").
func portugueseFinite(w string) bool {
	if portugueseFiniteClosed()[w] {
		return true
	}
	return lemmaEnding(w, "Portuguese", [2]string{"ou", "ar"}, [2]string{"aram", "ar"}, [2]string{"eu", "er"}, [2]string{"iu", "ir"},
		[2]string{"ava", "ar"}, [2]string{"avam", "ar"}, [2]string{"ia", "er"}, [2]string{"ia", "ir"}, [2]string{"iam", "er"}, [2]string{"iam", "ir"},
		[2]string{"ará", "ar"}, [2]string{"erá", "er"}, [2]string{"irá", "ir"}, [2]string{"arão", "ar"})
}

func portugueseInfinitiveOrder(text string) string {
	return infinitiveOrder(text, portugueseInfinitive, func(w string) bool { return portugueseFinite(w) || spanishFinite(w) })
}

// portugueseTu reports w as the imperative of tu (-a of -ar, -e of -er
// and -ir) or of você (-e of -ar, with gu and qu for g and c before it;
// -a of -er and -ir) of a verb the treebanks annotate.
func portugueseTu(w string) bool {
	if portugueseIrregular()[w] {
		return true
	}
	// A preposition spelt as an imperative is none ("para", "entre",
	// "conforme", "sobre").
	if utf8.RuneCountInString(w) < 4 || portuguesePrepositions()[w] {
		return false
	}
	return lemmaEnding(w, "Portuguese", [2]string{"a", "ar"}, [2]string{"e", "er"}, [2]string{"e", "ir"},
		[2]string{"e", "ar"}, [2]string{"ue", "ar"}, [2]string{"que", "car"}, [2]string{"a", "er"}, [2]string{"a", "ir"})
}

func portugueseTuOrder(text string) string {
	return tuOrder(text, portugueseTu, nil, portugueseStrong(), portugueseWeak())
}

// portugueseTypedOrder returns the imperative of tu or você that opens the
// first clause of text typed in lower case (typedOrder): the subjunctive
// of você ("ligue", "coloque", "abra", "ponha", "faça") is no third
// person of the indicative, so it is read as the second person; the tu
// forms ("liga", "acende") are also the third person ("funciona bem").
func portugueseTypedOrder(text string) string {
	return typedOrder(text, portugueseTyped())
}

var portugueseTyped = sync.OnceValue(func() typedLang {
	second := func(w string) bool {
		if portugueseSubjunctiveIrregular()[w] {
			return true
		}
		lemmas := treebank().lemmas["Portuguese"]
		if stem, ok := strings.CutSuffix(w, "e"); ok && len(stem) >= 2 && lemmas[stem+"ar"] && !lemmas[stem+"er"] && !lemmas[stem+"ir"] {
			return true // ative, mostre
		}
		if stem, ok := strings.CutSuffix(w, "a"); ok && len(stem) >= 2 && !lemmas[stem+"ar"] && (lemmas[stem+"er"] || lemmas[stem+"ir"]) {
			return true // abra, acenda
		}
		return lemmaEnding(w, "Portuguese", [2]string{"ue", "ar"}, [2]string{"que", "car"})
	}
	return iberianTyped(typedLang{
		imp: func(w string) bool {
			if portugueseNotVerb()[w] || portugueseStrong()[w] || portugueseWeak()[w] {
				return false
			}
			return portugueseTu(w)
		},
		second:   func(w string) bool { return utf8.RuneCountInString(w) >= 4 && second(w) },
		fronting: set("em", "na", "no", "nas", "nos", "dentro", "daqui", "após", "depois")(),
		strong:   portugueseStrong(),
		weak:     portugueseWeak(),
	})
})

var (
	// portugueseSubjunctiveIrregular are the imperatives of você no
	// paradigm makes; "põe", "faz", "diz", "dá", "vê" are also the third
	// person.
	portugueseSubjunctiveIrregular = sync.OnceValue(set("ponha", "faça", "diga", "traga", "dê", "veja"))
	// portugueseNotVerb are words spelt as an imperative that open a
	// text as something else ("nada" of nadar).
	portugueseNotVerb = sync.OnceValue(set("nada", "fora", "agora", "cada", "toda", "todo"))
	// portugueseAfterIntransitive follows a verb with no object: a
	// preposition, an adverb, a conjunction, a clitic ("funciona bem",
	// "depende de"); "de" and its articles follow a noun.
	portugueseAfterIntransitive = sync.OnceValue(set("a", "à", "ao", "aos", "às", "em", "no", "na", "nos", "nas", "num", "numa", "com", "por", "pelo", "pela", "para", "pra", "de", "do", "da", "dos", "das", "desde", "até", "sobre", "entre", "sem", "contra", "durante",
		"também", "só", "somente", "apenas", "bem", "mal", "sempre", "nunca", "não", "mais", "menos", "assim", "quando", "se", "e", "ou", "mas", "como", "já", "muito", "pouco", "aqui", "ali", "lá", "hoje", "agora", "ainda", "quase", "que", "me", "te", "lhe", "lhes", "demais", "antes", "depois", "cedo", "tarde", "cada", "outro", "outra", "mesmo", "mesma"))
)
