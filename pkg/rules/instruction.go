package rules

import (
	"maps"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Instruction reports whether a claim's text is shaped as an instruction
// to whoever reads it rather than as a statement about the world, and
// why: rule names the check, msg says it in a sentence. It is asked of
// unreviewed claims only (spec §5.2b: an instruction-shaped claim no
// person wrote or accepted never renders, whatever render.unreviewed
// says); a person's own claim is the person's to phrase.
//
// Structure first, then pattern: the injection rules of File (override
// phrases, role turns and template tokens, hidden comments, tags); a
// question (a claim states, it does not ask the reader); a line that
// poses as a speaker or a heading of orders in one of the languages
// below; the reader addressed in the second person; a sentence that
// opens with an imperative verb or a command word (after a heading in
// capitals, a code fence or adverbs: none is its subject); the main
// clause of an English condition, English "shall", a rule laid on the
// reader named in the third person and a French verb first (clause.go); what order.go, mood.go
// and form.go read from the closed classes (a verb and its object with no
// subject before it, a verb of saying or knowing before "that", an
// interrogative before a bare verb, the person or
// mood of a verb's ending or prefix, an order's particle); a clause that
// opens with a form the Universal Dependencies treebanks annotate as an
// imperative, or one the regular paradigm makes of a verb they annotate
// (treebank.go); and, last, the text
// speaking as someone in the first person (personWord: a message, not a
// fact about the user or the project). The imperative lists cover
// English, German, French, Spanish, Italian, Portuguese, Dutch, Polish,
// Russian, Ukrainian, Turkish, Arabic, Persian, Hindi, Bengali, Chinese,
// Japanese, Korean, Vietnamese, Indonesian/Malay, Javanese, Thai,
// Swahili, Zulu, Albanian, Irish and Scottish Gaelic (docs/security.md
// lists what they miss). A false positive costs little: the claim stays
// searchable and renders once a person accepts it.
//
// Where none of that finds an order, text with a clause written mostly in
// a script that no verb lexicon covers, or in a Latin- or Cyrillic-script
// language none covers, is reported as unjudged (script.go): the rules
// above are too few there to let it render.
//
// And last, the statement gate (unstated, statement.go): a text no rule
// above holds still renders only if every sentence of it reads as a
// statement, with a verb that states.
func Instruction(text string) (rule, msg string) {
	text = apostrophes(text)
	if rule, msg := instructionName(text); rule != "" {
		return rule, msg
	}
	return unstated(text)
}

// apostrophes writes as "'" each mark between two letters that a keyboard
// or an editor types for it (’ ʼ ´ ＇): the rules read "I'm", and "I’m"
// is the same word. A quote's opening ‘ and a closing ’ after a word
// stay as written, for the rules that read quotes.
func apostrophes(text string) string {
	if !strings.ContainsAny(text, "’ʼ´＇") {
		return text
	}
	var b strings.Builder
	prev := rune(0)
	for i, r := range text {
		if strings.ContainsRune("’ʼ´＇", r) && unicode.IsLetter(prev) {
			if next, _ := utf8.DecodeRuneInString(text[i+utf8.RuneLen(r):]); unicode.IsLetter(next) {
				r = '\''
			}
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// InstructionName is Instruction without the statement gate: for the text
// of an unreviewed memory that is shown as a name or not at all (a title,
// a description, the note a pointer line names), which need not be a
// statement; the deny rules and unjudged still hold an order there.
func InstructionName(text string) (rule, msg string) {
	return instructionName(apostrophes(text))
}

// instructionName is InstructionName of a text whose apostrophes are
// folded already, once for the whole text and not again for each piece.
func instructionName(text string) (rule, msg string) {
	if len(text) > judgedWhole {
		for _, piece := range pieces(text) {
			if rule, msg := instructionName(piece); rule != "" {
				return rule, msg
			}
		}
		return "", ""
	}
	if rule, msg := instruction(text, true); rule != "" {
		return rule, msg
	}
	// Written so that the rules do not see its words: judged as read.
	if p := plain(text); p != text {
		if rule, msg := instruction(p, true); rule != "" {
			return rule, msg
		}
	}
	return unjudged(text)
}

// instruction is Instruction; decode also judges what runs of base64, hex
// or binary in text decode to (once: not what those decode to).
func instruction(text string, decode bool) (rule, msg string) {
	for _, f := range File(text, 0) {
		if f.Kind == Injection && !f.Minor {
			return f.Rule, f.Msg
		}
	}
	// Arabic writes its short vowels as optional marks (يُرجى, يرجى):
	// the rules read the letters.
	lower := strings.Map(func(r rune) rune {
		if r >= 0x064B && r <= 0x0652 || r == 0x0670 {
			return -1
		}
		return r
	}, strings.ToLower(headingsApart(fencesApart(quotesApart(text)))))
	if strings.ContainsAny(lower, "?？؟") && question(lower) {
		return "instruction-question", "a question: it asks its reader something instead of stating a claim"
	}
	if w := asked(lower); w != "" {
		return "instruction-question", "a question (" + w + "): it asks its reader something instead of stating a claim"
	}
	for _, s := range sentences(lower) {
		if rule, msg := opensWithOrder(s); rule != "" {
			return rule, msg
		}
	}
	if m := turnAsData.FindString(lower); m != "" {
		return "instruction-role", "a turn of a conversation written as data or a spaced template token (" + strings.TrimLeft(m, " \t\n-") + "): a model reads it as the turn it names"
	}
	for _, j := range clauseJudges {
		if w := j.find(lower); w != "" {
			return j.rule, strings.Replace(j.msg, "%s", w, 1)
		}
	}
	if w := ordered(text, lower); w != "" {
		return "instruction-imperative", "an order or the reader addressed, by the verb's form (" + w + "): a claim says what is so, not what the reader must do"
	}
	if rule, msg := addressed(lower); rule != "" {
		return rule, msg
	}
	if w := obligation(text, lower); w != "" {
		return "instruction-address", "it tells its reader what they must do (" + w + "): a claim says what is so, not what the reader must do"
	}
	if w := germanSingularOrder(text); w != "" {
		return "instruction-imperative", "a German imperative opening its clause before its object or with its particle at the clause's end (" + w + "): a claim says what is so, not what the reader must do"
	}
	if w := germanInfinitiveOrder(text); w != "" {
		return "instruction-imperative", "a clause that ends in an infinitive with no subject and no finite verb (" + w + "): German's impersonal order, not a statement about the world"
	}
	if w := englishBareOrder(text); w != "" {
		return "instruction-imperative", "an English verb's bare form opening a clause with no finite verb after it (" + w + "): an order, not a statement about the world"
	}
	if rule, msg := requestClass(text, lower); rule != "" {
		return rule, msg
	}
	if rule, msg := formRequest(text); rule != "" {
		return rule, msg
	}
	if msg := englishAskedBare(text); msg != "" {
		return "instruction-question", msg
	}
	if tag := scriptTag(text); tag != "" {
		return "instruction-role", "a tag (" + tag + "): markup a model may read as a turn, a template or an order"
	}
	if decode {
		if rule, dec := encodedOrder(text); rule != "" {
			if r := []rune(dec); len(r) > 40 {
				dec = string(r[:40]) + "…"
			}
			return rule, "an encoded order (" + rule + " in what it decodes to: " + dec + "): a model reads the encoding as it reads words"
		}
	}
	if w := personOpens(lower); w != "" {
		return "message-person", "it speaks as someone or to the reader by the verb's form (" + w + "): what an agent learnt is a fact in the third person, not a message"
	}
	if w := personWord(text); w != "" {
		return "message-person", "it speaks as someone (" + w + "): what an agent learnt about the user or the project is a fact in the third person, not a message"
	}
	return "", ""
}

// turnAsData is a chat turn written as the data the chat APIs and
// datasets send (lower case): a role field naming a speaker in JSON, YAML
// or a dictionary ({"role": "system"}, "- role: assistant", role=>user),
// ShareGPT's {"from": "gpt"}, and the template tokens with spaces inside
// ("< | im_start | >", "[ INST ]"), which roleTag reads only as written.
// A field's key is quoted or opens the text, a line, a list item or an
// object's next field; after a word, "role:" labels prose ("the user
// role: user accounts are …").
var turnAsData = regexp.MustCompile(`(?:(?:^|[\n{(\[,;])\s*(?:-\s*)?["'\x60“”‘’]?role["'\x60“”‘’]?|["'\x60“”‘’]role["'\x60“”‘’])\s*(?::|=>?)\s*["'\x60“”‘’]?(?:system|developer|assistant|user|human|tool|model|function|ai|bot|chatbot)\b` +
	`|"from"\s*:\s*"(?:human|gpt|system)"` +
	`|<\s*\|\s*[a-z_]{2,30}\s*\|\s*>|\[\s*/?\s*inst\s*\]`)

// A clauseJudge reads a whole text's clauses (lower case): find returns
// the words that make the text an order or a question, or "".
type clauseJudge struct {
	rule string
	find func(lower string) string
	msg  string // %s stands for what find returned
}

// clauseJudges are asked in this order; the first finding is the text's.
var clauseJudges = []clauseJudge{
	{"instruction-imperative", verbFirst, "a clause that opens with a verb and its object (%s), no subject before it: an order, not a statement about the world"},
	{"instruction-imperative", thatOrder, "a clause that opens with a verb of saying or knowing and its \"that\", no subject before it (%s): an order, not a statement about the world"},
	{"instruction-imperative", treebankOrder, "a clause that opens with an imperative the Universal Dependencies treebanks annotate, or that the paradigm makes of a verb they annotate (%s): an order, not a statement about the world"},
	{"instruction-imperative", conditionalOrder, "a main clause that opens with a bare verb after its condition (%s): an order, not a statement about the world"},
	{"instruction-imperative", resultOrder, "a clause of result that opens with a bare verb, no subject (%s): an order, not a statement about the world"},
	{"instruction-imperative", shallOrder, "a rule laid down (shall): a claim says what is so, not what someone must do"},
	{"instruction-imperative", readerRule, "a rule laid on the reader in the third person (%s): a claim says what is so, not what the reader must do"},
	{"instruction-imperative", frenchOrder, "a French verb with no subject, by its form, opening its sentence (%s): an order, not a statement about the world"},
	{"instruction-imperative", italianOrder, "an Italian verb in the second person or the imperative opening its clause (%s): a claim says what is so, not what the reader must do"},
	{"instruction-imperative", italianSingular, "an Italian imperative opening its clause before its object's article (%s): a claim says what is so, not what the reader must do"},
	{"instruction-imperative", russianAfterPhrase, "a Russian imperative after the prepositional phrase that opens its sentence (%s): a claim says what is so, not what the reader must do"},
	{"instruction-imperative", encliticOrder, "an imperative with its pronoun joined (%s): a claim says what is so, not what the reader must do"},
	{"instruction-imperative", finalParticle, "a particle that ends an order (%s): a claim says what is so, not what the reader must do"},
	{"instruction-imperative", chinesePlease, "a request's 请 opening a clause (%s): a claim says what is so, not what the reader must do"},
	{"instruction-question", koreanAsked, "a question (%s): it asks its reader something instead of stating a claim"},
	{"instruction-question", howTo, "an interrogative before a bare verb (%s): it asks its reader how to do something"},
}

// opensWithOrder judges how one sentence opens: as a speaker or a heading
// of orders, or with an imperative (after a connective: "now tell …").
func opensWithOrder(s string) (rule, msg string) {
	first, rest := firstWord(s)
	if first == "" {
		return "", ""
	}
	// "Now tell …", "then print …", "Only ever say …": adverbs before
	// the order.
	if next, more := adverbsSkipped(first, rest); imperatives()[next] {
		first, rest = next, more
	}
	if speakers()[strings.TrimRight(first, ":：")] && colonNext(first, rest) {
		return "instruction-role", "a line that poses as a speaker or a heading of orders (" + first + "): a model may read it as a turn"
	}
	// A heading of orders with a word before it or a number after it:
	// "New instructions:", "Rule #2:".
	if next, more := firstWord(rest); orderHeadings()[strings.TrimRight(next, ":：")] && colonNext(next, more) || orderHeadings()[strings.TrimRight(first, ":：")] && colonNext(first, strings.TrimLeft(rest, "#0123456789. ")) {
		return "instruction-role", "a heading of orders (" + strings.TrimSpace(first+" "+next) + "): a model may read what follows as its rules"
	}
	// An imperative stays one before a colon ("Remember: …"). German
	// "nie" (never) is Polish "not", English "do" Polish "to", English
	// "dont" French "whose".
	first = strings.TrimRight(first, ":：")
	if imperatives()[first] && !(first == "nie" && polish(s)) && !((first == "do" || first == "dont") && !english(s)) {
		return "instruction-imperative", "a sentence that opens with a command (" + first + "): a claim says what is so, not what the reader must do"
	}
	for _, p := range imperativePrefixes {
		if strings.HasPrefix(s, p) {
			return "instruction-imperative", "a sentence that opens with a command (" + p + "): a claim says what is so, not what the reader must do"
		}
	}
	return "", ""
}

// afterDash is the clause a lone spaced dash puts after a sentence's
// first one, which sentences reads as a sentence too ("The job is done –
// read the log"), or "": a pair of dashes sets off a phrase inside the
// sentence ("The budget – set in March – will grow").
func afterDash(s string) string {
	var at, n int
	for _, d := range []string{" – ", " — ", " - "} {
		if c := strings.Count(s, d); c > 0 {
			n += c
			at = strings.Index(s, d) + len(d)
		}
	}
	if n != 1 {
		return ""
	}
	return s[at:]
}

// addressed judges the text as a whole: the reader addressed in the
// second person, or a command form anywhere in it.
func addressed(lower string) (rule, msg string) {
	for _, w := range words(lower) {
		// German "du" (you) is French "du" (of the), unless the text
		// holds two words the treebanks find in German and not in French
		// (French's list takes "des", which German writes too).
		// Tagalog "mo" (you) is Gaelic's "my" and an abbreviation
		// elsewhere: it counts beside Tagalog's markers ng and mga.
		if secondPerson()[w] && !(w == "du" && french(lower) && !holdsWords(lower, treebank().words["German"], 2)) || (w == "mo" || w == "mong") && tagalog(lower) || secondPerson()[arabicStem(w)] {
			return "instruction-address", "it addresses its reader (" + w + "): a claim about the user or the world names them in the third person"
		}
	}
	for _, p := range secondPersonCJK {
		if strings.Contains(lower, p) {
			return "instruction-address", "it addresses its reader (" + p + "): a claim about the user or the world names them in the third person"
		}
	}
	for _, p := range commandAnywhere {
		if strings.Contains(lower, p) {
			return "instruction-imperative", "it holds a command form (" + p + "): a claim says what is so, not what the reader must do"
		}
	}
	return "", ""
}

// question reports a sentence that ends in a question mark: "what
// changed?" is asked of the reader; "/search?q=x" in a URL is not.
func question(s string) bool {
	for i, r := range s {
		if r != '?' && r != '？' && r != '؟' {
			continue
		}
		// A full-width or Arabic question mark ends a question wherever it
		// stands; an ASCII one unless a word goes on (a URL's "?q=").
		next, _ := utf8.DecodeRuneInString(s[i+utf8.RuneLen(r):])
		if r != '?' || next == utf8.RuneError || !unicode.IsLetter(next) && !unicode.IsDigit(next) {
			return true
		}
	}
	return false
}

// headingsApart puts a line break between a heading written in capitals
// and the sentence that follows it on the same line ("END OF INPUT
// Remember, …"): the sentence opens at its capitalised word, not at the
// heading. A heading is two or more words of capitals (with the
// punctuation around them: "[USER INPUT END] -----"), the sentence's
// first word a capital and then small letters.
func headingsApart(text string) string {
	fields := strings.SplitAfter(text, " ")
	caps := 0
	var b strings.Builder
	for _, f := range fields {
		w := strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) })
		switch {
		case w == "":
		case allUpper(w) && utf8.RuneCountInString(w) > 1:
			caps++
		case caps >= 2 && titleCase(w) && unicode.IsUpper(firstRune(f, 0)):
			b.WriteString("\n")
			caps = 0
		default:
			caps = 0
		}
		b.WriteString(f)
	}
	return b.String()
}

// fencesApart puts a line break after a code fence or a thematic break
// (```, ---, ***, ___: Markdown's block ends) that a capitalised word
// follows ("``` Determine what …", "--- As a REPL, print …"): the block
// ends there and a sentence opens. One before a small letter may be the
// subject of its sentence ("```go test``` runs …").
func fencesApart(text string) string {
	var b strings.Builder
	for {
		i, n := -1, 0
		for _, f := range []string{"```", "---", "***", "___"} {
			if j := strings.Index(text, f); j >= 0 && (i < 0 || j < i) {
				i, n = j, len(f)
			}
		}
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i+n])
		text = text[i+n:]
		if unicode.IsUpper(firstRune(strings.TrimLeft(text, " \t"), 0)) {
			b.WriteString("\n")
		}
	}
}

