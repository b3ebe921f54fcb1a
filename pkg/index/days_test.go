package index

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

func TestNamedSpans(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		{"What kind of pasta did Kate make on 29 Dec 2023?", []string{"2023-12-29"}},
		{"Did Vanessa take the test before December 23rd, 2023?", []string{"2023-12-23"}},
		{"How many naps on January 6 2024?", []string{"2024-01-06"}},
		{"the 7th of January, 2024", []string{"2024-01-07"}},
		{"Jan. 7, 2024 and 2024-01-09", []string{"2024-01-07", "2024-01-09"}},
		{"What did Kevin watch on the night of 10.01.2024?", []string{"2024-01-10"}},
		{"deploy on 2026/11/28", []string{"2026-11-28"}},
		{"01/07/2024", []string{"2024-07-01", "2024-01-07"}}, // both ways
		{"13/01/2024", []string{"2024-01-13"}},               // one way is no date
		{"07/07/2024", []string{"2024-07-07"}},
		// No day: without its year, relative, a month alone, no such day.
		{"What did we decide on January 6?", nil},
		{"What happened yesterday, on Friday?", nil},
		{"Were they both sick in January 2024?", []string{"2024-01"}},
		{"in Dec 2023, and on 3 June, 2023", []string{"2023-12", "2023-06-03"}},
		{"Were they both sick in January?", nil},
		{"31 April 2024 and 30 February 2023", nil},
		{"may 5 people come in 2024", nil},
		{"version 1.2.3 and eu-central-1", nil},
		{"", nil},
	} {
		var got []string
		for _, d := range namedSpans(c.text) {
			got = append(got, spanString(d))
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("namedSpans(%q) = %v, want %v", c.text, got, c.want)
		}
	}
}

func TestDayLift(t *testing.T) {
	t.Parallel()
	days := []span{{year: 2024, month: 1, day: 7}}
	for _, c := range []struct {
		at   string
		want float64
	}{
		{"2024-01-07", dayWeight},
		{"2024-01-07T23:59:00+09:00", dayWeight}, // the writer's own day, though UTC's is the 7th too
		{"2024-01-07T02:00:00-08:00", dayWeight}, // 10:00 UTC
		{"2024-01-08T00:00:00Z", dayWeight * (1 - 1.0/(24*60*60))},
		{"2024-01-08T12:00:00Z", dayWeight * (1 - (12*60*60+1.0)/(24*60*60))},
		{"2024-01-06T12:00:00Z", dayWeight / 2},
		{"2024-01-09T00:00:00Z", 0},
		{"2024-01-05T00:00:00Z", 0},
		{"2023-01-07", 0},
		// A date alone is its whole day, judged at its noon: the day
		// after and the day before count alike.
		{"2024-01-08", dayWeight * (1 - (12*60*60+1.0)/(24*60*60))},
		{"2024-01-06", dayWeight / 2},
		{"2024-01-09", 0},
	} {
		at, err := frontmatter.ParseTime(c.at)
		if err != nil {
			t.Fatal(err)
		}
		got := max(dayLift(at, days), 0)
		if d := got - c.want; d > 1e-9 || d < -1e-9 {
			t.Errorf("dayLift(%s) = %v, want %v", c.at, got, c.want)
		}
	}
}

// A question that names a day finds that day's memory first, though
// other days' memories match its words better: the memory of
// the day ranks first though it says "pasta" once and the others two to
// four times. The same from a held index, and a question naming no day
// ranks by its words alone.
func TestQuestionNamingADay(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for i, day := range []string{"2024-01-02", "2024-01-03", "2024-01-11", "2024-01-12"} {
		write(t, v, "memory/pasta-"+day+".md", memory("fact", "stated", day+"T19:00:00Z",
			strings.Repeat("Kate made pasta with her friends, fresh pasta again. ", i%2+1), "session: chat"))
	}
	write(t, v, "memory/lunch.md", memory("fact", "stated", "2024-01-07T12:30:00+01:00",
		"Kate cooked a pasta dish with ham and peas for lunch.", "session: chat"))
	q := Query{Text: "What pasta did Kate make on 7 Jan 2024?", Limit: 3}
	first := func(q Query) string {
		t.Helper()
		res, err := Search(context.Background(), v, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) == 0 {
			t.Fatalf("%q: no hits", q.Text)
		}
		return res.Hits[0].Path
	}
	if got := first(q); got != "memory/lunch.md" {
		t.Fatalf("%q: %s first, want memory/lunch.md", q.Text, got)
	}
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	held := q
	held.Held = func(*vault.Vault) *Reader { return r }
	if got := first(held); got != "memory/lunch.md" {
		t.Fatalf("held %q: %s first, want memory/lunch.md", q.Text, got)
	}
	if got := first(Query{Text: "What pasta did Kate make?", Limit: 3}); got == "memory/lunch.md" {
		t.Fatalf("no day named: %s first, want a memory with more of the words", got)
	}
	// A day bleve's dates cannot hold is left out, not an error.
	for _, q := range []string{"pasta on 1 Jan 2300", "pasta in January 1500", "pasta 31.12.9999"} {
		if got := first(Query{Text: q, Limit: 3}); got == "" {
			t.Fatalf("%q: no hits", q)
		}
	}
}

