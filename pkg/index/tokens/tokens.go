// Package tokens is how mem's index cuts text into terms: the analyzer of
// every prose field and of a query's words, and the key a name is compared
// by for an exact match. It is its own package so the benchmark's plain
// bleve reference (internal/benchgen/plainbleve) analyses as mem does.
package tokens

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/lowercase"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	bleveunicode "github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/registry"

	"github.com/mem-md/mem/pkg/rules"
)

// Name is the analyzer of every prose field and of the words of a
// query: bleve's English analyzer (possessives, lower case, stop words,
// Porter stems) over tokens (see tokenizer) that also find identifiers and
// text without spaces between its words.
const Name = "mem"

func init() {
	if err := registry.RegisterAnalyzer(Name, func(_ map[string]any, cache *registry.Cache) (analysis.Analyzer, error) {
		var filters []analysis.TokenFilter
		for _, name := range []string{cjk.WidthName, en.PossessiveName, lowercase.Name, en.StopName, porter.Name} {
			f, err := cache.TokenFilterNamed(name)
			if err != nil {
				return nil, err
			}
			filters = append(filters, f)
		}
		return &analysis.DefaultAnalyzer{Tokenizer: tokenizer{}, TokenFilters: filters}, nil
	}); err != nil {
		panic(err)
	}
}

// tokenizer is bleve's Unicode word tokenizer (UAX #29) with two additions.
//
// Scripts written without spaces between words are cut into overlapping
// pairs of characters (東京タワー: 東京 京タ タワ ワー), as bleve's cjk
// analyzer and Lucene's CJKBigramFilter do: a two-character word is then
// one term, found where it is written and not where its characters stand
// apart. That is Chinese, Japanese and Korean (Hangul words carry their
// particles: 서울에서 holds 서울), and Thai, Lao, Khmer and Myanmar, for
// which bleve has no segmenter (its word tokenizer drops them) and a
// dictionary would be a dependency. A run of one character is that
// character.
//
// An identifier is found by each of its parts and by them joined: a word
// is cut at '.' and '_' and where camelCase turns upper (Node.js: node, js;
// snake_case; camelCase: camel, case), words joined by single hyphens are
// one identifier (eu-central-1: eu, central, 1), and an identifier of
// several parts is also the parts joined (nodejs, eucentral1), at its
// first part's position, so a phrase query still sees the parts in order.
type tokenizer struct{}

// spaceless is whether r belongs to a script written without spaces
// between words, and which: runs of one kind are paired.
func spaceless(r rune) int {
	switch {
	case unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) || r == 'ー' || r == '々' || r == '〆':
		return 1
	case unicode.Is(unicode.Hangul, r):
		return 2
	case unicode.In(r, unicode.Thai, unicode.Lao, unicode.Khmer, unicode.Myanmar):
		return 3
	}
	return 0
}

func (tokenizer) Tokenize(input []byte) analysis.TokenStream {
	var out analysis.TokenStream
	pos := 1
	// Text between runs of spaceless scripts goes to the word tokenizer.
	for start := 0; start < len(input); {
		end := start
		for end < len(input) {
			r, n := utf8.DecodeRune(input[end:])
			if spaceless(r) != 0 {
				break
			}
			end += n
		}
		if end > start {
			out, pos = words(out, input, start, end, pos)
		}
		if end == len(input) {
			break
		}
		start = end
		kind := spaceless(mustRune(input[start:]))
		// The run, each character with the marks that follow it (Thai
		// vowels and tones, Japanese voicing marks).
		var chars [][2]int
		for end < len(input) {
			r, n := utf8.DecodeRune(input[end:])
			if spaceless(r) == kind && !unicode.In(r, unicode.Mn, unicode.Mc) {
				chars = append(chars, [2]int{end, end + n})
			} else if unicode.In(r, unicode.Mn, unicode.Mc) && len(chars) > 0 {
				chars[len(chars)-1][1] = end + n
			} else {
				break
			}
			end += n
		}
		if len(chars) == 0 { // a mark with no character before it
			start = end + utf8.RuneLen(mustRune(input[end:]))
			continue
		}
		for i := range chars {
			if i+1 == len(chars) && i > 0 {
				break
			}
			to := chars[min(i+1, len(chars)-1)][1]
			out = append(out, &analysis.Token{Term: input[chars[i][0]:to], Start: chars[i][0], End: to, Position: pos, Type: analysis.Ideographic})
			pos++
		}
		start = end
	}
	return out
}

