package rules

import (
	"encoding/hex"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/secrets"
)

// The grammar of an order or a question, for Instruction: where the word
// lists of instruction.go name the verbs a sentence opens with, these
// rules read the mood and the person of the sentence from its form. Each
// language marks them in a closed class of forms (interrogative words and
// particles, the endings of the imperative and of the second person, the
// modal verbs in the second person), so the forms are listed rather than
// the phrases a payload happens to use. Where a form is also a common
// word of a statement, the rule asks for the place the grammar gives it
// (a clause's first or last word, a determiner after the verb, a capital
// mid-sentence) or leaves the form out (docs/security.md).

// asked returns the word that makes one clause of s (lower case) a
// question put to the reader without a question mark, or "": a 270-byte
// cut or a colon ("What is the output of this code: …") leaves many a
// question without one. The clause's opening is read first, then the
// forms that ask wherever they stand, in this order.
func asked(s string) string {
	for _, c := range clauses(s) {
		if w := askedOpening(c); w != "" {
			return w
		}
	}
	for _, form := range []func(string) string{japanesePoliteAsked, romanceWhichIs, askWordIn, askedJoined, russianLi, greekQuestionMark, germanAsked, italianAsked, englishAsked, dutchAsked} {
		if w := form(s); w != "" {
			return w
		}
	}
	return ""
}

// askedOpening returns what opens clause c as a question, or ends it as
// one: its first word, a phrase, a final particle or ending.
func askedOpening(c string) string {
	first, rest := firstWord(c)
	first = strings.TrimRight(first, ":：")
	if first == "" {
		return ""
	}
	if w := askedFirstWord(first, rest, c); w != "" {
		return w
	}
	for _, p := range askOpenerPhrases {
		if strings.HasPrefix(c, p) {
			return p
		}
	}
	// A sentence-final particle or ending of a question: Japanese
	// ですか, Korean 입니까, Chinese 吗.
	end := strings.TrimRight(c, " \t\"'”」』)")
	for _, e := range askEndings {
		if strings.HasSuffix(end, e.end) && (e.script == nil || scriptBefore(end, len(end)-len(e.end), e.script)) {
			return e.end
		}
	}
	return ""
}

// askPairs are the openers that ask only with the right word after them:
// English and German an interrogative and the verb straight after it
// ("what is", "wie kann": "when the build fails, …" and "wie
// besprochen" are statements), a finite verb and its subject ("is the",
// "can you", "ist das", "gibt es"), Italian "chi" before the copula
// ("who is"; after a preposition it is "whoever": "di chi era").
var askPairs = []struct{ first, next func() map[string]bool }{
	{askWithVerb, askVerbs},
	{askVerbFirst, askSubjects},
	{sync.OnceValue(set("chi")), romanceCopula},
}

// askedFirstWord returns the first word of clause c (rest follows it)
// when it opens a question, with the word after it where that decides.
func askedFirstWord(first, rest, c string) string {
	next, _ := firstWord(rest)
	// Swahili opens a question with "je,"; French "je" is "I".
	if first == "je" && strings.HasPrefix(rest, ",") {
		return first
	}
	if askOpeners()[first] && !askerRelative(next) {
		return first
	}
	for _, p := range askPairs {
		if p.first()[first] && p.next()[next] {
			return first + " " + next
		}
	}
	// Italian "perché" is "why" and "because"; a clause of
	// reason needs its main clause, after a comma.
	if first == "perché" && !strings.ContainsAny(c, ",，") {
		return first
	}
	// French asks with est-ce que and qu'est-ce que.
	if (first == "est" || first == "qu'est" || first == "qu’est") && strings.HasPrefix(rest, "-ce") {
		return first + "-ce"
	}
	return ""
}

// askerRelative reports the word after an interrogative that makes it
// no question: "что касается" (as for), "что бы … ни" (whatever), "quel
// que soit" (whatever).
func askerRelative(next string) bool {
	return next == "касается" || next == "бы" || next == "que" || strings.HasPrefix(next, "qu'")
}

