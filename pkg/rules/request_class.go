package rules

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Short requests in the languages the imperative lists name but no verb
// lexicon covers (Dutch, Turkish, Indonesian), told by their grammar:
// where the verb stands, a closed class, a verb's derivational ending.
// A clause of four words or more in these languages is unjudged already
// (script.go's unread); what renders is the short request ("annuleer de
// wekker", "alarmı kapat", "matikan alarm") and the one padded with
// names ("speel top nummers van Joseph Utsler"). docs/security.md,
// "Session 27, xSID in other languages (held out)".

// dutchAsked returns what makes a clause of lower (with no comma) a
// Dutch question without its mark: an interrogative before a finite
// auxiliary or copula ("wat is de …", "wanneer gaat …"), "hoe" and one
// word before one ("hoe laat speelt …", "hoe warm wordt het"), or the
// finite verb first before its subject ("gaat het regenen", "is er …").
// A Dutch statement puts its finite verb second, after its subject or
// one phrase, never first, and an interrogative opens no statement
// before its verb ("wat er gebeurde is …" has its subject between).
func dutchAsked(lower string) string {
	for ws := range commaFree(clauses(lower)) {
		if len(ws) < 2 {
			continue
		}
		switch {
		case dutchInterrogatives()[ws[0]] && dutchFinite()[ws[1]]:
			return ws[0] + " " + ws[1]
		case ws[0] == "hoe" && len(ws) > 2 && (dutchFinite()[ws[2]] || dutchPresent(ws[2])):
			return strings.Join(ws[:3], " ")
		case dutchFinite()[ws[0]] && dutchSubjects()[ws[1]]:
			return ws[0] + " " + ws[1]
		// A verb's present in -t first (its stem in stems.tsv, spelt as
		// Dutch), before its subject: "Speelt Babar …" (is … playing).
		case strings.HasSuffix(ws[0], "t") && udStems()["Dutch"][strings.TrimSuffix(ws[0], "t")] && dutchSpelling(ws[0]) && !dutchSubjects()[ws[1]] && ws[1] != "ik":
			return ws[0]
		}
	}
	return ""
}

// dutchPresent reports a word in -t of five letters or more that is no
// Dutch function word: a verb's present in the third person after "hoe
// laat" ("speelt", "begint"); "ook" after the adjective makes the clause
// a concession, and is no such word.
func dutchPresent(w string) bool {
	return strings.HasSuffix(w, "t") && utf8.RuneCountInString(w) >= 5 && !openers()[w]
}

// dutchInterrogatives are the Dutch interrogatives ("hoe" is read with
// the word after it).
var dutchInterrogatives = sync.OnceValue(set("wat", "wie", "waar", "wanneer", "waarom", "welke", "welk", "hoeveel", "hoelang"))

// dutchFinite are the Dutch auxiliaries, modals and copulas in the
// present and past ("zijn" and "was" are left out: also "his" and the
// English past).
var dutchFinite = sync.OnceValue(set("is", "wordt", "worden", "werd", "heeft", "hebben", "kan", "kun", "kunt", "kunnen", "zal", "zullen", "zou", "zouden", "moet", "moeten", "mag", "mogen", "gaat", "gaan", "komt", "doet", "staat"))

// dutchSubjects open the subject a Dutch question puts after its verb.
var dutchSubjects = sync.OnceValue(set("het", "er", "de", "je", "jij", "u", "ik", "we", "wij", "hij", "ze", "zij", "dit", "deze"))

