package rules

import (
	_ "embed"
	"strings"
	"sync"
)

// englishwords.txt is scripts/scowlwords' output: SCOWL's notice, then
// the words of Debian's wamerican (SCOWL, size 50) written in lower-case
// letters a-z, and the names it writes with a capital that are such a
// word too ("Bill", "Dirk", "Rose"), one a line, sorted.
//
//go:embed englishwords.txt
var englishWordsTxt string

// englishVocabulary is englishwords.txt's words, past the notice that
// heads it, as a row of the tables' form (sorted, one space between), so
// inRow finds a word where it lies: the list is never parsed.
var englishVocabulary = sync.OnceValue(func() string {
	body := englishWordsTxt
	for strings.HasPrefix(body, "#") {
		_, body, _ = strings.Cut(body, "\n")
	}
	return strings.TrimSpace(strings.ReplaceAll(body, "\n", " "))
})

// unwritten reports a sentence none of whose words a covered language's
// table reads as one the gate leaves as before it (stated: a name, a
// number, code, another script): unless it is typed in lower case with a
// word (spelt), or holds a word English writes (englishWrites).
func unwritten(s string) bool {
	return !spelt(s) && !englishWrites(s)
}

// englishWrites reports a sentence that holds a word English writes:
// one of three letters or more, a-z, found in englishwords.txt as it is
// typed or with each run of one letter typed three times or more read
// once or twice ("Hellllooooooo", "Yeeees"). A word in lower case counts
// wherever it stands; a capitalised one only first, where a sentence's
// first word is capitalised whatever it is; further on a capital marks a
// name ("Sheila Tweed"), and first too when the list writes it as a
// name ("Dirk Frimout", "Rose Tyler", "Gene gittin oraya."). The gate's tables write the words of a
// covered language that the treebanks annotate; a word they never wrote
// but English's lexicon does ("Undo", "Exit", "Cricket", "Hello") is still
// English's, no name, number or code, so a sentence opened with a capital
// and holding one is read as English, not passed as before the gate
// (stated: no verb of it states).
func englishWrites(s string) bool {
	list := englishVocabulary()
	for i, f := range strings.Fields(s) {
		f = strings.Trim(f, wordMarks)
		if len(f) < 3 || i > 0 && !isLowerASCII(f[0]) {
			continue
		}
		if i == 0 && !isLowerASCII(f[0]) && inRow(list, f) {
			continue // a name: "Dirk", "Eddy"
		}
		w := strings.ToLower(f)
		if strings.IndexFunc(w, func(r rune) bool { return r < 'a' || r > 'z' }) >= 0 {
			continue
		}
		for _, v := range unrun(w) {
			if inRow(list, v) {
				return true
			}
		}
	}
	return false
}

func isLowerASCII(b byte) bool { return b >= 'a' && b <= 'z' }

// unrun returns w and, if w types one letter three times or more in a
// run, its readings with each such run once or twice (at most three
// runs: eight readings).
func unrun(w string) []string {
	type run struct{ at, n int }
	var runs []run
	for i := 0; i < len(w); {
		j := i
		for j < len(w) && w[j] == w[i] {
			j++
		}
		if j-i >= 3 {
			runs = append(runs, run{i, j - i})
		}
		i = j
	}
	if len(runs) == 0 || len(runs) > 3 {
		return []string{w}
	}
	out := []string{w}
	for m := 0; m < 1<<len(runs); m++ {
		var b strings.Builder
		last := 0
		for k, r := range runs {
			b.WriteString(w[last:r.at])
			b.WriteString(w[r.at : r.at+1+m>>k&1])
			last = r.at + r.n
		}
		b.WriteString(w[last:])
		out = append(out, b.String())
	}
	return out
}

// askedIs returns an interrogative joined to "is" and typed without its
// apostrophe ("whats", "hows", "wheres") as the treebanks write it,
// "what's": the gate then reads it as it reads "What's up" (a question).
// In EWT and GUM dev and test a sentence opened by an interrogative and
// "'s" is a question 11 times in 14 (the others free relatives: "What's
// happening now is bigger …"); no "whats" is written there, and the
// table's row of English statements holds it only as a form it never
// split.
func askedIs(w string) string {
	switch w {
	case "whats", "hows", "wheres", "whos", "whens", "whys":
		return w[:len(w)-1] + "'s"
	}
	return w
}
