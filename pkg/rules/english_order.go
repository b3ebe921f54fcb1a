package rules

import (
	_ "embed"
	"strings"
	"sync"
	"unicode"
)

// English orders typed in lower case before a bare noun (docs/security.md,
// "Session 28, English orders typed in lower case"): a person typing to
// an assistant leaves out the capital and the article too ("lock
// kitchen door", "increase lighting", "order food from applebees"), so
// the object that told the verb in englishVerb, a determiner, is not
// there. Case tells it instead: a note's title opens with a capital
// ("Lock contention in the writer"), and a clause typed in lower case
// whose first word is a verb of WordNet's and whose second opens a noun
// phrase, with no finite verb after, has no subject: English writes the
// subject of every finite verb.

// englishLowerOrder returns the verb of an order typed in lower case
// before a bare noun phrase, or "": a verb's bare form (WordNet's, or a
// lexicon verb with "un" or "re" before it: "unpause tv") opening a
// sentence in lower case, its object's first word next (englishLowerObject),
// and no finite verb, irregular past or "-s" present after. A verb whose
// "to" says where the change goes opens an order before "to" too
// ("transition to party mode", englishLowerTo); and a topic of two
// nouns may stand before the verb ("grocery list add eggs",
// englishTopicOrder).
func englishLowerOrder(text string) string {
	if notEnglishProse(text) {
		return ""
	}
	f := treebank()
	for _, s := range sentences(text) {
		if !unicode.IsLower(firstRune(s, 0)) || !englishOpensSentence(text, s) {
			continue
		}
		head, _, _ := strings.Cut(s, ",")
		ws := strings.Fields(strings.ToLower(strings.Join(words(head), " ")))
		if len(ws) < 2 || englishAfterVerbFinite(ws[1:], f) {
			continue
		}
		if w := englishTopicOrder(ws, f); w != "" {
			return w
		}
		if ws[1] == "to" && englishLowerTo[ws[0]] && len(ws) > 2 && englishPrepObject(ws[2:]) {
			return ws[0] + " to"
		}
		if englishNounVerbOrder(ws) || englishNounVerbParticle(ws) {
			return ws[0]
		}
		if w := englishFrontedOrder(ws, f); w != "" {
			return w
		}
		if !englishLowerVerb(ws[0], f) {
			continue
		}
		if englishLowerObject(ws[1:]) {
			return ws[0]
		}
	}
	return ""
}

// englishOpensSentence reports s, one of sentences(text), as opening
// text or following a sentence's end and a space, and its first word as
// letters alone: what follows a dash ("… elementary - middle school
// work"), a number ("5 star detail job") or a dot inside an address
// ("…4gamer.net/news/…") is no clause's start.
func englishOpensSentence(text, s string) bool {
	first, _, _ := strings.Cut(s, " ")
	for _, r := range first {
		if !unicode.IsLetter(r) && r != '\'' && r != '’' && r != '-' {
			return false
		}
	}
	i := strings.Index(text, s)
	if i < 0 {
		return false
	}
	before := strings.TrimRight(text[:i], " \t")
	if before == "" {
		return true
	}
	if len(before) == i {
		return false
	}
	return strings.ContainsAny(before[len(before)-1:], ".!?;:\n")
}

// englishAfterVerbFinite reports a finite verb among ws, the words after
// a clause's first: englishFiniteIn's, or an irregular past ("water
// heater broke").
func englishAfterVerbFinite(ws []string, f treebankForms) bool {
	if englishFiniteFrom(ws, f, true) {
		return true
	}
	for _, w := range ws {
		if englishIrregularPast[w] {
			return true
		}
	}
	return false
}

// englishLowerTo are the verbs whose "to" says where the change goes:
// typed in lower case before "to" and a noun phrase they open an order
// ("switch to dark mode", "transition to party mode"). Any other word
// before a preposition is read as a noun's head ("update on email").
var englishLowerTo = map[string]bool{"switch": true, "change": true, "transition": true, "move": true, "go": true, "skip": true, "jump": true, "navigate": true, "revert": true, "convert": true}

