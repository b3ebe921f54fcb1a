package rules

import (
	_ "embed"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
)

// Orders told by forms that linguists annotated, for Instruction. The
// word lists of instruction.go were written by reading payloads, and
// each new payload's verb was a new miss. imperatives.tsv is read from
// the Universal Dependencies treebanks instead (scripts/udimperatives;
// docs/security.md names the treebanks and their commits): the forms that
// open a clause annotated Mood=Imp more often than as anything else, in
// all of the treebanks together, and the subordinators and prepositions
// that open a sentence's first phrase. Those forms are only the ones that
// happen to occur ("explique", "incitez" do not), so it also holds the
// forms the regular paradigm of Spanish, Portuguese, Italian, French,
// Russian and German makes of every verb the treebanks annotate, and the bare form of
// the English verbs they write mostly as verbs, or that WordNet's sense
// tags read mostly as verbs: know the verb, not the form.

//go:embed imperatives.tsv
var imperativesTSV string

// treebankForms are the sets of imperatives.tsv: imp, the imperative
// forms (kind imp; kind base, an infinitive in a language whose
// imperative has its form; kind jussive, the Romance polite imperative;
// kind verb, the forms the regular paradigm makes of a verb the
// treebanks annotate) and the languages whose treebanks gave each,
// separated by spaces; sub, the words that open a subordinate phrase;
// that, the English verbs WordNet gives the frame "Somebody ----s that
// CLAUSE" (say, state, confirm);
// and words, the frequent words only one language's treebanks write,
// that tell a text's language (English "serve" is Portuguese "serves",
// French "dont" a relative).
type treebankForms struct {
	imp map[string]string
	sub map[string]bool
	// lemmas holds each language's infinitives of its verb rows (their
	// last column): the verbs the treebanks annotate.
	lemmas map[string]map[string]bool
	// deLemma holds the infinitives of the German verb rows and the
	// German infinitives of kind base, for germanInfinitiveOrder.
	deLemma map[string]bool
	that    map[string]bool
	words   map[string]map[string]bool
}

// treebank parses imperatives.tsv when first asked for (most mem
// processes never judge a claim).
var treebank = sync.OnceValue(func() treebankForms {
	// About 29,000 lines: cut in place (the fields are substrings of the
	// embedded table), not split into slices.
	f := treebankForms{imp: make(map[string]string, 1<<15), sub: map[string]bool{}, that: map[string]bool{}, words: map[string]map[string]bool{}, lemmas: map[string]map[string]bool{}, deLemma: map[string]bool{}}
	for rest := imperativesTSV; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		kind, line, _ := strings.Cut(line, "\t")
		lang, line, _ := strings.Cut(line, "\t")
		form, _, _ := strings.Cut(line, "\t")
		if form == "" {
			continue
		}
		if kind == "verb" {
			if f.lemmas[lang] == nil {
				f.lemmas[lang] = map[string]bool{}
			}
			f.lemmas[lang][line[strings.LastIndexByte(line, '\t')+1:]] = true
		}
		if kind == "verb" && lang == "German" {
			f.deLemma[line[strings.LastIndexByte(line, '\t')+1:]] = true
		}
		if kind == "base" && lang == "German" && hasSuffixAny(form, "en", "ern", "eln") && !strings.Contains(form, "zu") {
			f.deLemma[form] = true
		}
		switch kind {
		case "imp", "base", "jussive", "verb":
			// (Most forms are one language's: a string, not a slice each.)
			if f.imp[form] != "" {
				lang = f.imp[form] + " " + lang
			}
			f.imp[form] = lang
		case "sub":
			f.sub[form] = true
		case "that":
			f.that[form] = true
		case "word":
			if f.words[lang] == nil {
				f.words[lang] = map[string]bool{}
			}
			f.words[lang][form] = true
		}
	}
	return f
})

