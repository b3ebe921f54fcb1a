package rules

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Unstated is the rule of a claim that does not read as a statement (the
// statement gate): render says so in its own words.
const Unstated = "instruction-unstated"

// statements.tsv is scripts/udstatements' output: for each language the
// verb lexicon covers, the forms the Universal Dependencies treebanks
// (never PUD's) annotate as a finite verb that states (not an imperative,
// an infinitive or a first or second person), those of them that open an
// English or Russian statement whose subject is left out, those annotated
// mostly as orders, the interrogatives, the determiners, and the endings
// of the forms the treebanks never wrote that mostly state. Each row's
// forms are sorted, space-separated, and binary-searched where they lie.
//
//go:embed statements.tsv
var statementsTSV string

// The kinds of statements.tsv, in the order a language's rows are kept.
const (
	stState = iota
	stFragment
	stOrder
	stAsk
	stDet
	stEnding
	stAskAux     // an auxiliary that opens questions: is, does, has, can
	stParticiple // mostly a participle or gerund: been, used, running
	stSub        // mostly a subordinator or a relative: that, which, if
	stSubOpen    // one that, opening a sentence, mostly subordinates: if, because
	stSubject    // mostly a pronoun in the nominative: he, it, they
	stArticle    // a determiner before a noun: the, a, our
	stVerbal     // an English verb's regular third singular written mostly as a plural noun: streams, lives
	stSpeaker    // a first or second person's contraction typed without its apostrophe: id, im
	stParticle   // mostly an interjection or a conjunction: oh, wow, but
	stPrep       // a det form mostly a preposition: in, of, during
	stInfinitive // an ending most of whose forms are infinitives: -ar, -ere
	stClitic     // a pronoun the treebanks join to a verb: me, lo, mi, ne
	stUnaccented // an accented interrogative typed without its accent: cual, donde
	stSVerb      // a form before which "'s" is mostly a verb: it, that, there
	stPerson     // a first or second person's pronoun, mostly a subject: i, we, you; ich, je, я
	stKinds
)

var stKindNames = [stKinds]string{"state", "fragment", "order", "ask", "det", "ending", "askaux", "participle", "sub", "subopen", "subject", "article", "verbal", "speaker", "particle", "preposition", "infinitive", "clitic", "unaccented", "sverb", "person"}

// statementRows parses statements.tsv's lines when first asked for: each
// language's rows, by kind, as they lie in the table.
var statementRows = sync.OnceValue(func() map[string]*[stKinds]string {
	rows := map[string]*[stKinds]string{}
	for rest := statementsTSV; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		kind, line, _ := strings.Cut(line, "\t")
		lang, forms, _ := strings.Cut(line, "\t")
		for k, name := range stKindNames {
			if kind == name {
				if rows[lang] == nil {
					rows[lang] = new([stKinds]string)
				}
				rows[lang][k] = forms
			}
		}
	}
	return rows
})

// inRow reports w among row's sorted, space-separated forms.
func inRow(row, w string) bool {
	return row != "" && rowWord(row, rowSearch(row, w)) == w
}

// unstated is the statement gate, asked last of an unreviewed claim's
// text when no rule found an order: an unreviewed claim reaches the view
// only if every sentence of it reads as a statement, one that has a verb
// that states (statedIn). The deny rules read what an order looks like
// and each new phrasing is a new miss; this reads what a statement looks
// like, and what it cannot read as one is held: a noun phrase
// ("directions to the grocery store"), an order the rules missed ("Pause
// TV"), a verb whose form is also an imperative with nothing before it
// ("Usa pnpm"). A code block is not read; a heading or a line is a
// sentence like any.
func unstated(text string) (rule, msg string) {
	for _, s := range gateSentences(text) {
		if politeRequest(s) || !stated(s) { // "Cash bonus plz sir": a politeness marker requests
			if r := []rune(s); len(r) > 60 {
				s = string(r[:60]) + "…"
			}
			return Unstated, "no verb in it states what is so (" + s + "): a sentence without a finite verb that states, or that opens with an imperative, an infinitive or a first or second person, cannot be told from an order, so the claim counts as possibly an order"
		}
	}
	return "", ""
}

