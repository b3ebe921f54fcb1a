// The readings statedIn and notStating ask of a token in its sentence:
// English grammar, each measured on the treebanks (docs/security.md, the
// sections "Session 29" to "Session 31"), that tells a verb that states
// from one that orders, asks, speaks in the first or second person, or is
// no verb of the sentence.
package rules

import (
	"slices"
	"strings"
)

// articled reports token i a fragment form in -s right after an English
// article or possessive (row article: the, a, any, our) other than "no":
// a noun follows one, so the form is a plural noun ("Any discounts", "any
// offers today"), not a verb that states. In EWT and GUM such a form,
// not an auxiliary (is, has, does: "their is no point", a slip for
// "there"), is a finite verb once in 158 ("her grows"). "no" is also the
// answer (an interjection 139 times of its 711 there: "no thats all") and
// chat's "number" ("acc no is 1245"), so it is left out.
func articled(rows *[stKinds]string, toks [][]string, i int) bool {
	w := toks[i][0]
	return englishRows(rows) && i > 0 && isArticle(rows, toks[i-1]) && toks[i-1][0] != "no" && sEnding(w) && !inRow(rows[stAskAux], w)
}

// openedAfter reports a verb form at token i that opens its English
// sentence after an opening prepositional phrase (adverbialBefore), as it
// would first: "on tuesday of next week set an alarm …". English writes
// its subject, before its verb (not verb-second, as German, nor leaving it
// out, as Romance and Russian), and makes an inversion there with a
// fragment form ("Among them is …"). Not a word in the phrase: one after
// a determiner or a preposition ("With the help of …", "In return, …",
// "In order to …"), capitalised ("In May, …"); nor an auxiliary before a
// participle, whose subject stood before it ("After its progress had
// stalled …").
func openedAfter(rows *[stKinds]string, toks [][]string, upper, pause []bool, i int) bool {
	return englishRows(rows) && !upper[i] && !isDet(rows, toks[i-1]) && !participleAfter(rows, toks, i) &&
		adverbialBefore(rows, toks, upper, pause, i)
}

// possessive reports token i an English "'s" after a word before which
// the treebanks write it mostly as the possessive, not as "is" or "has"
// (sverb: it's, that's, there's are verbs; "today's forecast",
// "tomorrow's alarm" are not). An article after it makes it the verb: a
// possessive takes the place of one ("Chicago's a big area").
func possessive(rows *[stKinds]string, toks [][]string, i int) bool {
	return rows[stSVerb] != "" && i > 0 && toks[i][0] == "'s" && len(toks[i-1]) == 2 && !inRow(rows[stSVerb], toks[i-1][1]) &&
		(i+1 == len(toks) || !isArticle(rows, toks[i+1]))
}

// gerundPart reports an English state form at token i that is mostly a
// participle ("rated", "located", "based") in a sentence opened by a
// gerund or participle in lower case with no subject after it ("looking
// for vietnamese and zagat rated"): the sentence left its subject and
// auxiliary out, and a form spelt both as a past and a participle is
// read as the participle of the phrase.
func gerundPart(rows *[stKinds]string, toks [][]string, upper []bool, i int) bool {
	if !englishRows(rows) || toks[0] == nil || upper[0] || !inRow(rows[stParticiple], toks[0][0]) || !inRow(rows[stParticiple], toks[i][0]) {
		return false
	}
	for _, t := range toks[1:i] {
		if t != nil && (inRow(rows[stSubject], t[0]) || inRow(rows[stArticle], t[0])) {
			return false
		}
	}
	return true
}