// dutchOrder returns the verb and what follows it that open a clause of
// text as a Dutch order:
//   - the singular imperative of a verb in -eren ("annuleer",
//     "reserveer", "activeer"): the class of verbs Dutch takes from
//     French and Latin, whose stem in -eer opens no statement (Dutch
//     puts its subject first); the native nouns in -eer are short (weer,
//     keer, sfeer) or a prefix and one of them (verkeer, onweer), so the
//     stem before -eer has four letters or more, six after a prefix;
//   - a word ending in a consonant, as a Dutch imperative does (zet,
//     speel, vind, boek), before an object only Dutch opens so: "mijn",
//     "m'n", or "alle" where the text is not Italian ("alle" is "to the"
//     there), or the article "de" (in lower case: "De" is a name's, Jos
//     De Haes) and a noun in lower case, where no Romance function word
//     is ("de" is Romance's "of": "Líderes de empresas como …") and the
//     clause is spelt as Dutch (dutchSpelling: not "Plan de travail").
//
// A text with an English telling word written in lower case (a title's
// words are capitalised) is left to the English rules, but for the
// particle's clause, which asks that of its words up to the particle.
func dutchOrder(text, lower string) string {
	if turkish(lower) {
		return ""
	}
	english := holdsWords(strings.Join(lowerWords(words(text)), " "), englishWords(), 1)
	// Asked once a text, not once a clause: the rules stay linear.
	romance, italianText := holdsWords(lower, romanceFunction(), 1), italian(lower)
	other := otherLatin(lower, "English") || italianText
	for _, c := range clauses(text) {
		if w := dutchParticleOrder(c); w != "" {
			return w
		}
		first, rest := firstWord(c)
		first = strings.ToLower(first)
		next, after := firstWord(rest)
		if w := dutchStemOrder(c, first, next, rest, english, other); w != "" {
			return w
		}
		if english {
			continue
		}
		if first == "" || notVerb(first) || dutchInterrogatives()[first] || strings.ContainsAny(first, "'’") {
			continue
		}
		if dutchLearnedVerb(first) {
			return first
		}
		if !dutchConsonantEnd(first) || utf8.RuneCountInString(first) < 3 || strings.HasPrefix(rest, ",") {
			continue
		}
		switch strings.ToLower(next) {
		case "mijn", "m'n":
		case "alle":
			if italianText {
				continue
			}
		case "de":
			obj, _ := firstWord(after)
			if next != "de" || obj == "" || !unicode.IsLower(firstRune(obj, 0)) || romance || !dutchSpelling(c) {
				continue
			}
		default:
			continue
		}
		return first + " " + strings.ToLower(next)
	}
	return ""
}

// dutchStemOrder returns what opens clause c (original case; first, its
// first word in lower case, next the word after it, rest what follows
// first) as a Dutch order by a verb's stem of the treebanks (stems.tsv):
// Dutch puts a statement's finite verb second, and the stem first before
// another word is the imperative ("Speel iets op …", "Zoek films …",
// "Vind …"), or a question with its subject after it ("Zie je …"), but
// for "ik" after it, the first person with its object dropped ("Vind ik
// ook"), and "van" after it, a noun's complement (the stem is a noun too:
// "Herstel van vertrouwen …"); "Laten we" (let us) exhorts. The clause is spelt as Dutch, in
// the stem itself or a word after it ("Speel Paul …", "Vind films
// dichtbij"), and holds no other covered language's telling word
// but English's (other): English writes some of the stems as words ("Red
// Robin"). In a text with English words in lower case (english: a
// title's, "Zoek The Sound of …"), only a stem that is no English verb,
// spelt as Dutch or in a clause with a Dutch telling word.
func dutchStemOrder(c, first, next, rest string, english, other bool) string {
	if next == "" || other || strings.HasPrefix(rest, ",") {
		return ""
	}
	if first == "laten" && (next == "we" || next == "wij") {
		return first + " " + next
	}
	if !udStems()["Dutch"][first] || strings.EqualFold(next, "ik") || strings.EqualFold(next, "van") {
		return ""
	}
	if english && (wordnetVerbs()[first] || !dutchSpelling(first) && !dutchTold(c)) || !dutchSpelling(first) && !dutchSpelling(c) {
		return ""
	}
	return first
}

// dutchTold reports clause c holding a Dutch telling word of
// languages.tsv in lower case.
func dutchTold(c string) bool {
	return slices.ContainsFunc(lowerWords(words(c)), func(w string) bool {
		return slices.Contains(tellingSigns().words[w], "Dutch")
	})
}