// stated reports whether sentence s reads as a statement in the covered
// language that reads most of its words (statedIn; a tie: in any of
// them).
func stated(s string) bool {
	toks, upper, pause := gateTokens(s)
	rows := statementRows()
	signs := tellingSigns()
	var counts, tokens [8]int // per covered language: the words it reads, the tokens
	spoken := 0               // tokens with a word
	for i, t := range toks {
		var read uint8
		for _, w := range t {
			mask := signs.reads(w)
			read |= mask
			for l := 0; mask != 0 && l < len(counts); l, mask = l+1, mask>>1 {
				if mask&1 != 0 {
					counts[l]++
				}
			}
		}
		verb := uint8(0)
		for l, lang := range signs.readLang {
			if r := rows[lang]; r != nil && len(t) > 0 && read&(1<<l) == 0 && l < len(counts) && verbIn(r, t) {
				counts[l]++ // a verb its table writes is the language's word too ("The queue drains hourly": not French)
				verb |= 1 << l
			}
		}
		if t != nil {
			spoken++
		}
		for l, mask := 0, read|verb; mask != 0 && l < len(tokens); l, mask = l+1, mask>>1 {
			tokens[l] += int(mask & 1)
		}
		if i == 0 && read == 0 && !upper[0] {
			infinitiveVote(rows, signs.readLang, t, counts[:])
		}
	}
	if n := uncoveredSigns(s); n > 1 || n == 1 && !slices.ContainsFunc(tokens[:], func(n int) bool { return n*3 > spoken*2 }) {
		return true
	}
	best := 0
	for l := range signs.readLang {
		best = max(best, counts[l])
	}
	if best == 0 {
		return unwritten(s) // no word a covered language writes: a name, a number, code or another script is judged as before the gate; a word is not, nor one English writes ("Undo")
	}
	var tied []*[stKinds]string // the languages that read most of its words
	for l, lang := range signs.readLang {
		if r := rows[lang]; r != nil && counts[l] == best {
			tied = append(tied, r)
		}
	}
	if len(tied) > 1 && personSpeaks(tied, toks, upper, pause) {
		return false // "i adore him": English (i, him) ties French (i, adore), and "i" is English's first person
	}
	for _, r := range tied {
		if statedIn(r, toks, upper, pause, strings.ContainsAny(s, ",，")) {
			return true
		}
	}
	return false
}

// statedIn reports whether toks read as a statement in the language of
// rows: its first verb-like word decides. An interrogative that opens it,
// alone or after a preposition, opens a question (typed without its mark:
// "which flights leave …", "in what movies has …"), unless a comma
// follows (comma: a clause put first, "Come detto, la decisione è …",
// "What she's doing, it's …"); so does an auxiliary that opens more
// questions than not ("is joes open …", "has X ever directed …"), unless
// a participle follows it ("Has been the default since v1.4", "Is used by
// the CLI": a fragment); a verb mostly annotated as an order, first in the
// sentence, opens an order (further on it is a noun or an infinitive
// after its verb: "the build runs", "wants to build"); a first or second
// person's contraction typed without its apostrophe ("id like", "im
// looking") speaks as someone. A stating verb states after any token
// before it, and first only when it opens a statement whose subject is
// left out (English "Uses pnpm", Russian "Использует pnpm": a fragment);
// but the first one after a subordinator or a relative ("that", "which",
// "if"; "si", "что") is its clause's, not the sentence's ("a restaurant
// that is near"; "The team that owns billing deploys on Fridays" states
// by its second). No stating verb at all: no statement, unless a subject
// stands before an English third singular written mostly as a plural
// noun (subjectVerb).
func statedIn(rows *[stKinds]string, toks [][]string, upper, pause []bool, comma bool) bool {
	clause := false  // a subordinator or a relative opened a clause whose verb is not yet read
	subject := false // a subject pronoun stood before: a subordinate verb after it states
	if proposesOrAsks(rows, toks, pause) {
		return false // "Wednesday is no good, let's try Thursday", "today is what date": wherever it stands
	}
	verb := false // a verb form stood before, since the last pause
	for i, t := range toks {
		if i > 0 && pause[i-1] {
			clause, verb = false, false // "Although not a resolver …, the victory forced …"
		}
		if t == nil || possessive(rows, toks, i) {
			continue
		}
		subject = subject || inRow(rows[stSubject], t[0]) || len(t) > 1 && inRow(rows[stSubject], t[1])
		kind := classOf(rows, t)
		asks := !verb && asksWithin(rows, toks, pause, i, kind)
		verb = verb || verbForm(rows, toks, i, kind)
		opens := i == 0 || clauseOpens(rows, toks, upper, i) || kind == stState && openedAfter(rows, toks, upper, pause, i) // "on tuesday set an alarm"
		states := kind == stFragment && !articled(rows, toks, i) || kind == stState && !opens && !isDet(rows, toks[i-1]) && !gerundPart(rows, toks, upper, i) && !unagreed(rows, toks, pause, i)
		switch {
		case notStating(rows, toks, upper, pause, comma, i, kind):
			return false
		case opensClause(rows, toks, pause, i) || asks:
			clause = !subject
		case states && clause:
			clause = false
		case states:
			return true
		case kind == stState && opens:
			return false
		}
	}
	return subjectVerb(rows, toks, upper)
}