// clauseOpens reports an English verb form at token i opening a clause
// as a sentence opens: after interjections and conjunctions only ("hi ,
// find a restaurant", "alright , let's do 5 pm": an interjection stands
// outside the clause), or right after a conjunction with no verb, subject,
// speaker or name before it ("inexpensive and make it an italian
// restaurant": with no verb before it to share a subject with or to
// govern it as an infinitive, the verb after the conjunction opens its
// own clause, and English writes a clause's subject before its verb).
// Not in the languages that leave the subject out ("… dominó … y
// lideró …").
func clauseOpens(rows *[stKinds]string, toks [][]string, upper []bool, i int) bool {
	if !englishRows(rows) {
		return false
	}
	j := i - 1
	for j >= 0 && toks[j] == nil {
		j-- // a mark: "hi , find"
	}
	if j < 0 || !particle(rows, toks[j]) {
		return false
	}
	for k, t := range toks[:j] {
		if t != nil && (classOf(rows, t) != stKinds || inRow(rows[stSubject], t[0]) || inRow(rows[stPerson], t[0]) || k > 0 && upper[k]) {
			return false
		}
	}
	return true
}

// interjected reports token i opening its English clause after an
// interjection set off by a comma, with only interjections before it and
// no comma after it ("hello, is ther anyone available to assist",
// "Hello, what is the weather like tomorrow"): an asking auxiliary or an
// interrogative there opens a question, as it does first. In EWT and GUM
// an interrogative or an asking auxiliary right after an interjection and
// its comma, with only interjections before, opens a question 7 times in
// 8 (the eighth, "Yeah, what you see on Studio 60 …, those are …", has a
// comma after it); with no comma after the word before, it continues a
// coordination as often ("and did great job", "Either is fine"). Not the
// relatives of row sub ("lol which is good": it points back).
func interjected(rows *[stKinds]string, toks [][]string, upper, pause []bool, i, kind int) bool {
	w := toks[i][0]
	if !(kind == stAsk && !inRow(rows[stSub], w) || inRow(rows[stAskAux], w) && !participleAfter(rows, toks, i)) {
		return false
	}
	j := i - 1
	for j >= 0 && toks[j] == nil {
		j--
	}
	return j >= 0 && pause[j] && clauseOpens(rows, toks, upper, i) && !slices.Contains(pause[i:], true)
}

// particle reports a token mostly an interjection or a conjunction: a
// "that" after it points ("Oh that looks good", "But that person was …"),
// it opens no relative clause.
func particle(rows *[stKinds]string, t []string) bool {
	return len(t) > 0 && inRow(rows[stParticle], t[0])
}

// speaks reports token i a first or second person's contraction typed
// without its apostrophe or that person's subject pronoun, not a noun
// after an article ("The request id was …") nor a numeral.
func speaks(rows *[stKinds]string, toks [][]string, upper, pause []bool, i int) bool {
	w := toks[i][0]
	if answeredNo(rows, toks, i) {
		return true
	}
	if i > 0 && isArticle(rows, toks[i-1]) || i > 1 && isArticle(rows, toks[i-2]) {
		return false
	}
	return inRow(rows[stSpeaker], w) || inRow(rows[stPerson], w) && !numeral(rows, toks, upper, pause, i) || chatYou(rows, toks, upper, i) ||
		firstAm(rows, toks, upper, i)
}

// firstAm reports token i an English "am" in lower case after a word:
// the first person singular's own form, with its subject or without ("Yaa
// am already paid", "… and am venturing to send"). In EWT and GUM "am"
// not after a number (a.m.: "alarm for 5 am", a token with a digit) is
// the first person 368 times in 372 (the rest: "in the am", "Friday am",
// "Pan-Am", "AM New York"); after an article speaks already says no.
func firstAm(rows *[stKinds]string, toks [][]string, upper []bool, i int) bool {
	return englishRows(rows) && toks[i][0] == "am" && !upper[i] && i > 0 && toks[i-1] != nil
}