// englishLowerVerb reports w (lower case), a clause's first word, as a
// verb's bare form that opens an order typed in lower case: a verb
// WordNet reads as a verb first (englishVerbsFirst) or the lexicon's, or
// one of them after "un" or "re" ("unpause"; then no past, gerund or
// third singular), and none of the words that open a sentence whose
// subject is left out.
func englishLowerVerb(w string, f treebankForms) bool {
	if !englishLowerOpener(w) {
		return false
	}
	// A lemma is its own bare form, whatever it ends with ("bring").
	if englishVerbsFirst()[w] || f.imperativeOf(w, "English") {
		return true
	}
	if englishInflected(w) {
		return false
	}
	// "un" makes a verb of a verb ("unpause"), seldom of a noun;
	// "re" of either ("record").
	if stem, ok := strings.CutPrefix(w, "un"); ok && len(stem) > 3 && (wordnetVerbs()[stem] || f.imperativeOf(stem, "English")) {
		return true
	}
	stem, ok := strings.CutPrefix(w, "re")
	return ok && len(stem) > 3 && (englishVerbsFirst()[stem] || f.imperativeOf(stem, "English"))
}

//go:embed englishverbsfirst.txt
var englishVerbsFirstTxt string

// englishLowerOpener reports w as none of the words that open a clause
// with its verb left out or elsewhere: an auxiliary or a modal ("will
// try to be there"), a word that opens a sentence whose subject is left
// out, a degree word, an interrogative, an interjection, a determiner, a
// pronoun or a preposition.
func englishLowerOpener(w string) bool {
	return !englishFinite()[w] && !englishBareSubject()[w] && !englishDegree()[w] && !englishInterrogative()[w] && !englishInterjection()[w] && !englishDeterminer()[w] && !englishSubjectPronoun()[w] && !englishNotObject()[w] && !englishIndefinite()[w]
}

// englishVerbsFirst are the verbs of WordNet 3.1 whose tagged senses
// outnumber those of the same word as a noun, an adjective or an adverb
// (englishverbsfirst.txt, scripts/wordnetverbs -first): "lock", "clear",
// "deactivate", not "slow", "house" or "telephone", which open a noun
// phrase typed in lower case ("slow service", "telephone number").
var englishVerbsFirst = sync.OnceValue(func() map[string]bool { return englishVerbsTier(false) })

// englishVerbsNoun are the verbs of WordNet 3.1 whose tagged senses
// outnumber those of the same word as an adjective or an adverb, not as
// a noun ("order", "increase", "pause"; lines marked " noun").
var englishVerbsNoun = sync.OnceValue(func() map[string]bool { return englishVerbsTier(true) })

func englishVerbsTier(noun bool) map[string]bool {
	m := make(map[string]bool, 5500)
	for _, line := range strings.Split(englishVerbsFirstTxt, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		w, marked := strings.CutSuffix(line, " noun")
		if marked == noun {
			m[w] = true
		}
	}
	return m
}

// englishNounVerbOrder reports ws, a clause typed in lower case, as an
// order whose verb WordNet reads as a noun more often
// (englishVerbsNoun: "order food from applebees", "pause timer for
// pizza"): a bare noun of one or two words after it and a preposition
// straight after that noun. A noun before a noun is a compound, and the
// compound stands alone ("house closing", "telephone number"); an
// order goes on to say where, whence or by how much.
func englishNounVerbOrder(ws []string) bool {
	if len(ws) < 4 || !englishVerbsNoun()[ws[0]] || !englishLowerOpener(ws[0]) || bareNounPlural(ws[1]) || !englishLowerObject(ws[1:]) {
		return false
	}
	return englishLowerPreposition[ws[2]] || !englishNotObject()[ws[2]] && englishLowerPreposition[ws[3]]
}

// englishNounVerbParticle reports ws as a verb WordNet reads as a noun
// first before a particle no noun takes after it and its object ("queue
// up ymca", "back up photos").
func englishNounVerbParticle(ws []string) bool {
	return len(ws) >= 3 && englishVerbsNoun()[ws[0]] && englishLowerOpener(ws[0]) && englishNounParticle[ws[1]] && englishPrepObject(ws[2:])
}

