package rules

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Orders and questions told by where the verb stands, for Instruction.
// The word lists of instruction.go name the verbs an order opens with;
// every verb they miss is a miss. These rules name no verb. They rest on
// the closed classes of each language instead (determiners, object
// pronouns, prepositions, conjunctions, interrogatives), which a payload
// cannot avoid and a list can hold whole.
//
// A statement in English, German, Dutch, French, Spanish, Italian,
// Portuguese, Vietnamese and Indonesian opens with its subject ("The
// user prefers …", "Der Build läuft …") or with a function word before
// it ("In March the team …"). An open-class word straight followed by a
// determiner or an object pronoun is a verb taking its object before
// any subject ("Describe the scene", "Kill all politicians", "Envoyez
// le fichier", "Giết tất cả …"): an order, or in the Romance languages,
// which drop the subject, a claim about no one the reader can name. The
// rule holds it either way; a person's accept renders it.

// verbFirst returns the two words that open a clause of s (lower case)
// with a verb and its object, or "".
func verbFirst(s string) string {
	// Polish, Czech and Turkish share words with the lists ("jeden",
	// "an") and are left to the rules of their own forms.
	if polish(s) || czech(s) || turkish(s) {
		return ""
	}
	for _, c := range splitTrimmed(s, ".!;:\n。！；：｡!\u0964", " \t") {
		// A number first is the clause's first constituent ("1538
		// warnte die Inquisition …"), before the verb.
		if r := firstRune(c, 0); r == utf8.RuneError || !unicode.Is(unicode.Latin, r) {
			continue
		}
		first, rest := firstWord(c)
		first = strings.ReplaceAll(first, "’", "'")
		// The object follows at once, or joined by a hyphen
		// ("Donne-moi"): after a comma it is a new phrase ("Tests, die …").
		rest = strings.TrimPrefix(rest, "-")
		next, more := firstWord(rest)
		// English puts a verb's particle before its object ("Break down
		// the …"), and its object may be a question ("Outline how …"): no
		// noun that could be a subject is followed by those.
		if englishParticles()[next] && english(s) {
			after, more := firstWord(more)
			// A particle and a preposition make one verb too ("Come up
			// with the …", "Look out for a …").
			if then, _ := firstWord(more); (after == "with" || after == "for") && objectOpener(then, s) {
				after += " " + then
			}
			if objectOpener(after, s) || englishObjects()[after] || strings.Contains(after, " ") {
				next += " " + after
			}
		}
		if next == "" || !wordRune(firstRune(rest, 0)) || !objectOpener(strings.ReplaceAll(next, "’", "'"), s) && !(englishObjects()[next] && english(s)) && !strings.Contains(next, " ") {
			continue
		}
		if utf8.RuneCountInString(first) < 2 || notVerb(first) {
			continue
		}
		return first + " " + next
	}
	return ""
}

// thatOrder returns the verb and its "that" that open a clause of an
// English text (lower case) with no subject before them: a verb WordNet
// gives the frame "Somebody ----s that CLAUSE", in its bare form, straight
// before "that" ("State that …", "Now say that …", "Confirm that the …").
// A statement puts the verb's subject first ("Ben said that …"), or a
// determiner before a noun of the same spelling ("The report that …").
// Whether "that" opens a clause or a noun phrase ("Say that word"), the
// verb takes it as its object.
func thatOrder(lower string) string {
	if !english(lower) {
		return ""
	}
	that := treebank().that
	for _, c := range clauses(lower) {
		first, rest := adverbsSkipped(firstWord(c))
		// (Not notVerb: its adverbs in -ment are French, and "comment"
		// is a verb here.)
		if next, _ := firstWord(rest); next == "that" && that[first] && !openers()[first] && !treebank().sub[first] {
			return first + " that"
		}
	}
	return ""
}

// englishParticles are the particles of English's phrasal verbs.
var englishParticles = sync.OnceValue(set("down", "up", "out", "off", "over", "back", "away"))

// englishObjects open an English object that is a question: the
// interrogatives no relative clause opens with (who, which, where and
// when follow a noun as relatives). A cardinal is no such word: a noun
// takes one after it ("Chapter two covers …").
var englishObjects = sync.OnceValue(set("how", "why", "what", "whether"))

// objectOpener reports whether w opens an object in s: a word of
// objectOpeners, or one that does only in its own language. Spanish,
// Italian and Portuguese drop the subject ("Contiene un monumento",
// "Trabajó para la BBC"), so their articles tell nothing; the French
// ones count beside a word only French writes, English "a" and "me" in
// an English text, German "das" not beside Portuguese letters ("Duas
// das …").
func objectOpener(w, s string) bool {
	switch {
	case objectOpeners()[w]:
		return true
	case w == "le" || w == "la" || strings.HasPrefix(w, "l'"):
		// Also the Spanish and Italian pronoun after a subject: "Ana la
		// configuró", "Defensa le permite".
		return frenchOnly(s)
	case w == "un":
		return frenchOnly(s) || !english(s)
	case portugueseObjects()[w]:
		return portuguese(s)
	case romanceObjects()[w]:
		return !english(s)
	case w == "a" || w == "me":
		return english(s)
	case w == "das":
		return !strings.ContainsAny(s, "ãõ")
	}
	return false
}

