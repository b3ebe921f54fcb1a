package rules

import (
	"iter"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// personWord returns the first word of text that speaks as someone (I,
// my, we, our in the languages below; and the Gaelic "do", your, which
// English spelling keeps off the second-person list), or "". An agent
// writes what it learnt as a fact about the user or the project in the
// third person ("The user prefers tabs"); a claim in the first person
// is a message from whoever wrote it, or a prompt pasted as a memory,
// and waits for a person (spec §5.2b). Pronouns and possessives are a
// closed class in every language, so the lists hold each language's
// forms rather than phrases fitted to payloads: English, German, Dutch, Swedish, Norwegian, Danish, French, Spanish,
// Italian, Portuguese, Romanian, Polish, Czech, Russian, Ukrainian,
// Greek, Turkish, Hungarian, Finnish, Hebrew, Arabic, Persian, Urdu,
// Hindi, Marathi, Bengali, Tamil, Telugu, Chinese, Japanese, Korean,
// Vietnamese, Thai, Indonesian/Malay, Javanese, Tagalog, Swahili, Zulu,
// Albanian, Irish and Scottish Gaelic. A form one language shares with
// a common word of another is left out ("ma", Italian "but"; "min",
// Swedish "minutes"; "من", Arabic "from"; "vi", the editor), and a
// pronoun must stand as a word of prose: "my.cnf", "io.Reader",
// "us-east-1", "US" and "Phase I" are not speakers.
func personWord(text string) string {
	lower := strings.ToLower(text)
	for _, p := range firstPersonJoined {
		if joinedWord(lower, p) {
			return p.word
		}
	}
	prev, last := "", 0 // the word before, when only spaces stand between
	for start, end := range wordSpans(text) {
		if strings.Trim(text[last:start], " ") != "" {
			prev = ""
		}
		w := text[start:end]
		if speaker(text, start, end, w, prev) {
			return w
		}
		prev, last = w, end
	}
	return ""
}

// speaker reports whether w, text[start:end], is a first-person word of
// prose; prev is the word just before it, if only a space stands between.
func speaker(text string, start, end int, w, prev string) bool {
	if inIdentifier(text, start, end) {
		return false
	}
	lw := strings.ToLower(w)
	if strings.HasPrefix(lw, "i'") || strings.HasPrefix(lw, "i’") {
		return firstPersonWords()[lw] // I'm, i'd: typed in lower case too
	}
	if is, ok := englishSpeaker(text, end, w, lw, prev); ok {
		return is
	}
	if utf8.RuneCountInString(w) > 1 && w == strings.ToUpper(w) && w != lw {
		return false // an acronym: US, EU, ME, IT
	}
	switch {
	case lw == "ich" && polish(text), lw == "já" && !czech(text), lw == "eu" && (frenchHad()[strings.ToLower(prev)] || french(strings.ToLower(text))):
		return false // Polish "ich" (their), Portuguese "já" (already), French "eu" (had: "a eu")
	}
	if firstPersonWords()[lw] || strings.HasPrefix(lw, "j'") || strings.HasPrefix(lw, "j’") {
		return true // French elides je: j'ai, j'habite
	}
	if firstPersonLower()[lw] {
		return w == lw // Turkish "ben" mid-sentence; "Ben" is a name
	}
	for _, p := range firstPersonPrefixes {
		if strings.HasPrefix(lw, p) {
			return true
		}
	}
	if lw == "do" || lw == "mo" {
		// The Gaelic possessive lenites its noun ("do fhreagairt", your
		// answer; "mo bhean"); English never has "do fh…".
		rest := strings.ToLower(text[end:])
		for _, l := range []string{" fh", " bh", " mh"} {
			if strings.HasPrefix(rest, l) {
				return true
			}
		}
	}
	return false
}

// englishSpeaker judges the English first-person forms another language
// spells alike ("i", "I", "we", "im"); ok is false for any other word.
func englishSpeaker(text string, end int, w, lw, prev string) (is, ok bool) {
	if w == "i" {
		// Typed in lower case ("i need a table for two"): the pronoun
		// when a verb follows it in an English text. Italian's article
		// and Polish's "and" take a noun after them ("i dati", "kot i
		// pies").
		return english(text) && englishAfterI(nextWord(text, end)), true
	}
	if w == "I" || lw == "we" {
		// Italian's "I" is "the" and Polish "we" is "in": the English
		// words need an English sentence, or, for "I", an English verb
		// after it in a text no other Latin-script language's words
		// tell ("I wish to book a cab"; Italian's article takes a noun:
		// "I rilasci avvengono"). "Phase I", "World War I": a numeral
		// after a capitalized word; after an adverb, a conjunction or a
		// greeting ("Sometimes I …", "Hi I …") it is the pronoun, and
		// before what no numeral's noun phrase takes (englishOnlyAfterI:
		// "Great I also need …", "Sure I want to go …").
		if w == "I" && prev != "" && capitalized(prev) && !englishAdverb(prev) && !englishOnlyAfterI(text, end) {
			return false, true
		}
		return english(text) || w == "I" && englishVerbAfterI(text, end), true
	}
	if lw == "im" {
		// "Im" typed without its apostrophe before a verb's -ing or a
		// negation ("Im looking for a movie"); German's "im" (in the)
		// takes a noun or an adjective.
		next := nextWord(text, end)
		return english(text) && (next == "not" || englishBetweenIAndVerb()[next] || len(next) > 4 && strings.HasSuffix(next, "ing")), true
	}
	return false, false
}

// englishAfterI reports w (lower case) as what follows the pronoun "i" in
// English: a finite auxiliary or modal but the third person's ("i is" is
// a variable: "the index i is reset"), a verb of WordNet's, one of the
// adverbs that come between them ("i just want"), or a negation.
func englishAfterI(w string) bool {
	if w == "is" || w == "has" || w == "does" {
		return false
	}
	return englishFinite()[w] || wordnetVerbs()[w] || englishBetweenIAndVerb()[w] ||
		strings.HasSuffix(w, "n't") || strings.HasSuffix(w, "n’t") || englishPast(w)
}

// englishVerbAfterI reports the capital "I" ending at text[end] as the
// English pronoun in a text english does not tell: a negated auxiliary
// after it ("I couldn't …"), or a verb and then an English word ("I wish
// to …", "I found an …"), where Italian's article "I" takes a noun and
// then its verb ("I test passano", "I log vengono ruotati"), in a text
// no other Latin-script language's words tell.
func englishVerbAfterI(text string, end int) bool {
	next, i := nextWordAt(text, end)
	if !englishAfterI(next) || otherLatin(strings.ToLower(text), "English") {
		return false
	}
	if strings.HasSuffix(next, "n't") || strings.HasSuffix(next, "n’t") {
		return true
	}
	third := nextWord(text, i)
	return englishWords()[third] || englishAfterVerb()[third]
}

// englishOnlyAfterI reports the capital "I" ending at text[end] as the
// pronoun whatever word stands before it: "am" after it, an adverb that
// comes between a subject and its verb and then a verb ("I also need"),
// or a verb's bare form and then "to", a determiner or an object pronoun
// ("I want to go", "I need a taxi"). After a numeral ("Phase I", "World
// War I") a singular noun phrase takes the third singular or a past
// ("World War I ended"), and a noun after it is no verb's object ("Phase
// I test plan").
func englishOnlyAfterI(text string, end int) bool {
	next, i := nextWordAt(text, end)
	if next == "am" {
		return true
	}
	if englishBetweenIAndVerb()[next] {
		v := nextWord(text, i)
		return v == "am" || (wordnetVerbs()[v] || englishFinite()[v]) && !englishNumeralVerb[v] && !strings.HasSuffix(v, "s") && !englishPast(v)
	}
	if !wordnetVerbs()[next] || englishFinite()[next] || englishPast(next) || hasSuffixAny(next, "s", "ing") {
		return false
	}
	after := nextWord(text, i)
	return after == "to" || englishDeterminer()[after] || englishObjectPronoun()[after]
}

// englishNumeralVerb are the finite forms a numeral's noun phrase takes
// as well as "I" ("World War I also was …").
var englishNumeralVerb = map[string]bool{"was": true, "were": true, "had": true, "did": true, "will": true, "would": true, "can": true, "could": true, "shall": true, "should": true, "may": true, "might": true, "must": true}

// englishAfterVerb are words English puts after a verb that the
// languages english tells it from do not write.
var englishAfterVerb = sync.OnceValue(set("to", "an", "up", "out", "off", "on", "something", "someone", "somewhere", "anything", "anyone"))

// englishPast reports a regular past in -ed, spelt right or not
// ("transfered"), as a verb after "i".
func englishPast(w string) bool {
	return len(w) > 4 && strings.HasSuffix(w, "ed") && !strings.HasSuffix(w, "eed")
}

var englishBetweenIAndVerb = sync.OnceValue(set("just", "really", "also", "never", "always", "still", "only", "already", "actually", "definitely", "probably", "usually", "often", "sometimes", "recently",
	// and what a chat types without its apostrophe
	"wanna", "gonna", "gotta", "dont", "cant", "didnt", "wont", "wasnt", "havent", "couldnt", "wouldnt", "shouldnt"))

// nextWord is the word of text after the offset end when only spaces
// stand between, in lower case; "" when none.
func nextWord(text string, end int) string {
	w, _ := nextWordAt(text, end)
	return w
}

// nextWordAt is nextWord and the offset in text where that word ends
// (end when there is none): measured in text, since lower case may
// change a letter's length in bytes (Ⱥ, ⱥ).
func nextWordAt(text string, end int) (string, int) {
	rest := strings.TrimLeft(text[end:], " ")
	if len(rest) == len(text[end:]) {
		return "", end
	}
	for start, e := range wordSpans(rest) {
		if start != 0 {
			return "", end
		}
		return strings.ToLower(rest[:e]), len(text) - len(rest) + e
	}
	return "", end
}

// englishAdverb reports an adverb or a conjunction before an English
// "I" ("Sometimes I …"), where after a noun it is a numeral.
func englishAdverb(w string) bool {
	w = strings.ToLower(w)
	return englishBeforeI()[w] || strings.HasSuffix(w, "ly") && len(w) > 4
}

var englishBeforeI = sync.OnceValue(set("sometimes", "today", "yesterday", "tomorrow", "now", "then", "so", "but", "and", "if", "when", "because", "also", "often", "once", "here", "there", "still", "maybe", "perhaps", "honestly", "again", "lately", "since", "after", "before", "while", "though", "although", "yes", "no", "well", "oh", "hey", "hi", "hello", "ok", "okay", "yeah", "please"))

// english reports whether text holds one of the English words no other
// language of the lists spells the same: what tells the English "I" and
// "we" from Italian's article and Polish's preposition.
func english(text string) bool { return holdsWords(strings.ToLower(text), englishWords(), 1) }

var englishWords = sync.OnceValue(set(
	"the", "and", "of", "am", "is", "are", "be", "been", "was", "were", "does", "did", "don't", "have", "has", "had", "it", "its", "that", "this", "these", "those",
	"with", "from", "for", "into", "about", "after", "before", "because", "than", "then", "but", "not", "what", "which", "who", "when", "where", "why", "how", "if",
	"my", "our", "your", "you", "they", "them", "their", "he", "she", "his", "her", "here", "there", "some", "any", "every", "each", "other", "many", "much",
	"can", "will", "would", "could", "should", "want", "know", "think", "need", "like", "live", "love", "work", "get", "got", "see", "saw", "make", "made", "just", "really", "very", "also", "only", "now"))

// french, polish and czech tell a word two languages of the lists spell
// the same apart: French's articles and pronouns, which Portuguese and
// German lack; the letters only Polish or only Czech writes.
func french(lower string) bool { return holdsWords(lower, frenchWords(), 1) }

var frenchWords = sync.OnceValue(set("le", "les", "des", "et", "est", "une", "dans", "pour", "avec", "sur", "au", "aux", "il", "elle", "ils", "ce", "cette", "pas", "ne", "qui"))

// frenchHad are the forms of avoir before its participle "eu".
var frenchHad = sync.OnceValue(set("a", "ai", "as", "ont", "avons", "avez", "avait", "avaient", "avais", "aurait", "auraient", "aura", "auront", "avoir", "ayant"))

func polish(text string) bool { return strings.ContainsAny(text, "ąęłśźżńćĄĘŁŚŹŻŃĆ") }

func czech(text string) bool { return strings.ContainsAny(text, "ěřůĚŘŮ") }

// wordRune is a rune of a word: a letter, a mark or an apostrophe.
func wordRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsMark(r) || r == '\'' || r == '’'
}