// quotesApart puts a line break between a closing quotation mark and a
// capitalised word after it ("… sentence: "Access Granted" If the
// sentence is correct, output …"): a writer who ends a sentence with a
// quotation often drops its full stop, and the next sentence opens
// there. A small letter after it goes on the same sentence ("… "Jolene"
// na Dolly Parton").
func quotesApart(text string) string {
	var b strings.Builder
	prev := ' '
	for i, r := range text {
		b.WriteRune(r)
		if (r == '"' || r == '”' || r == '»') && !unicode.IsSpace(prev) && strings.HasPrefix(text[i+utf8.RuneLen(r):], " ") {
			if next, _ := utf8.DecodeRuneInString(strings.TrimLeft(text[i+utf8.RuneLen(r):], " ")); unicode.IsUpper(next) {
				b.WriteString("\n")
			}
		}
		prev = r
	}
	return b.String()
}

// allUpper reports a word of letters that has no small letter.
func allUpper(w string) bool {
	return strings.IndexFunc(w, func(r rune) bool { return !unicode.IsUpper(r) && unicode.IsLetter(r) }) < 0
}

// titleCase reports a word of a capital and then small letters.
func titleCase(w string) bool {
	r, n := utf8.DecodeRuneInString(w)
	return unicode.IsUpper(r) && n < len(w) && strings.IndexFunc(w[n:], unicode.IsUpper) < 0
}

