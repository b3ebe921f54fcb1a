package rules

import "strings"

// Requests and questions typed to an assistant without their marks (round
// 11, SLURP): English grammar that tells a question or an order where the
// gate found a verb that states. Each reading is measured on EWT and GUM
// (docs/security.md, "Session 32").

// proposesOrAsks reports a sentence in which a token proposes ("let's
// try Thursday"), that asks by its form alone (askedUnmarked) or that
// orders after a comma (orderedAfterComma), wherever it stands: no
// statement.
func proposesOrAsks(rows *[stKinds]string, toks [][]string, pause []bool) bool {
	for i, t := range toks {
		if t != nil && proposes(rows, toks, i) {
			return true
		}
	}
	return askedUnmarked(rows, toks) || orderedAfterComma(rows, toks, pause) || tagAsked(rows, toks, pause)
}

// askedUnmarked reports an English sentence that asks by its form alone,
// wherever its interrogative stands: one left in place (askedInSitu) or
// one before "do" (askedDo).
func askedUnmarked(rows *[stKinds]string, toks [][]string) bool {
	return englishRows(rows) && (askedInSitu(rows, toks) || askedDo(rows, toks))
}

// askedInSitu reports an English interrogative (what, how, when, where,
// which, who, why) after a verb form of its sentence with no verb form
// after it to the sentence's end: a question that leaves its
// interrogative where the answer goes ("today is what date", "one dollar
// equals how much", "delivered when"). An interrogative after its verb
// opens an embedded clause or a relative, which has a verb of its own
// ("I know what happened", "the town where it began"); with none after
// it, it is the thing asked. In EWT and GUM (dev and test, 7,117
// sentences) an interrogative with a verb before it, none after it to the
// sentence's end, not after "and", "or", "but" or "no matter"
// (coordinated), and, if a relative, right after a verb
// (relativeAfterNoun), stands in 2 questions with "?", 3 sentences with a
// first or second person and 1 statement ("Depends of what."). A sluice
// right after its verb is held too ("nobody knows why"). A form right
// after the interrogative that the table also writes with -s is its noun ("what date", "what time"): the
// interrogative is its subject's determiner, and a verb after a singular
// "what" would take -s ("what happens").
func askedInSitu(rows *[stKinds]string, toks [][]string) bool {
	verb := false
	for i, t := range toks {
		if t == nil {
			continue
		}
		kind := classOf(rows, t)
		if verb && (kind == stAsk || t[0] == "when") && !coordinated(toks, i) && !relativeAfterNoun(rows, toks, i) && !followedByVerb(rows, toks, i) {
			return true
		}
		verb = verb || verbForm(rows, toks, i, kind)
	}
	return false
}

// coordinated reports token i right after "and", "or" or "but", or after
// "no matter": a sluice coordinated with the clause before it ("… who is
// devising the technology and why."), or a concession ("no matter what"),
// not a question.
func coordinated(toks [][]string, i int) bool {
	if i == 0 || toks[i-1] == nil {
		return false
	}
	w := toks[i-1][0]
	return w == "and" || w == "or" || w == "but" || w == "matter"
}

// relativeAfterNoun reports token i a relative of row sub (who, which,
// where) not right after a verb form: after a noun or a preposition it
// opens a relative clause ("those who view diversity", "in which one"),
// whose verb the table may not write; right after its verb it is the
// thing asked ("z uses which type of plug", "today is which day").
func relativeAfterNoun(rows *[stKinds]string, toks [][]string, i int) bool {
	if !inRow(rows[stSub], toks[i][0]) {
		return false
	}
	prev := toks[i-1]
	if prev == nil {
		return true
	}
	k := classOf(rows, prev)
	return k != stState && k != stFragment && k != stOrder
}