// englishNounParticle are the particles that follow a verb, not a noun
// read as its head.
var englishNounParticle = map[string]bool{"up": true, "down": true, "off": true, "out": true, "back": true, "away": true}

// englishFrontedOrder returns the verb of an order typed in lower case
// after a phrase that says where ("on the tv increase the volume", "in
// the living room play the last song again"), or "": a preposition, a
// determiner and one to three words with no verb, pronoun or plural
// among them, then a verb's bare form (englishVerbFirstOrLexicon, not
// one whose past is its bare form) and what opens its object. A
// statement puts its subject there ("in the end users decide", "on the
// table lay a book" is a past).
func englishFrontedOrder(ws []string, f treebankForms) string {
	if len(ws) < 5 || !englishLowerPreposition[ws[0]] || !englishDeterminer()[ws[1]] {
		return ""
	}
	for i := 2; i < len(ws)-1 && i <= 4; i++ {
		w := ws[i]
		if !englishLowerOpener(w) || strings.HasSuffix(w, "s") || englishObjectPronoun()[w] || englishNumeral()[w] {
			return ""
		}
		if i > 2 && englishVerbFirstOrLexicon(w, f) && !englishPastAsBare[w] && !englishIrregularPast[w] && englishPrepObject(ws[i+1:]) {
			return w
		}
	}
	return ""
}

// englishLowerPreposition are the prepositions that say where, whence,
// for whom or by how much after an order's object.
var englishLowerPreposition = map[string]bool{"for": true, "from": true, "to": true, "by": true, "at": true, "on": true, "in": true, "into": true, "with": true}

// englishPrepObject reports ws, the words after a preposition, as
// opening its object: a determiner, a pronoun or what englishLowerObject
// reads.
func englishPrepObject(ws []string) bool {
	return englishDeterminer()[ws[0]] || englishObjectPronoun()[ws[0]] || englishLowerObject(ws)
}

// englishVerbFirstOrLexicon reports w as a verb WordNet reads as a verb
// first or a verb of the lexicon.
func englishVerbFirstOrLexicon(w string, f treebankForms) bool {
	return englishLowerVerb(w, f) && (englishVerbsFirst()[w] || f.imperativeOf(w, "English"))
}

// englishLowerObject reports ws, the words after a verb typed in lower
// case, as opening its object: a numeral, an indefinite pronoun, or a
// bare noun (no preposition, auxiliary, pronoun, adverb or degree word:
// "love so much" leaves its subject out). A bare plural with more after
// it is a noun compound's first half as often ("merge conflicts in
// go.sum"), unless a particle closes the clause after it or opens its
// phrase ("turn lights off", "put apples on the list").
func englishLowerObject(ws []string) bool {
	o := ws[0]
	if englishIndefinite()[o] || englishNumeral()[o] {
		return true
	}
	if englishNotObject()[o] || englishFinite()[o] || englishSubjectPronoun()[o] || englishObjectPronoun()[o] || englishDeterminer()[o] {
		return false
	}
	if englishBareSubject()[o] || englishDegree()[o] || englishInterrogative()[o] || englishInterjection()[o] || strings.HasSuffix(o, "ly") || hasSuffixAny(o, "n't", "'s", "’s") {
		return false
	}
	if len(ws) > 2 && bareNounPlural(o) {
		return englishParticleAfter(ws[1:])
	}
	return true
}

// englishParticleAfter reports ws, the words after a bare plural, as a
// particle that closes the clause ("turn lights off"), that opens a
// phrase with a determiner ("put apples on the list"), or one that no
// noun compound puts after its plural ("take 5 minutes off 1 hour
// timer"; "merge conflicts in go.sum" is a noun phrase).
func englishParticleAfter(ws []string) bool {
	p, ok := englishLowerParticle[ws[0]]
	if !ok {
		return false
	}
	return p || len(ws) == 1 || englishDeterminer()[ws[1]]
}