// dutchParticleOrder returns the verb and the particle of a Dutch
// separable verb in clause c (original case) when the verb opens it and
// the particle ends it ("zet wekker uit", "wekker aan"): Dutch sends the
// particle of a verb in second place to the clause's end ("de wekker
// gaat af", "hij zet hem uit"), so with the particle last the first word
// is the verb itself, or the subject before a finite verb. Read: the
// particles only Dutch writes (uit, toe, af, mee, terug, neer, aan; not
// German's aus, an, ab, mit, zurück, weg), a first word ending in a
// consonant that is no opener, interrogative or subject, and after it
// no word in lower case that may be a finite verb (dutchFinite, or in
// -t, the present's third person: "Jan zet …", "wekker gaat …") nor,
// straight after it, a plural in -en;
// "toe" before "aan" ends the verb too ("voeg … toe aan …"). Words of
// English in lower case before the particle leave the clause to the
// English rules.
func dutchParticleOrder(c string) string {
	if strings.ContainsAny(c, ",，") {
		return ""
	}
	ws := words(c)
	for i, w := range ws {
		// "toe" before its "aan" ends the clause's verb ("voeg … toe aan
		// de lijst"): what follows is the phrase Dutch puts after it.
		if strings.EqualFold(w, "toe") && i+1 < len(ws) && strings.EqualFold(ws[i+1], "aan") {
			ws = ws[:i+1]
			break
		}
	}
	if len(ws) < 2 || len(ws) > 7 || !dutchParticles()[strings.ToLower(ws[len(ws)-1])] ||
		holdsWords(strings.Join(lowerWords(ws), " "), englishWords(), 1) {
		return ""
	}
	first := strings.ToLower(ws[0])
	if notVerb(first) || dutchInterrogatives()[first] || dutchSubjects()[first] || !dutchConsonantEnd(first) || utf8.RuneCountInString(first) < 3 {
		return ""
	}
	for i, w := range ws[1 : len(ws)-1] {
		// A name (capitalised) is no verb; a word in lower case may be.
		if unicode.IsLower(firstRune(w, 0)) && (dutchFinite()[w] || strings.HasSuffix(w, "t") || i == 0 && strings.HasSuffix(w, "en")) {
			return ""
		}
	}
	return first + " … " + strings.ToLower(ws[len(ws)-1])
}

// dutchParticles are the separable particles only Dutch writes among the
// covered languages.
var dutchParticles = sync.OnceValue(set("uit", "toe", "af", "mee", "terug", "neer", "aan"))

// dutchSpelling reports a clause with a word in lower case that holds
// one of Dutch's long vowels or diphthongs written double (aa, ee, oo,
// uu, oe, ij: "speel", "voor", "afbeelding", "vijftien") or that is a
// Dutch telling word of languages.tsv. The Romance languages write
// them seldom; "ui" is left out (French lui, nuit).
func dutchSpelling(clause string) bool {
	for _, w := range lowerWords(words(clause)) {
		w = strings.ToLower(w)
		if utf8.RuneCountInString(w) >= 3 && (strings.Contains(w, "aa") || strings.Contains(w, "ee") || strings.Contains(w, "oo") || strings.Contains(w, "uu") || strings.Contains(w, "oe") || strings.Contains(w, "ij")) ||
			slices.Contains(tellingSigns().words[w], "Dutch") {
			return true
		}
	}
	return false
}

// romanceFunction are the articles, prepositions and conjunctions of
// French, Spanish, Italian and Portuguese that Dutch does not write.
var romanceFunction = sync.OnceValue(set("la", "las", "los", "le", "les", "lo", "el", "del", "da", "do", "das", "dos", "du", "des", "di",
	"a", "e", "y", "et", "o", "ou", "como", "comme", "come", "que", "che", "con", "com", "para", "por", "per", "pour", "sur", "su", "sus", "ses", "son", "um", "uma", "un", "una", "une", "il", "est", "es", "é", "è"))

