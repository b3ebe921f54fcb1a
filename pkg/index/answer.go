package index

import (
	"os"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"
)

// answerKind is what a question's interrogative asks for: a time ("when",
// "how long"), a number ("how many"), a place ("where") or a person
// ("who"); none for the rest ("what", "which", a yes/no question).
type answerKind int

const (
	askNone answerKind = iota
	askTime
	askNumber
	askPlace
	askPerson
)

// EXPERIMENT settings (removed before committing).
var (
	answerWeight = envFloat("MEM_ANSWER_W", 0.5)
	answerKinds  = os.Getenv("MEM_ANSWER_KINDS") // "time", "time,number", ...; empty: off
	answerBefore = os.Getenv("MEM_ANSWER_BEFORE") != ""
)

func envFloat(k string, d float64) float64 {
	if s := os.Getenv(k); s != "" {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
	}
	return d
}

// questionPrepositions may lead a question before its interrogative
// ("Since when …", "For how long …", "In which city …").
var questionPrepositions = map[string]bool{
	"since": true, "for": true, "in": true, "on": true, "at": true, "by": true, "from": true,
	"until": true, "till": true, "to": true, "during": true, "after": true, "before": true,
	"about": true, "of": true, "with": true,
}

// timeNouns are the units a time is told in.
var timeNouns = map[string]bool{
	"time": true, "day": true, "date": true, "year": true, "month": true, "week": true,
	"weekday": true, "season": true,
}

// askedFor reads the kind of answer an English question asks for from its
// first word (after a preposition).
func askedFor(text string) answerKind {
	w := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' })
	if len(w) > 0 && questionPrepositions[w[0]] {
		w = w[1:]
	}
	if len(w) == 0 {
		return askNone
	}
	next := ""
	if len(w) > 1 {
		next = w[1]
	}
	switch w[0] {
	case "when":
		return askTime
	case "how":
		switch next {
		case "long", "often":
			return askTime
		case "many", "much", "old":
			return askNumber
		}
	case "what", "which":
		if timeNouns[next] {
			return askTime
		}
	case "where":
		return askPlace
	case "who", "whom", "whose":
		return askPerson
	}
	return askNone
}

// timeWords tell a time in English: the days of the week, the months, the
// days relative to the telling and the units of time.
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

// numberWords tell a quantity in English words.
var numberWords = map[string]bool{
	"one": true, "two": true, "three": true, "four": true, "five": true, "six": true, "seven": true,
	"eight": true, "nine": true, "ten": true, "eleven": true, "twelve": true, "twenty": true,
	"thirty": true, "forty": true, "fifty": true, "hundred": true, "thousand": true, "million": true,
	"once": true, "twice": true, "dozen": true, "couple": true, "few": true, "several": true,
}

// holdsAnswer says whether text holds what kind asks for.
func holdsAnswer(kind answerKind, text string) bool {
	if kind == askPlace || kind == askPerson {
		return properNoun(text)
	}
	if strings.ContainsFunc(text, unicode.IsDigit) {
		return true
	}
	words := map[string]bool{}
	if kind == askNumber {
		words = numberWords
	} else if kind == askTime {
		words = timeWords
	}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		if words[w] {
			return true
		}
	}
	return false
}

// properNoun says whether text holds a capitalised word that does not
// start a sentence (and is not "I").
func properNoun(text string) bool {
	start := true
	for _, w := range strings.FieldsFunc(text, unicode.IsSpace) {
		r := []rune(strings.TrimLeft(w, "\"'(“‘*_"))
		if len(r) > 0 && unicode.IsUpper(r[0]) && !start && !(r[0] == 'I' && (len(r) == 1 || !unicode.IsLetter(r[1]))) {
			return true
		}
		start = strings.ContainsAny(w[len(w)-1:], ".!?:")
	}
	return false
}

// byAnswer lifts, in the window hits (p's ranked answer), the memories
// whose text holds the kind of answer p's interrogative asks for.
func byAnswer(idx bleve.Index, c *memo, hits []*search.DocumentMatch, p phrasing) ([]*search.DocumentMatch, error) {
	kind := askedFor(p.text)
	if kind == askNone || answerKinds == "" || !strings.Contains(answerKinds, kindName[kind]) || len(hits) == 0 {
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
		if holdsAnswer(kind, t) {
			h.Score *= 1 + answerWeight
			explainStep(h, "times %.4g: holds %s, which the question asks for", 1+answerWeight, kindName[kind])
		}
	}
	slices.SortFunc(hits, byScore)
	return hits, nil
}

var kindName = map[answerKind]string{askTime: "time", askNumber: "number", askPlace: "place", askPerson: "person"}

// storedText is n's title and body as stored.
func storedText(r bleveindex.IndexReader, n *search.DocumentMatch) (string, error) {
	d := &search.DocumentMatch{ID: n.ID, IndexInternalID: n.IndexInternalID}
	if err, _ := bleve.LoadAndHighlightFields(d, &bleve.SearchRequest{Fields: []string{fieldTitle, fieldBody}}, "", r, nil); err != nil {
		return "", err
	}
	t, _ := d.Fields[fieldTitle].(string)
	b, _ := d.Fields[fieldBody].(string)
	return t + "\n" + b, nil
}