// japanesePoliteAsked returns the polite ending in か that ends a
// Japanese question, before a comma too ("首都は何ですか、この記事…").
func japanesePoliteAsked(s string) string {
	for _, e := range []string{"ですか", "ますか", "でしょうか", "ませんか"} {
		for off := 0; ; {
			i := strings.Index(s[off:], e)
			if i < 0 {
				break
			}
			off += i + len(e)
			if r, _ := utf8.DecodeRuneInString(s[off:]); !unicode.IsLetter(r) {
				return e
			}
		}
	}
	return ""
}

// romanceWhichIs returns an interrogative and the copula with no article
// before them, which ask wherever they stand ("…, qual è il processo");
// with one they are a relative clause ("il quale è").
func romanceWhichIs(s string) string {
	ws := words(s)
	for i := 0; i+1 < len(ws); i++ {
		if romanceWhich()[ws[i]] && romanceCopula()[ws[i+1]] && (i == 0 || !romanceArticles()[ws[i-1]]) {
			return ws[i] + " " + ws[i+1]
		}
	}
	return ""
}

// askWordIn returns an interrogative word or particle of askWords in a
// sentence of s.
func askWordIn(s string) string {
	for _, c := range sentences(s) {
		for _, w := range words(c) {
			// After कि (that) a Hindi interrogative is an embedded
			// question: "स्पष्ट नहीं है कि किसने …".
			if w == "कि" {
				break
			}
			// Arabic joins its conjunctions to the particle (فهل, وهل).
			if askWords()[w] || askWords()[arabicStem(w)] {
				return w
			}
		}
	}
	return ""
}

// russianLi returns a sentence's first word and ли after it: Russian asks
// yes or no so ("есть ли", "знаете ли"); after a comma it is "whether",
// and "вряд ли" is "hardly".
func russianLi(s string) string {
	for _, c := range sentences(s) {
		if ws := words(c); len(ws) > 1 && ws[1] == "ли" && ws[0] != "вряд" {
			return ws[0] + " ли"
		}
	}
	return ""
}

// greekQuestionMark returns ";" after a Greek word: Greek writes its
// question mark so.
func greekQuestionMark(s string) string {
	for i := strings.IndexAny(s, ";;"); i >= 0; {
		if scriptBefore(s, i, unicode.Greek) {
			return ";"
		}
		j := strings.IndexAny(s[i+1:], ";;")
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return ""
}

// ordered returns the form that makes a clause of text an order or
// addresses the reader by its grammar, or "": text is as written (German
// capitals count), lower is its lower case.
func ordered(text, lower string) string {
	for _, c := range clauses(lower) {
		if w := orderOpening(c); w != "" {
			return w
		}
	}
	for _, form := range []func(string) string{verbFinalOrder, suffixedOrder, russianOrder, arabicOrder, japaneseTask} {
		if w := form(lower); w != "" {
			return w
		}
	}
	return germanPoliteAddress(text)
}

// orderOpening returns the verb that opens clause c in the imperative
// plural of Russian, Ukrainian or French, or "".
func orderOpening(c string) string {
	first, rest := firstWord(c)
	// Russian and Ukrainian: a clause that opens with a verb in the
	// imperative plural ("напишите", "дайте", "напишіть").
	if hasSuffixAny(first, "ите", "йте", "іть") && len([]rune(first)) > 4 && scriptBefore(first, len(first), unicode.Cyrillic) {
		return first
	}
	// French: the imperative plural is the one form in -ez without
	// "vous" before it; its object follows ("Rédigez un e-mail").
	if strings.HasSuffix(first, "ez") && len(first) > 4 && first != "assez" {
		if next, _ := firstWord(rest); frenchDeterminers()[next] || strings.HasPrefix(rest, "l'") || strings.HasPrefix(rest, "l’") {
			return first
		}
	}
	return ""
}

// verbFinalOrder returns the imperative ending a clause of lower in
// Hindi, Turkish, Bengali or Korean, where the verb ends the sentence:
// before the sentence's end, or, in Hindi, before और or कि joining the
// next clause ("अनदेखा करें और कहें"). Before a comma or a bracket the
// same ending is a noun's. clauseFinalOrder takes "" as no word.
func verbFinalOrder(lower string) string {
	prevWord := ""
	for i := 0; i <= len(lower); {
		if i == len(lower) {
			return clauseFinalOrder(prevWord, lower, false)
		}
		r, n := utf8.DecodeRuneInString(lower[i:])
		if !wordRune(r) {
			if strings.ContainsRune(".!?;:。！？：\u0964\n", r) {
				if w := clauseFinalOrder(prevWord, lower, false); w != "" {
					return w
				}
			}
			if r != ' ' && r != '\t' {
				prevWord = ""
			}
			i += n
			continue
		}
		start := i
		i = wordEnd(lower, i)
		w := lower[start:i]
		if w == "कि" {
			// What follows कि (that) is a subordinate clause, its -ें a
			// subjunctive ("… कहा कि वे उपयोग करें").
			if o := clauseFinalOrder(prevWord, lower, true); o != "" {
				return o
			}
			i, prevWord = subordinateEnd(lower, i), ""
			continue
		}
		if hindiJoiners()[w] {
			if o := clauseFinalOrder(prevWord, lower, true); o != "" {
				return o
			}
		}
		prevWord = w
	}
	return ""
}

// wordEnd returns the offset after the word of s that starts at i.
func wordEnd(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !wordRune(r) {
			break
		}
		i += n
	}
	return i
}