// romanceObjects are the Spanish, Italian and Portuguese articles and
// quantifiers. These languages drop the subject, so a clause that opens
// with a verb and its object is an order or a statement about no one
// named ("Contiene un índice"): either way nothing an agent learnt about
// the user or the project, and the rule holds it.
// ("lo" and "gli" are as often the pronoun after a subject, "Marco lo
// usa", and are left out.)
var romanceObjects = sync.OnceValue(set("el", "los", "las", "una", "unos", "unas", "este", "esta", "estos", "estas", "todos", "todas", "cada",
	"il", "uno", "questo", "questa", "questi", "queste", "tutti", "tutte", "ogni", "esse", "essa", "todo",
	// the indefinite quantifiers ("Explique algunos de los …")
	"algunos", "algunas", "algún", "alguna", "varios", "varias", "otros", "otras", "ningún", "ninguna", "cualquier",
	"alguns", "algumas", "vários", "várias", "outros", "outras", "nenhum", "nenhuma", "qualquer", "alcuni", "alcune", "qualche", "nessun", "nessuna", "qualsiasi"))

// portugueseObjects are the Portuguese articles other languages of the
// lists write as other words (Italian "o", or; Turkish "o", that).
var portugueseObjects = sync.OnceValue(set("o", "os", "as", "um", "uma", "uns", "umas"))

// portuguese reports text with two words only Portuguese writes among
// the languages of the lists.
func portuguese(s string) bool { return holdsWords(s, portugueseWords(), 2) }

var portugueseWords = sync.OnceValue(set("não", "é", "são", "do", "dos", "das", "em", "com", "uma", "um", "ao", "pelo", "pela", "você", "isso", "está", "também", "o", "os"))

// frenchOnly reports a word of s that French writes and Spanish, Italian
// and Portuguese do not.
func frenchOnly(s string) bool { return holdsWords(s, frenchOnlyWords(), 1) }

var frenchOnlyWords = sync.OnceValue(set("les", "des", "et", "est", "une", "dans", "pour", "avec", "aux", "ils", "elles", "cette", "pas", "qui", "du", "sont", "vous", "nous", "moi", "mon", "ton", "sur", "très"))

// notVerb reports a word that opens a statement before a determiner: a
// function word of the closed classes (the lists', or a subordinator or
// preposition by the treebanks: "Whilst the build runs, …"), or an adverb
// by its ending.
func notVerb(w string) bool {
	if openers()[w] || objectOpeners()[w] || romanceObjects()[w] || portugueseObjects()[w] || treebank().sub[w] {
		return true
	}
	// An English host and its contracted auxiliary are a subject and its
	// verb ("He's a blogger", "Everyone's an individual", "They've a
	// plan"), no imperative; "let's" is one ("let us").
	if host, aux, ok := strings.Cut(w, "'"); ok && host != "let" && host != "" && (aux == "s" || contracted[aux] != "") {
		return true
	}
	// A Romance gerund or participle opens a phrase before the subject
	// ("Usando l'antenna …", "Superato l'estremo …").
	if hasSuffixAny(w, "ando", "endo", "indo", "ato", "ito", "uto", "ado", "ido") && utf8.RuneCountInString(w) > 5 {
		return true
	}
	// English adverbs in -ly ("Currently the …"), Romance ones in -ment,
	// -mente ("Actuellement les …", "Attualmente il …").
	// A gerund is a subject ("Running the tests takes …") or opens a
	// phrase before one. The lists' verbs in -ply (reply, comply) are no
	// adverbs.
	return hasSuffixAny(w, "ly", "ment", "mente", "ing") && utf8.RuneCountInString(w) > 4 && !(strings.HasSuffix(w, "ply") && imperatives()[w])
}

// objectOpeners open a noun phrase or stand for one as an object:
// articles, demonstratives, quantifiers, possessives and object pronouns.
var objectOpeners = sync.OnceValue(func() map[string]bool {
	return union(englishObjectOpeners(), otherObjectOpeners())
})

// englishObjectOpeners are objectOpeners' English words ("a" and "me"
// only in an English text: see objectOpener); an English check reads
// these and the English openers alone, where Dutch "door" (through) is
// English's noun.
var englishObjectOpeners = sync.OnceValue(set("the", "an", "all", "this", "these", "those", "some", "any", "us", "him", "them", "my", "our", "his", "their"))

var otherObjectOpeners = sync.OnceValue(set(
	// German, Dutch (the genitive "der", "des" follows a noun too:
	// "Kunden der Bank")
	"die", "den", "dem", "ein", "eine", "einen", "einem", "jeden", "jede", "jedes", "diesen", "diese", "dieses", "mir", "mich", "ihm", "ihn", "kein", "keine", "keinen",
	"het", "een", "deze", "dit", "elke", "mij", "hem",
	// French
	"les", "une", "cet", "cette", "ces", "tous", "toutes", "chaque", "moi", "leurs", "ses",
	// Vietnamese, Indonesian/Malay
	"một", "các", "những", "mọi", "tất", "sebuah", "seorang", "semua", "setiap", "beberapa",
))

