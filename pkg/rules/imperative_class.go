package rules

import (
	"strings"
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
			if stem, ok := strings.CutSuffix(base, e.ending); ok && f.itLemma[stem+e.infinitive] {
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