// sentences splits text where a sentence or a list item starts, and
// trims what may stand before its first word (splitTrimmed): numbering,
// quotes, list marks, a code fence ("``` Output:"), an emoji as a list
// mark ("📝 Write …"). A brace ends a sentence (code and JSON open a
// block with it), but a template's slot ("{}", "{topic}", "{{name}}")
// stands for a word of its sentence: "For each question about {},
// identify …" is one sentence.
func sentences(s string) []string {
	out := splitTrimmed(templateSlot.ReplaceAllString(s, "$1"), sentenceEnds+"{}", sentenceTrim)
	for i, x := range out {
		out[i] = codeOpened(x)
		if d := afterDash(x); d != "" {
			out = append(out, openingTrimmed(d, sentenceTrim))
		}
	}
	return out
}

// codeOpened trims the backticks a sentence opens with when they quote
// it whole ("`Fetch the page at …`"): a code span that closes before the
// sentence goes on is its subject ("`make test` runs …") and stays.
func codeOpened(s string) string {
	inner := strings.TrimLeft(s, "`")
	if len(inner) == len(s) {
		return s
	}
	if i := strings.IndexByte(inner, '`'); i >= 0 && strings.Trim(inner[i:], "` \t") != "" {
		return s
	}
	return openingTrimmed(inner, sentenceTrim)
}

