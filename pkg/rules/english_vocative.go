package rules

import "strings"

// Orders after a comma (round 12, ConvAI2 and the held halves of earlier
// rounds): English grammar that tells an order in a sentence whose first
// clause states. Measured on EWT and GUM (docs/security.md, "Session 32").

// objectWords are English's object pronouns and the demonstratives and
// "some" that open an object: after a plain form they are its object
// ("play it", "make some noise"). Not "that", a complementizer and a
// relative as often.
var objectWords = map[string]bool{"me": true, "it": true, "him": true, "her": true, "us": true, "them": true, "this": true, "these": true, "those": true, "some": true}

// orderedAfterComma reports an English plain present (plainPresent) right
// after a comma, a colon or a dash, with an object after it (an object
// pronoun, an article, a demonstrative: objectWords), that no plain form
// of a series or a modal stands before (seriesBefore): a clause opened by
// the verb's plain form, with no subject, orders ("it's too quiet here,
// play it louder", "if you want a copy, give me a yell"). Not "like", a
// preposition or a discourse marker there (9 times in 9), nor a form the
// table writes as a preposition or a determiner ("near the …"). In EWT
// and GUM (dev and test, 7,117 sentences) it stands in 14 sentences: 12
// orders ("If you want a CD copy of this web site, give me a yell.",
// "Well, excuse me.", "As for …, let me say …", "…, let me see."), a
// first person with no subject ("…, love the feel.") and an adverb ("—
// even the one that prompted him, …"). Without seriesBefore it stood in
// 59, 21 of them orders: a series of verbs after a modal ("can cause …,
// create a mess, and …"), a plural subject before an apposition ("His
// nostalgic poems …, Childish Recollections (1806), express …"), a
// participle after "has", a past spelt as the plain form after its
// subject ("The lack of industry, compared to the North, undercut …").
func orderedAfterComma(rows *[stKinds]string, toks [][]string, pause []bool) bool {
	if !englishRows(rows) {
		return false
	}
	for i := 1; i+1 < len(toks); i++ {
		t, next := toks[i], toks[i+1]
		if !pause[i-1] || t == nil || next == nil || t[0] == "like" || !plainPresent(rows, t[0]) || inRow(rows[stDet], t[0]) || inRow(rows[stPrep], t[0]) {
			continue
		}
		if (objectWords[next[0]] || inRow(rows[stArticle], next[0])) && !seriesBefore(rows, toks, pause, i) {
			return true
		}
	}
	return false
}

// seriesBefore reports, before token i, a plain present not right after a
// subject pronoun, a word in -s or an article (the first
// verb of a series that token i continues: "They can cause damage, create
// a mess, and …", "take it, alter it, and release …"; not the noun of "the
// build is green"), a modal ("can", "will": token i is its infinitive),
// "has" or "had" (its participle: "Voting has, in the vernacular of
// terror, become …"), or a subject no verb has followed yet (waiting).
func seriesBefore(rows *[stKinds]string, toks [][]string, pause []bool, i int) bool {
	for j := range i {
		t := toks[j]
		if t == nil {
			continue
		}
		w := t[0]
		prev := []string(nil)
		if j > 0 {
			prev = toks[j-1]
		}
		after := prev != nil && (inRow(rows[stSubject], prev[len(prev)-1]) || sEnding(prev[0]) || isArticle(rows, prev))
		if plainPresent(rows, w) && !after || inRow(rows[stAskAux], w) && !beDoHave[w] || w == "has" || w == "had" {
			return true
		}
	}
	return waiting(rows, toks, pause, i)
}

// waiting reports a subject before token i that no verb of its own has
// followed: a plural noun (pluralNoun: "leaders of the party, such as …,
// represent the most progressive") or a noun phrase that opens the
// sentence with an article ("The lack of industry, compared to the North,
// undercut …"). A verb in a clause a relative or a subordinator opens
// ("Countries that are colored red, like …, have …") is not its verb,
// nor a form in -ed right after a comma, a participle's phrase
// ("compared to …"), nor "like".
func waiting(rows *[stKinds]string, toks [][]string, pause []bool, i int) bool {
	subject, sub := len(toks) > 0 && toks[0] != nil && isArticle(rows, toks[0]), false
	for j := range i {
		t := toks[j]
		if j > 0 && pause[j-1] {
			sub = false
		}
		if t == nil {
			continue
		}
		switch {
		case pluralNoun(rows, toks, j):
			subject = true
		case inRow(rows[stSub], t[0]):
			sub = true
		case sub || j > 0 && pause[j-1] && strings.HasSuffix(t[0], "ed"):
		case t[0] != "like" && (verbIn(rows, t) || inRow(rows[stAskAux], t[0]) || classOf(rows, t) != stKinds && classOf(rows, t) <= stAsk):
			subject = false
		}
	}
	return subject
}

// pluralNoun reports token j an English noun in -s: a word of four letters
// or more in -s, no pronoun or demonstrative ("this", "those") and in no
// function row of the table ("its", "was") and that the table writes as no verb, or that
// stands right after an article (nounAfterArticle: "the places").
func pluralNoun(rows *[stKinds]string, toks [][]string, j int) bool {
	w := toks[j][0]
	if !sEnding(w) || len(w) < 4 || objectWords[w] {
		return false
	}
	for _, k := range [...]int{stDet, stArticle, stSubject, stSub, stParticle, stPrep, stAskAux, stPerson, stSVerb} {
		if inRow(rows[k], w) {
			return false
		}
	}
	return !verbIn(rows, toks[j]) || nounAfterArticle(rows, toks, j)
}

// beDoHave are the forms of "be", "do" and "have" in row askaux: not
// modals, after which a plain form is no infinitive ("the guests are
// bored, give them …").
var beDoHave = map[string]bool{"are": true, "is": true, "was": true, "were": true, "did": true, "does": true, "has": true, "how's": true, "what's": true, "who's": true, "isn't": true}

// tagAsked reports an English sentence that ends in a tag question typed
// without its mark: an auxiliary, a negation and a subject pronoun ("it is
// hot today isn't it", "is not it", "…, don't you") after a verb of its
// clause (the tag repeats it; alone, "The answer is not it" states), or
// "right" after a comma ("the store opens at nine, right"). In EWT and GUM
// (dev and test, 7,117 sentences) a sentence ends so 6 times, each a
// question with "?" ("You smoked it down into the cork, didn't you?",
// "That's me, right?").
func tagAsked(rows *[stKinds]string, toks [][]string, pause []bool) bool {
	n := len(toks)
	if !englishRows(rows) || n < 3 || toks[n-1] == nil {
		return false
	}
	last := toks[n-1][0]
	if last == "right" {
		return pause[n-2]
	}
	aux, neg := toks[n-3], toks[n-2]
	if aux == nil || neg == nil || !inRow(rows[stSubject], last) && !inRow(rows[stPerson], last) ||
		neg[0] != "not" && (len(neg) < 2 || neg[1] != "not") || !inRow(rows[stAskAux], aux[0]) && !switchDo(aux[0]) && aux[0] != "have" && aux[0] != "had" {
		return false
	}
	for j := range n - 3 {
		if t := toks[j]; t != nil && verbForm(rows, toks, j, classOf(rows, t)) {
			return true // the tag follows its clause's verb: "it is hot today is not it", not "The answer is not it"
		}
	}
	return false
}