// treebankOrder returns the imperative form that opens a clause of lower
// (lower case), or "": a clause opens at a sentence's start, after a
// colon ("Command: …"), and after the comma that ends a sentence's first
// phrase when that phrase opens with a subordinator or a preposition
// ("If the tests fail, ignore them"). Nothing stands before the form there,
// so no subject does: the form is the imperative the treebanks say it
// mostly is. The same places are the ones scripts/udimperatives counts.
// Last, a French or Russian plural with no subject (subjectlessPlural).
func treebankOrder(lower string) string {
	// Polish, Czech and Turkish have no treebank here and share forms
	// with the Romance paradigms (Polish "dobre", good, is Portuguese
	// "double!"): they are left to the rules of their own forms, as in
	// verbFirst.
	if polish(lower) || czech(lower) || turkish(lower) {
		return ""
	}
	f := treebank()
	isImp := func(s string) string { return f.clauseImperative(s, lower) }
	for _, s := range sentences(lower) {
		if w := isImp(s); w != "" {
			return w
		}
		// A label's colon or a bracket's end ("[correct password]
		// respond only with …"): what a bracket holds is a label or a
		// placeholder, not the subject of what follows it. A heading of
		// orders may take its orders after "=" as after a colon
		// ("RULES=respond as …"); after any other key "=" gives a value
		// (Restart=always).
		for i := labelEnd(s); i >= 0; i = labelEnd(s) {
			_, n := utf8.DecodeRuneInString(s[i:])
			s = s[i+n:]
			if w := isImp(s); w != "" {
				return w
			}
			// The clause opens there as a sentence does: with a verb or a
			// command word of the lists too ("… Rule: Do not disclose …").
			if c := codeOpened(openingTrimmed(s, sentenceTrim)); startsWithOrder(c) {
				w, _ := adverbsSkipped(firstWord(c))
				return w
			}
		}
	}
	for _, s := range sentences(lower) {
		i := strings.IndexAny(s, ",،，")
		if i < 0 || !frontedPhrase(s[:i], f) {
			continue
		}
		{
			_, n := utf8.DecodeRuneInString(s[i:])
			// The main clause opens here as a sentence does: with an
			// imperative of the treebanks, of the lists, or by its ending.
			rest := strings.TrimLeft(s[i+n:], " \t")
			if w := isImp(rest); w != "" {
				return w
			}
			if w := orderOpening(rest); w != "" {
				return w
			}
			if startsWithOrder(rest) {
				w, _ := adverbsSkipped(firstWord(rest))
				return w
			}
			// or, in English, with a verb and its object ("In the role of
			// a coach, figure out the answer …"): German puts the main
			// clause's verb first there ("Wenn …, kommen die …"), and the
			// Romance languages drop its subject ("Cuando caen, golpean
			// otras …").
			if w := verbFirst(rest); w != "" && englishText(lower, f) {
				return w
			}
		}
	}
	return subjectlessPlural(lower)
}

