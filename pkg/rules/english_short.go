package rules

import (
	_ "embed"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// englishBareOrder returns the English verb that opens a clause of text
// with no finite verb after it, or "": a short order to an assistant
// ("turn off alarm", "Play music on Itunes") holds none of English's
// telling words, which the lexicon's imperative needs otherwise
// (clauseImperative). English writes the subject of every finite verb,
// so a clause that opens with a verb's bare form and holds no finite
// verb has no subject and is an order; "Commit 3f2a1b landed on Friday"
// (a past), "Search results ranking uses BM25" (a third singular),
// "Commit messages follow …" (a plural's present after its noun) and
// "Deploy window is …" (an auxiliary) are statements. A noun phrase
// whose head is also a verb ("Update on the billing refactor", "Fix for
// …") puts a preposition straight after it, which an order's object does
// not; a title written in capitals word by word is a title. The text
// must hold no telling word of another covered language written in
// Latin letters (Portuguese "Serve como …").
func englishBareOrder(text string) string {
	if w := englishBareOrderOf(text); w != "" {
		return w
	}
	if w := englishVocativeOrder(text); w != "" {
		return w
	}
	if w := englishLowerOrder(text); w != "" {
		return w
	}
	return englishReplyOrder(text)
}

// englishBareOrderOf is englishBareOrder without the name or the
// interjection before the verb.
func englishBareOrderOf(text string) string {
	if notEnglishProse(text) {
		return ""
	}
	f := treebank()
	for _, s := range sentences(text) {
		// A table's cell ("| Print queue | 4 jobs |") opens with a
		// mark, no verb.
		if !unicode.IsLetter(firstRune(s, 0)) {
			continue
		}
		head, _, _ := strings.Cut(s, ",")
		ws := words(head)
		scored := englishScore.MatchString(strings.ToLower(s))
		if len(ws) < 2 || titledWords(ws) && unicode.IsUpper(firstRune(ws[0], 0)) && !scored {
			continue
		}
		w := strings.ToLower(ws[0])
		if englishPhrasalOrder(ws, f) {
			return w
		}
		// A numeral, in letters or digits, opens an object typed in lower
		// case as a determiner does ("increase 1 hour timer").
		fs := strings.Fields(head)
		typed := unicode.IsLower(firstRune(ws[0], 0)) && (englishNumeral()[strings.ToLower(ws[1])] || len(fs) > 1 && englishDigits(fs[1]))
		verb := englishVerb(w, ws[1:], f) || (scored || typed) && wordnetVerbs()[w] && !englishFinite()[w]
		if !verb || englishInflected(w) {
			continue
		}
		rest := ws[1:]
		if scored {
			// A score closes the clause: the words before it are a
			// title, the object ("Rate Hope Was Here a one of 6").
			rest = lowerWords(rest)
		}
		if englishNotObject()[strings.ToLower(ws[1])] && !(scored && unicode.IsUpper(firstRune(ws[1], 0))) || len(rest) > 0 && englishFiniteIn(rest, f) {
			continue
		}
		// A verb before a bare plural, and more after it, is a noun
		// compound's first half as often ("Merge conflicts in go.sum
		// after the bump", "Load tests for …"): the plural alone is
		// the object ("Cancel alarms").
		if len(ws) > 2 && bareNounPlural(ws[1]) {
			continue
		}
		return w
	}
	return ""
}

// englishInflected reports w (lower case) as ending as no verb's bare form
// does: a past or participle in -ed, a gerund in -ing, a third singular in
// -s (not -ss: "pass", "press").
func englishInflected(w string) bool {
	return hasSuffixAny(w, "ed", "ing") || strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}

// titledWords reports ws, a clause's words, written as a title: every word
// of four letters or more opens with a capital.
func titledWords(ws []string) bool {
	n := 0
	for _, w := range ws {
		if utf8.RuneCountInString(w) < 4 {
			continue
		}
		if !unicode.IsUpper(firstRune(w, 0)) {
			return false
		}
		n++
	}
	return n >= 2
}

// englishFiniteIn reports a finite verb among ws, the words after a
// clause's first: an auxiliary or a modal, a past in -ed (not an
// adjective in -ed, englishAdjectiveEd), or, past the word straight
// after the opening verb (its object: "Cancel alarms"), a third singular
// in -s of a lexicon verb, or a lexicon
// verb's bare form after a plural noun ("Commit messages follow …"), not
// a noun closing a preposition's phrase (englishNounLast).
func englishFiniteIn(ws []string, f treebankForms) bool {
	return englishFiniteFrom(ws, f, false)
}

// englishFiniteFrom is englishFiniteIn; typed, for a clause typed in
// lower case as an order (englishLowerOrder), reads a word in -s straight
// after a preposition as its object's noun ("search jack in contacts"),
// where a statement's subject may hold a plural before its verb's
// third singular ("Like the majority of sites in …, the finding dates
// …" is read whole).
func englishFiniteFrom(ws []string, f treebankForms, typed bool) bool {
	for i, w := range ws {
		// A capital inside the clause opens a name, no verb ("Play a
		// Bob Burns song").
		named := i > 0 && unicode.IsUpper(firstRune(w, 0))
		w = strings.ToLower(w)
		if englishFinite()[w] || hasSuffixAny(w, "n't", "'re", "'ve", "'ll", "'d", "’re", "’ll") {
			return true
		}
		// A past in -ed, unless the object opens with a determiner
		// straight after the verb: then it is the participle of a phrase after a
		// noun ("Find a trailer called Storm Center").
		if strings.HasSuffix(w, "ed") && utf8.RuneCountInString(w) >= 4 && !englishDeterminer()[strings.ToLower(ws[0])] && !englishAdjectiveEd(w, ws[i+1:]) {
			return true
		}
		if i == 0 {
			continue
		}
		// After a preposition, in a clause typed as an order, a word in
		// -s is its object's noun ("search jack in contacts").
		after := typed && englishNotObject()[strings.ToLower(ws[i-1])]
		if stem, ok := strings.CutSuffix(w, "s"); ok && !named && !after && !strings.HasSuffix(stem, "s") && (f.imperativeOf(stem, "English") || strings.HasSuffix(stem, "e") && f.imperativeOf(strings.TrimSuffix(stem, "e"), "English")) {
			return true
		}
		prev := strings.ToLower(ws[i-1])
		if f.imperativeOf(w, "English") && strings.HasSuffix(prev, "s") && !strings.HasSuffix(prev, "ss") && !strings.HasSuffix(prev, "'s") && !englishNounLast(ws, i) {
			return true
		}
	}
	return false
}

// bareNounPlural reports w, a word in lower case ending in -s as a
// plural does (not -ss, not a possessive).
func bareNounPlural(w string) bool {
	return w == strings.ToLower(w) && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.ContainsAny(w, "'’")
}

// englishDeterminer are the determiners that open an object.
var englishDeterminer = sync.OnceValue(set("a", "an", "the", "this", "that", "these", "those", "my", "your", "our", "their", "his", "her", "its", "some", "any", "every", "each", "all"))

// englishFinite are the finite auxiliaries and modals.
var englishFinite = sync.OnceValue(set("is", "are", "was", "were", "am", "has", "have", "had", "does", "did", "do", "will", "would", "can", "could", "should", "must", "may", "might", "shall", "won't", "can't", "cannot"))

// englishNotObject are the words that cannot open a verb's object: the
// prepositions a noun phrase whose head is also a verb puts after it
// ("Update on …", "Fix for …", "Change of plans"), and the conjunctions.
var englishNotObject = sync.OnceValue(set("of", "for", "on", "to", "from", "with", "at", "by", "about", "in", "into", "after", "before", "during", "since", "until", "between", "under", "across", "per", "via", "vs", "like", "as", "than", "and", "or", "but", "is", "are", "was", "were"))

// englishAsked returns what opens clause c of lower (lower case) as an
// English question without its mark, or "": a modal the question puts
// before its subject pronoun ("will it snow today", "should i wear a
// coat"; askVerbFirst leaves these out, as they open a condition, which
// a comma closes), "is" or "are" before a subject and its verb in -ing
// ("is Tarzan of the Apes playing at …"), an interrogative and one word before the verb and
// its subject ("how hot is it", "what time is …"), or an interrogative joined to its verb
// ("what's the weather").
func englishAsked(lower string) string {
	for _, c := range clauses(lower) {
		if head, _, cut := strings.Cut(c, ","); cut {
			if w := englishInvertedHead(head); w != "" {
				return w
			}
			continue
		}
		if strings.ContainsRune(c, '，') {
			continue
		}
		ws := words(c)
		if len(ws) < 3 {
			continue
		}
		first, second, third := ws[0], ws[1], ws[2]
		switch {
		case (first == "will" || first == "should" || first == "shall") && englishSubjectPronoun()[second]:
			return first + " " + second
		case (first == "how" || first == "what" || first == "which") && askVerbs()[third] && !askVerbs()[second] && !englishVerbForm(second, third) && len(ws) > 3:
			return first + " " + second + " " + third
		case (first == "is" || first == "are") && englishProgressive(ws[2:]) && !otherLatin(lower, "English"):
			return first
		case (first == "does" || first == "did") && second != "not":
			return first
		case englishInvertedAux(first, second):
			return first + " " + second
		case first == "who" && englishWhoVerb(second):
			return first + " " + second
		case englishJoinedAsk()[first]:
			return first
		}
		if w := englishInverted(ws); w != "" {
			return w
		}
	}
	return ""
}

// englishInvertedAux reports first and second, a clause's first two
// words (lower case, the clause holds no comma), as an auxiliary or a
// modal before its subject: English puts the subject first in a
// statement, and the auxiliary before it only in a question (or a
// condition, which a comma closes: "should the build fail, …"). The
// auxiliaries askVerbFirst reads already are left to it; the past and
// perfect forms ("was", "were", "had", "have") and "am", "may" count
// only before a subject pronoun or "there" ("was there an outage", "am i
// connected"): before a determiner they open a note that leaves out its
// subject ("Was the default until v1.4", "Had a race in …") and "May
// the" a wish or a date. The modals that need a bare verb after their
// subject count before a determiner too ("will the migration land").
func englishInvertedAux(first, second string) bool {
	if englishSubjectPronoun()[second] {
		return englishInvertedPronoun[first]
	}
	return englishDeterminer()[second] && englishInvertedModal[first]
}

// englishWhoVerb reports w, the word after a clause's opening "who" (or
// "what", englishTypedAsked), as a finite verb: a third singular in -s or a past in -ed of a WordNet
// verb, or an irregular past ("who plays han solo", "who won the …").
// "who" opens no statement: a relative clause follows its noun.
func englishWhoVerb(w string) bool {
	v := wordnetVerbs()
	if englishIrregularPast[w] {
		return true
	}
	if stem, ok := strings.CutSuffix(w, "s"); ok && !strings.HasSuffix(stem, "s") {
		return v[stem] || v[strings.TrimSuffix(stem, "e")] && strings.HasSuffix(stem, "e")
	}
	if stem, ok := strings.CutSuffix(w, "ed"); ok {
		return v[stem] || v[stem+"e"]
	}
	return false
}

// englishInvertedPronoun are the auxiliaries and modals read before a
// subject pronoun.
var englishInvertedPronoun = map[string]bool{"am": true, "was": true, "were": true, "have": true, "had": true, "do": true, "will": true, "should": true, "shall": true, "may": true, "might": true, "must": true}

// englishInvertedModal are the modals read before a determiner.
var englishInvertedModal = map[string]bool{"will": true, "should": true, "shall": true, "might": true, "must": true}

// englishJoinedAsk are the interrogatives joined to "is".
var englishJoinedAsk = sync.OnceValue(set("what's", "how's", "where's", "when's", "who's", "what’s", "whats", "wheres", "whos"))

// englishInvertedHead returns what englishInverted finds in head, a
// clause's words before its comma: an interrogative's inversion is told
// before it ("what time is it in houston, tx").
func englishInvertedHead(head string) string {
	if ws := words(head); len(ws) >= 3 {
		return englishInverted(ws)
	}
	return ""
}

// englishInverted returns the interrogative and the auxiliary of ws, a
// clause's words, put as a question: an interrogative, a phrase of up to
// four words with neither a determiner nor a verb in it ("how much
// money", "what kind of gas"), then an auxiliary before its subject
// pronoun ("how much money have i spent", "what song am i listening
// to"), or "do", "does" or "did" before any subject ("how many calories
// does a big mac have"), or the auxiliary that closes the clause with
// one word after it ("how much time is left"). English puts the
// auxiliary before its subject only in a question; a subject clause puts
// its subject first ("What the user wants is …", "How much memory the
// indexer uses depends on …"), and a determiner opens it.
func englishInverted(ws []string) string {
	if !englishInterrogative()[ws[0]] {
		return ""
	}
	for i := 1; i < len(ws)-1 && i <= 5; i++ {
		w := ws[i]
		if englishFinite()[w] {
			next := ws[i+1]
			if englishSubjectPronoun()[next] || (w == "do" || w == "does" || w == "did") && i > 1 || i > 2 && i+2 == len(ws) || i > 1 && englishAskedPlace(ws[i+1:]) {
				return ws[0] + " " + w
			}
			return ""
		}
		if englishDeterminer()[w] || englishSubjectPronoun()[w] || englishNotObject()[w] && w != "of" || hasSuffixAny(w, "ed", "ing") {
			return ""
		}
	}
	return ""
}

// englishAskedPlace reports ws, the words after an interrogative's
// phrase and its auxiliary, as a preposition's phrase with no finite
// verb after it ("how many items are in a bakers dozen"): the
// auxiliary stands before the subject it asks about; a subject clause
// takes its own verb after ("how many items are in the export is
// logged").
func englishAskedPlace(ws []string) bool {
	if len(ws) < 2 || !englishPlacePreposition[ws[0]] {
		return false
	}
	for _, w := range ws[1:] {
		if englishFinite()[w] {
			return false
		}
	}
	return true
}

// englishPlacePreposition are the prepositions an asked predicate opens
// with.
var englishPlacePreposition = map[string]bool{"in": true, "on": true, "at": true, "from": true, "near": true, "inside": true, "into": true, "under": true, "with": true}

// englishInterrogative are the interrogatives that open a question.
var englishInterrogative = sync.OnceValue(set("how", "what", "which", "where", "when", "who", "why", "whats"))

// englishProgressive reports a verb in -ing among ws, what follows an
// opening "is" and the subject's first word ("is Tarzan of the Apes
// playing at …"): the auxiliary stands before its subject only in a
// question, and English opens no statement with it.
func englishProgressive(ws []string) bool {
	for _, w := range ws {
		if strings.HasSuffix(w, "ing") && utf8.RuneCountInString(w) >= 5 {
			return true
		}
	}
	return false
}

// englishVerbForm reports second, the word after an interrogative, as
// a verb's past, or as a third singular in -s before a singular verb
// (a plural noun takes "are": "what songs are …"): "what follows is
// …", "what matters is …" are a subject clause and its verb, no
// question.
func englishVerbForm(second, third string) bool {
	singular := third == "is" || third == "was" || third == "has" || third == "does"
	return strings.HasSuffix(second, "ed") || singular && strings.HasSuffix(second, "s") && !strings.HasSuffix(second, "ss")
}

// englishSubjectPronoun are the subject pronouns and "there".
var englishSubjectPronoun = sync.OnceValue(set("i", "you", "it", "there", "we", "they", "he", "she"))

//go:embed englishverbs.txt
var englishVerbsTxt string

// wordnetVerbs are the one-word lemmas of WordNet 3.1's verb index
// (englishverbs.txt, scripts/wordnetverbs).
var wordnetVerbs = sync.OnceValue(func() map[string]bool {
	m := make(map[string]bool, 8500)
	for _, line := range strings.Split(englishVerbsTxt, "\n") {
		if line != "" && line[0] != '#' {
			m[line] = true
		}
	}
	return m
})

// englishVerb reports w (lower case), a clause's first word, as an
// English verb whose bare form may open an order before rest, the words
// after it: a verb of imperatives.tsv's English rows, or one of
// WordNet's verb index ("book", "rate", "snooze", which the treebanks
// write too seldom or mostly as nouns) before a determiner or an object
// pronoun that opens its object ("Book a table for two", "Rate this
// album 4 stars", "Snooze it"). Most of WordNet's verbs are nouns as
// often, and open a note's title as its head noun ("Rate card for the
// contractors", "Table layout for …"); a noun is followed by no
// determiner, so only an object that opens with one tells the verb. Not
// a determiner before a time ("Demo this Friday"): an adverbial, not an
// object. The auxiliaries and modals WordNet lists as verbs ("will",
// "can") open a question, no order.
func englishVerb(w string, rest []string, f treebankForms) bool {
	if f.imperativeOf(w, "English") {
		return true
	}
	if !wordnetVerbs()[w] || englishFinite()[w] {
		return false
	}
	next := strings.ToLower(rest[0])
	if englishObjectPronoun()[next] {
		return true
	}
	return englishDeterminer()[next] && (len(rest) < 2 || !englishTime()[strings.ToLower(rest[1])])
}

// englishTime are the nouns of time a determiner opens an adverbial with
// ("this Friday", "every morning").
var englishTime = sync.OnceValue(set("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "morning", "afternoon", "evening", "night", "day", "week", "weekend", "month", "quarter", "year", "time", "sprint", "release", "cycle"))

// englishObjectPronoun are the object pronouns.
var englishObjectPronoun = sync.OnceValue(set("me", "us", "it", "them", "him"))

// englishPhrasalOrder reports ws, a clause's words, as an order that
// opens with a verb whose preposition is its particle ("search for the
// game", "look for a song", "listen to Bob Dylan"), or a request that
// opens with "looking for" and no subject: a determiner, an object
// pronoun or a name after the preposition, and no finite verb after
// ("Search for the root cause took most of the sprint" is a
// statement). A noun phrase whose head is also a verb puts its
// preposition after it too ("Plan for Q3", "Fix for the login bug"),
// so only the verbs that take the preposition as their particle count.
func englishPhrasalOrder(ws []string, f treebankForms) bool {
	if len(ws) < 3 {
		return false
	}
	i := 0
	if strings.EqualFold(ws[0], "am") {
		i = 1
	}
	v, prep := strings.ToLower(ws[i]), strings.ToLower(ws[i+1])
	if !englishParticle[v+" "+prep] || i+2 >= len(ws) {
		return false
	}
	obj := ws[i+2]
	lo := strings.ToLower(obj)
	name := unicode.IsUpper(firstRune(obj, 0)) && obj[1:] == strings.ToLower(obj[1:])
	if !englishDeterminer()[lo] && !englishObjectPronoun()[lo] && !name && !englishTypedObject(ws[i], lo) {
		return false
	}
	for _, w := range ws[i+2:] {
		if englishIrregularPast[strings.ToLower(w)] {
			return false
		}
	}
	return !englishFiniteIn(ws[i+2:], f)
}

// englishIrregularPast are the pasts of English's irregular verbs that
// are not also their bare forms: a finite verb after a subject that opens
// with a particle verb's noun ("search for the root cause took most of
// the sprint").
var englishIrregularPast = map[string]bool{"took": true, "made": true, "went": true, "came": true, "got": true, "gave": true, "saw": true, "ran": true, "said": true, "told": true, "kept": true, "left": true, "felt": true, "brought": true, "thought": true, "began": true, "broke": true, "fell": true, "won": true, "lost": true, "sent": true, "spent": true, "built": true, "held": true, "wrote": true, "became": true, "stood": true, "found": true, "knew": true, "grew": true, "drove": true, "chose": true, "bought": true, "caught": true, "taught": true, "sold": true, "paid": true, "led": true, "met": true, "meant": true, "showed": true, "turned": true, "sang": true, "sung": true, "drew": true, "flew": true, "swam": true, "wore": true, "rode": true, "spoke": true, "stole": true, "threw": true, "shot": true, "fought": true, "lay": true}

// englishParticle are the verbs whose preposition is their particle, and
// "looking for".
var englishParticle = map[string]bool{"search for": true, "look for": true, "looking for": true, "listen to": true, "ask for": true, "wait for": true, "look up": true, "look at": true, "turn on": true, "turn off": true, "turn up": true, "turn down": true, "switch on": true, "switch off": true}

// englishScore matches a score that closes a clause ("4 out of 6",
// "a zero out of 6", "5 stars"): after a verb and its object, what an
// order to rate puts last.
var englishScore = regexp.MustCompile(`(?:^|\s)(?:\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:(?:out\s+)?of\s+(?:\d+|five|six|ten)(?:\s+stars?|\s+points?)?|stars?|points?)\W*$`)

// lowerWords returns the words of ws that open in lower case.
func lowerWords(ws []string) []string {
	var out []string
	for _, w := range ws {
		if !unicode.IsUpper(firstRune(w, 0)) {
			out = append(out, w)
		}
	}
	return out
}