// answeredNo reports token i a first or second person's subject pronoun
// (row person) right after an English "no" and before a verb form: "no"
// there is the answer, not the determiner, and the person speaks ("no i
// got it", "no we need two"). In EWT and GUM a pronoun of the row right
// after "no" is the subject 10 times in 10 ("No I need like a little pin
// …"); after the other articles it is a noun 3 times in 11 ("the I …").
func answeredNo(rows *[stKinds]string, toks [][]string, i int) bool {
	return englishRows(rows) && i > 0 && len(toks[i-1]) > 0 && toks[i-1][0] == "no" && inRow(rows[stPerson], toks[i][0]) &&
		i+1 < len(toks) && toks[i+1] != nil && verbIn(rows, toks[i+1])
}

// chatYou reports token i a lower-case "u" right before a verb form of
// the English table: chat's spelling of "you", the second person's
// subject ("u will be there", "u got it"). In EWT and GUM a lower-case
// "u" before a finite verb is the subject pronoun "you" 16 times in 17
// (the other a physicist's velocity); elsewhere it is a letter or an
// object as often as not, so the table, which counts forms lower-cased,
// has no row for it. Not before a form ending in "s": English's second
// person never takes it (is, was, has, needs), a letter does ("The value
// of u is 2"). First in a sentence its capital is the sentence's ("U have
// outlets in", "U will be there"); after a capitalised word it is a name's
// letter ("Wii U has been announced", the only capital "U" EWT and GUM
// write before a verb form).
func chatYou(rows *[stKinds]string, toks [][]string, upper []bool, i int) bool {
	return englishRows(rows) && toks[i][0] == "u" && (!upper[i] || i == 0) && i+1 < len(toks) && toks[i+1] != nil &&
		verbIn(rows, toks[i+1]) && !strings.HasSuffix(toks[i+1][0], "s")
}

// proposes reports token i an English "'s" joined to a verb form of the
// table (state, fragment or order; not one of row sverb, before which
// "'s" is "is" or "has"), with no article before that verb (a noun: "the
// plant's roots"): the "'s" is "us", the first person plural, and the
// speaker proposes ("let's try Thursday"), wherever it stands. In EWT and
// GUM a "'s" so placed is "us" 86 times in 97, every one after "let", an
// imperative or an infinitive; the rest are names ("Lay's", "Plant's").
func proposes(rows *[stKinds]string, toks [][]string, i int) bool {
	if rows[stSVerb] == "" || i == 0 || toks[i][0] != "'s" || len(toks[i-1]) != 2 || inRow(rows[stSVerb], toks[i-1][1]) {
		return false
	}
	v := toks[i-1][1]
	if !inRow(rows[stState], v) && !inRow(rows[stFragment], v) && !inRow(rows[stOrder], v) {
		return false
	}
	return i < 2 || !isArticle(rows, toks[i-2])
}

// numeral reports a capitalised token i right after a capitalised word,
// with no comma between, that is no interjection or conjunction: "World
// War I", "Phase I", "Franz Joseph I" number the name before them (the
// treebanks write a capital "I" as a numeral or a name 17 times in 5,600,
// after a name), where "Wow I didn't …", "Ok, I mean …" speak. After
// the sentence's first word, whose capital is the sentence's, and before
// a verb form it is the pronoun: EWT and GUM write "I" right after a
// capitalised first word 291 times, the pronoun 290 ("Now I have …",
// "Luckily I live …"), and before a verb form of the table 259 times in
// 259 ("Norton I, Emperor …" numbers a name before a comma; "Phase I of
// the migration" has no verb after it).
func numeral(rows *[stKinds]string, toks [][]string, upper, pause []bool, i int) bool {
	if i == 1 && i+1 < len(toks) && toks[i+1] != nil && classOf(rows, toks[i+1]) != stKinds {
		return false // "Sir I added 26 …": the first word's capital is the sentence's
	}
	return upper[i] && i > 0 && upper[i-1] && !pause[i-1] && toks[i-1] != nil && !particle(rows, toks[i-1])
}

// relative reports token i a subordinator or a relative that opens a
// clause: not first in the sentence or after an interjection or a
// conjunction ("Oh that looks good") unless it opens sentences too (if,
// because).
func relative(rows *[stKinds]string, toks [][]string, i int) bool {
	t := toks[i]
	return inRow(rows[stSub], t[0]) && (i > 0 && !particle(rows, toks[i-1]) || inRow(rows[stSubOpen], t[0]))
}