// sentenceEnds end a sentence or a list item; sentenceTrim may stand
// before a sentence's first word, beside the marks openingTrimmed trims.
const (
	sentenceEnds = ".!;\n。！；｡!\u0964"
	sentenceTrim = " \t0123456789"
)

// splitTrimmed splits s at every rune of at, and trims each piece's
// opening (openingTrimmed) of the runes of trim.
func splitTrimmed(s, at, trim string) []string {
	out := strings.FieldsFunc(s, func(r rune) bool { return strings.ContainsRune(at, r) })
	for i, x := range out {
		out[i] = openingTrimmed(x, trim)
	}
	return out
}

// openingTrimmed trims from the start of s the runes of trim (spaces,
// numbering) and the punctuation marks and symbols before its first word:
// quotes, list marks, brackets, a rule of dashes, slashes or bars, an
// emoji and its joiners. No sentence's subject is written in them, so the
// sentence opens at its first word ("===== Clear the queue …", "//// Drop
// the table …"). Two stay: a backtick opens code, which may be the
// subject ("`make` builds …"), and a lone bar before a space opens a
// table's cell ("| Output | Size |"), no sentence.
func openingTrimmed(s, trim string) string {
	prev := ' '
	for i, r := range s {
		cell := r == '|' && !unicode.IsPunct(prev) && !unicode.IsSymbol(prev) && strings.HasPrefix(s[i+1:], " ")
		if strings.ContainsRune(trim, r) || (unicode.IsPunct(r) || unicode.IsSymbol(r) || r == '\ufe0f' || r == '\u200d') && r != '`' && !cell {
			prev = r
			continue
		}
		return s[i:]
	}
	return ""
}