// dutchLearnedVerb reports w, the stem in -eer of a verb in -eren.
func dutchLearnedVerb(w string) bool {
	stem, ok := strings.CutSuffix(w, "eer")
	n := utf8.RuneCountInString(stem)
	if !ok || n < 4 || !dutchConsonantEnd(stem) {
		return false
	}
	if hasPrefixAny(stem, "ver", "ge", "be", "ont", "on", "her") && n < 6 {
		return false
	}
	return !wordnetVerbs()[w]
}

// dutchConsonantEnd reports w ending in a consonant letter.
func dutchConsonantEnd(w string) bool {
	r, _ := utf8.DecodeLastRuneInString(w)
	return unicode.IsLetter(r) && !strings.ContainsRune("aeiouyáéíóúàèìòùäëïöüâêîôû", r)
}

// indonesianOrder returns the word that opens a clause of lower as an
// Indonesian imperative: a verb's root and the suffix -kan with no
// prefix ("batalkan", "matikan", "tambahkan"). Indonesian makes its
// transitive verbs with -kan and marks the active statement with meN-
// (membatalkan) and the passive with di- (dibatalkan); the bare root
// and -kan is the imperative. The words in -kan that are no such verb
// are a root of two or three letters and -kan (akan, bukan, makan,
// bahkan) or a noun of pe-, ke-, per- and -an on a root in -k
// (pendidikan, kebijakan): the root has four letters or more, and those
// prefixes and meN-, di-, ter- are left out.
func indonesianOrder(lower string) string {
	if turkish(lower) {
		return ""
	}
	for _, c := range clauses(lower) {
		first, _ := firstWord(c)
		root, ok := strings.CutSuffix(first, "kan")
		if !ok || utf8.RuneCountInString(root) < 4 || hasPrefixAny(root, "me", "di", "pe", "ke", "ter") {
			continue
		}
		return first
	}
	return ""
}

// turkishText reports a text in Turkish: a letter only Turkish writes
// among the covered languages (turkish), or a case ending written after
// an apostrophe on a name or a number ("6'ya", "Lastfm'de", "1995'ten",
// "Dana'nın"), as Turkish writes its suffixes on proper names, or one
// of Turkish's telling words (languages.tsv: bir, ve, için …).
func turkishText(text, lower string) bool {
	return turkish(lower) || turkishSuffixed(text) || slices.ContainsFunc(words(lower), func(w string) bool {
		return slices.Contains(tellingSigns().words[w], "Turkish")
	})
}

// turkishSuffixed reports a name or a number in text with a Turkish case
// ending after an apostrophe.
func turkishSuffixed(text string) bool {
	for i := 0; i < len(text); {
		j := strings.IndexAny(text[i:], "'’")
		if j < 0 {
			return false
		}
		at := i + j
		_, n := utf8.DecodeRuneInString(text[at:])
		i = at + n
		before := text[:at]
		start := strings.LastIndexFunc(before, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) + 1
		name := before[start:]
		r, _ := utf8.DecodeRuneInString(name)
		if !(unicode.IsDigit(r) || unicode.IsUpper(r) && utf8.RuneCountInString(name) > 2) {
			continue
		}
		end := strings.IndexFunc(text[i:], func(r rune) bool { return !unicode.IsLetter(r) })
		if end < 0 {
			end = len(text) - i
		}
		if turkishCaseEndings()[strings.ToLower(text[i:i+end])] {
			return true
		}
	}
	return false
}

// turkishCaseEndings are the case endings Turkish writes after an
// apostrophe: dative, locative, ablative, accusative, genitive and
// instrumental in their harmonic forms ("'s", "'d", "'ll" are English's,
// and elision keeps a whole word after it: l'album).
var turkishCaseEndings = sync.OnceValue(set(
	"a", "e", "ya", "ye", "da", "de", "ta", "te", "dan", "den", "tan", "ten",
	"ı", "i", "u", "ü", "yı", "yi", "yu", "yü", "nı", "ni", "nu", "nü",
	"ın", "in", "un", "ün", "nın", "nin", "nun", "nün", "la", "le", "yla", "yle",
	"daki", "deki", "taki", "teki", "ye", "na", "ne"))