// subordinateEnd returns the offset of the end of the sentence in s from
// i on: the end of the clause after कि.
func subordinateEnd(s string, i int) int {
	for i < len(s) && !strings.ContainsRune(".!?;。！？\u0964\n", rune(s[i])) {
		_, n := utf8.DecodeRuneInString(s[i:])
		if strings.HasPrefix(s[i:], "।") {
			break
		}
		i += n
	}
	return i
}

// suffixedOrder returns a word of lower whose ending is an order or the
// second person wherever it stands, or "".
func suffixedOrder(lower string) string {
	for _, w := range words(lower) {
		if imperativeSuffixed(w, lower) {
			return w
		}
		if hasSuffixAny(w, "ешь", "ёшь", "ишь") && w != "лишь" && len([]rune(w)) > 3 {
			return w // Russian second person singular: можешь, пишешь
		}
		if strings.HasPrefix(w, "paki") && len(w) > 6 && !tellingSigns().writes(w) {
			return w // Tagalog "please …": pakisulat; not a covered language's frequent word ("Pakistan", "Pakistani", which English's treebanks write often)
		}
	}
	return ""
}

// germanPoliteAddress returns a mid-sentence "Sie", "Ihnen" or "Ihr…" in
// text, or "": German writes the polite "you" with a capital, so they
// address the reader ("wenn Sie mir Ihr Passwort …").
func germanPoliteAddress(text string) string {
	prev, last := '.', 0 // the last mark before the word, or 'a' for a word
	for start, end := range wordSpans(text) {
		if gap := strings.TrimRightFunc(text[last:start], unicode.IsSpace); gap != "" {
			prev, _ = utf8.DecodeLastRuneInString(gap)
		}
		if w := text[start:end]; germanPolite()[w] && !strings.ContainsRune(".!?:;\"'“„«", prev) {
			return w
		}
		prev, last = 'a', end
	}
	return ""
}

// clauseFinalOrder judges the last word of a clause in the verb-final
// languages.
func clauseFinalOrder(w, lower string, joined bool) string {
	n := utf8.RuneCountInString(w)
	switch {
	case w == "":
		return ""
	case scriptBefore(w, len(w), unicode.Devanagari):
		// Hindi: the polite imperative (लिखें, बनाएं, लिखिए, बताइए) and,
		// ending a sentence, the familiar one (लिखो, बताओ). Not: में (in),
		// the participles in -िए (लिए, इसलिए, दिए, किए), चाहिए (should).
		if hindiNotOrder()[w] || strings.HasSuffix(w, "लिए") || n < 3 {
			return ""
		}
		if hasSuffixAny(w, "ें", "एं", "ाएँ") || !joined && hasSuffixAny(w, "िए", "इए", "िये", "इये", "ो", "ओ") {
			return w
		}
	case joined:
		return ""
	case scriptBefore(w, len(w), unicode.Bengali):
		// Bengali: the familiar imperative of its light verbs (do, give,
		// be, take, go) ending the sentence, where a statement ends in
		// their present or past (করে, দিল).
		if bengaliLightOrder()[w] {
			return w
		}
	case scriptBefore(w, len(w), unicode.Hangul):
		// Korean: the request and imperative endings (하세요, 하십시오,
		// 써라, 해줘); the statement ends in -다 or -요.
		if hasSuffixAny(w, "세요", "십시오", "시오", "라", "줘") && n > 1 || strings.HasSuffix(w, "봐") {
			return w
		}
	case turkish(lower):
		// Turkish: the imperative plural (yazın, verin, gönderin); a
		// statement ends in its tense (yapıyor, yazdı, -dır).
		if hasSuffixAny(w, "ın", "in", "un", "ün") && n > 4 && !turkishNotOrder()[w] {
			return w
		}
	}
	return ""
}