// wordSpans yields the byte offsets of each word (a run of wordRune) of
// text, in order.
func wordSpans(text string) iter.Seq2[int, int] {
	return func(yield func(int, int) bool) {
		for i := 0; i < len(text); {
			r, n := utf8.DecodeRuneInString(text[i:])
			if !wordRune(r) {
				i += n
				continue
			}
			start := i
			for i < len(text) {
				if r, n = utf8.DecodeRuneInString(text[i:]); !wordRune(r) {
					break
				}
				i += n
			}
			if !yield(start, i) {
				return
			}
		}
	}
}

func capitalized(w string) bool {
	r, _ := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r)
}

// inIdentifier reports whether text[start:end] is part of a path, a
// name or a number (my.cnf, io.Reader, us-east-1, /etc/my, we_2): joined
// to its neighbours by a dot, slash, dash, underscore or digit.
func inIdentifier(text string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:start])
	after, _ := utf8.DecodeRuneInString(text[end:])
	if strings.ContainsRune("/\\_@$#", before) || strings.ContainsRune("/\\_@(", after) || unicode.IsDigit(before) || unicode.IsDigit(after) {
		return true
	}
	if strings.ContainsRune(".-", before) {
		b2, _ := utf8.DecodeLastRuneInString(text[:start-1])
		if unicode.IsLetter(b2) || unicode.IsDigit(b2) {
			return true
		}
	}
	if strings.ContainsRune(".-:", after) {
		a2, _ := utf8.DecodeRuneInString(text[end+1:])
		if unicode.IsLetter(a2) || unicode.IsDigit(a2) {
			return true
		}
	}
	return false
}

