// Which covered language reads a sentence (stated votes by these), and
// the sentences the gate leaves to the deny rules and unjudged: those of a
// language it has no rows for, or with no word a covered language writes.
package rules

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

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

// wordMarks are the marks around a field that are not its word (spelt,
// englishWrites).
const wordMarks = ".,;:!?\"'()[]«»“”‘’¿¡…"

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
		f = strings.Trim(f, wordMarks)
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