// imperativeSuffixed reports a word whose ending is an order or the
// second person wherever it stands.
func imperativeSuffixed(w, lower string) bool {
	n := utf8.RuneCountInString(w)
	switch {
	case scriptBefore(w, len(w), unicode.Bengali):
		// Bengali's polite imperative (করুন, বলুন, লিখুন); নতুন is "new".
		return strings.HasSuffix(w, "ুন") && !bengaliNotOrder()[w]
	case scriptBefore(w, len(w), unicode.Greek):
		// Greek's second person plural, imperative or not (αγνοήστε,
		// γράψτε, είστε); είτε is "either".
		return hasSuffixAny(w, "στε", "ετε", "ατε", "ήστε") && n > 3 && w != "είτε"
	case turkish(lower):
		// Turkish: the second person plural of a verb (erişebilirsiniz,
		// başlarsınız) and of a verbal noun (paylaşmanız: that you
		// share), and the optative plural, "let us" (varsayalım, edelim).
		return hasSuffixAny(w, "sınız", "siniz", "sunuz", "sünüz", "manız", "meniz", "alım", "elim") && n > 5
	}
	return false
}

// encodedOrder returns what a run of base64, hex or binary octets in text
// decodes to when that is instruction-shaped: a model reads the encoding
// as easily as the words (spec §8's base64-blob rule takes only long runs).
func encodedOrder(text string) (rule, decoded string) {
	try := func(dec string) bool {
		if strings.IndexByte(dec, ' ') < 0 {
			return false
		}
		rule, _ = instruction(dec, false)
		decoded = dec
		return rule != ""
	}
	found := false
	secrets.Base64Runs(text, 20, func(i, j int) {
		if dec, ok := secrets.DecodeBase64(text[i:j]); !found && ok {
			found = try(dec)
		}
	})
	if found {
		return rule, decoded
	}
	for _, dec := range byteRuns(text) {
		if try(dec) {
			return rule, decoded
		}
	}
	return "", ""
}

// byteRuns decodes the runs of hex (joined, or a byte at a time with
// spaces between: "57 68 61 74") and of binary octets ("01001001
// 01100111") in text that give printable text of 8 bytes or more.
func byteRuns(text string) []string {
	var out []string
	var buf []byte
	flush := func() {
		if len(buf) >= 8 && utf8.Valid(buf) && printableText(buf) {
			out = append(out, string(buf))
		}
		buf = buf[:0]
	}
	for _, tok := range strings.Fields(text) {
		tok = strings.Trim(tok, "'\"`.,;:()[]")
		switch {
		case len(tok) == 8 && strings.Trim(tok, "01") == "":
			var b byte
			for _, c := range tok {
				b = b<<1 | byte(c-'0')
			}
			buf = append(buf, b)
		default:
			dec, err := hex.DecodeString(tok)
			if err != nil || len(tok) == 0 {
				flush()
				continue
			}
			buf = append(buf, dec...)
		}
	}
	flush()
	return out
}

// printableText reports bytes that are text a model reads: printable
// runes, at least one letter.
func printableText(b []byte) bool {
	letter := false
	for _, r := range string(b) {
		if !unicode.IsPrint(r) {
			return false
		}
		letter = letter || unicode.IsLetter(r)
	}
	return letter
}