// asksWithin reports token i an English interrogative that opens a clause
// where it stands, asked when no verb form stands before it in its clause
// and no comma after it (statedIn): "what", "how" or "why" not first ("4*6 bed what is the
// size", "In case of tie, what happens"), or "when" anywhere ("When these
// dumbles comes in stock"). With no verb before it to govern it, its
// clause is a question or a relative on a noun, and the first verb after
// it is that clause's, not a statement's: in EWT and GUM, of the first
// finite verbs after "what", "how" or "why" not first with no finite verb
// before, 15 in 184 are the main verb of a sentence without a question
// mark, 9 of them questions typed without it ("And what is their big
// meal of the day.", "So what was the point …"); after "when", 23 in
// 284, each after a when-phrase with no finite verb of its own ("When
// choosing a parakeet look for …") or a clause with no main clause. With a
// verb form before ("customers earn 3% … when they add …": "earn" is
// mostly an order there), the clause may be that verb's, and the gate
// reads on as before. The table leaves "when" out of row ask (fewer than
// half of the sentences it opens end in "?") and of row sub (UD annotates
// it as an interrogative adverb, not as a relative or a subordinator);
// nor when a comma follows: the clause ends there and a main clause may
// follow ("When the build fails, it retries": the gate reads no verb in
// -s after a pronoun at a clause's end, and the when-clause's verb stands
// for it as before);
// "which", "who" and "where" are in row sub and read as relatives
// ("lol which is good": after an interjection, it points back).
func asksWithin(rows *[stKinds]string, toks [][]string, pause []bool, i, kind int) bool {
	return englishRows(rows) && !slices.Contains(pause[i:], true) && (kind == stAsk && i > 0 && !inRow(rows[stSub], toks[i][0]) || toks[i][0] == "when")
}

// verbForm reports token i of kind a verb form of the table (state,
// fragment, order), not right after a determiner (a noun there: "in case
// of tie").
func verbForm(rows *[stKinds]string, toks [][]string, i, kind int) bool {
	return kind != stKinds && kind != stAsk && (i == 0 || !isDet(rows, toks[i-1]))
}

// participleAfter reports a sentence whose token after i is mostly a
// participle or a gerund: an auxiliary before it opens a fragment ("Has
// been …", "Is running …"), not a question.
func participleAfter(rows *[stKinds]string, toks [][]string, i int) bool {
	return i+1 < len(toks) && len(toks[i+1]) > 0 && inRow(rows[stParticiple], toks[i+1][0])
}

// adverbialBefore reports a sentence that opens with a preposition and
// holds, before token i, only the words of its phrase, set off by no
// comma: no verb, no subject (a pronoun, "there", a capitalised name), no
// subordinator, and an article only right
// after a preposition ("in what movies has …", "in the 1960 s did …"; not
// "In 2007 the film was …", "During this time, Marcelle was …"). What comes
// first after it is what a sentence opening at i would open with.
func adverbialBefore(rows *[stKinds]string, toks [][]string, upper, pause []bool, i int) bool {
	if toks[0] == nil || !inRow(rows[stPrep], toks[0][0]) {
		return false
	}
	for j := 1; j < i; j++ {
		t := toks[j]
		if pause[j-1] || upper[j] || t != nil && (classOf(rows, t) != stKinds || inRow(rows[stSubject], t[0]) || inRow(rows[stSub], t[0]) ||
			inRow(rows[stArticle], t[0]) && (toks[j-1] == nil || !inRow(rows[stPrep], toks[j-1][0]))) {
			return false
		}
	}
	return !pause[i-1]
}

