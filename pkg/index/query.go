package index

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"
)

// A query is words in plain language (spec §4). The only syntax is
// "a phrase", +word and -word at a word's start, and field:value or
// field:"a value" for the fields below; every other character is text, so
// a question (`Who is Caroline's mentor: Jane or Ann?`, `-5 degrees`,
// `2022-2023`) is searched as the words it holds.

// queryFields are the fields a query may name, and how each matches: an
// exact field's value is compared as written (a term query; `type:"BigQuery
// Table"` matches the type with its space), a prose field's is analysed as
// its text is.
var queryFields = map[string]bool{ // field: exact
	"type": true, "provenance": true, "project": true, "tags": true, "id": true,
	"title": false, "body": false, "aliases": false,
}

type occur int

const (
	should occur = iota
	must
	mustNot
)

// clause is one part of a parsed query.
type clause struct {
	occur  occur
	field  string // "" for the prose fields
	text   string
	phrase bool
}

// parse splits a query into its clauses. It never fails: what is not
// syntax is text.
func parse(s string) []clause {
	var out []clause
	var words []string // the bare words, asked together as one match
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			i += n
			continue
		}
		end := i + strings.IndexFunc(s[i:]+" ", unicode.IsSpace)
		c := clause{}
		j := i
		// +word, -word, +"a phrase": a sign before a letter or a quote
		// (so -5 stays a number).
		if (s[j] == '+' || s[j] == '-') && j+1 < len(s) {
			if next, _ := utf8.DecodeRuneInString(s[j+1:]); unicode.IsLetter(next) || next == '"' {
				c.occur = must
				if s[j] == '-' {
					c.occur = mustNot
				}
				j++
			}
		}
		if k := strings.IndexByte(s[j:end], ':'); k > 0 && j+k+1 < len(s) && !unicode.IsSpace(rune(s[j+k+1])) {
			if _, ok := queryFields[s[j:j+k]]; ok {
				c.field = s[j : j+k]
				j += k + 1
			}
		}
		if s[j] == '"' {
			if k := strings.IndexByte(s[j+1:], '"'); k >= 0 {
				c.text, c.phrase = s[j+1:j+1+k], true
				i = j + k + 2
				if strings.TrimSpace(c.text) != "" {
					out = append(out, c)
				}
				continue
			}
		}
		// No closing quote: the quote is text, as is everything else.
		if c.field == "" && c.occur == should {
			// The tokenizer keeps a word:word together (Unicode counts
			// the colon inside a word); an unknown field is two words.
			words = append(words, strings.ReplaceAll(s[i:end], ":", " "))
		} else {
			c.text = s[j:end]
			out = append(out, c)
		}
		i = end
	}
	if len(words) > 0 {
		out = append([]clause{{text: strings.Join(words, " ")}}, out...)
	}
	return out
}

// parseQuery is the one parser of a query in plain language, shared by the
// CLI, MCP and the daemon (which all reach it through Search): the bleve
// query it means, or, with syntax, text read as bleve's query-string syntax
// as is. A clause naming a field is required (a filter) unless -field:value
// excludes it.
func parseQuery(text string, syntax bool) (query.Query, error) {
	if syntax {
		qs, err := bleve.NewQueryStringQuery(text).Parse()
		if err != nil {
			return nil, &QueryError{err}
		}
		return spreadFieldless(qs), nil
	}
	q, _, _ := parsePlain(text)
	return q, nil
}

// parsePlain is parseQuery's plain language, also returning its required
// and excluded clauses: what a memory lifted by its episode must still
// satisfy.
func parsePlain(text string) (q query.Query, mustQ, notQ []query.Query) {
	var shouldQ []query.Query
	for _, c := range parse(text) {
		var q query.Query
		switch exact := queryFields[c.field]; {
		case c.field == "":
			q = prose(c.text, c.phrase)
		case exact:
			t := bleve.NewTermQuery(c.text)
			t.SetField(c.field)
			q = t
		case c.phrase:
			p := bleve.NewMatchPhraseQuery(c.text)
			p.SetField(c.field)
			q = p
		default:
			m := bleve.NewMatchQuery(c.text)
			m.SetField(c.field)
			q = m
		}
		switch {
		case c.occur == mustNot:
			notQ = append(notQ, q)
		case c.occur == must || c.field != "":
			mustQ = append(mustQ, q)
		default:
			shouldQ = append(shouldQ, q)
		}
	}
	// Query-string mode: a clause that analyses to nothing (a stop word,
	// +the) is dropped instead of matching nothing.
	b := query.NewBooleanQueryForQueryString(nil, nil, nil)
	if len(mustQ) > 0 {
		b.AddMust(mustQ...)
	}
	if len(shouldQ) > 0 {
		b.AddShould(shouldQ...)
	}
	if len(notQ) > 0 {
		b.AddMustNot(notQ...)
	}
	return b, mustQ, notQ
}

// prose is words (or a phrase) asked of every prose field, each with its
// weight (anyField).
func prose(text string, phrase bool) query.Query {
	in := func(f string) query.Query {
		if phrase {
			p := bleve.NewMatchPhraseQuery(text)
			p.SetField(f)
			return p
		}
		m := bleve.NewMatchQuery(text)
		m.SetField(f)
		return m
	}
	return anyField(in(fieldBody), in)
}
