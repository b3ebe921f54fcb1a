package rules

import (
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Imperatives told by a class of forms rather than by the verbs the
// treebanks happen to attest (as russianIruj does for Russian's -ировать
// class).

// frenchIfier reports w, the singular or plural imperative of a French
// verb in -ifier (classifie, vérifiez, simplifie): the class that takes
// in learned verbs, whose members the treebanks attest only some of. No
// French noun or adjective ends in -ifie or -ifiez (the nouns are
// -ification, the participles -ifié), and French writes the subject of
// every finite verb, so at a clause's opening the form is the imperative.
func frenchIfier(w string) bool {
	return utf8.RuneCountInString(w) >= 6 && hasSuffixAny(w, "ifie", "ifiez") &&
		strings.IndexFunc(w, func(r rune) bool { return !unicode.Is(unicode.Latin, r) }) < 0
}

// italianEnclitic reports w, an Italian imperative with its object
// pronoun joined after it (ricordami, mostracelo, aggiungimi, ditemi,
// fammi): Italian joins a pronoun after only the imperative, the
// infinitive (ricordarmi) and the gerund (ricordandomi), so a verb's
// imperative ending before the pronoun says the mood. The imperative is
// the verb's stem with -a (-are verbs) or -i (-ere, -ire; -ci for -urre),
// and -ate, -ete, -ite in the plural, of a verb the lexicon has. Left
// out are the pronouns whose joined form is also a common noun's or
// adjective's ending: -ti (the participle: usati, finiti), -li and -le
// (generali, segnali), -gli (dettagli), -ne (cucine), -vi and -si; and
// -ci after -i (radici).
func (f treebankForms) italianEnclitic(w string) bool {
	if italianShortEnclitic[w] {
		return true
	}
	for _, c := range italianClitics {
		base, ok := strings.CutSuffix(w, c)
		if !ok || utf8.RuneCountInString(base) < 4 {
			continue
		}
		for _, e := range italianImperativeEndings {
			if c == "ci" && e.ending == "i" {
				continue
			}
			if stem, ok := strings.CutSuffix(base, e.ending); ok && f.lemmas["Italian"][stem+e.infinitive] {
				return true
			}
		}
	}
	return false
}

// italianClitics are the object pronouns, alone and paired, that
// italianEnclitic reads joined to an imperative, the longer first.
var italianClitics = []string{
	"glielo", "gliela", "glieli", "gliele", "gliene",
	"melo", "mela", "meli", "mele", "mene",
	"celo", "cela", "celi", "cele", "cene",
	"mi", "ci", "lo", "la",
}

// italianImperativeEndings are the imperative's endings after a verb's
// stem and the infinitive's ending of the same verb.
var italianImperativeEndings = []struct{ ending, infinitive string }{
	{"ate", "are"}, {"ete", "ere"}, {"ite", "ire"},
	{"ci", "rre"}, {"a", "are"}, {"i", "ere"}, {"i", "ire"},
}

// italianShortEnclitic are the imperatives of fare, dare, dire and stare
// with a pronoun joined, which doubles its consonant (fammi, dillo);
// dallo, dalla and dagli are also "from the", and are left out.
var italianShortEnclitic = map[string]bool{
	"fammi": true, "facci": true, "fallo": true, "falla": true, "fammelo": true,
	"dammi": true, "dacci": true, "dammelo": true,
	"dimmi": true, "dicci": true, "dillo": true, "dimmelo": true,
	"stammi": true,
}

// italianSingular returns the word that opens a clause of lower (lower
// case) as the singular imperative of an Italian verb the lexicon has,
// with a determiner straight after it, or "": "Imposta la sveglia",
// "Aggiungi l'album", "Cerca la serie", "Riproduci la canzone". The
// -ere and -ire singular (aggiungi, metti) is also a plural noun's
// ending (leggi, parti, fondi) and the -are singular (imposta, cerca)
// the third person singular, which opens a statement in a language that
// drops its subject; but a plural noun opening a sentence is not followed
// by an article, and a third person whose subject is dropped is, as
// often as not, in a text long enough to hold Italian's own words, where
// italianOrder reads the -i form and the -a form is left alone. So this
// reads only a text too short to hold them: no telling word of Italian
// or any other covered language written in its letters, save English
// words of a title. The verbs in -durre (riproduci, traduci) are told by
// their class alone: no noun ends in -duci.
func italianSingular(lower string) string {
	f := treebank()
	if slices.ContainsFunc([]string{"German", "French", "Spanish", "Portuguese"}, func(lang string) bool {
		return holdsWords(lower, f.words[lang], 1)
	}) {
		return ""
	}
	for _, c := range clauses(lower) {
		w, rest := firstWord(strings.TrimLeft(c, " \t\"'“«("))
		if utf8.RuneCountInString(w) >= 6 && strings.HasSuffix(w, "duci") {
			return w
		}
		next, _ := firstWord(rest)
		if !italianDeterminer(next) {
			continue
		}
		if italianShortSingular[w] || f.italianSingularForm(w) {
			return w
		}
	}
	return ""
}

// italianSingularForm reports w, the stem of an Italian verb of the
// lexicon with the singular imperative's ending: -a (-are), -i (-ere,
// -ire), -isci (-ire of the finire class).
func (f treebankForms) italianSingularForm(w string) bool {
	if utf8.RuneCountInString(w) < 4 || notVerb(w) || italianQuantifiers()[w] {
		return false
	}
	for _, e := range []struct{ ending, infinitive string }{{"isci", "ire"}, {"a", "are"}, {"i", "ere"}, {"i", "ire"}} {
		if stem, ok := strings.CutSuffix(w, e.ending); ok && f.lemmas["Italian"][stem+e.infinitive] {
			return true
		}
	}
	return false
}

// italianDeterminer reports w, an Italian article or demonstrative, with
// its elided forms (l'album, un'ora, quest'anno).
func italianDeterminer(w string) bool {
	w = strings.ReplaceAll(w, "’", "'")
	return italianArticles()[w] || hasPrefixAny(w, "l'", "un'", "quest'", "quell'")
}

// italianShortSingular are the singular imperatives of dare, fare and
// stare before a determiner ("Dai un voto", "Fai una lista"): "dai" is
// also "from the", which no article follows.
var italianShortSingular = map[string]bool{"dai": true, "fai": true, "stai": true}

// germanInfinitiveOrder returns the infinitive that ends a clause of text
// as German's impersonal order ("Wecker für 2 Stunden stellen", "alle
// Wecker löschen", "Bitte nicht rauchen"), or "": a clause of no comma
// whose last word, written in lower case as a verb is and a noun is not,
// is the infinitive of a German verb of the lexicon (or of one that
// shares its stem with another prefix: stellen as vor-stellen,
// ver-werfen as werfen), with no subject, no finite auxiliary or modal
// and no "zu" before it. A German main clause puts its finite verb
// second and a subordinate clause opens with its conjunction, so such a
// clause has no finite verb: what ends it is the infinitive of an order.
// A plural subject and its verb alone ("Die Kinder spielen") read the
// same, and need what the grammar cannot give: the clause must hold a
// word that is German's alone (a noun's capital after the first word,
// ä, ö, ü, ß, or one of German's telling words) and none of another
// covered language's.
func germanInfinitiveOrder(text string) string {
	f := treebank()
	for _, c := range germanSentences(text) {
		if strings.ContainsAny(c, ",，") {
			continue
		}
		ws := words(c)
		n := len(ws)
		if n < 2 {
			continue
		}
		last := ws[n-1]
		if last != strings.ToLower(last) || germanFinite()[last] || !f.germanVerb(last) {
			continue
		}
		lower := strings.ToLower(c)
		if otherLatin(lower, "German") {
			continue
		}
		german := strings.ContainsAny(lower, "äöüß") || holdsWords(lower, f.words["German"], 1)
		finite := false
		for i, w := range ws[:n-1] {
			lw := strings.ToLower(w)
			if germanFinite()[lw] || i == 0 && germanClauseOpeners()[lw] {
				finite = true
				break
			}
			if i > 0 && unicode.IsUpper(firstRune(w, 0)) {
				german = true
			}
		}
		if !finite && german {
			return last
		}
	}
	return ""
}

// germanSentences splits text at the marks that end a sentence or a
// clause, but not at the point of a number (1. Dezember, 15.001) nor in
// a quotation, which stays part of the clause that holds it.
func germanSentences(text string) []string {
	var out []string
	start, prev := 0, ' '
	for i, r := range text {
		if strings.ContainsRune(".!?;:\n", r) && !(r == '.' && unicode.IsDigit(prev)) {
			out = append(out, text[start:i])
			start = i + utf8.RuneLen(r)
		}
		prev = r
	}
	return append(out, text[start:])
}

// germanVerb reports w, the infinitive of a German verb of the lexicon,
// or of a verb that shares its stem with one under another prefix.
func (f treebankForms) germanVerb(w string) bool {
	if !hasSuffixAny(w, "en", "ern", "eln") || utf8.RuneCountInString(w) < 5 {
		return false
	}
	if f.deLemma[w] {
		return true
	}
	for _, p := range germanPrefixes {
		if f.deLemma[p+w] {
			return true
		}
		rest, ok := strings.CutPrefix(w, p)
		if !ok || utf8.RuneCountInString(rest) < 5 {
			continue
		}
		if f.deLemma[rest] || slices.ContainsFunc(germanPrefixes, func(q string) bool { return q != p && f.deLemma[q+rest] }) {
			return true
		}
	}
	return false
}

// germanPrefixes are German's verbal prefixes, separable and not (ge-
// is the participle's and left out).
var germanPrefixes = []string{"zusammen", "zurück", "hinzu", "heraus", "herein", "hinaus", "wieder", "durch", "fest", "fort", "nach", "über", "unter", "ab", "an", "auf", "aus", "bei", "ein", "her", "hin", "los", "mit", "vor", "weg", "zu", "dar", "um", "be", "ent", "er", "ver", "zer", "emp", "miss"}

// germanFinite are the words that give a German clause its subject or a
// finite verb that an infinitive at its end depends on: the personal
// pronouns, the auxiliaries and the modals, and "zu", "um" of an
// infinitive's phrase.
var germanFinite = sync.OnceValue(set("ich", "du", "er", "es", "wir", "ihr", "man",
	"bin", "bist", "ist", "sind", "seid", "war", "warst", "waren", "wart", "sei", "wäre", "wären",
	"habe", "hast", "hat", "haben", "habt", "hatte", "hatten", "hätte", "hätten",
	"werde", "wirst", "wird", "werden", "werdet", "wurde", "wurden", "würde", "würden",
	"kann", "kannst", "können", "könnt", "konnte", "konnten", "könnte", "könnten",
	"muss", "musst", "müssen", "müsst", "musste", "mussten", "müsste", "müssten",
	"soll", "sollst", "sollen", "sollt", "sollte", "sollten",
	"will", "willst", "wollen", "wollt", "wollte", "wollten",
	"darf", "darfst", "dürfen", "dürft", "durfte", "durften", "dürfte",
	"mag", "magst", "mögen", "möchte", "möchtest", "möchten", "lass", "lässt", "ließ",
	"zu", "um"))

// germanClauseOpeners are the words that open a subordinate clause or a
// question, whose verb comes last, and the articles of a subject in the
// nominative ("Die Kinder spielen"): a clause so opened is no order.
var germanClauseOpeners = sync.OnceValue(set("dass", "daß", "weil", "wenn", "ob", "als", "obwohl", "damit", "bevor", "nachdem", "während", "sobald", "bis", "falls", "da", "wie", "was", "wo", "wann", "warum", "wer", "welche", "welcher", "welches", "der", "die", "das"))

// russianAfterPhrase returns a Russian imperative that follows a
// prepositional phrase opening its sentence with no comma between
// ("Для заданной строки проверь, …", "В этом файле найди …"), or "":
// Russian fronts such a phrase before its verb without a comma, and a
// subject would stand between them. Read up to the sentence's first
// comma, and only where no word there ends as a finite verb, a past or an
// infinitive does (-ет, -ит, -ют, -ят, -ется, -л, -ли, -ть …; not -ла,
// -ло, a noun's genitive or plural as often: числа, дела): with one,
// the form before it is a noun of the clause's subject ("Во время дождя
// капли воды поглощаются …": капли, drops, is also капать's imperative).
func russianAfterPhrase(lower string) string {
	f := treebank()
	for _, s := range sentences(lower) {
		if !russianScript(s) {
			continue
		}
		head, _, _ := strings.Cut(s, ",")
		ws := words(head)
		if len(ws) < 3 || !russianPrepositions[ws[0]] {
			continue
		}
		if slices.ContainsFunc(ws, func(w string) bool {
			return hasSuffixAny(w, "ет", "ит", "ют", "ят", "ут", "ется", "ится", "ются", "ятся", "утся", "л", "ли", "лся", "лась", "лись", "ть", "ться")
		}) {
			continue
		}
		for _, w := range ws[1:min(len(ws), 7)] {
			if f.imperativeOf(w, "Russian") || russianPrefixed(w, f) != "" || russianIruj(w) {
				return w
			}
		}
	}
	return ""
}

// russianPrepositions are Russian's prepositions that open a phrase set
// before the clause's verb.
var russianPrepositions = map[string]bool{"для": true, "в": true, "во": true, "на": true, "с": true, "со": true, "по": true, "при": true, "из": true, "от": true, "до": true, "к": true, "ко": true, "у": true, "о": true, "об": true, "за": true, "под": true, "над": true, "перед": true, "после": true, "через": true, "без": true, "между": true, "среди": true, "вокруг": true, "кроме": true}

// germanSingularOrder returns a German singular imperative of a verb the
// lexicon lacks, told by the clause it opens, or "": a word in -e opening
// a clause of text (before its first comma) and, after it, an object no
// subject can be (den, einen, alle, mich, uns …: "Entferne alle Wecker"),
// or, the word written in lower case, the separable particle that ends
// the clause ("schalte Wecker aus"). A statement that opens with a word in
// -e puts its finite verb second ("Alle machen mit", "Osborne meldete
// sich … an"), and no object stands there; a first word in lower case is
// no name and no noun. The words that open a statement before its verb —
// determiners, pronouns, the adverbs in -e, the auxiliaries — are left
// out.
func germanSingularOrder(text string) string {
	if otherLatinBut(strings.ToLower(text), "German", germanObjects) {
		return ""
	}
	for _, s := range sentences(text) {
		head, _, _ := strings.Cut(s, ",")
		ws := words(head)
		if len(ws) < 2 {
			continue
		}
		first, w := ws[0], strings.ToLower(ws[0])
		if !strings.HasSuffix(w, "e") || utf8.RuneCountInString(w) < 5 || germanNotVerbs[w] || germanFinite()[w] || treebank().words["German"][w] || treebank().sub[w] {
			continue
		}
		if germanObjects[strings.ToLower(ws[1])] || len(ws) >= 3 && first == w && germanParticles[ws[len(ws)-1]] {
			return w
		}
	}
	return ""
}

// germanObjects are the words after a verb that are its object and can be
// no subject: the accusative articles and pronouns, "alle", "alles".
var germanObjects = map[string]bool{"den": true, "einen": true, "diesen": true, "jeden": true, "meinen": true, "deinen": true, "seinen": true, "unseren": true, "keinen": true,
	"mich": true, "dich": true, "uns": true, "euch": true, "ihn": true, "alle": true, "alles": true, "mir": true}

// germanParticles are the separable particles that end a clause whose
// verb they belong to.
var germanParticles = map[string]bool{"aus": true, "ab": true, "an": true, "auf": true, "ein": true, "zurück": true, "vor": true, "mit": true, "weg": true, "los": true, "fest": true, "um": true, "nach": true, "zu": true, "her": true, "hin": true}

// germanNotVerbs are the words in -e that open a German statement before
// its verb: determiners and pronouns, adverbs, numbers.
var germanNotVerbs = map[string]bool{"alle": true, "diese": true, "jene": true, "manche": true, "einige": true, "viele": true, "wenige": true, "beide": true, "welche": true, "keine": true, "meine": true, "deine": true, "seine": true, "ihre": true, "unsere": true, "eure": true, "jede": true, "solche": true, "andere": true, "mehrere": true,
	"heute": true, "gerade": true, "gerne": true, "lange": true, "alleine": true, "ebenfalls": true, "bitte": true, "daher": true, "ferne": true, "nahe": true, "ohne": true, "gegenüber": true, "zwölfe": true, "eine": true, "seite": true, "gestern": true}

// otherLatinBut is otherLatin, not counting the words of except (German's
// "alle" is Italian's "to the").
func otherLatinBut(lower, lang string, except map[string]bool) bool {
	var kept []string
	for _, w := range words(lower) {
		if !except[w] {
			kept = append(kept, w)
		}
	}
	return otherLatin(strings.Join(kept, " "), lang)
}