// scriptTag returns a tag named in letters of a script other than Latin
// ("<código>", "<код>", "<وضع النظام>"): markup a model reads as
// structure, which injection-html (ASCII names, as HTML has them) leaves.
func scriptTag(s string) string {
	for i := strings.IndexByte(s, '<'); i >= 0; {
		rest := s[i+1:]
		end := strings.IndexByte(rest, '>')
		if end > 0 && end <= 60 {
			name := strings.TrimPrefix(rest[:end], "/")
			r, _ := utf8.DecodeRuneInString(name)
			ok := unicode.IsLetter(r) && strings.IndexFunc(name, func(r rune) bool { return r >= utf8.RuneSelf }) >= 0
			for _, r := range name {
				if !unicode.IsLetter(r) && !unicode.IsMark(r) && r != ' ' && r != '_' && r != '-' {
					ok = false
				}
			}
			if ok {
				return "<" + rest[:end] + ">"
			}
		}
		j := strings.IndexByte(rest, '<')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return ""
}

// clauses splits s where a sentence, a list item or a colon's clause
// starts.
func clauses(s string) []string {
	return splitTrimmed(s, ".!;:\n。！；：｡!\u0964", " \t0123456789")
}

// scriptBefore reports whether the rune of s that ends at i is a letter
// of script.
func scriptBefore(s string, i int, script *unicode.RangeTable) bool {
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if unicode.IsMark(r) {
			i -= n
			continue
		}
		return unicode.Is(script, r)
	}
	return false
}

func hasSuffixAny(w string, suffixes ...string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(w, s) {
			return true
		}
	}
	return false
}

// turkish reports text with a letter only Turkish (and Azerbaijani)
// writes: what keeps its endings off "written in Kotlin".
func turkish(lower string) bool { return strings.ContainsAny(lower, "ığ") }

// tagalog reports text with Tagalog's case markers as words.
func tagalog(lower string) bool { return holdsWords(lower, tagalogMarkers(), 1) }

var tagalogMarkers = sync.OnceValue(set("ng", "mga"))

// askOpeners open a question wherever they open a clause: interrogatives
// no statement starts with. Spanish marks its interrogatives with an
// accent (qué, dónde) that the relative words lack; "come", "quando",
// "perché", "comment", "как" and "когда" also open statements and are
// left out. Italian elides "dove" and "cosa" before "è" into one word.
var askOpeners = sync.OnceValue(set(
	"qué", "cuál", "cuáles", "dónde", "cuándo", "cómo", "quién", "quiénes", "cuánto", "cuánta", "cuántos", "cuántas",
	"qual", "quais", "quale", "quali", "onde", "quem", "dove", "cosa", "dov'è", "dov’è", "cos'è", "cos’è",
	"quel", "quelle", "quels", "quelles", "où", "pourquoi", "combien",
	"какой", "какая", "какое", "какие", "каков", "какова", "каково", "каковы", "какого", "какому", "каким", "каком", "какую", "каких", "какими", "чей", "чья", "чьё", "чьи", "где", "куда", "откуда", "почему", "зачем", "кто", "сколько", "что",
	"який", "яка", "яке", "які", "якого", "якому", "яким", "якій", "яку", "яких", "якими", "якої", "чому", "хто", "скільки", "чи",
	"nasıl", "nerede", "neden", "niçin", "hangi",
	"ماذا", "لماذا", "كيف", "أين", "متى", "آیا", "چرا", "کجا", "چگونه", "چطور",
	"apakah", "siapa", "bagaimana", "mengapa", "kenapa", "berapa", "seberapa", "kapan",
	"ano", "sino", "saan", "kailan", "bakit", "paano", "alin", "magkano",
	"πώς", "τι", "πού", "ποιος", "ποια", "ποιο", "ποιοι", "ποιες", "ποιον", "πότε", "πόσο", "πόσα", "πόσοι",
	"האם", "איפה", "מתי", "למה", "איך",
	"왜", "무엇", "뭐", "어디", "언제", "누구", "어떻게",
))

// askOpenerPhrases are interrogatives of two words.
var askOpenerPhrases = []string{"por qué", "por que", "ما هي", "ما هو", "من هو", "من هي", "di mana", "kwa nini"}

// askWithVerb ask when the verb follows them at once.
var askWithVerb = sync.OnceValue(set("what", "which", "who", "whom", "whose", "why", "where", "when", "how",
	"was", "wer", "wo", "wann", "warum", "wieso", "weshalb", "wie", "welche", "welcher", "welches", "welchen"))

