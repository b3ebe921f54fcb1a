package rules

import (
	"cmp"
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"
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

// gateSentences are text's sentences as the gate reads them: fenced code
// left out, cut at line breaks and at sentence ends before a space or the
// text's end (not in "config.yaml", "1.25", "io.Reader"), each trimmed of the
// marks before its first word (list bullets, numbering, quotes); those
// with no letter are none.
func gateSentences(text string) []string {
	var kept strings.Builder
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if !fenced {
			kept.WriteString(line)
			kept.WriteByte('\n')
		}
	}
	var out []string
	t := kept.String()
	start := 0
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		end := r == '\n' || strings.ContainsRune("。！？；", r)
		if strings.ContainsRune(".!?;", r) {
			next, _ := utf8.DecodeRuneInString(t[i+1:])
			end = i+1 == len(t) || unicode.IsSpace(next) && !(r == '.' && abbreviated(t[start:i]))
		}
		i += size
		if end || i == len(t) {
			stop := i
			if s := openingTrimmed(t[start:stop], sentenceTrim); strings.IndexFunc(s, unicode.IsLetter) >= 0 {
				out = append(out, strings.TrimSpace(s))
			}
			start = stop
		}
	}
	return out
}

// abbreviated reports a text whose last token, before a full stop, is a
// number or a word of one to three letters ("4." of German's "4. Klasse",
// "z. B.", "Mr.", "ca."): the stop marks an ordinal or an abbreviation,
// not a sentence's end.
//
// An opening bracket or quote before it is not part of it ("(c. 1230
// BC)"), and letters each followed by a stop are initials ("U.S.", "a.m.",
// "e.g."): in EWT's and GUM's dev sentences such initials stand before a
// space within a sentence 20 times and end one twice ("… the U.S.
// citizens", "… evacuating U.S. citizen."). Both were read as a
// sentence's end, and its halves held.
func abbreviated(before string) bool {
	last := before[strings.LastIndexFunc(before, unicode.IsSpace)+1:]
	last = strings.TrimLeft(last, "([{\"'“‘«")
	if last == "" {
		return false
	}
	if strings.IndexFunc(last, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return true
	}
	return utf8.RuneCountInString(last) <= 3 && strings.IndexFunc(last, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 ||
		initials(last)
}

// initials reports letters each followed by a stop, the last one's stop
// left out: "U.S" of "U.S.", "a.m", "e.g".
func initials(w string) bool {
	n := 0
	for i, r := range w {
		if i%2 == 1 != (r == '.') || r != '.' && (r >= utf8.RuneSelf || !unicode.IsLetter(r)) {
			return false
		}
		n++
	}
	return n >= 3 && n%2 == 1
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
		return !spelt(s) // no word a covered language writes: a name, a number, code or another script is judged as before the gate; a word is not
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

// personSpeaks reports a sentence read equally by the tied languages in
// one of which a token is a first or second person's subject pronoun or
// contraction (speaks) and in none of the others a determiner or an
// article. On a tie, the one language in which a word is a person's
// subject pronoun reads the sentence's subject: "i adore him" ties English
// (i, him) with French (i, and its third singular "adore"), and "i" is
// no word of a French clause; but Italian writes "i" as its plural
// article ("Il team usa Go per i servizi …"), and French "tu" and "du" as
// determiners: there the word is read as both, and the tie decides as
// before, by a statement in any of the languages.
func personSpeaks(tied []*[stKinds]string, toks [][]string, upper, pause []bool) bool {
	for i, t := range toks {
		if t == nil {
			continue
		}
		speaker, other := false, false
		for _, r := range tied {
			speaker = speaker || speaks(r, toks, upper, pause, i)
			other = other || isDet(r, t) || isArticle(r, t)
		}
		if speaker && !other {
			return true
		}
	}
	return false
}

// spelt reports a sentence typed in lower case that holds a word: its
// first letter in lower case, and a word of letters only (a hyphen or an
// apostrophe within), its first in lower case, once the marks of a
// sentence around it are trimmed ("snooze alarm", "hourly forecast"). A
// sentence none of whose words a covered language reads, but which holds
// one, is written in words the gate cannot read as a statement, so it is
// none. What is no word — names ("Mei Chen", "Kubernetes"), numbers, code
// ("config.yaml", "`make`", "snake_case"), an uncased script — is judged
// by the deny rules and unjudged, as before the gate; so is a sentence
// opened with a capital, written as a sentence in a language the gate has
// no rows for as often as not ("Raporu gönderdi.", "Belli olmaz."; as
// infinitiveVote leaves a capitalised first word).
func spelt(s string) bool {
	if i := strings.IndexFunc(s, unicode.IsLetter); i < 0 || !unicode.IsLower([]rune(s[i:])[0]) {
		return false
	}
	for _, f := range strings.Fields(s) {
		f = strings.Trim(f, ".,;:!?\"'()[]«»“”‘’¿¡…")
		first, _ := utf8.DecodeRuneInString(f)
		if unicode.IsLower(first) && strings.IndexFunc(f, func(r rune) bool {
			return !unicode.IsLetter(r) && !unicode.IsMark(r) && r != '-' && r != '\'' && r != '’'
		}) < 0 {
			return true
		}
	}
	return false
}

// uncoveredSigns reports a sentence that shows a Latin- or
// Cyrillic-script language the table has no rows for (Dutch, Turkish,
// Polish, Indonesian, Ukrainian, …): one of its telling words, or a word
// in lower case (or the sentence's first) holding one of its letters, and
// no more of the covered languages' telling words and the verbs their
// tables write. The gate does not
// judge it: the deny rules and unjudged do, as before the gate.
func uncoveredSigns(s string) int {
	signs := tellingSigns()
	rows := statementRows()
	uncovered, covered, signed := 0, 0, 0
	for i, w := range words(s) {
		lower := strings.ToLower(w)
		sign := false
		for _, l := range signs.words[lower] {
			if l == "" {
				covered++
			} else {
				uncovered++
				sign = true
			}
		}
		for _, lang := range signs.readLang {
			if r := rows[lang]; r != nil && len(signs.words[lower]) == 0 && verbIn(r, []string{lower}) {
				covered++ // a verb a covered table writes: "has … ever directed"
				break
			}
		}
		if first, _ := utf8.DecodeRuneInString(w); i == 0 || unicode.IsLower(first) {
			if strings.ContainsFunc(lower, func(r rune) bool { return len(signs.letters[r]) > 0 }) {
				uncovered++
				sign = true
			}
		}
		if sign {
			signed++
		}
	}
	if uncovered == 0 || uncovered < covered {
		return 0
	}
	return signed
}

// gateTokens are s's tokens, each the lower-case words it is read as: a
// token with no letter or with a digit (a number, a version, a commit, a
// code span's sign) is a token with no word, which still stands before what follows; a word with an
// apostrophe is read as its parts, the one before with it ("l'", "dov'",
// "it") and the one after with and without it ("'s", "est"). upper says,
// token by token, which were written with a capital first letter, and
// pause which are followed by a comma, a colon or a dash (a clause ends).
func gateTokens(s string) (out [][]string, upper, pause []bool) {
	fields := strings.Fields(s)
	quoted := quotedFields(fields)
	for fi, f := range fields {
		if f == "—" || f == "–" {
			if len(pause) > 0 {
				pause[len(pause)-1] = true
			}
			continue
		}
		stop := pauses(f)
		digit := quoted[fi] || strings.ContainsFunc(f, unicode.IsDigit) // asked before the marks are trimmed: "6am", "10am" and "3rd" are names, not "am", "rd"
		// One word in brackets is a gloss or a name, no verb and no
		// relative: "The World Health Organisation (WHO) recommends …" read
		// "who". EWT and GUM dev bracket one word 38 times: 14 names, 13
		// numbers, 6 nouns, 3 adverbs, 1 adjective, no verb.
		if c := strings.TrimRight(f, ".,;:!?"); len(c) > 2 && c[0] == '(' && c[len(c)-1] == ')' && !strings.Contains(c[1:len(c)-1], "(") {
			digit = true
		}
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) && r != '\'' })
		f = strings.Trim(f, "'")
		first, _ := utf8.DecodeRuneInString(f)
		up := unicode.IsUpper(first)
		f = strings.ToLower(f)
		switch before, after, ok := strings.Cut(f, "'"); {
		case f == "" || digit:
			out, upper, pause = append(out, nil), append(upper, false), append(pause, false)
		case ok && after == "t" && strings.HasSuffix(before, "n") && len(before) > 2:
			// English "n't" is its own word, as the treebanks write it: "doesn't" is
			// "does" "n't"; "can't", "won't" and "shan't" are "can", "will" and
			// "shall" (the treebanks' "ca", "wo", "sha").
			aux := before[:len(before)-1]
			aux = cmp.Or(negatedAux[aux], aux)
			out, upper, pause = append(out, []string{aux}, []string{"n't", "not"}), append(upper, up, false), append(pause, false, false)
		case ok && before != "" && contracted[after] != "":
			// A contracted auxiliary is its full form, and its person is
			// the word it is joined to: "they're" is "they" "are" (EWT and
			// GUM dev write "'re" after a third person 19 times, after
			// "you" 26, after "we" 11: counted alone it is mostly an
			// order's person); "you're", "we've" and "I'm" speak by their
			// pronoun, as "you are" does.
			out, upper, pause = append(out, []string{before + "'", before}, []string{contracted[after]}), append(upper, up, false), append(pause, false, false)
		case ok && before != "" && after != "":
			out, upper, pause = append(out, []string{before + "'", before}, []string{"'" + after, after}), append(upper, up, false), append(pause, false, false)
		default:
			out, upper, pause = append(out, []string{f}), append(upper, up), append(pause, false)
		}
		pause[len(pause)-1] = stop
	}
	return out, upper, pause
}