// openers are the closed-class words a statement may open with before a
// determiner: prepositions, conjunctions, subject pronouns, auxiliaries
// and copulas (a Romance statement drops its subject: "È la prima …"),
// and the adverbs of time and focus.
var openers = sync.OnceValue(func() map[string]bool { return union(englishOpeners(), otherOpeners()) })

// englishOpeners are openers' English words.
var englishOpeners = sync.OnceValue(set(
	"in", "on", "at", "for", "with", "without", "from", "to", "by", "of", "about", "after", "before", "since", "until", "till", "during", "under", "over", "across", "through", "throughout", "into", "onto", "per", "via", "within",
	"behind", "beyond", "besides", "between", "among", "against", "along", "around", "despite", "except", "like", "unlike", "following", "including", "regarding", "given", "upon", "toward", "towards", "near",
	"and", "but", "or", "nor", "so", "yet", "because", "although", "though", "while", "whereas", "when", "whenever", "where", "if", "unless", "once", "as", "than", "that", "which", "who", "whose", "whether",
	"it", "he", "she", "they", "we", "i", "you", "there", "here", "is", "are", "was", "were", "be", "been", "has", "have", "had", "does", "did", "will", "would", "can", "could", "should", "may", "might", "shall",
	"today", "yesterday", "tomorrow", "tonight", "now", "then", "also", "only", "just", "even", "still", "already", "often", "sometimes", "usually", "however", "therefore", "thus", "hence", "meanwhile", "otherwise", "instead",
	"it's", "that's", "there's", "here's", "what's", "earlier", "later", "maybe", "perhaps", "not", "both", "half", "whatever", "whichever", "almost", "nearly", "roughly", "above", "below", "beside", "inside", "outside", "off", "out", "up", "down", "past", "beneath", "unlike", "amid", "either", "neither", "such", "what", "how", "why", "whom", "eg", "ie", "etc", "vs", "via",
))

