package index

import (
	"slices"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// timeWeight is what a memory that tells a time gains, as a share of its
// score, when the question asks when: a question is answered by a memory
// that holds what it asks for ("When did Kate dye her hair?" by "… two
// weeks ago", not by "Do you dye your hair?"). On the three sets of
// mem-bench recall the evidence of a "when" question told a time in 82%
// (LoCoMo) and 59% (REALTALK) of its turns, the other hits of the first
// five in 19% and 25%; BEAM's long messages nearly all tell one, and its
// questions moved none (docs/index.md, Session 29). From 0.5 to 1 the
// gain was the same questions; 0.25 found half of them.
const timeWeight = 0.5

// questionPrepositions may lead a question before its interrogative
// ("Since when …", "For how long …").
var questionPrepositions = map[string]bool{
	"since": true, "for": true, "in": true, "on": true, "at": true, "by": true, "from": true,
	"until": true, "till": true, "to": true, "during": true, "after": true, "before": true,
	"about": true, "of": true, "with": true,
}

// timeNouns make "what" and "which" ask for a time ("What day …").
var timeNouns = map[string]bool{
	"time": true, "day": true, "date": true, "year": true, "month": true, "week": true,
	"weekday": true, "season": true,
}

// asksWhen says whether an English question asks for a time, read from
// its interrogative, its first word after a leading preposition: when,
// how long, how often, what (or which) time, day, date, year, month,
// week or season. A "when" further on ("What should I consider when
// choosing …") begins a clause, not the question.
func asksWhen(text string) bool {
	w := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(w) > 0 && questionPrepositions[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 {
		return false
	}
	next := ""
	if len(w) > 1 {
		next = w[1]
	}
	switch w[0] {
	case "when":
		return true
	case "how":
		return next == "long" || next == "often"
	case "what", "which":
		return timeNouns[next]
	}
	return false
}

// timeWords tell a time in English: the days of the week, the months (not
// "may"), the days relative to the telling and the units of time.
var timeWords = map[string]bool{
	"monday": true, "tuesday": true, "wednesday": true, "thursday": true, "friday": true,
	"saturday": true, "sunday": true,
	"january": true, "february": true, "march": true, "april": true, "june": true, "july": true,
	"august": true, "september": true, "october": true, "november": true, "december": true,
	"today": true, "yesterday": true, "tomorrow": true, "tonight": true, "ago": true,
	"weekend": true, "morning": true, "afternoon": true, "evening": true, "night": true,
	"minute": true, "minutes": true, "hour": true, "hours": true, "day": true, "days": true,
	"week": true, "weeks": true, "month": true, "months": true, "year": true, "years": true,
}

// tellsTime says whether text tells a time: a digit, or one of timeWords.
func tellsTime(text string) bool {
	if strings.ContainsFunc(text, unicode.IsDigit) {
		return true
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if timeWords[w] {
			return true
		}
	}
	return false
}

// byAnswer multiplies by 1 + timeWeight, in hits (p's ranked and reranked
// window), the score of each memory whose title or body tells a time, when
// p asks when, and reorders them. It reads the window's stored text, so a
// question that does not ask when costs nothing more. The window alone
// decides it: the same whatever the limit.
func byAnswer(idx bleve.Index, c *memo, hits []*search.DocumentMatch, p phrasing) ([]*search.DocumentMatch, error) {
	if len(hits) == 0 || !asksWhen(p.text) {
		return hits, nil
	}
	r, err := c.reader(idx)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	for _, h := range hits {
		t, err := storedText(r, h)
		if err != nil {
			return nil, err
		}
		if tellsTime(t) {
			h.Score *= 1 + timeWeight
			explainStep(h, "times %.4g: tells a time, which the question asks for", 1+timeWeight)
		}
	}
	slices.SortFunc(hits, byScore)
	return hits, nil
}

// storedText is n's title and body as stored.
func storedText(r bleveindex.IndexReader, n *search.DocumentMatch) (string, error) {
	f, err := storedOf(r, n, fieldTitle, fieldBody)
	if err != nil {
		return "", err
	}
	t, _ := f[fieldTitle].(string)
	b, _ := f[fieldBody].(string)
	return t + "\n" + b, nil
}

// storedOf reads the stored fields named of n, which a hit ranked without
// its stored fields does not carry (queryIndex).
func storedOf(r bleveindex.IndexReader, n *search.DocumentMatch, fields ...string) (map[string]any, error) {
	d := &search.DocumentMatch{ID: n.ID, IndexInternalID: n.IndexInternalID}
	if err, _ := bleve.LoadAndHighlightFields(d, &bleve.SearchRequest{Fields: fields}, "", r, nil); err != nil {
		return nil, err
	}
	return d.Fields, nil
}