// clauseImperative returns the imperative form that opens clause s of
// lower (lower case), as treebankOrder reads it, or "": after an adverb
// or a negation, in a text that holds its language's words.
func (f treebankForms) clauseImperative(s, lower string) string {
	w, rest := firstWord(strings.TrimLeft(s, " \t\"'“„«(「『"))
	// A Romance adverb in -mente or -ment before the verb is no
	// subject ("Simplemente escriba …"): the verb still opens the
	// clause's predicate.
	if hasSuffixAny(w, "mente", "ment") && utf8.RuneCountInString(w) > 6 {
		w, rest = firstWord(strings.TrimLeft(rest, " \t,"))
	}
	// So is an English one ("Only ever accept …").
	w, rest = adverbsSkipped(w, rest)
	w = strings.ReplaceAll(w, "’", "'")
	// "Read: …" is a label; a verb and its colon with nothing after
	// them ("… is positive or negative. Classify:") leave the next
	// words to the reader, who is told to write them.
	if strings.HasSuffix(w, ":") && strings.TrimSpace(rest) == "" {
		w = strings.TrimSuffix(w, ":")
	}
	// "Don't-…" is a compound; a French imperative takes its object
	// pronoun after a hyphen ("reformule-la", "dis-moi"), which no
	// compound ends in.
	if strings.HasPrefix(rest, "-") && !frenchClitic(rest) {
		return ""
	}
	// Spanish, Portuguese, Italian and Russian negate the imperative by
	// a word before it ("No difunda …", "Não faça …", "Не забывай …"):
	// the form still opens the predicate. Only these languages' forms
	// count after it, and the negation tells its language (Spanish
	// no, Portuguese não, Italian non, Russian не) unless the text is
	// English ("No use …" is a noun phrase there).
	negation := negations[w]
	if negation != "" {
		w, rest = firstWord(strings.TrimLeft(rest, " \t"))
		if strings.HasPrefix(rest, "-") {
			return ""
		}
	}
	langs := f.imp[w]
	if langs == "" {
		langs = russianPrefixed(w, f)
	}
	if langs == "" && russianIruj(w) {
		langs = "Russian"
	}
	if langs == "" && frenchIfier(w) {
		langs = "French"
	}
	// An Italian imperative with its pronoun joined is no other covered
	// language's form: it tells its language (outside an English text).
	enclitic := langs == "" && f.italianEnclitic(w)
	if enclitic {
		langs = "Italian"
	}
	for lang := range strings.FieldsSeq(langs) {
		switch {
		case negation != "" && !slices.Contains(slices.Collect(maps.Values(negations)), lang):
		// German's singular imperative is also the first singular,
		// which comes first with its subject after it: a question, or
		// the main clause after a subordinate one ("Wenn es regnet,
		// bleibe ich …").
		case lang == "German" && strings.HasPrefix(rest, "ich") && !wordRune(firstRune(rest, len("ich"))):
		case holdsWords(lower, f.words[lang], 1),
			lang == negation && !holdsWords(lower, f.words["English"], 1),
			lang == "French" && !strings.HasSuffix(w, "ons") && frenchText(lower),
			lang == "Russian" && russianScript(s),
			lang == "German" && germanAlone(lower),
			enclitic && !englishText(lower, f):
			return w
		}
	}
	return ""
}

// frenchClitic reports rest, what follows a word, opening with a hyphen
// and the object pronoun a French imperative joins so ("-la", "-moi",
// "-en", "-les-lui").
func frenchClitic(rest string) bool {
	w, _ := firstWord(strings.TrimPrefix(rest, "-"))
	switch strings.TrimSuffix(w, ".") {
	case "moi", "toi", "le", "la", "les", "lui", "leur", "nous", "vous", "en", "y":
		return true
	}
	return false
}

// labelEnd returns where the first label of s ends, at a colon, a
// bracket's end or the "=" after a heading of orders, or -1.
func labelEnd(s string) int {
	for i, r := range s {
		switch {
		case r == ':' || r == '：' || r == ']':
			return i
		case r == '=':
			if ws := words(s[:i]); len(ws) > 0 && orderHeadings()[ws[len(ws)-1]] && !strings.HasSuffix(s[:i], " ") {
				return i
			}
		}
	}
	return -1
}

// startsWithOrder reports a clause c that opens as a sentence of orders
// does: with a verb or a command word of the lists (opensWithOrder).
func startsWithOrder(c string) bool {
	rule, _ := opensWithOrder(c)
	return rule == "instruction-imperative"
}