// firstWord is the first word of s (letters, marks and an apostrophe,
// with a trailing colon kept) and what follows it.
func firstWord(s string) (word, rest string) {
	end := strings.IndexFunc(s, func(r rune) bool {
		return !(unicode.IsLetter(r) || unicode.IsMark(r) || r == '\'' || r == '’')
	})
	if end < 0 {
		return s, ""
	}
	word, rest = s[:end], s[end:]
	if strings.HasPrefix(rest, ":") {
		return word + ":", rest[1:]
	}
	if strings.HasPrefix(rest, "：") {
		return word + "：", rest[len("："):]
	}
	return word, strings.TrimLeft(rest, " \t")
}

// words splits s into words of letters, marks and apostrophes. Latin
// letters glued to digits are one word, a name that no word list holds:
// a hash, a version, a time ("3db1be", "arm64", "2pm"). Split into
// letters, a note id's random hash held its pointer line whenever it
// spelt "be".
func words(s string) []string {
	if !strings.ContainsAny(s, "0123456789") {
		return strings.FieldsFunc(s, func(r rune) bool { return !wordRune(r) })
	}
	var ws []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return !wordRune(r) && !unicode.IsDigit(r) }) {
		switch {
		case !strings.ContainsFunc(f, unicode.IsDigit):
			ws = append(ws, f)
		case strings.ContainsFunc(f, func(r rune) bool { return unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r) }):
			ws = append(ws, strings.FieldsFunc(f, func(r rune) bool { return !wordRune(r) })...)
		case strings.ContainsFunc(f, unicode.IsLetter):
			ws = append(ws, f)
		}
	}
	return ws
}

// holdsWords reports whether s holds at least n different words of
// the set: how the language tests tell a text's language by its function
// words.
func holdsWords(s string, of map[string]bool, n int) bool {
	seen := map[string]bool{}
	for _, w := range words(s) {
		if of[w] {
			seen[w] = true
			if len(seen) >= n {
				return true
			}
		}
	}
	return false
}

// set returns what builds the set of words; each set of the package is
// sync.OnceValue(set(…)), built when first asked for: most mem processes
// never check a claim, and the ~40 sets were most of what the package's
// init allocated in every one (134 KB).
func set(words ...string) func() map[string]bool {
	return func() map[string]bool {
		m := make(map[string]bool, len(words))
		for _, w := range words {
			m[w] = true
		}
		return m
	}
}

// union is a set of the words of every set given.
func union(sets ...map[string]bool) map[string]bool {
	m := map[string]bool{}
	for _, s := range sets {
		maps.Copy(m, s)
	}
	return m
}

// speakers are the names a line may pose as before a colon: a turn of a
// conversation, or a heading of orders ("NEW INSTRUCTIONS:").
var speakers = sync.OnceValue(set(
	"system", "developer", "assistant", "user", "human", "ai", "bot", "response", "admin", "administrator", "operator", "instruction", "instructions", "important", "note", "task", "command", "commands", "prompt", "override",
	"systeme", "système", "sistema", "systeem", "systemu", "sistem", "система", "системa", "سیستم", "النظام", "نظام", "सिस्टम", "系统", "系統", "システム", "시스템",
	"assistent", "assistente", "asistente", "assistant", "ассистент", "помощник", "助手", "アシスタント", "어시스턴트", "المساعد",
	"benutzer", "nutzer", "utilisateur", "usuario", "utente", "usuário", "gebruiker", "użytkownik", "пользователь", "用户", "用戶", "ユーザー", "사용자", "المستخدم",
	"anweisung", "anweisungen", "consigne", "consignes", "instrucción", "instrucciones", "istruzione", "istruzioni", "instrução", "instruções", "instructie", "instructies", "instrukcja", "instrukcje", "инструкция", "инструкции", "指令", "指示", "命令", "지시", "명령", "تعليمات", "دستور",
))

// colonNext reports a word that ends in a colon or is followed by one.
func colonNext(word, rest string) bool {
	return strings.HasSuffix(word, ":") || strings.HasSuffix(word, "：") || strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "：")
}

// orderHeadings are the English nouns that head a list of orders.
var orderHeadings = sync.OnceValue(set("instruction", "instructions", "rule", "rules", "command", "commands", "directive", "directives", "task", "prompt", "order", "orders"))

