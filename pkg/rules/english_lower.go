package rules

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// English requests typed in lower case (docs/security.md, "Session 27,
// English requests typed in lower case"): a person typing to an
// assistant leaves out the capital and the question mark, and the
// shapes below are told by where the grammar puts the subject. Each
// counts only in a sentence that opens in lower case: a note's title
// opens with a capital ("Can opener broke again", "Will Smith's talk
// notes"), and a typed request does not.

// englishTypedAsked returns the auxiliary or the modal that opens a
// sentence of text as a question without its mark, or "": a modal
// before a subject that is no verb and its bare verb after ("can
// turkeys fly", "will arby's offer takeaway"), or "is" or "are" before
// a one-word subject and a determiner ("is swat a good movie"). A
// statement puts its subject first, and a sentence that drops its
// subject ("will try harder", "could use some help", "was such a fun
// day") has a verb, an adverb or a degree word straight after the
// auxiliary, no subject. The "how … is the" question (englishHowIsThe)
// counts whatever the case: no title opens so.
func englishTypedAsked(text string) string {
	lower := strings.ToLower(text)
	if otherLatin(lower, "English") || italian(lower) || strings.ContainsRune(text, '`') {
		return ""
	}
	for _, s := range sentences(text) {
		head, _, _ := strings.Cut(strings.ToLower(s), ",")
		ws := words(head)
		if w := englishHowIsThe(ws); w != "" {
			return w
		}
		if w := englishAboutQuestion(text, s); w != "" {
			return w
		}
		if !unicode.IsLower(firstRune(s, 0)) {
			continue
		}
		if len(ws) < 3 || !englishTypedSubject(ws[1]) && ws[0] != "what" {
			continue
		}
		switch {
		// After a modal, a verb of WordNet's in its bare form is no
		// subject, unless "be" follows it: the sentence drops its
		// subject ("will try harder").
		case englishTypedModal[ws[0]] && englishTypedVerbAfter(ws[2:]) && (!wordnetVerbs()[ws[1]] || bareNounPlural(ws[1]) || englishBeAfter(ws[2:])):
			return ws[0]
		case (ws[0] == "is" || ws[0] == "are") && englishDeterminer()[ws[2]]:
			return ws[0]
		case englishCopula[ws[0]] && len(ws) <= 5 && englishParticipleLast(ws[2:]):
			return ws[0]
		case (ws[0] == "has" || ws[0] == "have") && englishPerfectAfter(ws[2:]):
			return ws[0]
		case ws[0] == "what" && englishWhoVerb(ws[1]) && !slices.ContainsFunc(ws[2:], func(w string) bool { return englishFinite()[w] }):
			return "what " + ws[1]
		}
	}
	return ""
}

// englishCopula are the forms of "be" that open a question before their
// subject.
var englishCopula = map[string]bool{"is": true, "are": true, "was": true, "were": true}

// englishParticipleLast reports ws, what follows a copula and its
// subject's first word, as more of the subject with no determiner or
// preposition, then a participle in -ed that closes the clause ("was
// einstein married", "were the beatles knighted" is read elsewhere).
func englishParticipleLast(ws []string) bool {
	for _, w := range ws[:len(ws)-1] {
		if englishDeterminer()[w] || englishNotObject()[w] || englishFinite()[w] || englishDegree()[w] || strings.HasSuffix(w, "ly") {
			return false
		}
	}
	last := ws[len(ws)-1]
	return strings.HasSuffix(last, "ed") && len(last) > 4
}

// englishPerfectAfter reports a participle in -ed or an irregular past
// among the first two of ws, the words after "has" or "have" and its
// subject's first word ("has mary posted anything today"); a sentence
// that drops its subject has the participle straight after the
// auxiliary ("has been great").
func englishPerfectAfter(ws []string) bool {
	for i, w := range ws {
		if i > 1 || englishDeterminer()[w] || englishNotObject()[w] || englishFinite()[w] {
			return false
		}
		if strings.HasSuffix(w, "ed") && len(w) > 4 || englishIrregularPast[w] {
			return true
		}
	}
	return false
}

