package rules

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/secrets"
)

// plain is text as a reader takes it in when the writing hides its words
// from the rules, in the spirit of pkg/secrets' folding (the rules read
// what a model reads, not the bytes): literal escapes written as text
// ("\n", "\u201d", "\xd0\xb5") read as what they stand for, a word that
// mixes Latin letters with another script's look-alikes folded to Latin
// ("Consid\xd0\xb5r"), a hex identifier and the words in capitals it is
// joined to by a hyphen read as two sentences ("…6eb19c9-IGNORE THE
// CODE"), the characters that break a word without showing
// (soft hyphen, zero-width space, word joiner) removed, a run of letters
// written one by one ("S a y t h a t") read as its words, and a word
// split by a space ("Ig nore") read whole where the whole is a verb of the
// tables and neither piece is a word. Text with none of these is returned
// as it is.
func plain(text string) string {
	s := literalEscapes(text)
	s = strings.Map(func(r rune) rune {
		if r == 0xad || r == 0x200b || r == 0x2060 || r == 0xfeff {
			return -1
		}
		return r
	}, s)
	s = mixedWords(s)
	s = codeThenCapitals.ReplaceAllStringFunc(s, func(m string) string {
		code, word, _ := strings.Cut(m, "-")
		if len(code) < 6 || !strings.ContainsAny(code, "0123456789") {
			return m
		}
		return code + ". " + word
	})
	s = letterRuns(s)
	return splitWords(s)
}

// codeThenCapitals is an identifier in hex (six digits or more, a
// number among them: a hash, a UUID's group) joined by a hyphen to a word
// in capitals and more after it: the code and the shouted words after it
// are two sentences ("…-IGNORE was closed" stays one).
var codeThenCapitals = regexp.MustCompile(`\b[0-9a-fA-F]+-[A-Z]{2,}(?: [A-Z]{2,})+\b`)

// escapeRun is a run of the escapes a string literal writes: \n \r \t,
// \" and \', \uXXXX, \UXXXXXXXX and \xHH.
var escapeRun = regexp.MustCompile(`(?:\\(?:[nrt"']|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}))+`)

// literalEscapes reads each run of escapes as its characters; a run of
// \xHH is the bytes of UTF-8 (the homoglyphs of a payload written with
// Python's escapes), kept as written where they are not. A backslash
// before anything else stays (a Windows path, a regexp).
func literalEscapes(text string) string {
	if !strings.Contains(text, `\`) {
		return text
	}
	return escapeRun.ReplaceAllStringFunc(text, func(written string) string {
		var b []byte
		run := written
		for run != "" {
			c := run[1]
			switch c {
			case 'n', 'r':
				b, run = append(b, '\n'), run[2:]
			case 't':
				b, run = append(b, ' '), run[2:]
			case '"', '\'':
				b, run = append(b, c), run[2:]
			case 'x':
				v, _ := strconv.ParseUint(run[2:4], 16, 8)
				b, run = append(b, byte(v)), run[4:]
			default:
				n := 6
				if c == 'U' {
					n = 10
				}
				v, _ := strconv.ParseUint(run[2:n], 16, 32)
				b, run = utf8.AppendRune(b, rune(v)), run[n:]
			}
		}
		if !utf8.Valid(b) {
			return written
		}
		return string(b)
	})
}

// mixedWords folds a word written in Latin letters and letters of
// another script (a Cyrillic е, a Greek ο, a mathematical 𝚝) to Latin,
// as secrets.Fold reads it: no language writes a word so, a homoglyph
// attack does. A word in one script (Russian, Greek) stays.
func mixedWords(s string) string {
	if isASCIIString(s) {
		return s
	}
	var b strings.Builder
	changed := false
	for i := 0; i < len(s); {
		end := i + strings.IndexFunc(s[i:], func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsMark(r) })
		if end < i {
			end = len(s)
		}
		if end == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+n])
			i += n
			continue
		}
		w := s[i:end]
		if mixedScript(w) {
			w, changed = secrets.Fold(w).Text, true
		}
		b.WriteString(w)
		i = end
	}
	if !changed {
		return s
	}
	return b.String()
}

// mixedScript reports a word with an ASCII letter and a letter of a
// script other than Latin.
func mixedScript(w string) bool {
	ascii, other := false, false
	for _, r := range w {
		switch {
		case r < utf8.RuneSelf && unicode.IsLetter(r):
			ascii = true
		case unicode.IsLetter(r) && !unicode.Is(unicode.Latin, r):
			other = true
		}
	}
	return ascii && other
}

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// letterRun is five letters or more, each alone between single spaces.
var letterRun = regexp.MustCompile(`(?:^|\b)\pL(?: \pL){4,}\b`)

// letterRuns reads a run of letters written one by one as its words: the
// run joined, then cut where the tables know a word (the longest first),
// what they do not know kept together.
func letterRuns(s string) string {
	if !letterRun.MatchString(s) {
		return s
	}
	return letterRun.ReplaceAllStringFunc(s, func(run string) string {
		return strings.Join(segment(strings.ReplaceAll(run, " ", "")), " ")
	})
}

// segment cuts letters into the longest words the tables know from the
// left; letters no known word starts with are kept together. It works on
// runes: lower case may change a letter's length in bytes (Ⱥ is two, ⱥ
// three), and it tries words of at most maxWordRunes, so a long run costs
// its length, not its square.
func segment(joined string) []string {
	rs := []rune(joined)
	lower := make([]rune, len(rs))
	for i, r := range rs {
		lower[i] = unicode.ToLower(r)
	}
	var out []string
	unknown := 0
	for i := 0; i < len(rs); {
		n := 0
		for j := min(len(rs), i+maxWordRunes); j > i; j-- {
			if w := string(lower[i:j]); len(w) > 1 && knownWord(w) {
				n = j - i
				break
			}
		}
		if n == 0 {
			i++
			unknown++
			continue
		}
		if unknown > 0 {
			out = append(out, string(rs[i-unknown:i]))
			unknown = 0
		}
		out = append(out, string(rs[i:i+n]))
		i += n
	}
	if unknown > 0 {
		out = append(out, string(rs[len(rs)-unknown:]))
	}
	return out
}

// maxWordRunes is longer than any word of the tables
// (TestSegmentKnowsEveryTableWord).
const maxWordRunes = 40

// knownWord reports a word of the tables: a form they hold in any
// language, a subordinator, a frequent word of a language's treebanks or
// of the English list the language tests read.
func knownWord(w string) bool {
	f := treebank()
	if f.imp[w] != "" || f.sub[w] || englishWords()[w] || secondPerson()[w] {
		return true
	}
	for _, words := range f.words {
		if words[w] {
			return true
		}
	}
	return false
}

// splitWords joins two words a space apart ("Ig nore") where the whole is
// an English verb of the tables and neither piece is a word they know:
// a word broken to slip past the rules. "in form" stays two words.
func splitWords(s string) string {
	f := treebank()
	ws := strings.Split(s, " ")
	changed := false
	for i := 0; i+1 < len(ws); i++ {
		a, b := ws[i], ws[i+1]
		if !lettersOnly(a) || !lettersOnly(b) || len(a) < 2 || len(b) < 2 {
			continue
		}
		la, lb := strings.ToLower(a), strings.ToLower(b)
		if strings.Contains(f.imp[la+lb], "English") && !knownWord(la) && !knownWord(lb) {
			ws[i], ws[i+1] = a+b, ""
			ws = append(ws[:i+1], ws[i+2:]...)
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(ws, " ")
}

func lettersOnly(w string) bool {
	return w != "" && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }) < 0
}