// subjectVerb reports an English sentence whose verb is a third singular
// written mostly as a plural noun ("The parser streams input …", "Mei
// Chen reviews every change", "It lives in the wiki"): the word is the
// verb when a subject stands before it — a pronoun in the nominative
// first, a sentence-cased determiner and the words of its noun, or a name
// of capitalised words — and something follows it. The verb comes before
// any subordinator, and no other word read it as a statement.
func subjectVerb(rows *[stKinds]string, toks [][]string, upper []bool) bool {
	if len(toks) < 3 || toks[0] == nil {
		return false
	}
	for i := 1; i < len(toks)-1; i++ {
		t := toks[i]
		if t == nil {
			continue // a name or a number within the subject: "An F1 ticket grants …"
		}
		if isDet(rows, t) || inRow(rows[stSub], t[0]) || classOf(rows, t) != stKinds && !inRow(rows[stVerbal], t[0]) {
			return false
		}
		if !inRow(rows[stVerbal], t[0]) || upper[i] {
			continue
		}
		switch {
		case i == 1:
			return inRow(rows[stSubject], toks[0][0])
		case inRow(rows[stArticle], toks[0][0]):
			return upper[0]
		default:
			for j, up := range upper[:i] {
				if !up && toks[j] != nil {
					return false
				}
			}
			return true
		}
	}
	return false
}

// subjectFirst reports a sentence whose first word, though mostly an
// order, is its subject's noun: a name or a number, a stating verb, or a
// word that is neither a verb nor a determiner or a preposition follows
// it ("Commit 3f2a1b landed …", "Deploy finished the rollout", "Rate card
// for the contractors lives …"; not "Book a table", "Turn on the light"),
// but not a participle or a gerund, which makes the first word its
// auxiliary ("am looking for …": a first person speaking).
// A stating verb must still follow.
func subjectFirst(rows *[stKinds]string, toks [][]string, pause []bool) bool {
	if len(toks) < 2 {
		return false
	}
	k := classOf(rows, toks[1])
	return (toks[1] == nil || k == stState || k == stFragment || k == stKinds && !isDet(rows, toks[1]) && !participleAfter(rows, toks, 0)) &&
		!singularPlain(rows, toks, pause)
}

// singularPlain reports an English sentence whose first verb form after
// its first word is a plain present (a base form the table also writes
// with -s or -es, never mostly a participle: "address", "call"; not "set",
// "put", which are pasts too) right after a word not in -s: the plain
// present agrees with a plural or with I, you, we, they, and no such
// subject stands before it, so the word is a noun ("Edit shipping
// address", "Contact Call Center", "Modify Address"), and the first word
// is no subject's noun but an order. "Deploy keys rotate nightly",
// "Deploy finished the rollout", "Rate card … lives" agree; after a
// comma or a colon a new clause opens ("Release checklist: see [[…]]",
// mem's own pointer line, is judged as before); after a form
// mostly a participle ("gotta go": got to) the plain form is its
// infinitive.
func singularPlain(rows *[stKinds]string, toks [][]string, pause []bool) bool {
	if !englishRows(rows) {
		return false
	}
	for k := 1; k < len(toks); k++ {
		t := toks[k]
		if t == nil {
			continue
		}
		c := classOf(rows, t)
		if pause[k-1] || inRow(rows[stSubject], t[0]) || inRow(rows[stPerson], t[0]) || c == stOrder {
			return false // a subject stands, or a verb form that is no statement's
		}
		if c != stState && c != stFragment {
			continue
		}
		w, prev := t[0], toks[k-1]
		plain := !sEnding(w) && !strings.HasSuffix(w, "ed") && !inRow(rows[stParticiple], w) &&
			(verbIn(rows, []string{w + "s"}) || verbIn(rows, []string{w + "es"}))
		return plain && prev != nil && !sEnding(prev[0]) && !inRow(rows[stParticiple], prev[0])
	}
	return false
}

// sEnding reports an English word in -s, not -ss: a plural or a third
// singular ("keys", "lives"), not "address", "process".
func sEnding(w string) bool {
	return strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss")
}