// englishHowIsThe returns "how" and the copula of ws, a clause's words,
// when a phrase of one to three words after "how" stands before "is",
// "are", "was" or "were" and a determiner, with no finite verb after
// ("how far away is the sun"): a statement puts the subject before the
// copula ("how far away the sun is …").
func englishHowIsThe(ws []string) string {
	if len(ws) < 4 || ws[0] != "how" {
		return ""
	}
	for i := 1; i < len(ws)-1 && i <= 4; i++ {
		w := ws[i]
		if englishCopula[w] {
			if i < 2 || !englishDeterminer()[ws[i+1]] {
				return ""
			}
			for _, v := range ws[i+2:] {
				if englishFinite()[v] {
					return ""
				}
			}
			return "how " + w
		}
		if englishDeterminer()[w] || englishSubjectPronoun()[w] || englishObjectPronoun()[w] || englishNotObject()[w] || englishFinite()[w] || hasSuffixAny(w, "ed", "ing") {
			return ""
		}
	}
	return ""
}

// englishBeAfter reports "be" among the first two of ws: a verb of
// WordNet's before it is a noun, the subject ("can google pay be used").
func englishBeAfter(ws []string) bool {
	return ws[0] == "be" || len(ws) > 1 && ws[1] == "be"
}

// englishTypedModal are the modals read before a subject typed in lower
// case.
var englishTypedModal = map[string]bool{"can": true, "could": true, "will": true, "would": true, "should": true}

// englishTypedSubject reports w, the word after an opening auxiliary, as
// one that may be its subject: no auxiliary, determiner or pronoun (their questions are read
// elsewhere), no adverb or degree word ("would definitely recommend",
// "was such a …").
func englishTypedSubject(w string) bool {
	if englishFinite()[w] || englishDeterminer()[w] || englishSubjectPronoun()[w] || englishObjectPronoun()[w] || englishNotObject()[w] {
		return false
	}
	if englishBetweenIAndVerb()[w] || englishDegree()[w] || strings.HasSuffix(w, "ly") || hasSuffixAny(w, "n't", "ing", "ed") {
		return false
	}
	return true
}

// englishDegree are the adverbs and degree words that stand straight
// after an auxiliary when the subject is left out.
var englishDegree = sync.OnceValue(set("not", "so", "too", "very", "such", "quite", "even", "more", "most", "less", "much", "kind", "kinda", "sort", "sorta", "worth", "sure", "def", "prob", "totes", "be", "been", "gonna", "gotta", "wanna", "like", "well", "almost", "pretty", "rather", "either", "neither", "both", "all", "no", "yes", "now", "then", "here", "there", "ever", "soon", "today", "tomorrow", "tonight", "yesterday"))

// englishTypedVerbAfter reports a bare verb among the first two of ws,
// the words after a modal and the first word of its subject: a verb of
// WordNet's or the lexicon's in its bare form, or "be" or "have" ("can
// turkeys fly", "will peas work", "can 401ks be moved").
func englishTypedVerbAfter(ws []string) bool {
	f := treebank()
	for i, w := range ws {
		if i > 1 || englishDeterminer()[w] || englishNotObject()[w] || englishFinite()[w] {
			return false
		}
		if w == "be" || w == "have" {
			return true
		}
		if englishInflected(w) {
			continue
		}
		if wordnetVerbs()[w] || f.imperativeOf(w, "English") {
			return true
		}
	}
	return false
}

// englishVocativeOrder returns the verb of an order typed in lower case
// after a word that calls the assistant by its name or an interjection
// ("olly turn the volume up", "hey order two wings"), or "": a singular
// word in lower case before a verb's bare form is no subject, which
// takes the third singular ("olly turns"); a plural or a pronoun would
// be one ("people love it"). A noun before a noun that is also a verb
// is a compound ("money transfer request", "thick cut bacon"), so the
// verb's object must open with a determiner, an object pronoun or a
// numeral, unless an interjection calls ("hey order food"); and not a
// verb whose past is its bare form ("mom put the kids to bed").
func englishVocativeOrder(text string) string {
	if lower := strings.ToLower(text); otherLatin(lower, "English") || italian(lower) {
		return ""
	}
	for _, s := range sentences(text) {
		if !unicode.IsLower(firstRune(s, 0)) {
			continue
		}
		first, rest, ok := strings.Cut(s, " ")
		// "search and play a radio station": two verbs joined, the
		// second an order.
		if and, more, two := strings.Cut(rest, " "); two && and == "and" && wordnetVerbs()[first] && !englishFinite()[first] {
			if w := englishBareOrderOf(more); w != "" {
				return first + " and " + w
			}
		}
		// "hey olly turn up the lights": an interjection and a name.
		if second, more, two := strings.Cut(rest, " "); two && englishInterjection()[first] && englishVocative(second) && !englishInterjection()[second] {
			rest = more
		}
		ws := words(rest)
		if !ok || len(ws) < 2 || !unicode.IsLower(firstRune(rest, 0)) || !englishVocative(first) || englishPastAsBare[ws[0]] {
			continue
		}
		next := ws[1]
		if !englishInterjection()[first] && !englishDeterminer()[next] && !englishObjectPronoun()[next] && !englishNumeral()[next] {
			continue
		}
		if w := englishBareOrderOf(rest); w != "" {
			return first + " " + w
		}
	}
	return englishCommaOrder(text)
}