// englishLowerParticle are the particles that stand after an order's
// object: true for those that are no preposition after a noun.
var englishLowerParticle = map[string]bool{"on": false, "off": true, "up": false, "down": false, "out": true, "in": false, "back": true, "away": true, "over": false, "into": false, "onto": false}

// englishDigits reports w as a number written in digits.
func englishDigits(w string) bool {
	for _, r := range w {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return w != ""
}

// englishTopicOrder returns the verb of an order typed in lower case
// after a topic of two nouns ("grocery list add eggs", "kitchen light
// turn off"), or "": the topic's words are singular and no pronoun or
// verb-only word, and the verb after them is a lexicon verb's bare form,
// which a singular subject would not take ("grocery list adds …").
func englishTopicOrder(ws []string, f treebankForms) string {
	if len(ws) < 4 || !englishVocative(ws[0]) || englishInterjection()[ws[0]] || !englishVocative(ws[1]) && !wordnetVerbs()[ws[1]] {
		return ""
	}
	if strings.HasSuffix(ws[1], "s") || englishFinite()[ws[1]] || englishNotObject()[ws[1]] || englishBareSubject()[ws[1]] {
		return ""
	}
	v := ws[2]
	if !f.imperativeOf(v, "English") || englishPastAsBare[v] || englishFinite()[v] {
		return ""
	}
	if englishLowerObject(ws[3:]) || englishParticleAfter(ws[3:]) {
		return ws[2]
	}
	return ""
}

// notEnglishProse reports text as no English prose the order rules read:
// another Latin-script language's (englishOtherLatin), Italian, or code in
// backticks, which splits where its dots stand ("```go test ./...```
// runs …"): what opens a piece there is code, no verb.
func notEnglishProse(text string) bool {
	lower := strings.ToLower(text)
	return englishOtherLatin(lower) || italian(lower) || strings.ContainsRune(text, '`')
}

// englishOtherLatin is otherLatin for English, but a place's name after
// an English preposition ("to los angeles", "in san jose") is no
// telling word of the language that named it.
func englishOtherLatin(lower string) bool {
	if !otherLatin(lower, "English") {
		return false
	}
	ws := words(lower)
	kept := ws[:0:0]
	for i, w := range ws {
		if i > 0 && englishPlaceArticle()[w] && englishNotObject()[ws[i-1]] {
			continue
		}
		kept = append(kept, w)
	}
	return otherLatin(strings.Join(kept, " "), "English")
}

// englishPlaceArticle are the articles that open a place's name from
// Spanish, French or Italian ("los angeles", "san jose", "la jolla").
var englishPlaceArticle = sync.OnceValue(set("los", "las", "san", "santa", "el", "la", "le", "des", "del", "de"))

// englishAdjectiveEd reports w, a word in -ed, as an adjective before
// the noun that follows it (next, the words after it): no verb of
// WordNet's or the lexicon's has it as its past ("play favorited
// podcasts"), and a bare word follows, no determiner or pronoun that
// would open a past's object.
func englishAdjectiveEd(w string, next []string) bool {
	if len(next) == 0 || wordnetVerbs()[w] {
		return false
	}
	n := strings.ToLower(next[0])
	if englishDeterminer()[n] || englishObjectPronoun()[n] || englishSubjectPronoun()[n] || englishNotObject()[n] || englishFinite()[n] {
		return false
	}
	stem := strings.TrimSuffix(w, "ed")
	for _, s := range []string{stem, stem + "e", strings.TrimSuffix(stem, "i") + "y", stem[:len(stem)-1]} {
		if wordnetVerbs()[s] || treebank().imperativeOf(s, "English") {
			return false
		}
	}
	return true
}

// englishNounLast reports the word at i of ws, a lexicon verb after a
// plural, as a noun closing a preposition's phrase ("put apples on the
// trader joes list"): a subject's verb does not close the clause inside
// the phrase a preposition and a determiner open before it.
func englishNounLast(ws []string, i int) bool {
	if i != len(ws)-1 {
		return false
	}
	for j := i - 2; j > 0; j-- {
		if englishDeterminer()[strings.ToLower(ws[j])] && englishNotObject()[strings.ToLower(ws[j-1])] {
			return true
		}
	}
	return false
}