var otherOpeners = sync.OnceValue(set(
	// German, Dutch
	"im", "am", "an", "auf", "aus", "bei", "mit", "nach", "seit", "von", "vom", "zu", "zum", "zur", "für", "über", "unter", "vor", "hinter", "neben", "zwischen", "durch", "gegen", "ohne", "um", "während", "wegen", "trotz", "laut", "ab", "bis", "beim", "ins", "ans", "aufs",
	"und", "aber", "oder", "denn", "weil", "wenn", "als", "dass", "ob", "obwohl", "sobald", "seitdem", "damit", "sondern", "sowie", "bevor", "nachdem",
	"er", "sie", "es", "man", "ich", "wir", "ihr", "ist", "sind", "war", "waren", "hat", "haben", "wird", "werden", "wurde", "wurden",
	"heute", "gestern", "morgen", "jetzt", "dann", "auch", "nur", "noch", "schon", "hier", "dort", "da", "doch", "zudem", "außerdem", "deshalb", "daher", "trotzdem", "inzwischen", "derzeit", "aktuell", "meist", "oft", "manchmal", "bisher", "zuletzt", "zuerst", "danach", "vorher", "selbst", "sogar", "gerade", "erst", "dabei", "dafür", "darin", "dazu", "somit", "jedoch", "warum", "wie", "was", "wo", "wann", "nicht", "angesichts", "aufgrund", "außerhalb", "innerhalb", "mithilfe", "anhand", "statt", "anstatt", "infolge", "bezüglich", "hinsichtlich", "dank", "gemäß", "entlang", "ebenfalls",
	"op", "aan", "bij", "met", "na", "naar", "van", "voor", "door", "onder", "tijdens", "sinds", "tot", "uit", "zonder", "en", "maar", "of", "want", "omdat", "als", "wanneer", "dat", "hoewel", "zij", "hij", "wij", "ze", "is", "zijn", "was", "heeft", "hebben", "wordt", "worden",
	"vandaag", "gisteren", "nu", "daar", "ook", "alleen", "dan", "daarna", "al", "soms", "vaak", "toen",
	// French
	"à", "dans", "en", "pour", "avec", "sans", "sur", "sous", "chez", "par", "depuis", "pendant", "selon", "après", "avant", "contre", "entre", "vers", "malgré", "au", "aux", "et", "mais", "ou", "car", "si", "quand", "lorsque", "comme", "que", "qu", "puisque", "bien", "donc",
	"il", "elle", "on", "ils", "elles", "je", "tu", "vous", "ça", "cela", "ceci", "qui", "est", "sont", "était", "a", "ont", "avait", "sera", "c'est", "n'est",
	"aujourd'hui", "hier", "demain", "maintenant", "ici", "aussi", "seulement", "ensuite", "puis", "alors", "déjà", "souvent", "parfois", "désormais", "encore", "pourtant", "cependant", "ainsi", "voici", "voilà", "tout", "toute", "plus", "très", "d'après", "durant", "auparavant", "lors", "seule", "seul", "suivant", "c'était", "grâce", "voire", "parmi", "hormis", "sauf", "quant",
	// Spanish
	"de", "en", "con", "por", "para", "sin", "sobre", "entre", "desde", "hasta", "hacia", "según", "tras", "ante", "bajo", "mediante", "excepto", "salvo", "durante", "contra", "del", "al", "y", "e", "pero", "u", "porque", "cuando", "si", "como", "que", "aunque", "mientras", "pues",
	"él", "ella", "ellos", "ellas", "yo", "nosotros", "eso", "esto", "quien", "se", "le", "les", "me", "te", "es", "son", "está", "están", "era", "eran", "fue", "fueron", "hay", "ha", "han", "había", "será",
	"hoy", "ayer", "mañana", "ahora", "aquí", "allí", "también", "solo", "sólo", "luego", "después", "antes", "ya", "además", "incluso", "muy", "más", "así", "sí",
	// Italian
	"di", "da", "con", "su", "per", "tra", "fra", "del", "della", "dello", "dei", "delle", "degli", "nel", "nella", "nello", "nei", "nelle", "al", "alla", "allo", "ai", "alle", "dal", "dalla", "dai", "sul", "sulla", "sui", "dopo", "prima", "durante", "secondo", "senza", "verso", "contro", "tramite",
	"ma", "ed", "perché", "quando", "se", "che", "mentre", "sebbene", "poiché", "anche", "lui", "lei", "loro", "io", "noi", "voi", "essi", "esse", "ciò", "chi", "si", "ne", "è", "sono", "era", "erano", "c'è", "ha", "hanno", "aveva", "sarà", "ecco", "grazie",
	"forse", "tuttavia", "nonostante", "entro", "perciò", "allora", "infine", "invece", "purtroppo", "comunque", "siccome", "benché", "anzi", "oppure", "cioè", "ecco",
	"lunedì", "martedì", "mercoledì", "giovedì", "venerdì", "sabato", "domenica", "lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo",
	"entonces", "tampoco", "quizás", "quizá", "tal", "aún", "aun", "apenas", "casi", "então", "nem", "enquanto", "porém", "contudo", "talvez", "quase", "tanto",
	"oggi", "ieri", "domani", "ora", "adesso", "qui", "qua", "lì", "là", "solo", "poi", "quindi", "già", "spesso", "talvolta", "ancora", "inoltre", "infatti", "però", "dunque", "molto", "più", "così", "tutto", "non",
	// Portuguese
	"do", "da", "dos", "das", "em", "no", "na", "nos", "nas", "com", "pelo", "pela", "pelos", "pelas", "sem", "até", "após", "conforme", "ao", "aos", "à", "às", "mas", "ou", "porque", "embora", "ele", "ela", "eles", "elas", "isso", "isto", "lhe",
	"é", "são", "está", "estão", "foi", "era", "há", "tem", "têm", "hoje", "ontem", "amanhã", "agora", "aqui", "também", "só", "depois", "já", "além", "ainda", "muito", "mais", "assim", "não", "segundo", "entre", "sobre", "para", "por", "de",
	// Vietnamese, Indonesian/Malay
	"trong", "vào", "từ", "sau", "trước", "khi", "nếu", "vì", "và", "nhưng", "theo", "với", "để", "do", "tại", "ở", "ngoài", "hôm", "hiện", "cho", "là", "có", "không",
	"di", "ke", "dari", "pada", "dalam", "untuk", "dengan", "tanpa", "oleh", "sejak", "setelah", "sebelum", "saat", "ketika", "jika", "karena", "dan", "tetapi", "atau", "sekarang", "kemarin", "juga", "hanya", "ini", "itu", "adalah", "ada", "tak", "tidak", "menurut", "bukan",
))

// howTo returns the words that open a clause of s (lower case) as an
// interrogative before an infinitive or a bare verb, the headline of a
// request for a method ("how to …", "come tagliare …", "如何…", "jinsi
// ya …", "…하는 법"), or "". An interrogative with no finite verb after it
// asks the reader for instructions; a statement puts its subject and verb
// after it ("how the deploy works is …").
func howTo(s string) string {
	for _, c := range clauses(s) {
		if w := howToOpening(words(c)); w != "" {
			return w
		}
		for _, p := range howToJoined {
			if strings.HasPrefix(c, p) {
				return p
			}
		}
		if w := methodNamedLast(c); w != "" {
			return w
		}
		if w := chineseTry(c); w != "" {
			return w
		}
	}
	return ""
}