// englishCommaOrder returns the verb of an order typed in lower case
// after the one comma of a sentence, which closes a reply or a call
// ("that's enough, cancel it", "alexa, buy a new television"), or "".
// A list of verbs has more commas ("… wear out, fall out, or spread
// out"), and a reply or a call before the order is short: after a long
// statement the order is a wish in passing ("… the sauce is the best,
// keep them coming").
func englishCommaOrder(text string) string {
	lower := strings.ToLower(text)
	if otherLatin(lower, "English") || italian(lower) {
		return ""
	}
	for _, s := range sentences(text) {
		parts := strings.Split(s, ",")
		if !unicode.IsLower(firstRune(s, 0)) || len(parts) != 2 || len(words(parts[0])) > 6 {
			continue
		}
		p := strings.TrimSpace(parts[1])
		if !unicode.IsLower(firstRune(p, 0)) {
			continue
		}
		if w := englishBareOrderOf(p); w != "" {
			return w
		}
	}
	return ""
}

// englishInterjection are the interjections that call an assistant
// before an order.
var englishInterjection = sync.OnceValue(set("hey", "hi", "hello", "ok", "okay", "yo", "oh", "um", "uh", "yeah", "yeap", "yep", "yes", "no", "nope", "please", "pls", "plz"))

// englishPastAsBare are the verbs whose past is their bare form.
var englishPastAsBare = map[string]bool{"cut": true, "put": true, "set": true, "hit": true, "let": true, "shut": true, "read": true, "hurt": true, "quit": true, "spread": true, "cost": true, "bet": true, "split": true, "cast": true, "burst": true, "fit": true, "shed": true, "thrust": true, "upset": true, "broadcast": true, "forecast": true, "run": true, "come": true, "become": true}

// englishVocative reports w, a sentence's first word, as one that may
// call the reader before an order: letters in lower case, no plural, no
// pronoun, determiner, auxiliary or verb of WordNet's, and none of the
// nouns whose plural takes no -s.
func englishVocative(w string) bool {
	if englishInterjection()[w] {
		return true
	}
	for _, r := range w {
		if !unicode.IsLower(r) {
			return false
		}
	}
	if len(w) < 2 || strings.HasSuffix(w, "s") || englishFinite()[w] || englishDeterminer()[w] || englishSubjectPronoun()[w] || englishObjectPronoun()[w] || englishNotObject()[w] {
		return false
	}
	return !wordnetVerbs()[w] && !englishBareSubject()[w] && !englishDegree()[w] && !englishInterrogative()[w]
}

// englishBareSubject are the plural nouns without -s and the words that
// open a sentence whose subject is left out ("lol love it").
var englishBareSubject = sync.OnceValue(set("people", "police", "children", "men", "women", "folk", "cattle", "staff", "crew", "team", "family", "lol", "lmao", "haha", "omg", "gotta", "gonna", "wanna", "u", "ya", "y'all", "yall", "im", "ive", "id", "ill", "just", "really", "also", "never", "always", "still", "only", "already", "actually", "definitely", "probably", "usually", "often", "sometimes", "recently", "and", "but", "or", "then"))

// englishNumeral are the numerals written in letters that open an
// object typed in lower case ("order two wings"), as a determiner does.
var englishNumeral = sync.OnceValue(set("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "twelve", "twenty", "fifty", "hundred"))

// englishTypedObject reports lo (lower case), the word after a particle
// verb (verb, the clause's first word, or its second after "am", as
// written), as its object when
// the clause is typed in lower case: a bare noun ("turn on kitchen
// light", "search for therapist in san jose") or an indefinite pronoun;
// a title opens with a capital ("Search for Title Case handling"), and
// a gerund opens a subject as often ("looking for duplicates costs …").
func englishTypedObject(verb, lo string) bool {
	if englishIndefinite()[lo] {
		return true
	}
	return unicode.IsLower(firstRune(verb, 0)) && !strings.HasSuffix(verb, "ing") && !englishNotObject()[lo] && !englishFinite()[lo] && !englishSubjectPronoun()[lo]
}

// englishIndefinite are the indefinite pronouns that open an object.
var englishIndefinite = sync.OnceValue(set("something", "anything", "everything", "someone", "anyone", "somebody", "anybody", "somewhere", "anywhere"))