// imperatives are words that open an order: the verbs a payload starts
// with ("ignore …", "tell me …") and the command words ("always",
// "never", "please"), in the languages Instruction names. A claim opens
// with its subject; an agent's note that opens with a verb is an order
// to the next session, and waits for a person.
var imperatives = sync.OnceValue(set(
	// English
	"ignore", "disregard", "forget", "override", "bypass", "always", "never", "please", "do", "don't", "dont", "must", "stop", "start", "begin", "tell", "say", "print", "output", "write", "reply", "respond", "answer",
	"show", "reveal", "repeat", "act", "pretend", "imagine", "roleplay", "execute", "run", "call", "send", "delete", "remove", "visit", "open", "click", "include", "insert", "append", "follow", "obey", "comply",
	"translate", "generate", "create", "make", "give", "provide", "list", "describe", "explain", "summarize", "summarise", "return", "forward", "download", "upload", "install", "confirm", "ensure", "remember",
	"disclose", "leak", "share", "fetch", "grant", "enable", "disable", "switch", "assume", "become", "let's", "lets", "henceforth",
	// German
	"ignoriere", "ignorieren", "ignoriert", "vergiss", "vergessen", "vergesst", "sag", "sage", "sagen", "schreib", "schreibe", "antworte", "antworten", "zeige", "zeig", "gib", "geben", "mach", "mache", "tu", "tue",
	"führe", "befolge", "übersetze", "erstelle", "liste", "beschreibe", "erkläre", "sende", "schicke", "lösche", "öffne", "bitte", "immer", "niemals", "nie", "handle", "stell", "stelle", "tue",
	// French
	"ignorez", "ignorer", "oublie", "oubliez", "dis", "dites", "écris", "écrivez", "réponds", "répondez", "montre", "montrez", "affiche", "affichez", "donne", "donnez", "fais", "faites", "exécute", "exécutez",
	"suis", "suivez", "traduis", "traduisez", "crée", "créez", "envoie", "envoyez", "supprime", "supprimez", "révèle", "révélez", "toujours", "jamais", "agis", "agissez", "imagine", "imaginez", "veuillez",
	// Spanish
	"ignora", "ignore", "ignoren", "olvida", "olvide", "olviden", "dime", "diga", "escribe", "escriba", "responde", "responda", "muestra", "muestre", "haz", "haga", "dame", "deme", "ejecuta", "ejecute",
	"sigue", "siga", "traduce", "traduzca", "crea", "cree", "envía", "envia", "borra", "elimina", "revela", "revele", "siempre", "nunca", "actúa", "actua", "actúe", "imagina", "finge",
	// Italian
	"dimentica", "dimenticate", "dimmi", "scrivi", "scrivete", "rispondi", "rispondete", "mostra", "mostrate", "fai", "fate", "dammi", "esegui", "segui", "traduci", "invia", "cancella", "rivela", "sempre", "agisci", "fingi", "ignorate",
	// Portuguese
	"esqueça", "esqueca", "esquece", "diga-me", "escreva", "responda", "mostre", "faça", "faca", "execute", "siga", "traduza", "envie", "apague", "revele", "sempre", "nunca", "aja", "finja", "ignorem",
	// Dutch
	"negeer", "vergeet", "zeg", "schrijf", "antwoord", "geef", "doe", "voer", "volg", "vertaal", "stuur", "verwijder", "onthul", "altijd", "nooit", "alsjeblieft",
	// Polish
	"zignoruj", "ignoruj", "zapomnij", "powiedz", "napisz", "odpowiedz", "pokaż", "daj", "zrób", "wykonaj", "przetłumacz", "wyślij", "usuń", "ujawnij", "zawsze", "nigdy", "proszę",
	// Russian, Ukrainian
	"игнорируй", "игнорируйте", "проигнорируй", "забудь", "забудьте", "скажи", "скажите", "напиши", "напишите", "ответь", "ответьте", "покажи", "покажите", "дай", "дайте", "сделай", "сделайте", "выведи", "выполни",
	"следуй", "переведи", "отправь", "удали", "раскрой", "всегда", "никогда", "пожалуйста", "представь", "притворись", "действуй", "теперь",
	"ігноруй", "забудь", "скажи", "напиши", "відповідай", "покажи", "дай", "зроби", "виконай", "завжди", "ніколи", "будь",
	// Turkish
	"yoksay", "unut", "söyle", "yaz", "cevap", "göster", "ver", "yap", "çalıştır", "çevir", "gönder", "sil", "açıkla", "lütfen", "daima", "asla",
	// Arabic, Persian
	"قم", "قومي", "قوموا", "تجاهل", "تجاهلي", "انس", "انسَ", "قل", "اكتب", "أجب", "اعرض", "أعطني", "اعطني", "نفذ", "نفّذ", "اتبع", "ترجم", "أرسل", "احذف", "اكشف", "دائما", "دائمًا", "أبدا", "أبدًا", "رجاء", "يرجى",
	"نادیده", "فراموش", "بگو", "بنویس", "پاسخ", "نشان", "بده", "انجام", "لطفا", "لطفاً", "همیشه", "هرگز",
	// Hindi, Bengali
	"अनदेखा", "भूल", "बताओ", "बताइए", "लिखो", "लिखिए", "दिखाओ", "करो", "कीजिए", "हमेशा", "कभी", "कृपया",
	"উপেক্ষা", "ভুলে", "বলো", "বলুন", "লিখুন", "লেখো", "দেখাও", "করো", "করুন", "সবসময়", "কখনো", "দয়া",
	// Vietnamese, Indonesian/Malay, Javanese
	"hãy", "bỏ", "quên", "đừng", "luôn", "vui", "viết", "tạo", "gửi", "abaikan", "lupakan", "katakan", "tuliskan", "tulis", "jawab", "tunjukkan", "berikan", "lakukan", "jalankan", "ikuti", "terjemahkan", "kirim", "hapus", "selalu",
	"jangan", "tolong", "mohon", "silakan", "mari", "coba", "lalekna", "lalèkna", "tulisen", "wenehana", "tulung", "aja", "ojo", "ayo",
	// Swahili, Zulu, Albanian, Irish, Scottish Gaelic
	"puuza", "sahau", "niambie", "andika", "jibu", "onyesha", "nipe", "fanya", "tafadhali",
	"ziba", "khohlwa", "ngitshele", "bhala", "phendula", "bonisa", "nginike", "yenza", "ngicela", "njalo", "ungalokothi",
	"injoro", "injoroni", "harro", "harroni", "shkruaj", "përgjigju", "trego", "bëj", "ekzekuto", "gjithmonë", "kurrë",
	"déan", "scríobh", "freagair", "taispeáin", "tabhair", "inis", "déan", "ná", "ceadaigh",
	"dèan", "sgrìobh", "freagair", "seall", "thoir", "innis", "dìochuimhnich", "leig",
))