func mustRune(b []byte) rune { r, _ := utf8.DecodeRune(b); return r }

// MaxTerm is the longest term indexed, in bytes, as Lucene's standard
// analyzer's 255: a longer "word" (a run of one letter, a base64 blob
// without breaks) is nothing a query repeats, and each of its bytes is a
// node of the index's term dictionary: one 900 KB title took 3 s of a
// full rebuild. It keeps its position, as a stop word does.
const MaxTerm = 255

// words appends the tokens of input[start:end], text of spaced scripts,
// with identifiers split and joined (none over MaxTerm); pos is the next
// token's position.
func words(out analysis.TokenStream, input []byte, start, end, pos int) (analysis.TokenStream, int) {
	toks := bleveunicode.NewUnicodeTokenizer().Tokenize(input[start:end])
	for i := 0; i < len(toks); {
		// An identifier: tokens joined by single hyphens.
		j := i + 1
		for j < len(toks) && toks[j].Start == toks[j-1].End+1 && input[start+toks[j-1].End] == '-' {
			j++
		}
		var parts []*analysis.Token
		for _, t := range toks[i:j] {
			parts = append(parts, split(t, start)...)
		}
		if len(parts) > 1 {
			var joined []byte
			for _, p := range parts {
				joined = append(joined, p.Term...)
			}
			if len(joined) <= MaxTerm {
				out = append(out, &analysis.Token{Term: joined, Start: parts[0].Start, End: parts[len(parts)-1].End,
					Position: pos, Type: analysis.AlphaNumeric})
			}
		}
		for _, p := range parts {
			p.Position = pos
			pos++
			if len(p.Term) <= MaxTerm {
				out = append(out, p)
			}
		}
		i = j
	}
	return out, pos
}

// split cuts one word token at '.', '_' and camelCase humps; offset is
// where the tokenized text starts in the input.
func split(t *analysis.Token, offset int) []*analysis.Token {
	term := t.Term
	var out []*analysis.Token
	from := 0
	emit := func(to int) {
		if to > from {
			out = append(out, &analysis.Token{Term: term[from:to], Start: offset + t.Start + from, End: offset + t.Start + to, Type: t.Type})
		}
	}
	var prev rune
	for i := 0; i < len(term); {
		r, n := utf8.DecodeRune(term[i:])
		switch {
		case r == '.' || r == '_':
			emit(i)
			from = i + n
		case unicode.IsUpper(r) && i > from:
			next, _ := utf8.DecodeRune(term[i+n:])
			// camelCase, and the last capital of an acronym before a
			// word: JSONParser is JSON, Parser.
			if unicode.IsLower(prev) || (unicode.IsUpper(prev) && unicode.IsLower(next)) {
				emit(i)
				from = i
			}
		}
		prev = r
		i += n
	}
	emit(len(term))
	// A possessive stays on the word it ends (Caroline's), a number with a
	// decimal point stays whole (3.5).
	if len(out) == 1 || t.Type == analysis.Numeric || strings.ContainsAny(string(term), "'’") {
		t.Start += offset
		t.End += offset
		return []*analysis.Token{t}
	}
	return out
}

// ExactKey is a name or a query as compared for an exact match: lower
// case, every run of what is not a letter, digit or mark one space, so
// "Instruct Model", "instruct-model" and "instruct model?" are one key.
func ExactKey(s string) string {
	var b strings.Builder
	space := false
	for _, r := range strings.ToLower(rules.Redact(s)) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.IsMark(r) {
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			b.WriteRune(r)
		} else {
			space = true
		}
	}
	return b.String()
}

// StopWords are the English stop words the mem analyzer drops (bleve's
// list). scripts/wordvectors leaves them out of the word vectors too.
func StopWords() (map[string]bool, error) {
	m := analysis.NewTokenMap()
	return m, m.LoadBytes(en.EnglishStopWords)
}