// askVerbs are the auxiliaries and modals a question puts after its
// interrogative (or first).
var askVerbs = sync.OnceValue(set("is", "are", "was", "were", "do", "does", "did", "can", "could", "should", "would", "will", "has", "have", "had", "may", "might", "must", "shall",
	"isn't", "aren't", "wasn't", "weren't", "don't", "doesn't", "didn't", "can't", "cant", "cannot", "couldn't", "shouldn't", "wouldn't", "won't", "hasn't", "haven't", "dont", "doesnt", "isnt", "wont",
	"ist", "sind", "war", "waren", "kann", "können", "kannst", "könnte", "könnten", "soll", "sollte", "sollten", "muss", "müssen", "hat", "haben", "hast", "hatte", "wird", "werden", "würde", "würden", "gibt", "macht", "heißt", "bedeutet"))

// askVerbFirst open a yes-or-no question: a statement in English or German
// does not open with its finite verb ("should", "were", "had" open a
// condition and are left out).
var askVerbFirst = sync.OnceValue(set("is", "are", "does", "did", "can", "could", "would", "has",
	"ist", "sind", "kann", "können", "kannst", "hast", "gibt", "wird", "werden", "soll", "sollte", "muss", "darf"))

// askSubjects open the subject a question puts after its verb: a
// determiner or a pronoun ("is the", "can you", "gibt es"). Irish and
// Gaelic open statements with their copula "is" and a predicate.
var askSubjects = sync.OnceValue(set("the", "a", "an", "this", "that", "these", "those", "there", "it", "he", "she", "they", "we", "you", "i", "my", "your", "our", "their", "his", "her", "its", "any", "some", "every", "all", "each",
	"der", "die", "das", "den", "dem", "es", "er", "sie", "ich", "du", "wir", "ihr", "man", "ein", "eine", "einen", "dein", "deine", "mein", "meine", "unser", "unsere", "euer", "dies", "diese", "dieser", "dieses"))

// askWords make a question wherever they stand: Hindi's interrogatives
// (its k-words; the relatives are j-words: जो, जब, जहाँ), Bengali's, the
// Arabic question particle, the Russian one, the Turkish particle in the
// forms only it writes, Swahili's interrogatives.
var askWords = sync.OnceValue(set(
	"क्या", "कौन", "कौनसा", "कहाँ", "कहां", "कब", "क्यों", "कैसे", "कैसा", "कैसी", "कितना", "कितने", "कितनी", "किसका", "किसकी", "किसके", "किसने", "किसे", "किसको", "किन", "किस", "कौनसी", "कौनसे",
	"কি", "কী", "কোথায়", "কখন", "কেন", "কীভাবে", "কিভাবে", "কেমন", "কোনটি",
	"هل",
	"mı", "mü", "mısın", "misin", "musun", "müsün", "mısınız", "misiniz", "musunuz", "müsünüz", "mıdır", "midir", "mudur", "müdür",
	"nini", "nani", "wapi", "vipi", "mbona",
	// Indonesian asks "how many", "what time" in place ("jam berapa …")
	"berapa",
	// Javanese (ngoko): why, how, who, how much
	"lapo", "ngopo", "piye", "sopo", "piro", "pira",
	"gì", "nhiêu",
))

// askJoined are the interrogatives and question particles of Chinese and
// Thai, written without spaces between words: a question puts them first
// or last in its clause ("为什么…", "…是什么", "อะไรคือ…", "…ไหม"); inside a
// clause they are an embedded question or an indefinite ("发生了什么事",
// "ไม่มีอะไร"), and a Thai clause that holds ว่า (that) before them
// reports a question rather than asking it.
var askJoined = []string{"什么", "什麼", "为什么", "為什麼", "怎么", "怎麼", "谁", "誰", "是否", "哪个", "哪個", "哪些", "多少", "อะไร", "ไหม", "ทำไม", "ที่ไหน", "เมื่อไร", "เมื่อไหร่", "อย่างไร", "เท่าไร", "เท่าไหร่", "หรือไม่", "หรือเปล่า"}