// englishRows reports rows the English table's: the readings English's word
// order alone allows (it writes its subject, before its verb).
func englishRows(rows *[stKinds]string) bool { return rows == statementRows()["English"] }

// notStating reports token i of kind that makes its sentence no
// statement: a first or second person's contraction typed without its
// apostrophe, or that person's subject pronoun before the verb that
// decides, in either case ("i prefer .ink", "we choose …": English writes
// the person on the pronoun, not the verb; not a noun after an article:
// "The request id was …", nor a numeral: "World War I"); an
// interrogative first or after an opening prepositional phrase, with no
// comma in the sentence; an asking auxiliary after that phrase ("in the
// 1960 s did cory edwards direct …") or first, with no participle after it;
// an order first that is not its subject's noun.
func notStating(rows *[stKinds]string, toks [][]string, upper, pause []bool, comma bool, i, kind int) bool {
	t := toks[i]
	askAux := inRow(rows[stAskAux], t[0])
	switch {
	case speaks(rows, toks, upper, pause, i):
		return true
	case kind == stAsk && !comma && (i == 0 || adverbialBefore(rows, toks, upper, pause, i)):
		return true
	case interjected(rows, toks, upper, pause, i, kind):
		return true // "hello, is there anyone available", "Hello, how is the refund processed"
	case (kind == stState || kind == stFragment) && i > 0 && askAux && adverbialBefore(rows, toks, upper, pause, i) && !participleAfter(rows, toks, i):
		return true
	case kind == stOrder && (i == 0 || clauseOpens(rows, toks, upper, i) || openedAfter(rows, toks, upper, pause, i)) && !subjectFirst(rows, toks[i:], pause[i:]):
		return true
	case i == 0 && kind == stKinds && (!comma && inRow(rows[stUnaccented], t[0]) || !tellingSigns().writes(t[0]) && enclitic(rows, t[0])):
		return true // "cual es la temperatura", "despiertame a las 7"
	}
	return kind == stFragment && i == 0 && askAux && !participleAfter(rows, toks, 0)
}

// verbIn reports a token whose words rows write as a stating verb (or an
// English third singular written mostly as a noun).
func verbIn(rows *[stKinds]string, t []string) bool {
	for _, w := range t {
		if inRow(rows[stState], w) || inRow(rows[stFragment], w) || inRow(rows[stVerbal], w) {
			return true
		}
	}
	return false
}

// isArticle reports a token that is an article or a possessive: a noun
// follows it.
func isArticle(rows *[stKinds]string, t []string) bool {
	return len(t) > 0 && inRow(rows[stArticle], t[0])
}

// isDet reports a token that is a determiner: what follows it is a noun.
func isDet(rows *[stKinds]string, t []string) bool {
	return len(t) > 0 && inRow(rows[stDet], t[0])
}

// classOf is the kind a token's words give it in rows: the first of its
// words the table holds (fragment before state), or a state by its
// ending; stKinds for none.
func classOf(rows *[stKinds]string, t []string) int {
	for _, w := range t {
		for _, k := range [...]int{stFragment, stState, stOrder, stAsk} {
			if inRow(rows[k], w) {
				return k
			}
		}
	}
	for _, w := range t {
		if n := utf8.RuneCountInString(w); n >= 5 {
			r := []rune(w)
			if inRow(rows[stEnding], string(r[n-2:])) || inRow(rows[stEnding], string(r[n-3:])) || inRow(rows[stEnding], string(r[n-4:])) {
				return stState
			}
		}
	}
	return stKinds
}