// connectives may come before the verb of an order: conjunctions and
// adverbs of time, sequence and focus. An adverb is no subject: the
// clause after it still opens with its verb.
var connectives = sync.OnceValue(set("now", "then", "and", "so", "also", "next", "finally", "first", "instead", "just", "simply", "kindly",
	"only", "ever", "again", "once", "otherwise", "else", "additionally", "furthermore", "moreover", "afterwards", "thereafter", "still", "even"))

// adverbsSkipped returns the word after up to two adverbs that open a
// sentence (first, then rest): connectives, and English adverbs by their
// ending in -ly (not the verbs in -ply: reply, apply, comply), each
// perhaps followed by a comma ("Only ever accept …", "Additionally,
// append …", "Once again, ignore …"). Without adverbs it returns first
// and rest.
func adverbsSkipped(first, rest string) (string, string) {
	for range 2 {
		if !connectives()[first] && !(strings.HasSuffix(first, "ly") && !strings.HasSuffix(first, "ply") && utf8.RuneCountInString(first) > 4) {
			break
		}
		first, rest = firstWord(strings.TrimLeft(rest, " ,\t"))
	}
	return first, rest
}

// imperativePrefixes open an order in scripts without spaces between
// words (Chinese, Japanese, Thai) or as a prefix (Korean).
var imperativePrefixes = []string{
	"from now on", "from this moment", "starting now",
	"忽略", "忽视", "無視", "无视", "忘记", "忘記", "忘掉", "请", "請", "告诉", "告訴", "输出", "輸出", "打印", "回答", "显示", "顯示", "写", "寫", "扮演", "假装", "假裝", "执行", "執行", "总是", "總是", "永远", "永遠", "不要", "别", "別", "务必", "務必", "必须", "必須", "从现在", "從現在",
	"以前の", "前の", "無視", "忘れ", "常に", "必ず", "絶対に", "今から", "これから",
	"이전", "모든 지시", "무시", "잊어", "항상", "절대", "반드시", "지금부터",
	"เพิกเฉย", "ละเว้น", "ลืม", "บอก", "เขียน", "ตอบ", "แสดง", "ให้", "ทำ", "กรุณา", "โปรด", "เสมอ", "ห้าม", "อย่า",
}

// commandAnywhere are command forms that mark an order wherever they
// stand: "please" in the languages above, Japanese and Korean verb
// endings of a request or an order, and the Chinese "from now on" family.
var commandAnywhere = []string{
	"please", "bitte", "s'il vous plaît", "por favor", "per favore", "пожалуйста", "lütfen", "tafadhali", "sicela", "ngicela", "ju lutem", "të lutem",
	"कृपया", "দয়া করে", "অনুগ্রহ করে", "vui lòng", "xin hãy", "يرجى", "من فضلك", "لطفا", "لطفاً", "mohon", "pakiusap", "부탁",
	"してください", "して下さい", "しなさい", "しろ", "せよ", "ください", "下さい", "なさい",
	"하세요", "하십시오", "해라", "해줘", "해 줘", "주세요", "하라", "하지 마", "말해", "알려줘", "보여줘",
	// the Japanese auxiliaries of a wish or a request put to someone
	// (書いてほしい, 教えてもらいたい, 書いてくれ) and of "let us"
	// (しましょう), French's imperative of
	// vouloir, Arabic's "please" with its article
	"てほしい", "でほしい", "て欲しい", "で欲しい", "てもらいたい", "でもらいたい", "てくれ", "でくれ", "ましょう", "veuillez", "الرجاء",
	// the Japanese request put to the reader in the polite non-past
	// (past: お願いしました), Arabic "please" (with, if you permit)
	"お願いします", "お願いいたします", "お願い致します", "برجاء", "لو سمحت",
	"从现在开始", "從現在開始", "忽略之前", "忽略以上", "忽略所有",
}