// followedByVerb reports a verb form after token i (after a determiner or
// a preposition too: "which took place", "how to deal with"; a
// participle or a gerund, "when naming him", "when cleaning"; a third singular written
// mostly as a plural noun, "in which … power … rests"), not the plain
// form right after "what" that is its noun ("what date", "what time":
// "what" is its determiner, and a verb after a singular "what" would take
// -s, "what happens"; after "which" or "who" a plain form is a relative's
// verb, "bays which provide").
func followedByVerb(rows *[stKinds]string, toks [][]string, i int) bool {
	for j := i + 1; j < len(toks); j++ {
		t := toks[j]
		if t == nil {
			continue
		}
		kind := classOf(rows, t)
		gerund := len(t[0]) > 5 && strings.HasSuffix(t[0], "ing")
		if kind != stState && kind != stFragment && kind != stOrder && !inRow(rows[stParticiple], t[0]) && !inRow(rows[stVerbal], t[0]) && !gerund {
			continue
		}
		if j == i+1 && toks[i][0] == "what" && plainPresent(rows, t[0]) {
			continue
		}
		return true
	}
	return false
}

// askedDo reports an English interrogative other than a relative's (what,
// how, when, where, why; not who, which, that) right before a form of
// "do": "do" supports an inverted question and nothing else, so the
// clause asks wherever it stands ("olly where did the first americans
// settle", "ok google where does sophia vergara live"). In EWT and GUM
// (dev and test, 7,117 sentences) such an interrogative stands right
// before "do", "does" or "did" in 37 sentences with "?" and 2 with a
// first or second person, and in no statement; the 4 statements that
// write a wh-word before "do" write the relatives "who" and "which"
// ("Mary is an excellent host who does yummy breakfasts").
func askedDo(rows *[stKinds]string, toks [][]string) bool {
	for i := 0; i+1 < len(toks); i++ {
		t, next := toks[i], toks[i+1]
		if t == nil || next == nil || classOf(rows, t) != stAsk || inRow(rows[stSub], t[0]) && t[0] != "where" {
			continue
		}
		if switchDo(next[0]) {
			return true
		}
	}
	return false
}

// switchDo reports an English form of "do", the auxiliary of inversion.
func switchDo(w string) bool {
	return w == "do" || w == "does" || w == "did"
}

// plainPresent reports an English base form: a lemma of WordNet's verb
// index (englishverbs.txt: "play", "send", "open"; not "took", which the
// table writes with -s too, a typo of the treebanks) that the table also
// writes with -s or -es, not mostly a participle and not in -ed
// (singularPlain's plain present; not "set", "put", pasts too), and no
// auxiliary or modal that asks ("can", "will": WordNet's verbs too).
func plainPresent(rows *[stKinds]string, w string) bool {
	return wordnetVerbs()[w] && !inRow(rows[stAskAux], w) && !sEnding(w) && !strings.HasSuffix(w, "ed") && !inRow(rows[stParticiple], w) &&
		(verbIn(rows, []string{w + "s"}) || verbIn(rows, []string{w + "es"}))
}

// pluralWords are English's plurals not written in -s and the determiners
// and pronouns that count more than one (a closed class of the grammar,
// not of any set's rows): a plain present agrees with them ("people love
// it", "these have been sold", "both have full 1080 video").
var pluralWords = map[string]bool{"these": true, "those": true, "both": true, "many": true, "few": true, "several": true, "all": true, "some": true,
	"people": true, "men": true, "women": true, "children": true, "police": true, "feet": true, "teeth": true, "mice": true, "geese": true, "cattle": true,
	"two": true, "three": true, "four": true, "five": true, "six": true, "seven": true, "eight": true, "nine": true, "ten": true, "dozen": true, "hundred": true, "thousand": true, "million": true, "billion": true}

// gluedSubject reports w a subject pronoun joined to its contracted
// auxiliary with no apostrophe typed ("theyll", "theyve", "youre",
// "itll"): a subject stands. Not "she" and "we", whose joined forms are
// words ("shell", "shed", "well", "were").
func gluedSubject(w string) bool {
	for _, p := range [...]string{"they", "you", "it", "there"} {
		if rest, ok := strings.CutPrefix(w, p); ok && contracted[rest] != "" {
			return true
		}
	}
	return false
}