// contracted are English's contracted auxiliaries, as the treebanks
// annotate them (lemma, and the form the person of its host takes).
var contracted = map[string]string{"re": "are", "ve": "have", "ll": "will", "d": "would", "m": "am"}

// negatedAux are the treebanks' forms of an auxiliary before "n't" that
// are not its own ("ca" of "can't").
var negatedAux = map[string]string{"ca": "can", "wo": "will", "sha": "shall"}

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

// englishRows reports rows the English table's: the readings English's word
// order alone allows (it writes its subject, before its verb).
func englishRows(rows *[stKinds]string) bool { return rows == statementRows()["English"] }

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

// infinitiveVote counts a first token, in lower case, that no covered
// language reads and no table writes as a verb for each language whose
// infinitive endings end it ("pausar alarma", "mostar alarmas": an
// infinitive opening a request, words unknown to the tables). A
// capitalised one is as often a name or an uncovered language's word
// ("Runar", "Sinirlendirir.", "Franse gemeenschap"): not counted.
func infinitiveVote(rows map[string]*[stKinds]string, langs []string, t []string, counts []int) {
	for _, lang := range langs {
		if r := rows[lang]; r != nil && verbIn(r, t) {
			return
		}
	}
	for l, lang := range langs {
		if r := rows[lang]; r != nil && l < len(counts) && len(t) > 0 && infinitiveEnding(r, t[0]) {
			counts[l]++
		}
	}
}