// joined is a pronoun of a script written without spaces between words
// (Chinese, Japanese, Thai), with the longer words that hold it without
// meaning it (自我 "self", 私立 "private", ทรงผม "hairstyle").
type joined struct {
	word   string
	except []string
}

// joinedWord reports whether p.word stands in s outside every one of
// p.except.
func joinedWord(s string, p joined) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], p.word)
		if i < 0 {
			return false
		}
		i += off
		// A combining mark after it makes another syllable (Thai กู้,
		// "recover", is not กู).
		next, _ := utf8.DecodeRuneInString(s[i+len(p.word):])
		inside := unicode.IsMark(next)
		for _, e := range p.except {
			// e holds the pronoun at some offset k; e starting at i-k
			// means this occurrence is inside e.
			for k := strings.Index(e, p.word); k >= 0 && !inside; {
				if i-k >= 0 && strings.HasPrefix(s[i-k:], e) {
					inside = true
				}
				next := strings.Index(e[k+1:], p.word)
				if next < 0 {
					break
				}
				k += 1 + next
			}
		}
		if !inside {
			return true
		}
		off = i + len(p.word)
	}
}

// firstPersonWords speak as someone wherever they stand as a word.
var firstPersonWords = sync.OnceValue(set(
	// English ("I" is decided by case: see speaker)
	"i'm", "i've", "i'll", "i'd", "me", "my", "myself", "we", "we're", "we've", "we'll", "we'd", "us", "our", "ours", "ourselves",
	// German, Dutch, Swedish, Norwegian, Danish
	"ich", "mich", "mir", "mein", "meine", "meinen", "meinem", "meiner", "meines", "wir", "uns", "unser", "unsere", "unseren", "unserem", "unserer", "unseres",
	"ik", "mij", "mijn", "wij", "ons", "onze", "jag", "jeg", "mig", "mitt", "mina", "oss", "vår", "vårt", "våra", "vores",
	// French, Spanish, Italian, Portuguese, Romanian
	"je", "moi", "nous", "notre", "nós", "yo", "mi", "mis", "mío", "mía", "míos", "mías", "conmigo", "nosotros", "nosotras", "nuestro", "nuestra", "nuestros", "nuestras",
	"io", "mio", "mia", "miei", "mie", "noi", "nostro", "nostra", "nostri", "nostre", "eu", "mim", "meu", "minha", "meus", "minhas", "comigo", "nosso", "nossa", "nossos", "nossas",
	// the modals in the first person, where the subject is dropped
	// ("Come posso …", "Quiero que …")
	"posso", "devo", "voglio", "potrei", "dovrei", "vorrei", "puedo", "debo", "quiero", "quisiera", "necesito", "quero",
	"mea", "nouă", "nostru", "noastră",
	// Polish, Czech, Russian, Ukrainian, Bulgarian
	"mnie", "mną", "mój", "moja", "moje", "moich", "mojego", "nasz", "nasza", "nasze", "naszych", "naszego", "já", "mě", "můj", "nás", "náš", "naše",
	"я", "меня", "мне", "мной", "мой", "моя", "моё", "мое", "мои", "моего", "моей", "моих", "мы", "нас", "нам", "нами", "наш", "наша", "наше", "наши", "нашего", "нашей", "наших",
	"мене", "мені", "мною", "мій", "моє", "мої", "ми", "наші", "аз",
	// Greek, Turkish, Hungarian, Finnish
	"εγώ", "μου", "εμένα", "εμείς", "μας", "beni", "bana", "benim", "bende", "benden", "biz", "bize", "bizi", "bizim", "én", "engem", "nekem", "enyém", "minket", "nekünk", "miénk",
	"minä", "minun", "minua", "minulle", "meidän", "meitä", "meille",
	// Hebrew, Arabic, Persian, Urdu
	"אני", "אנחנו", "אנו", "שלי", "שלנו", "לי", "לנו", "אותי", "אותנו",
	"أنا", "انا", "نحن", "لي", "لنا", "إنني", "انني", "أنني", "لأنني", "لانني", "لكنني", "عندي", "عندنا", "معي", "معنا", "إني", "اني",
	"مرا", "مجھے", "میرا", "میری", "میرے", "ہم", "ہمارا", "ہماری", "ہمارے", "ہمیں",
	// Hindi, Marathi, Bengali, Tamil, Telugu
	"मैं", "मैंने", "मुझे", "मुझसे", "मुझको", "मेरा", "मेरी", "मेरे", "हम", "हमें", "हमने", "हमारा", "हमारी", "हमारे", "हमको", "मी", "माझा", "माझी", "माझे", "आम्ही", "आमचा", "आमची",
	"আমি", "আমার", "আমাকে", "আমায়", "আমরা", "আমাদের", "நான்", "என்", "எனது", "என்னை", "எனக்கு", "நாம்", "நாங்கள்", "எங்கள்", "நமது",
	"నేను", "నా", "నాకు", "మేము", "మా", "మనం",
	// Vietnamese, Indonesian/Malay, Javanese, Tagalog
	"tôi", "tớ", "mình", "aku", "saya", "kami", "kita", "daku", "kula", "ingsun", "ako", "akin", "namin", "natin", "amin", "atin", "tayo",
	// Swahili, Zulu, Albanian, Irish, Scottish Gaelic
	"mimi", "sisi", "nami", "nasi", "yangu", "wangu", "langu", "changu", "kwangu", "zangu", "vyangu", "letu", "wetu", "yetu", "zetu", "chetu", "kwetu",
	"mina", "thina", "wami", "yami", "lami", "bami", "zami", "kwami", "wethu", "yethu", "lethu", "sethu", "kwethu",
	"unë", "mua", "ime", "imi", "neve", "ynë", "jonë", "tonë", "tanë",
	"mé", "sinn", "sinne", "muid", "agam", "liom", "uaim", "dhomh", "leam", "bhuam", "agamsa",
))