func FuzzNamedSpans(f *testing.F) {
	for _, s := range []string{"on 29 Dec 2023", "January 4th, 2024", "10.01.2024", "01/07/2024", "2024-01-07", "7th of May 2024", "of of 1st"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, d := range namedSpans(s) {
			if st := d.start(); st.Year() != d.year || st.Month() != d.month || st.Day() != max(d.day, 1) || !d.end().After(st) {
				t.Fatalf("%q: %v is no calendar day", s, d)
			}
		}
	})
}

// A memory that speaks of the named day as yesterday or tomorrow is of
// that day: said on the evening after, "yesterday" ranks it above a
// memory of the same evening with the same words that speaks of its own
// day.
func TestRelativeDay(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a-today.md", memory("fact", "stated", "2024-01-08T20:00:00Z", "Kate made pasta with ham today."))
	write(t, v, "memory/b-yesterday.md", memory("fact", "stated", "2024-01-08T20:00:00Z", "Kate made pasta with ham yesterday."))
	write(t, v, "memory/c-tomorrow.md", memory("fact", "stated", "2024-01-06T20:00:00Z", "Kate makes pasta with ham tomorrow."))
	res, err := Search(context.Background(), v, Query{Text: "What pasta did Kate make on 7 Jan 2024?", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Path)
	}
	if len(got) != 3 || got[2] != "memory/a-today.md" {
		t.Fatalf("got %v, want memory/a-today.md last", got)
	}
}

// A memory of the named day that its words rank below the window (the
// best candidateWindow) still comes in, scored as the window was.
func TestNamedDayBelowTheWindow(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for i := range candidateWindow + 20 {
		write(t, v, fmt.Sprintf("memory/other-%03d.md", i), memory("fact", "stated", fmt.Sprintf("2023-%02d-%02dT10:00:00Z", 1+i%6, 1+i%28),
			fmt.Sprintf("Kate made fresh pasta, pasta again, %d.", i)))
	}
	write(t, v, "memory/day.md", memory("fact", "stated", "2024-01-07T10:00:00Z",
		"Kate cooked a long dinner with friends and family: soup, bread, a salad, wine, a cake, and some pasta."))
	find := func(text string, limit int) int {
		t.Helper()
		res, err := Search(context.Background(), v, Query{Text: text, Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range res.Hits {
			if h.Path == "memory/day.md" {
				return i
			}
		}
		return -1
	}
	// Its words rank it last of all: below the window, which a search of
	// limit 10 ranks (candidateWindow).
	if at := find("pasta kate", 10); at != -1 {
		t.Fatalf("no day named: memory/day.md at %d, want it below the first 10", at)
	}
	if at := find("pasta kate 7 Jan 2024", 10); at == -1 {
		t.Fatal("the day named: memory/day.md not in the first 10")
	}
	// Its snippet marks the words it matched, from the files and from a
	// held index (which locates the terms of the hits it answers).
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, held := range []func(*vault.Vault) *Reader{nil, func(*vault.Vault) *Reader { return r }} {
		res, err := Search(context.Background(), v, Query{Text: "pasta kate 7 Jan 2024", Limit: 10, Held: held})
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range res.Hits {
			if h.Path == "memory/day.md" && !strings.Contains(h.Snippet, "**pasta**") {
				t.Errorf("held %v: snippet %q marks no word", held != nil, h.Snippet)
			}
		}
	}
}

// spanString is s as YYYY-MM-DD, or YYYY-MM for a month.
func spanString(s span) string {
	if s.months > 0 {
		return fmt.Sprintf("%04d-%02d", s.year, s.month)
	}
	return fmt.Sprintf("%04d-%02d-%02d", s.year, s.month, s.day)
}