// turkishAsked returns a Turkish question's word in a clause of a
// Turkish text: the particle mi/mu written apart (mı and mü are
// askWords), "ne zaman" (when), "nedir", "nelerdir" (what is, what are),
// "kaç" and "kaçta" (how many, at what time).
func turkishAsked(text, lower string) string {
	if !turkishText(text, lower) {
		return ""
	}
	ws := words(lower)
	for i, w := range ws {
		switch {
		case w == "mi" || w == "mu" || w == "nedir" || w == "nelerdir" || w == "kaç" || w == "kaçta":
			return w
		case w == "ne" && i+1 < len(ws) && ws[i+1] == "zaman":
			return "ne zaman"
		}
	}
	return ""
}

// turkishOrder returns the verb that ends a clause of a Turkish text as
// an imperative: Turkish puts its verb last, and a statement's verb
// carries its tense and person (ediyor, yaptı, verir, -dır); the
// singular imperative is the bare stem. Read: a light verb's stem last
// ("iptal et", "rezervasyon yap", "puan ver", "al", "ol"), and the bare
// stem of any verb after an object in the accusative ("alarmı kapat",
// "Dana'nın shadowplay'ini çal", "resmini bul"): a stem ending in a
// consonant with none of the finite endings. The accusative's -ı is the
// possessive's too, but a noun phrase ends in its head noun's
// possessive (hava durumu), a vowel.
func turkishOrder(text, lower string) string {
	if !turkishText(text, lower) && !turkishStemText(lower) {
		return ""
	}
	for ws := range commaFree(clauses(lower)) {
		if len(ws) < 2 {
			continue
		}
		last, prev := ws[len(ws)-1], ws[len(ws)-2]
		if turkishLightVerbs()[last] {
			return prev + " " + last
		}
		if len(ws) > 2 && turkishGenitive(ws[len(ws)-3]) && !turkishBuffered(prev) {
			continue // "Çocukların işi zor": a possessive after its genitive, then a predicate
		}
		if (turkishAccusative(prev) || turkishDative(prev)) && (turkishBareStem(last) || turkishLeStem(last)) {
			return prev + " " + last
		}
		// A verb's stem of the treebanks (stems.tsv) last, after any
		// word: a bare object or a name ("alarm kur", "müzik çal",
		// "Paul Mccartney çal"). A statement's verb carries its tense
		// and person; a stem that is also a word of another class more
		// often (aç, hungry; ara, between) is not in the table.
		if udStems()["Turkish"][last] || (turkishAccusative(prev) || turkishDative(prev)) && udStems()["Turkish-object"][last] {
			return prev + " " + last
		}
	}
	return ""
}

// turkishStemText reports a text that holds no telling word of a covered
// language but English (whose words are a title's: "From Where to
// Eternity şovunu …") and a clause that ends in a Turkish verb's stem of
// stems.tsv, written with a letter Turkish has and English lacks
// (Paul Mccartney çal, albümünü çal, üzerinden … ver), or with a word
// before it that ends in a case after its buffer consonant (resmini
// bul, dakikaya alarm kur): a request typed without ı or ğ.
func turkishStemText(lower string) bool {
	return turkishEndText(lower, func(last string) bool { return udStems()["Turkish"][last] || udStems()["Turkish-object"][last] })
}

// turkishEndText reports a text that holds no telling word of a covered
// language but English and a clause whose last word verb accepts, marked
// as turkishStemText says.
func turkishEndText(lower string, verb func(string) bool) bool {
	if otherLatin(lower, "English") {
		return false
	}
	for _, c := range clauses(lower) {
		ws := words(c)
		if len(ws) < 2 {
			continue
		}
		if !verb(ws[len(ws)-1]) {
			continue
		}
		if strings.ContainsAny(c, "çşğıöü") || slices.ContainsFunc(ws[:len(ws)-1], func(w string) bool {
			return utf8.RuneCountInString(w) >= 4 && hasSuffixAny(w, "nı", "ni", "nu", "nü", "ya", "ye", "yı", "yi", "yu", "yü")
		}) {
			return true
		}
	}
	return false
}