// howToOpeners maps an interrogative that opens a clause to the test of
// the clause's words (ws[1] is the one after it) that makes the clause a
// request for a method.
var howToOpeners = func() map[string]func(ws []string) bool {
	m := map[string]func(ws []string) bool{
		"wie":   func(ws []string) bool { return ws[1] == "man" },
		"jinsi": func(ws []string) bool { return ws[1] == "ya" },
		// Indonesian "cara …" (the way to …), not "cara ini" (this way).
		"cara": func(ws []string) bool { return len(ws) > 2 && ws[2] != "ini" },
		"làm":  func(ws []string) bool { return ws[1] == "thế" || ws[1] == "sao" },
		"cách": func(ws []string) bool { return ws[1] != "đây" },
	}
	for _, w := range []string{"how", "what", "where", "which", "whom", "who"} {
		m[w] = func(ws []string) bool { return ws[1] == "to" }
	}
	for _, w := range []string{"come", "cosa", "dove", "como", "comment", "où", "quoi"} {
		m[w] = func(ws []string) bool { return romanceInfinitive(ws[1]) }
	}
	// Russian and Ukrainian: the infinitive in -ть, -ться, -ти, -чь.
	for _, w := range []string{"как", "як", "где", "куда", "что", "що"} {
		m[w] = func(ws []string) bool { return hasSuffixAny(ws[1], "ть", "ться", "ти", "чь") }
	}
	return m
}()

// howToOpening returns a clause's first two words ws when they are an
// interrogative and what makes it a request for a method, or "".
func howToOpening(ws []string) string {
	if len(ws) < 2 {
		return ""
	}
	if method, ok := howToOpeners[ws[0]]; ok && method(ws) {
		return ws[0] + " " + ws[1]
	}
	return ""
}

// methodNamedLast returns the word for "method" when Korean or Japanese
// name it last, after a verb: "…하는 법", "…する方法".
func methodNamedLast(c string) string {
	end := strings.TrimRight(c, " \t\"'”」』)")
	if hasSuffixAny(end, " 법", " 방법", "는 법", "는 방법", "하는법", "하는방법") {
		return "법"
	}
	// (After a verb: a kana, not の, nor Chinese 的方法, "the method of".)
	if before, ok := strings.CutSuffix(end, "方法"); ok {
		if r, _ := utf8.DecodeLastRuneInString(before); unicode.Is(unicode.Hiragana, r) && r != 'の' {
			return "方法"
		}
	}
	return ""
}

// chineseTry returns the verb and 一下 straight after it that open clause
// c: Chinese asks for a method so ("解释一下…").
func chineseTry(c string) string {
	if i := strings.Index(c, "一下"); i > 0 && utf8.RuneCountInString(c[:i]) <= 3 && !strings.ContainsAny(c[:i], "了我你他她它们") {
		return c[:i] + "一下"
	}
	return ""
}

// Korean asks with 왜 (why) and 어떻게 (how) inside its clause; a word
// in -지, -느냐 or -는가 after them makes the question embedded ("왜
// 그런지 모른다", "어떻게 정의했느냐에 따른다").
func koreanAsked(s string) string {
	for _, c := range clauses(s) {
		ws := words(c)
		for i, w := range ws {
			if w != "왜" && w != "어떻게" {
				continue
			}
			embedded := false
			for _, x := range ws[i+1:] {
				embedded = embedded || strings.HasSuffix(x, "지") || strings.Contains(x, "느냐") || strings.Contains(x, "는가")
			}
			if !embedded {
				return w
			}
		}
	}
	return ""
}

// finalParticle returns the particle that ends a clause of s as an order:
// Vietnamese đi after a verb phrase (not after the tense markers, where
// it is the verb "go": "đã đi"), Thai ซะ and เถอะ.
func finalParticle(s string) string {
	for _, c := range clauses(s) {
		ws := words(c)
		if len(ws) < 2 {
			continue
		}
		last, prev := ws[len(ws)-1], ws[len(ws)-2]
		if last == "đi" && !vietnameseTense()[prev] {
			return last
		}
	}
	for _, c := range clauses(s) {
		// Thai writes a clause without spaces: its particle ends it.
		if c = strings.TrimRight(c, " \t\"'”)"); scriptBefore(c, len(c), unicode.Thai) && hasSuffixAny(c, "ซะ", "เถอะ") {
			return c[strings.LastIndexAny(c, " ")+1:]
		}
	}
	return ""
}

// chinesePlease returns the 请 (please) that opens a clause of s after a
// comma, or "": Chinese chains its clauses with the comma, and 请 opens an
// order there as it opens a sentence (…，请列出…; imperativePrefixes).
// 请求 (to request) is a verb of its own, as the Chinese treebank segments
// it, and 请 before a third person is the verb "ask someone to"
// ("…，请他们试用"): a statement's clause may open with either.
func chinesePlease(s string) string {
	for _, c := range clauses(s) {
		for j, p := range strings.FieldsFunc(c, func(r rune) bool { return r == ',' || r == '，' }) {
			p = strings.TrimLeft(p, " \t\"'“「『")
			if j > 0 && hasPrefixAny(p, "请", "請") && !hasPrefixAny(p, "请求", "請求", "请他", "请她", "请它", "請他", "請她", "請它") {
				return p[:len("请")]
			}
		}
	}
	return ""
}