// frontedPhrase reports whether p, what stands before a sentence's first
// comma, is a phrase set before the main clause rather than the clause's
// subject: it opens with a subordinator or a preposition, a gerund
// ("Realizing that …, describe …", "Using the facts given, write …",
// "Usando la red, describa …") or an English past participle ("Given a
// sentence, convert …", "Based on the text, list …"), or it is a name
// or one word alone, the vocative that calls the reader ("ChatGPT,
// create …"; two are a subject with its apposition as often: "Seine
// Fähigkeit, Antworten … zu bekommen, wird …"; and in a script that
// writes no spaces, one "word" is a whole clause). None of them is a
// subject, so a main clause that opens with an imperative after it has
// none.
func frontedPhrase(p string, f treebankForms) bool {
	first, _ := firstWord(p)
	n := utf8.RuneCountInString(first)
	return f.sub[first] ||
		hasSuffixAny(first, "ing", "ando", "endo", "indo") && n >= 5 ||
		// French's present participle ("Étant donné …, trouve …",
		// "En te basant sur …" opens with the preposition).
		strings.HasSuffix(first, "ant") && n >= 5 && frenchText(p) ||
		// and Russian's adverbial participle ("Учитывая …, определи …",
		// "Взяв …, преобразуй …").
		hasSuffixAny(first, "я", "в", "вшись") && n >= 5 && russianScript(first) ||
		hasSuffixAny(first, "ed", "en") && n >= 5 && english(p) ||
		len(words(p)) == 1 && !strings.ContainsFunc(p, func(r rune) bool {
			return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar)
		})
}

// imperativeOf reports whether the treebanks give form as an imperative
// (or a verb's bare form) of lang.
func (f treebankForms) imperativeOf(form, lang string) bool {
	return slices.Contains(strings.Fields(f.imp[form]), lang)
}

// frenchText reports whether lower (lower case) may be read as French: it
// holds French's own words, or none of the other covered languages
// written in the same letters (their forms in -ez, -e are French's alone).
func frenchText(lower string) bool {
	return frenchOnly(lower) || !otherLatin(lower, "French")
}

// englishText reports whether lower (lower case) holds English's own
// words and none of the other covered languages written in its letters.
func englishText(lower string, f treebankForms) bool {
	return holdsWords(lower, f.words["English"], 1) && !otherLatin(lower, "English")
}

// otherLatin reports lower (lower case) holding a telling word of a
// covered language written in Latin letters other than lang.
func otherLatin(lower, lang string) bool {
	return latinTelling(lower)&^latinBit(lang) != 0
}

// latinLanguages are the covered languages written in Latin letters, in
// the order of latinTelling's bits.
var latinLanguages = []string{"English", "German", "French", "Spanish", "Portuguese", "Italian"}

func latinBit(lang string) uint8 {
	if i := slices.Index(latinLanguages, lang); i >= 0 {
		return 1 << i
	}
	return 0
}

// latinMemo is the last text latinTelling read: a dozen rules ask
// otherLatin of the same text in one Instruction, and splitting it into
// words each time was a seventh of the check's time.
type latinMemo struct {
	text string
	mask uint8
}

var lastLatin atomic.Pointer[latinMemo]

// latinTelling returns a bit (latinBit) for each covered Latin-script
// language whose telling words lower holds.
func latinTelling(lower string) uint8 {
	if m := lastLatin.Load(); m != nil && m.text == lower {
		return m.mask
	}
	f := treebank()
	var mask uint8
	for _, w := range words(lower) {
		for i, l := range latinLanguages {
			if f.words[l][w] {
				mask |= 1 << i
			}
		}
	}
	lastLatin.Store(&latinMemo{lower, mask})
	return mask
}

// russianPrefixed returns "Russian" for w, a Russian verbal prefix
// joined to an imperative of the lexicon (пере-делай, рас-критикуй,
// вы-полни), or to a stem an imperative of the lexicon holds after
// another prefix (до-полни as за-полни, из-влеки as при-влеки), or "":
// Russian makes its verbs by prefixing others, and the treebanks
// annotate only some of the prefixed ones. The exchange is between
// prefixes of two letters or more: a one-letter one opens adverbs and
// nouns as often (в-близи, "nearby", is not с-близи).
func russianPrefixed(w string, f treebankForms) string {
	for _, p := range russianPrefixes {
		rest, ok := strings.CutPrefix(w, p)
		if !ok || utf8.RuneCountInString(rest) < 4 {
			continue
		}
		if f.imperativeOf(rest, "Russian") || utf8.RuneCountInString(p) >= 2 && slices.ContainsFunc(russianPrefixes, func(q string) bool {
			return q != p && utf8.RuneCountInString(q) >= 2 && f.imperativeOf(q+rest, "Russian")
		}) {
			return "Russian"
		}
	}
	return ""
}

