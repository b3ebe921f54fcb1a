// The statement gate's text: a claim cut into sentences, a sentence into
// tokens, each token the lower-case words it is read as (statement.go
// reads them).
package rules

import (
	"cmp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// gateSentences are text's sentences as the gate reads them: fenced code
// left out, cut at line breaks and at sentence ends before a space or the
// text's end (not in "config.yaml", "1.25", "io.Reader"), each trimmed of the
// marks before its first word (list bullets, numbering, quotes); those
// with no letter are none.
func gateSentences(text string) []string {
	var kept strings.Builder
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		if t := strings.TrimSpace(line); strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			fenced = !fenced
			continue
		}
		if !fenced {
			kept.WriteString(line)
			kept.WriteByte('\n')
		}
	}
	var out []string
	t := kept.String()
	start := 0
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		end := r == '\n' || strings.ContainsRune("。！？；", r)
		if strings.ContainsRune(".!?;", r) {
			next, _ := utf8.DecodeRuneInString(t[i+1:])
			end = i+1 == len(t) || unicode.IsSpace(next) && !(r == '.' && abbreviated(t[start:i]))
		}
		i += size
		if end || i == len(t) {
			stop := i
			if s := openingTrimmed(t[start:stop], sentenceTrim); strings.IndexFunc(s, unicode.IsLetter) >= 0 {
				out = append(out, strings.TrimSpace(s))
			}
			start = stop
		}
	}
	return out
}

// abbreviated reports a text whose last token, before a full stop, is a
// number or a word of one to three letters ("4." of German's "4. Klasse",
// "z. B.", "Mr.", "ca."): the stop marks an ordinal or an abbreviation,
// not a sentence's end.
//
// An opening bracket or quote before it is not part of it ("(c. 1230
// BC)"), and letters each followed by a stop are initials ("U.S.", "a.m.",
// "e.g."): in EWT's and GUM's dev sentences such initials stand before a
// space within a sentence 20 times and end one twice ("… the U.S.
// citizens", "… evacuating U.S. citizen."). Both were read as a
// sentence's end, and its halves held.
func abbreviated(before string) bool {
	last := before[strings.LastIndexFunc(before, unicode.IsSpace)+1:]
	last = strings.TrimLeft(last, "([{\"'“‘«")
	if last == "" {
		return false
	}
	if strings.IndexFunc(last, func(r rune) bool { return !unicode.IsDigit(r) }) < 0 {
		return true
	}
	return utf8.RuneCountInString(last) <= 3 && strings.IndexFunc(last, func(r rune) bool { return !unicode.IsLetter(r) }) < 0 ||
		initials(last)
}

// initials reports letters each followed by a stop, the last one's stop
// left out: "U.S" of "U.S.", "a.m", "e.g".
func initials(w string) bool {
	n := 0
	for i, r := range w {
		if i%2 == 1 != (r == '.') || r != '.' && (r >= utf8.RuneSelf || !unicode.IsLetter(r)) {
			return false
		}
		n++
	}
	return n >= 3 && n%2 == 1
}

// gateTokens are s's tokens, each the lower-case words it is read as: a
// token with no letter or with a digit (a number, a version, a commit, a
// code span's sign) is a token with no word, which still stands before what follows; a word with an
// apostrophe is read as its parts, the one before with it ("l'", "dov'",
// "it") and the one after with and without it ("'s", "est"). upper says,
// token by token, which were written with a capital first letter, and
// pause which are followed by a comma, a colon or a dash (a clause ends).
func gateTokens(s string) (out [][]string, upper, pause []bool) {
	fields := strings.Fields(s)
	quoted := quotedFields(fields)
	for fi, f := range fields {
		if f == "—" || f == "–" {
			if len(pause) > 0 {
				pause[len(pause)-1] = true
			}
			continue
		}
		stop := pauses(f)
		digit := quoted[fi] || strings.ContainsFunc(f, unicode.IsDigit) // asked before the marks are trimmed: "6am", "10am" and "3rd" are names, not "am", "rd"
		// One word in brackets is a gloss or a name, no verb and no
		// relative: "The World Health Organisation (WHO) recommends …" read
		// "who". EWT and GUM dev bracket one word 38 times: 14 names, 13
		// numbers, 6 nouns, 3 adverbs, 1 adjective, no verb.
		if c := strings.TrimRight(f, ".,;:!?"); len(c) > 2 && c[0] == '(' && c[len(c)-1] == ')' && !strings.Contains(c[1:len(c)-1], "(") {
			digit = true
		}
		f = strings.TrimFunc(f, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) && r != '\'' })
		f = strings.Trim(f, "'")
		first, _ := utf8.DecodeRuneInString(f)
		up := unicode.IsUpper(first)
		f = askedIs(strings.ToLower(f)) // "whats up" is "what's up"
		switch before, after, ok := strings.Cut(f, "'"); {
		case f == "" || digit:
			out, upper, pause = append(out, nil), append(upper, false), append(pause, false)
		case ok && after == "t" && strings.HasSuffix(before, "n") && len(before) > 2:
			// English "n't" is its own word, as the treebanks write it: "doesn't" is
			// "does" "n't"; "can't", "won't" and "shan't" are "can", "will" and
			// "shall" (the treebanks' "ca", "wo", "sha").
			aux := before[:len(before)-1]
			aux = cmp.Or(negatedAux[aux], aux)
			out, upper, pause = append(out, []string{aux}, []string{"n't", "not"}), append(upper, up, false), append(pause, false, false)
		case ok && before != "" && contracted[after] != "":
			// A contracted auxiliary is its full form, and its person is
			// the word it is joined to: "they're" is "they" "are" (EWT and
			// GUM dev write "'re" after a third person 19 times, after
			// "you" 26, after "we" 11: counted alone it is mostly an
			// order's person); "you're", "we've" and "I'm" speak by their
			// pronoun, as "you are" does.
			out, upper, pause = append(out, []string{before + "'", before}, []string{contracted[after]}), append(upper, up, false), append(pause, false, false)
		case ok && before != "" && after != "":
			out, upper, pause = append(out, []string{before + "'", before}, []string{"'" + after, after}), append(upper, up, false), append(pause, false, false)
		default:
			out, upper, pause = append(out, []string{f}), append(upper, up), append(pause, false)
		}
		pause[len(pause)-1] = stop
	}
	return out, upper, pause
}

// contracted are English's contracted auxiliaries, as the treebanks
// annotate them (lemma, and the form the person of its host takes).
var contracted = map[string]string{"re": "are", "ve": "have", "ll": "will", "d": "would", "m": "am"}

// negatedAux are the treebanks' forms of an auxiliary before "n't" that
// are not its own ("ca" of "can't").
var negatedAux = map[string]string{"ca": "can", "wo": "will", "sha": "shall"}
