package index

import (
	"context"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// A question that names a day ("what did Kate cook on 29 Dec 2023?") asks
// about what was valid then: the day's memories that match its words gain
// dayWeight of their score, the lift falling linearly to nothing a day
// beyond the named one (a conversation runs past midnight, an event is
// told the next morning, the asker's time zone is not the writer's).
const (
	dayWeight = 3.0
	dayFade   = 24 * time.Hour
	// dayMost is how many of a named day's matching memories are read.
	dayMost = 1000
)

// span is a calendar day or month as written, in no time zone: a
// memory's valid_at is compared in its own offset, the day its writer
// lived. months is 0 for a day, 1 for a month.
type span struct {
	year   int
	month  time.Month
	day    int
	months int
}

func (s span) start() time.Time {
	return time.Date(s.year, s.month, max(s.day, 1), 0, 0, 0, 0, time.UTC)
}

func (s span) end() time.Time {
	if s.months > 0 {
		return s.start().AddDate(0, s.months, 0)
	}
	return s.start().Add(24 * time.Hour)
}

// namedSpans are the days and months text names with their year: a day as
// 2024-01-07 (or 2024/01/07), 7 Jan 2024, 7th of January, 2024, January
// 7th 2024, Jan. 7, 2024, and 07.01.2024 (dots: day first; a slashed date
// with the year last, 01/07/2024, is read both ways where both are days);
// a month as January 2024 or Jan 2024. A day or month without its year, a
// weekday or a relative day ("yesterday") names none: which one it is
// depends on when it was said.
func namedSpans(text string) []span {
	words := dateWords(text)
	var out []span
	add := func(y, m, d int) {
		if y < 1000 || y > 9999 || m < 1 || m > 12 || d < 0 || d > 31 {
			return
		}
		s := span{year: y, month: time.Month(m), day: d}
		if d == 0 {
			s.months = 1
		} else if s.start().Day() != d { // 31 April
			return
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	for i, w := range words {
		if n := numericDate(w); n != nil {
			for _, d := range n {
				add(d[0], d[1], d[2])
			}
			continue
		}
		m := monthNamed(w)
		if m == 0 {
			continue
		}
		// Day before the month: 7 Jan 2024, 7th of January 2024.
		if i >= 1 && i+1 < len(words) {
			before := i - 1
			if words[before] == "of" && i >= 2 {
				before = i - 2
			}
			if d, ok := dayNumber(words[before]); ok {
				if y, ok := yearNumber(words[i+1]); ok {
					add(y, m, d)
					continue
				}
			}
		}
		// Month before the day: January 7th, 2024.
		if i+2 < len(words) {
			if d, ok := dayNumber(words[i+1]); ok {
				if y, ok := yearNumber(words[i+2]); ok {
					add(y, m, d)
					continue
				}
			}
		}
		// The month alone: January 2024.
		if i+1 < len(words) {
			if y, ok := yearNumber(words[i+1]); ok {
				add(y, m, 0)
			}
		}
	}
	return out
}

// dateWords is text cut into words at spaces and at the commas and
// periods that follow a word ("Jan. 7, 2024"), lower case; a word's own
// dots and slashes stay (07.01.2024).
func dateWords(text string) []string {
	fields := strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return unicode.IsSpace(r) || strings.ContainsRune(",;:!?()[]\"'", r)
	})
	for i, f := range fields {
		fields[i] = strings.TrimRight(f, ".")
	}
	return fields
}

var monthNames = map[string]time.Month{
	"jan": 1, "january": 1, "feb": 2, "february": 2, "mar": 3, "march": 3, "apr": 4, "april": 4,
	"may": 5, "jun": 6, "june": 6, "jul": 7, "july": 7, "aug": 8, "august": 8,
	"sep": 9, "sept": 9, "september": 9, "oct": 10, "october": 10, "nov": 11, "november": 11,
	"dec": 12, "december": 12,
}

func monthNamed(w string) int { return int(monthNames[w]) }

// dayNumber reads 7, 07 and 7th (1st, 2nd, 3rd).
func dayNumber(w string) (int, bool) {
	for _, suffix := range []string{"st", "nd", "rd", "th"} {
		if s, ok := strings.CutSuffix(w, suffix); ok {
			w = s
			break
		}
	}
	if len(w) == 0 || len(w) > 2 {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil && n >= 1 && n <= 31
}

func yearNumber(w string) (int, bool) {
	if len(w) != 4 {
		return 0, false
	}
	n, err := strconv.Atoi(w)
	return n, err == nil
}

// numericDate reads one word as year, month and day: YYYY-MM-DD,
// YYYY/MM/DD, DD.MM.YYYY, and DD/MM/YYYY or MM/DD/YYYY (both, where both
// are dates).
func numericDate(w string) [][3]int {
	for _, sep := range []string{"-", "/", "."} {
		parts := strings.Split(w, sep)
		if len(parts) != 3 {
			continue
		}
		var n [3]int
		for i, p := range parts {
			if len(p) == 0 || len(p) > 4 {
				return nil
			}
			v, err := strconv.Atoi(p)
			if err != nil {
				return nil
			}
			n[i] = v
		}
		switch {
		case len(parts[0]) == 4 && sep != ".":
			return [][3]int{{n[0], n[1], n[2]}}
		case len(parts[2]) == 4 && sep == ".":
			return [][3]int{{n[2], n[1], n[0]}}
		case len(parts[2]) == 4 && sep == "/":
			if n[0] == n[1] {
				return [][3]int{{n[2], n[1], n[0]}}
			}
			return [][3]int{{n[2], n[1], n[0]}, {n[2], n[0], n[1]}}
		}
		return nil
	}
	return nil
}

// dayLift is how much of its score a memory valid at t gains from spans:
// dayWeight within a named day or month (in t's own offset), falling
// linearly to nothing dayFade either side of it; the nearest counts. A
// valid_at that is a date alone stands for its whole day and is judged at
// its noon, so the day before and the day after count alike.
func dayLift(t frontmatter.Time, spans []span) float64 {
	y, m, d := t.Time.Date()
	hh, mm, ss := t.Time.Clock()
	wall := time.Date(y, m, d, hh, mm, ss, 0, time.UTC)
	if t.DateOnly {
		wall = wall.Add(12 * time.Hour)
	}
	best := 0.0
	for _, sp := range spans {
		start, end := sp.start(), sp.end()
		var off time.Duration
		switch {
		case wall.Before(start):
			off = start.Sub(wall)
		case !wall.Before(end):
			off = wall.Sub(end) + time.Second
		}
		best = math.Max(best, dayWeight*(1-float64(off)/float64(dayFade)))
	}
	return best
}

// relativeDays are the words by which a memory speaks of a day other than
// its own: said on the 8th, "yesterday" is the 7th.
var relativeDays = []struct {
	word  string
	shift time.Duration
}{{"", 0}, {"yesterday", -24 * time.Hour}, {"tomorrow", 24 * time.Hour}}

// byDay lifts, in a ranked answer to p, the memories valid on a day p's
// text names, or that speak of it as yesterday or tomorrow: each of those
// matching p (its words, required clauses and filters) gains dayLift of
// its own score, whether or not it was among hits. The date range asked
// of the index reaches dayFade and 14 hours (the furthest a UTC offset
// goes) past each side of the span, and each memory is then judged in its
// own offset. A span bleve's dates cannot hold (before 1678, after 2262)
// is left out.
//
// The days' memories are found first, unscored (at most dayMost a
// reading), and only those of them not among hits are then scored
// against p (with the places their terms stand when locs is set, as the
// window was): a conjunction led by their ids, which costs what they are,
// not what p matches in the whole index. It returns the hits, re-ranked,
// and those it added.
func byDay(ctx context.Context, idx bleve.Index, hits []*search.DocumentMatch, p phrasing, locs bool) (all, added []*search.DocumentMatch, err error) {
	spans := namedSpans(p.text)
	if len(spans) == 0 || len(hits) == 0 {
		return hits, nil, nil
	}
	lifts := map[string]float64{}
	slack := dayFade + 14*time.Hour
	for _, rel := range relativeDays {
		var ranges []query.Query
		for _, sp := range spans {
			from, to := sp.start().Add(-rel.shift-slack), sp.end().Add(-rel.shift+slack)
			if from.Before(query.MinRFC3339CompatibleTime) || to.After(query.MaxRFC3339CompatibleTime) {
				continue
			}
			r := bleve.NewDateRangeQuery(from, to)
			r.SetField(fieldValidAt)
			ranges = append(ranges, r)
		}
		if len(ranges) == 0 {
			continue
		}
		var q query.Query = bleve.NewDisjunctionQuery(ranges...)
		if rel.word != "" {
			w := bleve.NewMatchQuery(rel.word)
			w.SetField(fieldBody)
			q = bleve.NewConjunctionQuery(q, w)
		}
		req := bleve.NewSearchRequestOptions(q, dayMost, 0, false)
		req.Fields = []string{fieldValidAtText}
		req.Score = "none"
		sr, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		for _, n := range sr.Hits {
			text, _ := n.Fields[fieldValidAtText].(string)
			at, err := frontmatter.ParseTime(text)
			if err != nil {
				continue
			}
			at.Time = at.Time.Add(rel.shift)
			if lift := dayLift(at, spans); lift > 0 {
				lifts[n.ID] = max(lifts[n.ID], lift)
			}
		}
	}
	if len(lifts) == 0 {
		return hits, nil, nil
	}
	var outside []string
	in := make(map[string]bool, len(hits))
	for _, h := range hits {
		in[h.ID] = true
	}
	for id := range lifts {
		if !in[id] {
			outside = append(outside, id)
		}
	}
	if len(outside) > 0 {
		// Scored as the window was: the ids decide which, not how well.
		ids := bleve.NewDocIDQuery(outside)
		ids.SetBoost(1e-9)
		req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(p.query, ids), len(outside), 0, hits[0].Expl != nil)
		req.IncludeLocations = locs
		if hits[0].Fields != nil {
			req.Fields = storedFields
		}
		sr, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, nil, err
		}
		added = sr.Hits
		hits = append(hits, added...)
	}
	for _, h := range hits {
		if lift := lifts[h.ID]; lift > 0 {
			h.Score *= 1 + lift
			explainStep(h, "times %.6g: valid on or near a day or month the query names, or speaking of it as yesterday or tomorrow", 1+lift)
		}
	}
	slices.SortFunc(hits, byScore)
	return hits, added, nil
}