// infinitiveEnding reports w, of five letters or more, ending as most of
// the treebanks' forms that end so are infinitives (Spanish -ar, -ir,
// Italian -are, -ere; the row is written for Spanish, Portuguese and
// Italian).
func infinitiveEnding(rows *[stKinds]string, w string) bool {
	r := []rune(w)
	n := len(r)
	return n >= 5 && (inRow(rows[stInfinitive], string(r[n-2:])) || inRow(rows[stInfinitive], string(r[n-3:])))
}

// unaccentAll takes the written accents off a Romance vowel: "cuál"
// cual, "muéstrame" muestrame, "perché" perche.
var unaccentAll = strings.NewReplacer("á", "a", "à", "a", "â", "a", "ã", "a", "é", "e", "è", "e", "ê", "e", "í", "i", "ì", "i", "ó", "o", "ò", "o", "ô", "o", "õ", "o", "ú", "u", "ù", "u", "ü", "u")

// unaccentedVerbs are, per language with a clitic row, its table's verb
// forms (state, fragment, order; not a participle, "Formatasi …, l'Africa
// … è") without their accents: the
// stems an enclitic pronoun is joined to ("muestra" of "muestrame").
var unaccentedVerbs = sync.OnceValue(func() map[*[stKinds]string]map[string]bool {
	out := map[*[stKinds]string]map[string]bool{}
	for _, r := range statementRows() {
		if r[stClitic] == "" {
			continue
		}
		set := map[string]bool{}
		for _, k := range [...]int{stState, stFragment, stOrder} {
			for _, f := range strings.Fields(r[k]) {
				set[unaccentAll.Replace(f)] = true
			}
		}
		out[r] = set
	}
	return out
})

// enclitic reports w a verb form of rows' table, or an infinitive by its
// ending, with one or two pronouns joined to it ("muestrame",
// "recuerdame", "svegliami", "dimelo"): Spanish and Italian finite
// indicatives take their pronouns before the verb, so a first word so
// written is an order, an infinitive or a gerund, never a statement. The
// stem is three letters or more and the word is none a covered language
// writes often ("este", "durante", "dagli", "solo": es+te, dura+nte, da+gli).
// Portuguese writes the pronoun with a hyphen, finite verbs too ("Chama-se
// …"): its treebanks join none, and it has no clitic row.
func enclitic(rows *[stKinds]string, w string) bool {
	verbs := unaccentedVerbs()[rows]
	if verbs == nil {
		return false
	}
	for _, c := range strings.Fields(rows[stClitic]) {
		base, ok := strings.CutSuffix(unaccentAll.Replace(w), c)
		if !ok || utf8.RuneCountInString(base) < 3 {
			continue
		}
		if verbs[base] || infinitiveEnding(rows, base) {
			return true
		}
		for _, c2 := range strings.Fields(rows[stClitic]) {
			if b, ok := strings.CutSuffix(base, c2); ok && utf8.RuneCountInString(b) >= 2 && (verbs[b] || infinitiveEnding(rows, b)) {
				return true
			}
		}
	}
	return false
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