var vietnameseTense = sync.OnceValue(set("đã", "sẽ", "đang", "vừa", "mới", "không", "chưa", "cùng", "hay", "thường", "phải", "muốn", "cần", "sắp"))

// howToJoined open a request for a method in scripts without spaces, and
// Arabic's "how" as a noun (the way of …).
var howToJoined = []string{"如何", "怎么", "怎樣", "怎样", "怎麼", "วิธี", "كيفية", "どうやって", "どのように"}

// romanceInfinitive reports an Italian, Spanish, Portuguese or French
// infinitive by its ending (-are/-ere/-ire, -ar/-er/-ir, -re), with an
// enclitic pronoun after it (farlo, hacerlo).
func romanceInfinitive(w string) bool {
	for _, clitic := range []string{"", "lo", "la", "li", "le", "ne", "mi", "ti", "si", "ci", "gli", "me", "te", "se", "nos"} {
		stem, ok := strings.CutSuffix(w, clitic)
		if !ok || utf8.RuneCountInString(stem) < 4 {
			continue
		}
		if clitic != "" && hasSuffixAny(stem, "ar", "er", "ir") || hasSuffixAny(stem, "are", "ere", "ire", "ar", "er", "ir", "re") {
			return true
		}
	}
	return false
}

// personOpens returns the first word of a clause of s (lower case) whose
// ending or prefix is the first person, in the languages that drop the
// subject and mark the person on the verb, or "": Spanish and Portuguese
// -amos/-emos/-imos, Italian -iamo, Swahili ni-/tu- before a tense
// (ninaishi, nilisikia, tunataka), and French -ons with no "nous" before
// it, which is the imperative "let us" ("Soyons …"). Like personWord,
// it holds a claim that speaks as someone or to the reader; only the
// verb's form, not a pronoun, says so. The Spanish and Italian endings
// count where the verb opens its clause, before any noun ("extremos",
// "programmi" are not verbs there in a claim).
func personOpens(s string) string {
	sw := swahili(s)
	if sw {
		if w := swahiliFirstPerson(s); w != "" {
			return w
		}
	}
	if w := speakersWish(s); w != "" {
		return w
	}
	for _, c := range clauses(s) {
		if w, _ := firstWord(c); firstPersonOpens(w, s, sw) {
			return w
		}
	}
	return ""
}

// swahiliFirstPerson returns a Swahili verb with "I", "we" or "you
// would" joined: Swahili joins the subject to its verb as a prefix
// before the tense (ni-na-ishi, tu-li-sema, u-nge-penda), wherever the
// verb stands.
func swahiliFirstPerson(s string) string {
	for _, w := range words(s) {
		if n := utf8.RuneCountInString(w); n >= 6 && hasPrefixAny(w, "nina", "nili", "nime", "nita", "tuna", "tuli", "tume", "tuta", "unge") {
			return w
		}
		// The subjunctive (-e) with "me" joined as its subject or its
		// object: nisaidie (help me), nimtazame (that I watch her).
		if n := utf8.RuneCountInString(w); n >= 6 && strings.HasPrefix(w, "ni") && strings.HasSuffix(w, "e") {
			return w
		}
	}
	return ""
}

// speakersWish returns the Korean or Japanese wish (싶어, 書きたい) in a
// clause of s: it is the speaker's own; of someone else these languages
// say 싶어한다, 書きたがる.
func speakersWish(s string) string {
	for _, c := range clauses(s) {
		ws := words(c)
		for i, w := range ws {
			if koreanWish()[w] && (i+1 == len(ws) || !koreanDo()[ws[i+1]]) {
				return w
			}
		}
		if w := japaneseWish(c); w != "" {
			return w
		}
	}
	return ""
}

// firstPersonOpens reports w, the first word of a clause of s, as a verb
// in the first person (sw: s is Swahili).
func firstPersonOpens(w, s string, sw bool) bool {
	n := utf8.RuneCountInString(w)
	switch {
	case scriptBefore(w, len(w), unicode.Arabic):
		// Arabic: the future and the first person joined (سأكتب, I
		// will write), and a verb opening its clause with the object
		// "me" joined (اضربني, جهزني, يمكنني).
		return strings.HasPrefix(w, "سأ") && n > 3 || objectMe(w)
	case n < 5:
		return false
	case scriptBefore(w, len(w), unicode.Cyrillic):
		return russianFirstPlural(w)
	case sw && strings.HasPrefix(w, "ni") && strings.HasSuffix(w, "je"):
		return true
	case polish(s) || english(s):
		return false
	}
	return romanceFirstPerson(w, n, s)
}

