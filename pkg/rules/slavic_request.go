package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Russian and Ukrainian requests told by the imperative's form, for
// Instruction: the forms the lexicon's regular paradigm does not make
// (снять: сними, not сняй), the imperative of the verbs in -овать, -евать
// and Ukrainian -увати (-уй), the negated imperative, and the lexicon's
// Russian imperatives opening a Ukrainian clause, which russianScript
// keeps from the Russian rules. docs/security.md, "Session 27, Home
// Assistant's requests in Russian, Ukrainian and 13 other languages (held
// out)".

// slavicRequest judges text's Russian and Ukrainian requests.
func slavicRequest(text string) (rule, msg string) {
	typed := strings.TrimLeftFunc(text, func(r rune) bool { return !unicode.IsLetter(r) })
	r, _ := utf8.DecodeRuneInString(typed)
	lowerCase := unicode.IsLower(r)
	for _, s := range sentences(text) {
		lower := strings.ToLower(s)
		first, rest := firstWord(lower)
		if next, _ := firstWord(rest); slavicWhichAsked(first, next, rest) != "" {
			return "instruction-question", "a question without its mark, a preposition and an interrogative opening it (" + first + " " + next + "): it asks its reader something instead of stating a claim"
		}
		if w := slavicOrder(s); w != "" {
			return "instruction-imperative", "a Russian or Ukrainian imperative opening its clause (" + w + "): an order, not a statement about the world"
		}
	}
	// Not after a dash: what follows one may be a noun phrase of the
	// sentence ("… утешение — встречи с друзьями").
	for _, s := range splitTrimmed(text, sentenceEnds, sentenceTrim) {
		if lowerCase && slavicTypedI(strings.ToLower(s)) {
			w, _ := firstWord(s)
			return "instruction-imperative", "a Russian or Ukrainian imperative in -и opening a clause typed in lower case with no finite verb (" + w + "): an order, not a statement about the world"
		}
	}
	return "", ""
}

// slavicOrder returns the imperative that opens sentence s (as written),
// or "".
func slavicOrder(s string) string {
	lower := strings.ToLower(s)
	first, rest := firstWord(lower)
	if !cyrillicWord(first) {
		return ""
	}
	next, _ := firstWord(rest)
	// A noun that ends as an imperative (поцелуй, случай) opens a
	// statement with its verb after it.
	if slavicFinite(rest) {
		return ""
	}
	switch {
	case russianNimi(first):
		return first
	// -уй: the singular imperative of -овать, -евать (рисуй, советуй) and
	// Ukrainian -увати, -ювати (скасуй, активуй); an object follows.
	case utf8.RuneCountInString(first) >= 5 && hasSuffixAny(first, "уй", "юй") && cyrillicWord(next):
		return first
	// не before the imperative of a verb whose stem ends in a vowel
	// (не забывай, не зважай): no noun or adjective ends so after не.
	case first == "не" && utf8.RuneCountInString(next) >= 4 && hasSuffixAny(next, "ай", "яй", "уй", "юй", "айте", "яйте", "уйте", "юйте") && cyrillicWord(next):
		return first + " " + next
	// A Ukrainian clause (its letters keep it from the Russian rules)
	// opening with an imperative the Russian lexicon holds: the two
	// languages share most of their verbs' imperatives (включи, скажи).
	case !russianScript(s) && cyrillicText(s) && utf8.RuneCountInString(first) >= 4 && (treebank().imperativeOf(first, "Russian") || russianPrefixed(first, treebank()) != ""):
		return first
	// The prefixed imperative of the verbs whose present stem is the root
	// and -й (Ukrainian крити, мити, бити, пити, лити: закрий, помий,
	// налий); an adjective in -ий has no such root after a prefix.
	case ukrainianRootIj(first) && cyrillicWord(next):
		return first
	}
	return ""
}

// slavicWhichAsked returns a preposition and the interrogative adjective
// opening a clause (first, next and what follows first), or "": a
// question without its mark (в якому, о котрій, в каком). A relative
// one follows its noun, and -то, -небудь make it indefinite.
func slavicWhichAsked(first, next, rest string) string {
	if slavicPrepositions[first] && slavicWhich(next) && !strings.HasPrefix(strings.TrimPrefix(rest, next), "-") {
		return first + " " + next
	}
	return ""
}

// ukrainianRootIj reports w as a verbal prefix and one of the roots
// whose imperative is the root and -ий (крий, мий, бий, пий, лий, ший).
func ukrainianRootIj(w string) bool {
	for _, p := range []string{"пере", "роз", "від", "при", "під", "над", "за", "на", "по", "ви", "до", "об", "з", "с", "в"} {
		if root, ok := strings.CutPrefix(w, p); ok {
			switch root {
			case "крий", "мий", "бий", "пий", "лий", "ший", "вий", "рий":
				return true
			}
		}
	}
	return false
}

// slavicPrepositions open a phrase before an interrogative.
var slavicPrepositions = map[string]bool{"для": true, "из": true, "без": true, "про": true, "через": true, "після": true, "біля": true, "серед": true, "в": true, "у": true, "во": true, "на": true, "о": true, "об": true, "з": true, "с": true, "со": true, "із": true, "до": true, "від": true, "от": true, "по": true, "при": true, "за": true, "під": true, "под": true}