// turkishPerson returns the verb that ends a clause of a Turkish text in
// the first person singular, as personOpens reads "I" in the other
// languages: a stem of stems.tsv and the present's -(i)yorum
// ("istiyorum", I want; "oynuyorum"), the aorist's -(i)rim ("isterim",
// "veririm"), or "gerekiyor" (is needed) after a verbal noun of the
// first person singular ("eklemem gerekiyor", I need to add); or the
// optative's -(y)elim, -(y)alım ("dinleyelim", let us), an exhortation.
// Turkish writes the person in the verb's ending, and a note's fact is in
// the third. The plural's "we" is not read (as in English).
func turkishPerson(text, lower string) string {
	if !turkishText(text, lower) && !turkishEndText(lower, func(last string) bool { return turkishFirstPersonOf(last) != "" }) {
		return ""
	}
	for _, c := range clauses(lower) {
		ws := words(c)
		if len(ws) == 0 {
			continue
		}
		last := ws[len(ws)-1]
		if last == "gerekiyor" && len(ws) > 1 && hasSuffixAny(ws[len(ws)-2], "mam", "mem") {
			return ws[len(ws)-2] + " " + last
		}
		if w := turkishFirstPersonOf(last); w != "" {
			return w
		}
	}
	return ""
}

// turkishFirstPersonOf returns w when it is a stem of stems.tsv and an
// ending of turkishFirstPerson, or "".
func turkishFirstPersonOf(w string) string {
	for _, end := range turkishFirstPerson {
		if stem, ok := strings.CutSuffix(w, end); ok && turkishStemOf(stem) {
			return w
		}
	}
	return ""
}

// turkishFirstPerson are the first person's endings turkishPerson reads,
// with their buffer vowel or consonant, the longer first.
var turkishFirstPerson = []string{
	"iyorum", "ıyorum", "uyorum", "üyorum", "yorum",
	"arım", "erim", "ırım", "irim", "urum", "ürüm", "rım", "rim", "rum", "rüm",
	"yalım", "yelim", "alım", "elim"}

// turkishStemOf reports stem, what is left of a verb without its ending,
// as a stem of stems.tsv, or one whose last vowel the present's -iyor
// took (ist-iyorum: iste; oyn-uyorum: oyna).
func turkishStemOf(stem string) bool {
	t := udStems()["Turkish"]
	return utf8.RuneCountInString(stem) >= 2 && (t[stem] || t[stem+"a"] || t[stem+"e"])
}

// turkishLightVerbs are the stems of the verbs Turkish joins to a noun
// to make a verb (iptal et, kabul et, rezervasyon yap, puan ver).
var turkishLightVerbs = sync.OnceValue(set("et", "yap", "ver", "eyle", "kıl"))