// firstPersonLower speak as someone only in lower case: capitalized they
// are as often a name ("Ben", "Meg", "Mei", "Mon" for Monday).
var firstPersonLower = sync.OnceValue(set("ben", "mon", "meg", "mei"))

// firstPersonPrefixes open a Korean word that speaks as someone, with its
// particle joined (나는, 제가, 우리의, 저희는).
var firstPersonPrefixes = []string{"내가", "나를", "나의", "나도", "나한테", "나에게", "저는", "제가", "저를", "저의", "저도", "저한테", "저에게", "우리", "저희"}

// firstPersonJoined speak as someone inside a run of Chinese, Japanese or
// Thai, unless a longer word holds them.
var firstPersonJoined = []joined{
	{"我", []string{"自我", "本我", "忘我", "唯我", "无我", "無我"}},
	{"咱们", nil}, {"咱們", nil},
	{"私", []string{"私立", "私有", "私鉄", "私用", "私的", "公私", "私物", "私服", "私学", "私設", "私人", "私营", "私營", "隐私", "隱私", "走私", "自私", "私信", "私钥", "私鑰", "私密", "私下"}},
	{"僕", []string{"公僕", "下僕", "僕人"}},
	{"俺", nil}, {"わたし", nil}, {"わたくし", nil}, {"ぼく", nil}, {"あたし", nil}, {"我々", nil}, {"われわれ", nil},
	{"ฉัน", []string{"ฉันท์"}}, {"ดิฉัน", nil}, {"ข้าพเจ้า", nil}, {"กู", []string{"กูเกิล"}},
	{"ผม", []string{"ทรงผม", "เส้นผม", "ผมยาว", "ผมสั้น", "ผมร่วง", "สระผม", "ตัดผม", "ย้อมผม", "ผมหงอก"}},
	{"เรา", []string{"เราเตอร์", "เราท์", "เบราว์"}},
}