// russianFirstPlural reports w by the Russian first person plural,
// which opens a clause with no мы as "let us" does ("Откроем сейф и
// посмотрим …", the hortative; давайте is the lexicon's): -ём, -ем
// after a vowel of the first conjugation (сделаем, попробуем) or a
// consonant, -им of the second (посмотрим). Not what the same endings
// make of nouns and adjectives in the instrumental: -ием, -ем after л or
// ц (изучением, учителем, месяцем), -им after a velar, a hushing
// consonant or н (голландским, хорошим, последним), and -ым.
func russianFirstPlural(w string) bool {
	r := []rune(w)
	if len(r) < 6 {
		return false
	}
	end, before := string(r[len(r)-2:]), r[len(r)-3]
	switch end {
	case "ём":
		return true
	case "ем":
		return !strings.ContainsRune("илцье", before)
	case "им":
		return !strings.ContainsRune("кгхжшчщнь", before)
	}
	return false
}

// romanceFirstPerson reports w (n runes) by the Spanish, Portuguese,
// Italian or French ending of the first person plural.
func romanceFirstPerson(w string, n int, s string) bool {
	return hasSuffixAny(w, "amos", "emos", "imos") && !strings.ContainsAny(w, "áéíóú") ||
		strings.HasSuffix(w, "iamo") && n > 5 ||
		strings.HasSuffix(w, "ons") && !strings.HasSuffix(w, "ions") && frenchOnly(s)
}

// objectMe reports an Arabic verb with the object "me" (ني) joined: a
// root of three letters at least before it, after the person's prefix;
// with fewer, ني ends the root itself (يجني, "earns"), and an article
// makes the word a noun or an adjective (الثاني).
func objectMe(w string) bool {
	stem, ok := strings.CutSuffix(w, "ني")
	if !ok || strings.HasPrefix(w, "ال") {
		return false
	}
	for _, p := range []string{"ي", "ت", "أ", "ن"} {
		if rest, ok := strings.CutPrefix(stem, p); ok {
			stem = rest
			break
		}
	}
	return utf8.RuneCountInString(stem) >= 3
}

// arabicStem is w without the conjunction or preposition Arabic joins
// before it (و, ف, ل, ب: فأنت, "so you"), or "" for another word.
func arabicStem(w string) string {
	for _, p := range []string{"و", "ف", "ل", "ب"} {
		if rest, ok := strings.CutPrefix(w, p); ok && utf8.RuneCountInString(rest) > 1 && scriptBefore(rest, len(rest), unicode.Arabic) {
			return rest
		}
	}
	return ""
}

var (
	koreanWish = sync.OnceValue(set("싶어", "싶어요", "싶다", "싶습니다", "싶은데", "싶을걸", "싶네", "싶어서"))
	koreanDo   = sync.OnceValue(set("한다", "해", "하다", "합니다", "했다", "하는", "해요", "하고"))
)

// japaneseWish returns the desiderative -たい that ends clause c after a
// verb's stem (書きたい, 行きたいです), or "".
func japaneseWish(c string) string {
	c = strings.TrimRight(c, " \t\"'”」』)")
	for _, end := range []string{"たいです", "たいのです", "たいんです", "たいと思います", "たいと思う", "たいと思っています", "たい"} {
		if rest, ok := strings.CutSuffix(c, end); ok {
			// After a verb's stem, a kana of the i- or e-row; not
			// ぜったい (absolutely), だいたい (mostly), めでたい.
			r, _ := utf8.DecodeLastRuneInString(rest)
			if unicode.Is(unicode.Hiragana, r) && !strings.ContainsRune("っだでめ", r) {
				return string(r) + end
			}
		}
	}
	return ""
}

// swahili reports text with one of Swahili's joining words: the
// connectives of its noun classes, its prepositions and conjunctions.
func swahili(lower string) bool {
	if polish(lower) || czech(lower) {
		return false // Polish "na", "za": and its nie-, ni- words
	}
	return holdsWords(lower, swahiliWords(), 1)
}

var swahiliWords = sync.OnceValue(set("ya", "kwa", "cha", "vya", "wa", "za", "katika", "kwenye", "na", "kuhusu", "kwamba", "sana", "mtu", "watu", "pia", "lakini", "hii", "hiyo", "ili", "kama", "bila", "zaidi", "sasa"))

func hasPrefixAny(w string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(w, p) {
			return true
		}
	}
	return false
}

// encliticOrder returns the first word of a clause, or of a phrase
// after a comma, of s (lower case) that is a Spanish verb with its
// imperative with its pronoun joined to it, or "": only the imperative,
// the infinitive and the gerund take a pronoun after them, and the
// accent Spanish writes when the pronoun pushes the stress back marks it
// ("Dígame", "Cuéntame", "Explícanos", "Dáselo", "…, mándeme",
// "Ayúdenme"). What stands before the pronoun is an imperative the
// lexicon makes or ends as the imperative ends (spanishEnclitic); the
// gerund's -ndo opens a phrase of a statement ("…, convirtiéndose en").
func encliticOrder(s string) string {
	if frenchOnly(s) {
		return ""
	}
	for _, c := range clauses(s) {
		for _, p := range strings.FieldsFunc(c, func(r rune) bool { return r == ',' || r == '，' }) {
			if w, _ := firstWord(strings.TrimLeft(p, " \t\"'“«¡(")); spanishEnclitic(w) {
				return w
			}
		}
	}
	return ""
}