// turkishAccusative reports w ending in the accusative (or the
// possessive it shares its form with): -ı, -i, -u, -ü after a consonant
// or y, n (alarmı, müziği, resmini, şarkılarını, shadowplay'ini).
func turkishAccusative(w string) bool {
	if utf8.RuneCountInString(w) < 3 {
		return false
	}
	r, n := utf8.DecodeLastRuneInString(w)
	if !strings.ContainsRune("ıiuü", r) {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(w[:len(w)-n])
	return !strings.ContainsRune("aeıioöuü", before)
}

// turkishGenitive reports w ending in the genitive (-ın, -in, -un, -ün,
// -nın …: çocukların, Dana'nın): the word after it is its possessed noun,
// whose -ı is the possessive's, not the accusative's.
func turkishGenitive(w string) bool {
	return utf8.RuneCountInString(w) >= 3 && hasSuffixAny(w, "ın", "in", "un", "ün")
}

// turkishBuffered reports w ending in the accusative after the
// possessive, with its n (resmini, şarkılarını, shadowplay'ini).
func turkishBuffered(w string) bool { return hasSuffixAny(w, "nı", "ni", "nu", "nü") }

// turkishDative reports w ending in the dative: -a, -e after a
// consonant or y (listeme, romana, puccini'ye, jams'e).
func turkishDative(w string) bool {
	if utf8.RuneCountInString(w) < 3 {
		return false
	}
	r, n := utf8.DecodeLastRuneInString(w)
	before, _ := utf8.DecodeLastRuneInString(w[:len(w)-n])
	return (r == 'a' || r == 'e') && !strings.ContainsRune("aeıioöuü", before)
}

// turkishLeStem reports w as the stem of a verb made with -le, -la (ekle,
// ertele, söyle, hazırla), the class of Turkish verbs made from nouns:
// not the instrumental -yle, -yla (böyle, arabayla) nor "bile" (even).
func turkishLeStem(w string) bool {
	return hasSuffixAny(w, "le", "la") && !hasSuffixAny(w, "yle", "yla") && w != "bile" && utf8.RuneCountInString(w) >= 4
}

// turkishBareStem reports w, a clause's last word, as a verb's bare stem:
// it ends in a consonant and in none of the endings of a finite verb
// (past -dı, -tı; present -yor; future -acak; perfect -mış; the aorist's
// -ar, -ır, -ir, -ür and the light verbs' eder, olur; person -ım, -ız,
// -sın, -lar; copula -dır; negative -maz, -mez; necessity -malı), nor a
// noun's case (-dan, -ın, -den, -ki).
func turkishBareStem(w string) bool {
	n := utf8.RuneCountInString(w)
	if r, _ := utf8.DecodeLastRuneInString(w); n < 2 || strings.ContainsRune("aeıioöuü", r) || !unicode.IsLetter(r) || w == "eder" || w == "olur" || hasSuffixAny(w, "ş") {
		return false
	}
	if hasSuffixAny(w, "yor", "dı", "di", "du", "dü", "tı", "ti", "tu", "tü", "dım", "dim", "dum", "düm", "tım", "tim", "tum", "tüm",
		"dık", "dik", "duk", "dük", "tık", "tik", "tuk", "tük", "dın", "din", "dun", "dün", "tın", "tin", "tun", "tün",
		"acak", "ecek", "mış", "miş", "muş", "müş", "ar", "ır", "ir", "ür", "ım", "im", "um", "üm", "ız", "iz", "uz", "üz",
		"sın", "sin", "sun", "sün", "lar", "ler", "maz", "mez", "malı", "meli", "dan", "den", "tan", "ten", "ın", "in", "un", "ün", "nın", "nin", "k", "m", "n", "z") {
		return false
	}
	return true
}

//go:embed stems.tsv
var stemsTSV string

// udStems are stems.tsv's imperatives by language ("Dutch", "Turkish"):
// the bare stem of each verb the UD treebanks annotate
// (scripts/udstems), less the forms the treebanks write more often as
// another class where the rules read them; "Turkish-object" holds those
// of Turkish read only after an object in the accusative (ara, dur).
var udStems = sync.OnceValue(func() map[string]map[string]bool {
	m := map[string]map[string]bool{"Dutch": {}, "Turkish": {}, "Turkish-object": {}}
	for rest := stemsTSV; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if strings.HasPrefix(line, "#") {
			continue
		}
		lang, line, _ := strings.Cut(line, "\t")
		form, line, _ := strings.Cut(line, "\t")
		if _, kind, _ := strings.Cut(line, "\t"); kind == "object" {
			lang += "-object"
		}
		if m[lang] != nil && form != "" {
			m[lang][form] = true
		}
	}
	return m
})

// requestClass is Instruction's reading of the short requests above.
func requestClass(text, lower string) (rule, msg string) {
	if w := turkishAsked(text, lower); w != "" {
		return "instruction-question", "a Turkish question (" + w + "): it asks its reader something instead of stating a claim"
	}
	for _, f := range []func(string, string) string{dutchOrder, turkishOrder, func(_, lower string) string { return indonesianOrder(lower) }} {
		if w := f(text, lower); w != "" {
			return "instruction-imperative", "an imperative by its form and place (" + w + "): a claim says what is so, not what the reader must do"
		}
	}
	if w := turkishPerson(text, lower); w != "" {
		return "message-person", "it speaks as someone by the verb's form (" + w + "): what an agent learnt is a fact in the third person, not a message"
	}
	return "", ""
}