// unagreed reports token i an English plain present (plainPresent) that
// is its sentence's first verb form, right after a word, and that no
// subject it could agree with stands before: no word in -s (a plural), no
// plural of pluralWords, no pronoun in the nominative or person's
// pronoun or one joined to its auxiliary (gluedSubject), no relative or
// subordinator, no asking auxiliary or modal (its infinitive: "will
// include"), no "and", "or" or "nor" (a coordinated subject), no comma,
// and no verb in -s after it in its clause (laterAgreed). A plain present
// agrees with a plural or with I, you, we, they; after a singular noun or
// a name it is no verb of theirs but an order to the reader after a name
// or a topic ("alexa play song over the rainbow", "shadi special podcast
// play it", "calendar event send invite") or a noun ("water supply"). In
// EWT and GUM (dev and test, 7,117 sentences) such a form is the finite
// verb of 6 statements: 4 first persons with no subject ("Highly
// recommend!"), a past ("colorado beat texas a&m.") and an inversion
// ("Only recently have …"); it is an imperative or a first or second
// person's verb in 29 sentences, and a noun or an infinitive in 32
// statements, after which the gate reads on for their verb. Read wrong: a
// collective noun's plural agreement ("The team play football on
// Fridays") and a name in -s before an order ("jarvis send …").
func unagreed(rows *[stKinds]string, toks [][]string, pause []bool, i int) bool {
	if !englishRows(rows) || i == 0 || toks[i-1] == nil || !plainPresent(rows, toks[i][0]) {
		return false
	}
	prev := toks[i-1][0]
	if inRow(rows[stParticiple], prev) || prev == "to" {
		return false
	}
	for j, t := range toks[:i] {
		if pause[j] {
			return false
		}
		if t == nil {
			continue
		}
		w := t[0]
		if sEnding(w) || pluralWords[w] || gluedSubject(w) || w == "and" || w == "or" || w == "nor" || inRow(rows[stSubject], w) || inRow(rows[stPerson], w) ||
			inRow(rows[stSub], w) || inRow(rows[stAskAux], w) || len(t) > 1 && inRow(rows[stSubject], t[1]) || classOf(rows, t) != stKinds {
			return false
		}
	}
	return !laterAgreed(rows, toks, pause, i)
}

// laterAgreed reports a verb form in -s after token i in its clause: the
// plain form is a noun of its subject ("Snooze feature for reminders
// ships next sprint"). Not a form right after an article or "these",
// "those" (nounAfterArticle): "olly turn off the lights" orders.
func laterAgreed(rows *[stKinds]string, toks [][]string, pause []bool, i int) bool {
	for j := i + 1; j < len(toks) && !pause[j-1]; j++ {
		if t := toks[j]; t != nil && sEnding(t[0]) && verbIn(rows, t) && !nounAfterArticle(rows, toks, j) {
			return true
		}
	}
	return false
}

// nounAfterArticle reports token j, a form in -s, right after an article
// (the, a, my, your, …) or "these", "those", and no auxiliary that asks
// ("is", "was", "has", "does"): a plural noun ("the lights", "my
// lists"). In EWT and GUM (dev and test) a form in -s that the table
// writes as a verb, right after such a word, is a noun 234 times in 237;
// the 3 others are "is" and "was" after "her" and "those" as pronouns.
func nounAfterArticle(rows *[stKinds]string, toks [][]string, j int) bool {
	if j == 0 {
		return false
	}
	prev := toks[j-1]
	return prev != nil && (inRow(rows[stArticle], prev[0]) || prev[0] == "these" || prev[0] == "those") && !inRow(rows[stAskAux], toks[j][0])
}