// spanishEnclitic reports an imperative with a pronoun joined (see
// encliticOrder): one or two of Spanish's object pronouns after a stem
// that carries the written accent (dígame, ayúdenme, explíquelo, dáselo).
// The stem is an imperative when it is a form the verb lexicon makes
// (treebank.go: ayuden, explique), or, the tú imperative being no form the
// lexicon keeps (cuenta, explica), when it ends as the imperative ends, in
// -a or -e, before a pronoun no noun ends in: nouns end in -lo, -la, -los,
// -las, -les (capítulo, fórmula, móviles), never in two pronouns.
func spanishEnclitic(w string) bool {
	for _, last := range spanishClitics {
		stem, ok := strings.CutSuffix(w, last)
		if !ok {
			continue
		}
		if imperativeStem(stem, !nounEnding(last)) {
			return true
		}
		for _, first := range spanishClitics {
			if inner, ok := strings.CutSuffix(stem, first); ok && imperativeStem(inner, true) {
				return true
			}
		}
	}
	return false
}

// spanishClitics are the object pronouns Spanish joins to an imperative.
var spanishClitics = []string{"me", "te", "se", "nos", "os", "le", "les", "lo", "la", "los", "las"}

// nounEnding reports the pronouns nouns end in too.
func nounEnding(clitic string) bool { return strings.HasPrefix(clitic, "l") && clitic != "le" }

// imperativeStem reports what spanishEnclitic takes for an imperative
// before its pronouns: accented and a form of the lexicon, or, where
// byVowel, accented and ending in -a or -e.
func imperativeStem(stem string, byVowel bool) bool {
	if utf8.RuneCountInString(stem) < 2 || !strings.ContainsAny(stem, "áéíóú") {
		return false
	}
	return byVowel && hasSuffixAny(stem, "a", "e", "á", "é") ||
		treebank().imperativeOf(unaccent.Replace(stem), "Spanish")
}

// unaccent takes the written accent off a Spanish vowel.
var unaccent = strings.NewReplacer("á", "a", "é", "e", "í", "i", "ó", "o", "ú", "u")

// italianOrder returns the first word of a clause or of a phrase after a
// comma of s (lower case) that is an Italian verb addressing the reader,
// or "": with a pronoun joined to the imperative ("Raccontami",
// "Descrivimi", "Aiutatemi"), or in -i before an article, the second person singular
// of every conjugation, indicative or imperative ("Uccidi tutti …",
// "…, fornisci una ricetta"): a third person never ends in -i, and a
// plural noun opens no clause without its article.
func italianOrder(s string) string {
	if !italian(s) {
		return ""
	}
	for _, c := range clauses(s) {
		for j, p := range strings.FieldsFunc(c, func(r rune) bool { return r == ',' || r == '，' }) {
			first, rest := firstWord(strings.TrimLeft(p, " \t\"'“«("))
			n := utf8.RuneCountInString(first)
			// Not a superlative (moltissimi).
			if j == 0 && n >= 8 && hasSuffixAny(first, "ami", "imi") && !strings.HasSuffix(first, "issimi") {
				return first
			}
			// The second person plural with a pronoun joined (aiutatemi,
			// ditemi, mandateci): a participle takes none ("sistemi").
			if j == 0 && n >= 6 && hasSuffixAny(first, "atemi", "etemi", "itemi", "ateci", "eteci", "iteci", "atelo", "etelo", "itelo") {
				return first
			}
			// Not an infinitive with its pronoun (dargli, farli) nor a
			// quantifier or a relative (tutti i, quali il).
			next, _ := firstWord(rest)
			if n >= 4 && strings.HasSuffix(first, "i") && !notVerb(first) && !italianQuantifiers()[first] && !hasSuffixAny(first, "gli", "rli", "rci", "rsi", "rmi", "rti") &&
				(italianArticles()[next] || strings.HasPrefix(next, "l'")) {
				return first
			}
		}
	}
	return ""
}

var italianQuantifiers = sync.OnceValue(set("tutti", "alcuni", "molti", "pochi", "altri", "diversi", "vari", "entrambi", "parecchi", "troppi", "tanti", "quanti", "certi", "quali", "cui", "taluni", "ambedue"))

var italianArticles = sync.OnceValue(set("il", "lo", "gli", "i", "uno", "una", "un", "la", "le", "questo", "questa", "questi", "queste", "quel", "quella", "quelle", "quei", "tutti", "tutte", "ogni"))

// italian reports text with two words only Italian writes among the
// languages of the lists.
func italian(s string) bool { return holdsWords(s, italianWords(), 2) }

var italianWords = sync.OnceValue(set("il", "di", "della", "delle", "degli", "dei", "gli", "che", "nel", "nella", "sulla", "sulle", "è", "più", "questo", "questa", "tutti", "tutte", "sono", "non", "per", "con", "una", "uno", "anche", "ogni", "alla", "alle", "i"))