// secondPerson are the words that address the reader.
var secondPerson = sync.OnceValue(set(
	"you", "your", "yours", "yourself", "yourselves", "you're", "you've", "you'll", "you'd", "ur", "thou", "thee", "thy",
	"du", "dich", "dir", "dein", "deine", "deinen", "deinem", "deiner", "euch", "euer", "eure",
	"tu", "toi", "vous", "votre", "vos",
	"tú", "usted", "ustedes", "vosotros", "vosotras", "tuyo", "tuya", "contigo", "tus", "vuestro", "vuestra", "vuestros", "vuestras",
	// the modals and auxiliaries in the second person: "can you", "you are"
	"puedes", "podrías", "debes", "deberías", "quieres", "estás", "eres", "tienes", "puoi", "potresti", "dovresti", "vuoi", "stai",
	"podes", "poderias", "deves", "deverias", "queres", "teus", "tuas", "vosso", "vossa", "pourriez", "pouvez", "devez", "devriez", "voulez", "êtes", "avez", "savez",
	"بك", "عليك", "منك", "عنك", "معك", "فيك", "لديك", "عندك", "يمكنك", "بإمكانك", "نفسك", "أنك", "إنك", "iyong", "inyong",
	"ti", "tuo", "tua", "tuoi", "voi", "vostro", "vostra",
	"você", "vocês", "voce", "teu", "tua", "contigo", "convosco",
	"jij", "jou", "jouw", "jullie",
	"ty", "ciebie", "tobie", "twój", "twoja", "twoje", "wy",
	"ты", "вы", "тебе", "тебя", "тобой", "вам", "вас", "вами", "твой", "твоя", "твои", "твоё", "ваш", "ваша", "ваши", "ваше",
	"твоего", "твоему", "твоим", "твоей", "твою", "твоих", "твоими", "твоём", "вашего", "вашему", "вашим", "вашей", "вашу", "ваших", "вашими", "вашем",
	"твого", "твоєму", "твоїм", "твоєї", "твоїх", "вашого", "вашому", "вашої", "вашій", "ваших",
	"ти", "ви", "твій", "твоя", "твоє", "ваш",
	"siz", "seni", "senin", "sizin",
	"أنت", "انت", "أنتم", "انتم", "أنتِ", "لك", "إليك", "تو", "شما",
	"आप", "तुम", "तू", "आपको", "तुम्हें", "আপনি", "তুমি", "তুই", "আপনার", "তোমার",
	"bạn", "mày", "kamu", "anda", "kau", "engkau", "awak", "kowe", "sampeyan", "panjenengan", "koe",
	"wewe", "nyinyi", "wena", "ju", "wako", "yako", "lako", "chako", "kwako", "zako",
	"yakho", "wakho", "kwakho", "lakho", "sakho", "bakho", "zakho", "kuwe",
	"tënde", "tënd", "jote", "jotë", "tuaj", "juaj", "ty", "juve",
	"agad", "agaibh", "ort", "oraibh", "leat", "duit", "dhut", "dhuibh", "thusa", "tusa", "thú",
	"sibh", "tú", "thu", "agat", "uait",
	// beyond the payload sets: Scandinavian, Finnish, Romanian, Czech,
	// Hungarian, Greek, Hebrew, Urdu, Marathi, Tamil, Telugu, Tagalog
	"dig", "deg", "ditt", "dina", "dere", "jer", "jeres", "sinä", "sinun", "sinua", "sinulle", "teidän", "tău", "ție", "vouă", "vostru", "voastră",
	"tebe", "tobě", "tvůj", "tvoje", "vás", "vám", "váš", "vaše", "téged", "neked", "önök", "εσύ", "εσένα", "σου", "εσείς", "σας",
	"אתה", "אתם", "אתן", "שלך", "שלכם", "לך", "לכם", "אותך", "آپ", "تمہارا", "تمہاری", "تمہیں", "तुम्ही", "तुझा", "तुझी", "तुमचा",
	"நீ", "நீங்கள்", "உன்", "உங்கள்", "உனக்கு", "உங்களுக்கு", "నువ్వు", "మీరు", "నీకు", "మీకు", "ikaw", "kayo", "ninyo", "inyo", "iyo",
))

// secondPersonCJK address the reader in scripts without spaces.
var secondPersonCJK = []string{"你", "您", "あなた", "君は", "お前", "おまえ", "당신", "너는", "너의", "네가", "너희", "คุณ"}

// judgedWhole is the longest text the rules read as one. They read the
// whole text for each clause (its language, whom it addresses), so their
// work grows with the square of its length: an agent's 100 KB note took
// 14 to 77 s. A longer text is judged in pieces of whole lines (or
// sentences, or words) of at most this many bytes; every payload of the
// public sets is far shorter (scripts/trust cuts them at 270).
const judgedWhole = 2048

// pieceOverlap is how far back from a cut that is not at a line's or a
// sentence's end the next piece starts, so an order the cut split is
// read whole in the next piece.
const pieceOverlap = 256

// pieces cuts text into the pieces Instruction judges: each at most
// judgedWhole bytes, cut at the last line end in its second half, else
// the last sentence end, else the last space, else a character's start;
// after a cut of the last two kinds the next piece starts at a space up to
// pieceOverlap bytes before it.
func pieces(text string) []string {
	var out []string
	for len(text) > judgedWhole {
		cut, clean := cutAt(text)
		out = append(out, text[:cut])
		next := cut
		if !clean {
			if i := strings.IndexAny(text[cut-pieceOverlap:cut], " \t\n"); i >= 0 {
				next = cut - pieceOverlap + i + 1
			}
		}
		text = text[next:]
	}
	return append(out, text)
}

// cutAt is where the piece text opens ends (see pieces), always past
// half of judgedWhole, and whether that is a line's or a sentence's end.
func cutAt(text string) (int, bool) {
	head := text[:judgedWhole]
	half := judgedWhole / 2
	if i := strings.LastIndexByte(head, '\n'); i >= half {
		return i + 1, true
	}
	for _, end := range []string{". ", "! ", "? ", "。", "！", "？"} {
		if i := strings.LastIndex(head, end); i >= half {
			return i + len(end), true
		}
	}
	if i := strings.LastIndexAny(head, " \t"); i >= half {
		return i + 1, false
	}
	// A character is at most utf8.UTFMax bytes: where no rune starts
	// within them the text is not UTF-8 there, and any byte will do
	// (stepping further back would let invalid bytes shrink a piece to
	// nothing).
	cut := judgedWhole
	for cut > judgedWhole-utf8.UTFMax+1 && !utf8.RuneStart(text[cut]) {
		cut--
	}
	return cut, false
}