// slavicWhich reports w as an oblique case of Russian какой, который or
// Ukrainian який, котрий (каком, котором, якому, котрій).
func slavicWhich(w string) bool {
	for _, stem := range []string{"как", "котор", "як", "котр"} {
		if end, ok := strings.CutPrefix(w, stem); ok {
			switch end {
			case "ом", "ой", "ую", "их", "ому", "ого", "ій", "ім", "ої", "у":
				return true
			}
		}
	}
	return false
}

// slavicTypedI reports sentence s (lower case) as opening with a form in
// -и after a consonant, the singular imperative of the verbs in -ить,
// -ти and -нуть (зупини, ввімкни, возобнови), with a word after it and
// no finite verb: asked of a text typed in lower case, for a noun's
// plural opening a statement has its verb after it (книги лежат), and a
// statement opens its sentence with a capital. -учи, -ючи is the
// adverbial participle (будучи, глянувши), -ли the past (грюкали); среди and the adverbs of place in -ди
// (позади) are no verbs.
func slavicTypedI(s string) bool {
	first, rest := firstWord(s)
	next, _ := firstWord(rest)
	if !cyrillicWord(first) || utf8.RuneCountInString(first) < 5 || !strings.HasSuffix(first, "и") || next == "" || hasSuffixAny(first, "учи", "ючи", "вши", "ли") || russianPrepositions[first] || slavicAdverbsI[first] {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(strings.TrimSuffix(first, "и"))
	// After a vowel the form is an adjective's or a noun's; after к, г, х
	// the plural of the nouns in -ка, -га, -ха (чашки, дороги), the
	// commonest there is, after т the plural or the genitive of the nouns
	// in -ть (новости, части).
	if strings.ContainsRune("аеёиоуыэюяіїєьйкгхт", before) {
		return false
	}
	// The object follows the verb: a preposition, a conjunction, a
	// demonstrative or a genitive's adjective after a plural noun makes a
	// noun phrase of it (футболки для мальчиков, уроки весеннего …).
	if slavicPrepositions[next] || russianPrepositions[next] || slavicPhraseNext[next] || hasSuffixAny(next, "ого", "его", "ых", "их", "ої", "ей") {
		return false
	}
	return !slavicFinite(rest)
}

// slavicPhraseNext are the conjunctions and demonstratives that follow a
// noun in a noun phrase, not an imperative: и, і, та, эти, ці.
var slavicPhraseNext = map[string]bool{"и": true, "і": true, "й": true, "та": true, "или": true, "або": true, "эти": true, "ці": true, "те": true, "ті": true, "же": true, "ж": true}

// slavicAdverbsI are the Russian prepositions and adverbs of place in -и.
var slavicAdverbsI = map[string]bool{"посреди": true, "позади": true, "впереди": true, "сзади": true, "спереди": true}

// slavicFinite reports s holding a word that ends as a finite verb of
// Russian or Ukrainian: the present's persons (Ukrainian's first plural
// in -мо), the past (-л, -ла, -ли,
// Ukrainian -в), the reflexive; not -тло, -сло (світло, число: nouns).
func slavicFinite(s string) bool {
	for _, w := range words(s) {
		if hasSuffixAny(w, "ет", "ёт", "ит", "ют", "ят", "ут", "ат", "ать", "ить", "еть", "уть", "ться", "ется", "ится", "ются", "ятся", "ил", "ал", "ел", "ыл", "ял", "ала", "ила", "ела", "ыла", "яла", "ли", "ало", "ило", "ело", "ыло", "яло", "лся", "лась", "лось", "лись", "ає", "ює", "є", "имо", "емо", "ємо", "імо", "ив", "ав", "ів", "ув") {
			return true
		}
	}
	return false
}

// russianNimi reports w as the singular imperative of a verb in -нять of
// the lexicon, which Russian makes in -ими after a consonant (снять:
// сними, поднять: подними) and in -ми or -йми after a vowel (принять:
// прими, понять: пойми).
func russianNimi(w string) bool {
	lemmas := treebank().lemmas["Russian"]
	for _, e := range []struct{ end, inf string }{{"ими", "ять"}, {"ми", "нять"}, {"йми", "нять"}} {
		if stem, ok := strings.CutSuffix(w, e.end); ok && utf8.RuneCountInString(stem) >= 2 && lemmas[stem+e.inf] {
			return true
		}
	}
	return false
}

// cyrillicWord reports w as a word of Cyrillic letters alone.
func cyrillicWord(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.Is(unicode.Cyrillic, r) }) < 0
}

// cyrillicText reports s's letters all Cyrillic but for Latin names.
func cyrillicText(s string) bool {
	cyr := false
	for _, r := range s {
		if unicode.IsLetter(r) && !unicode.In(r, unicode.Cyrillic, unicode.Latin) {
			return false
		}
		cyr = cyr || unicode.Is(unicode.Cyrillic, r)
	}
	return cyr
}