// askedJoined returns an interrogative of askJoined that opens or ends a
// clause of s, or "".
func askedJoined(s string) string {
	bound := func(r rune) bool {
		return r == utf8.RuneError || unicode.IsSpace(r) || strings.ContainsRune(".!?:;。！？：；\"'“”「」", r)
	}
	for _, q := range askJoined {
		for off := 0; ; {
			i := strings.Index(s[off:], q)
			if i < 0 {
				break
			}
			i += off
			off = i + len(q)
			before, _ := utf8.DecodeLastRuneInString(s[:i])
			after, _ := utf8.DecodeRuneInString(s[off:])
			if unicode.IsMark(after) {
				continue // another syllable of a Thai word
			}
			// Thai writes no full stop: ว่า anywhere before it in the
			// sentence makes the question reported.
			chunk := s[strings.LastIndexFunc(s[:i], unicode.IsSpace)+1 : i]
			sentence := s[strings.LastIndexAny(s[:i], ".!?\n")+1 : i]
			// A particle (ไหม, หรือไม่: "or not") asks only at the end.
			particle := q == "ไหม" || q == "หรือไม่" || q == "หรือเปล่า"
			if bound(before) && !particle || bound(after) && !strings.Contains(sentence, "ว่า") && !strings.Contains(chunk, "无论") && !strings.Contains(chunk, "無論") && !strings.Contains(chunk, "不管") {
				return q
			}
		}
	}
	return ""
}

// askEndings end a question sentence: Japanese か after a polite verb,
// Korean 까/나요/니/냐, Chinese 吗/嗎/呢.
type ending struct {
	end    string
	script *unicode.RangeTable
}

var askEndings = []ending{
	{"ですか", nil}, {"ますか", nil}, {"でしょうか", nil}, {"ませんか", nil}, {"のか", nil},
	{"까", unicode.Hangul}, {"나요", unicode.Hangul}, {"니", unicode.Hangul}, {"냐", unicode.Hangul},
	{"吗", nil}, {"嗎", nil}, {"呢", nil},
}

// romanceWhich, romanceCopula and romanceArticles: the interrogative
// "who" of Italian, "which/what" of Italian, Portuguese, Spanish and French, the copula
// after it, and the articles that make it a relative instead.
var (
	romanceWhich    = sync.OnceValue(set("qual", "quale", "quali", "quais", "cuál", "cuáles", "quel", "quelle", "quels", "quelles"))
	romanceCopula   = sync.OnceValue(set("è", "é", "sono", "são", "es", "son", "est", "sont", "era", "erano", "fue", "foi", "était", "eram", "eran"))
	romanceArticles = sync.OnceValue(set("il", "la", "lo", "i", "gli", "le", "l", "o", "a", "os", "as", "el", "los", "las", "del", "della", "dello", "dei", "delle", "al", "alla", "nel", "nella", "sul", "sulla", "do", "da", "dos", "das", "no", "na", "nos", "nas", "lequel", "laquelle"))
)

// hindiJoiners join a clause to the next after its verb: and, that, then.
var hindiJoiners = sync.OnceValue(set("और", "कि", "फिर", "तथा", "एवं"))

// frenchDeterminers follow a French imperative as its object's start.
var frenchDeterminers = sync.OnceValue(set("un", "une", "le", "la", "les", "des", "du", "ce", "cet", "cette", "ces", "moi", "nous", "leur", "lui", "votre", "vos", "mon", "ma", "mes", "tout", "tous", "toutes"))

// germanPolite address the reader when written with a capital mid-sentence.
var germanPolite = sync.OnceValue(set("Sie", "Ihnen", "Ihr", "Ihre", "Ihren", "Ihrem", "Ihrer", "Ihres"))

var (
	hindiNotOrder     = sync.OnceValue(set("में", "हमें", "उन्हें", "इन्हें", "जिन्हें", "किन्हें", "तुम्हें", "दिए", "किए", "गए", "पिए", "जो", "को", "सो", "दो", "वो", "यो", "हो", "चाहिए"))
	bengaliNotOrder   = sync.OnceValue(set("নতুন", "আগুন", "খুন", "গুন"))
	bengaliLightOrder = sync.OnceValue(set("কর", "করো", "দে", "দাও", "হ", "হও", "নে", "নাও", "যা", "যাও"))
	turkishNotOrder   = sync.OnceValue(set("bugün", "için", "kendin", "sonun", "üzerin", "önün", "ilgin"))
)