// russianIruj reports w, the singular imperative of a Russian verb of
// the -ировать class (сгенерируй, классифицируй, отсортируй,
// проанализируйся): the class that takes in every borrowed verb, whose
// members the treebanks attest only some of. Its ending -ируй is no
// noun's or adjective's.
func russianIruj(w string) bool {
	return utf8.RuneCountInString(w) >= 7 && hasSuffixAny(w, "ируй", "ируйся") && cyrillicWord(w)
}

// russianScript reports whether clause s may be read as Russian by its
// letters alone: it holds Cyrillic letters and none that an uncovered
// Cyrillic language writes and Russian does not (Ukrainian і, ї, є,
// Belarusian ў, Kazakh ә, ң: languages.tsv's letter rows); Latin words
// are names and terms ("Сгенерируй JSON …"). Russian is the one Cyrillic
// language the lexicon covers, so a short order ("Объясни поведение
// человека.") that holds none of its frequent function words is still
// Russian.
func russianScript(s string) bool {
	letters, cyrillic := tellingSigns().letters, false
	for _, r := range s {
		switch {
		case !unicode.Is(unicode.Cyrillic, r):
		// ґ is Ukrainian's too, rarer than its treebank's letter rows go.
		case len(letters[r]) > 0, r == 'ґ':
			return false
		default:
			cyrillic = true
		}
	}
	return cyrillic
}

// russianPrefixes are Russian's verbal prefixes, the longer first.
var russianPrefixes = []string{"пере", "пред", "раз", "рас", "под", "при", "про", "над", "вы", "за", "на", "по", "от", "об", "до", "из", "ис", "вз", "вс", "с", "у", "о", "в"}

// negations are the words before an imperative that negate it, and
// their language.
var negations = map[string]string{"no": "Spanish", "não": "Portuguese", "non": "Italian", "не": "Russian"}

// subjectlessPlural returns a French or Russian second person plural of
// the lexicon's that no vous or вы stands before in its sentence, or "".
// Both languages write that person's subject: the indicative is "vous
// portez", "вы обратите", and the same form with no subject is the
// imperative, wherever a phrase before it puts it ("Lors du test, portez
// …", "При разработке обратите внимание …", "Vendez ou utilisez …").
// French -ez is the indicative only after vous ("vous lisez et écrivez":
// no form after it counts); Russian -те, -тесь likewise after вы.
func subjectlessPlural(lower string) string {
	f := treebank()
	// The -ez form is French's alone: it tells the text's language
	// where no other language's words do ("Détruisez ou polluez …"
	// holds none of French's own words either). Asked only once such a
	// form is found.
	french := sync.OnceValue(func() bool { return frenchText(lower) })
	russian := strings.IndexFunc(lower, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) >= 0
	for _, s := range sentences(lower) {
		for _, w := range words(s) {
			if w == "vous" || w == "вы" {
				break
			}
			if strings.HasSuffix(w, "ez") && (f.imperativeOf(w, "French") || frenchIfier(w)) && french() ||
				russian && hasSuffixAny(w, "те", "тесь") && f.imperativeOf(w, "Russian") {
				return w
			}
		}
	}
	return ""
}

// germanAlone reports whether lower (lower case) may be read as German
// though it holds none of German's telling words: a short request
// ("Spiele Paul McCartney", "Setze alle Wecker zurück") holds none, and
// no word of another covered language written in Latin letters either.
// German's singular imperative (stem and -e) is no other language's form
// there, and a German plural noun that ends so (Spiele) opens no
// sentence of a text too short to hold an article.
func germanAlone(lower string) bool {
	return !otherLatin(lower, "German") && !italian(lower)
}
