package rules

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// More orders read from a verb's form, for ordered: the Russian
// imperative in -ьте and the infinitive that opens a task, the Arabic
// imperative of the simple verb and a verb with "me" joined before an
// interrogative, and the Japanese sentence that ends in a plain verb
// after its object with no topic or subject. Each is a fact of the
// language's paradigm or word order, not a phrase a payload used.

// russianOrder returns the Russian verb that makes a clause of lower an
// order, or "": the imperative plural in -ьте or -ьтесь wherever it
// stands (the -ите and -йте forms are orderOpening's; only the
// imperative ends in ь before -те: забудьте, оставьте, бросьтесь), or the
// verb that opens a clause, after the negation не too, when it is an
// imperative plural, reflexive or not, or an infinitive. Russian writes a task or a prohibition with a bare
// infinitive ("Создать отчёт", "Не курить"); a statement opens with its
// subject or a circumstance. An infinitive is the subject when the
// copula follows it ("Установить фазу было возможно").
func russianOrder(lower string) string {
	if strings.IndexFunc(lower, func(r rune) bool { return unicode.Is(unicode.Cyrillic, r) }) < 0 {
		return ""
	}
	for _, w := range words(lower) {
		if hasSuffixAny(w, "ьте", "ьтесь") && utf8.RuneCountInString(w) > 4 && scriptBefore(w, len(w), unicode.Cyrillic) {
			return w
		}
	}
	for _, c := range clauses(lower) {
		first, rest := firstWord(c)
		if first == "не" {
			first, _ = firstWord(rest)
		}
		// (The reflexive too: "Не стесняйтесь …", "Садитесь".)
		if russianInfinitive(first) && !russianCopula(c) || first != "" && hasSuffixAny(first, "ите", "йте", "итесь", "йтесь") && utf8.RuneCountInString(first) > 4 && scriptBefore(first, len(first), unicode.Cyrillic) {
			return first
		}
	}
	return ""
}

// russianInfinitive reports w by the infinitive's endings: a vowel and
// -ть (создать, сделать, уничтожить, взять), the reflexive -ться and
// -тись, and -йти, -дти (найти, идти). Words of five letters at least:
// the short nouns of the third declension share the ending (мать, путь,
// сеть, суть), and so do the numerals in -ять and -дцать and a few
// longer nouns and adverbs, left out by name.
func russianInfinitive(w string) bool {
	n := utf8.RuneCountInString(w)
	if n < 5 || !scriptBefore(w, len(w), unicode.Cyrillic) || russianNotInfinitive()[w] || hasSuffixAny(w, "дцать", "десять") {
		return false
	}
	return hasSuffixAny(w, "ать", "ять", "еть", "ить", "уть", "ыть", "оть", "ться", "тись", "йти", "дти")
}

// russianCopula reports the copula of a clause whose subject is an
// infinitive: a form of быть, or это, значит or a dash in the present.
func russianCopula(c string) bool {
	return holdsWords(c, russianCopulas(), 1) || strings.ContainsAny(c, "—–")
}

var russianCopulas = sync.OnceValue(set("было", "будет", "была", "был", "бы", "это", "значит", "означает"))

var russianNotInfinitive = sync.OnceValue(set("девять", "опять", "память", "печать", "кровать", "благодать", "ртуть", "плоть", "ломоть", "локоть", "ноготь", "коготь", "копоть"))

// arabicOrder returns the Arabic verb that opens a clause of lower (a
// sentence, or a phrase after a comma or و, ف) as an order, or "".
func arabicOrder(lower string) string {
	if strings.IndexFunc(lower, func(r rune) bool { return unicode.Is(unicode.Arabic, r) }) < 0 {
		return ""
	}
	for _, c := range strings.FieldsFunc(lower, func(r rune) bool { return strings.ContainsRune(".!;:،؛,\n", r) }) {
		ws := words(c)
		if len(ws) == 0 || !scriptBefore(ws[0], len(ws[0]), unicode.Arabic) {
			continue
		}
		first := ws[0]
		if stem := arabicStem(first); stem != "" && hasPrefixAny(first, "و", "ف") {
			first = stem
		}
		if arabicSimpleImperative(first) {
			return first
		}
		// A verb with the object "me" joined (أرني, أخبرني, علمني)
		// before an interrogative or عن: "show me how", "tell me
		// about". A noun takes -ي, not -ني, for "my", and an article
		// makes the word a noun or an adjective (الثاني).
		if len(ws) > 1 && strings.HasSuffix(first, "ني") && !strings.HasPrefix(first, "ال") && utf8.RuneCountInString(first) >= 4 && arabicAskAfterMe()[ws[1]] {
			return first + " " + ws[1]
		}
	}
	return ""
}

// arabicSimpleImperative reports the imperative of the simple verb: a
// bare alif (the connecting hamza, written without one) and the three
// letters of the root (اصنع, اشرح, اذكر). With a hamza the same shape is
// an elative or a perfect (أكثر, أصبح); with ت after the first letter of
// the root, or in its place, it is a perfect of the eighth form (احتل,
// امتد, اتخذ); ى, ا or ة
// last end no imperative (ادعى), and ال is the article.
func arabicSimpleImperative(w string) bool {
	r := []rune(w)
	return len(r) == 4 && r[0] == 'ا' && r[1] != 'ل' && r[1] != 'ت' && r[2] != 'ت' && !strings.ContainsRune("ىاةء", r[3])
}

var arabicAskAfterMe = sync.OnceValue(set("كيف", "كيفية", "ماذا", "ما", "متى", "أين", "لماذا", "عن"))

// japaneseTask returns the verb that ends a Japanese sentence of lower
// in its plain non-past (the u-row kana: 書く, 作る, 送る, 攻撃する) after
// an object marked with を, when the sentence has neither a topic (は)
// nor a subject (が): the form of a task or an order ("記事を書く。"). A
// statement about someone names them with は or が, and a past or polite
// verb ends in た, ます or です.
func japaneseTask(lower string) string {
	if !strings.Contains(lower, "を") {
		return ""
	}
	for _, s := range strings.FieldsFunc(lower, func(r rune) bool { return strings.ContainsRune("。！？!?\n", r) }) {
		s = strings.TrimRight(s, " \t\"'”」』)）")
		last, _ := utf8.DecodeLastRuneInString(s)
		if !strings.ContainsRune("うくぐすつぬぶむる", last) || hasSuffixAny(s, "ます", "です") || strings.ContainsAny(s, "はが") {
			continue
		}
		if i := strings.LastIndex(s, "を"); i >= 0 {
			return s[i:]
		}
	}
	return ""
}
