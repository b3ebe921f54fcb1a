package index

import (
	"context"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2/search"

	"github.com/mem-md/mem/pkg/vault"
)

// A question that shares one word with several memories finds first the
// one near it in meaning: "cities" is near "Orlando" (REALTALK's "What
// cities did Kevin visit?"), not near a dentist or a spreadsheet. By its
// words alone the Orlando memory ties with the others (one shared word,
// bodies of one length) and, last by path, comes third. The daemon's held
// index answers the same, score for score.
func TestMeaningReranksTheWindow(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "", "Kevin will visit the dentist on Monday morning."))
	write(t, v, "memory/b.md", memory("fact", "stated", "", "Kevin will visit the spreadsheet on Monday evening."))
	write(t, v, "memory/c.md", memory("fact", "stated", "", "Kevin will visit Orlando and Miami in the spring."))
	q := Query{Text: "What cities did Kevin visit?", Limit: 3}
	files, err := Search(context.Background(), v, q)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range files.Hits {
		got = append(got, h.Path)
	}
	if len(got) != 3 || got[0] != "memory/c.md" {
		t.Fatalf("got %v, want memory/c.md first", got)
	}
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	q.Held = func(*vault.Vault) *Reader { return r }
	held, err := Search(context.Background(), v, q)
	if err != nil {
		t.Fatal(err)
	}
	for _, res := range []*Result{&files, &held} {
		for i := range res.Hits {
			res.Hits[i].File = nil
		}
	}
	if !reflect.DeepEqual(held.Hits, files.Hits) {
		t.Fatalf("held:\n%+v\nfrom the files:\n%+v", held.Hits, files.Hits)
	}
}

// Two memories that say the same thing take one place among the first
// hits, not two: the copy ranks below a memory that says something else,
// though its words alone rank it second (it repeats the best hit's words).
// Asked with a limit of 2 and of 3, the first two are the same.
func TestNearDuplicateGivesWay(t *testing.T) {
	t.Parallel()
	v := gardenVault(t)
	var first []string
	for _, limit := range []int{3, 2} {
		res, err := Search(context.Background(), v, Query{Text: "What did Ada plan for the garden beds?", Limit: limit})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Path)
		}
		if len(got) < 2 || got[1] != "memory/c.md" || (got[0] != "memory/a.md" && got[0] != "memory/b.md") {
			t.Fatalf("limit %d: got %v, want a copy of the plan, then memory/c.md", limit, got)
		}
		if first == nil {
			first = got[:2]
		} else if !reflect.DeepEqual(got, first) {
			t.Fatalf("limit 2 answers %v, limit 3 began %v", got, first)
		}
	}
}

// gardenVault holds a plan twice (memory/a.md, memory/b.md), a memory
// that shares some of its words and says something else (memory/c.md),
// and one that shares none (memory/d.md).
func gardenVault(t *testing.T) *vault.Vault {
	v := newVault(t)
	plan := "Ada planned the garden beds: tomatoes, beans and basil along the south wall."
	write(t, v, "memory/a.md", memory("fact", "stated", "", plan))
	write(t, v, "memory/b.md", memory("fact", "stated", "", plan))
	write(t, v, "memory/c.md", memory("fact", "stated", "", "Ada will paint the garden fence green next spring."))
	write(t, v, "memory/d.md", memory("fact", "stated", "", "The invoice from the plumber arrived on Tuesday."))
	return v
}

// diversify keeps the order of hits that repeat nothing, and lowers a
// near copy of a hit above it by how near it is: at a cosine of 0.9 (half
// way from nearDuplicate to 1) by half of duplicateCost.
func TestDiversify(t *testing.T) {
	t.Parallel()
	hit := func(id string, score float64) *search.DocumentMatch {
		return &search.DocumentMatch{ID: id, Score: score}
	}
	// a and b at a cosine of 0.9; c orthogonal to both; d has no vector.
	x, y := float32(0.9), float32(math.Sqrt(1-0.81))
	hits := []*search.DocumentMatch{hit("a", 10), hit("b", 9), hit("c", 6), hit("d", 4)}
	vs := [][]float32{{1, 0, 0}, {x, y, 0}, {0, 0, 1}, nil}
	diversify(hits, vs)
	want := map[string]float64{"a": 10, "b": 9 * (1 - duplicateCost/2), "c": 6, "d": 4}
	for _, h := range hits {
		if math.Abs(h.Score-want[h.ID]) > 1e-5 {
			t.Errorf("%s: score %v, want %v", h.ID, h.Score, want[h.ID])
		}
	}
	// Hits that repeat nothing keep their scores.
	hits = []*search.DocumentMatch{hit("a", 3), hit("c", 2), hit("d", 1)}
	diversify(hits, [][]float32{{1, 0, 0}, {0, 0, 1}, nil})
	for i, s := range []float64{3, 2, 1} {
		if hits[i].Score != s {
			t.Errorf("%s: score %v, want %v", hits[i].ID, hits[i].Score, s)
		}
	}
}

// With Explain, a hit's breakdown adds up to the score it is answered
// with: each step after bleve's ranking is a line of its own above
// bleve's, named for what it did. Before, whatever the rerank by meaning
// and a near-duplicate's penalty changed was shown as an episode's lift,
// though these memories have no session.
func TestExplainNamesEachStep(t *testing.T) {
	t.Parallel()
	v := gardenVault(t)
	res, err := Search(context.Background(), v, Query{Text: "What did Ada plan for the garden beds?", Limit: 3, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	repeats := 0
	for _, h := range res.Hits {
		if len(h.Explain) == 0 {
			t.Fatalf("%s: no explanation", h.Path)
		}
		var top float64
		if _, err := fmt.Sscan(strings.TrimSpace(h.Explain[0]), &top); err != nil || math.Abs(top-h.Score) > 1e-3*h.Score {
			t.Errorf("%s: the breakdown's first line %q, the score %g", h.Path, h.Explain[0], h.Score)
		}
		all := strings.Join(h.Explain, "\n")
		if strings.Contains(all, "episode") {
			t.Errorf("%s: an episode named with no session:\n%s", h.Path, all)
		}
		if !strings.Contains(all, "by meaning") {
			t.Errorf("%s: the rerank by meaning not named:\n%s", h.Path, all)
		}
		if strings.Contains(all, "nearly repeats") {
			repeats++
		}
	}
	if repeats != 1 {
		t.Errorf("%d hits say they repeat one above, want the copy alone", repeats)
	}
}

// A window with one memory whose words the table knows has nothing to
// reorder by meaning: with the question's vector, the shared component
// of two vectors leaves them pointing opposite ways, and the memory's
// score fell to nearly nothing, below a memory the table knows no word
// of, though its words matched better.
func TestMeaningNeedsTwoVectors(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "", "The lake key."))
	write(t, v, "memory/b.md", memory("fact", "stated", "", "Zorblaxq qwyxxv plimfq dravvoq snurkq gleebq wumpaq xyzzyq."))
	res, err := Search(context.Background(), v, Query{Text: "lake zorblaxq", Limit: 2, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Path != "memory/a.md" {
		t.Fatalf("got %+v, want memory/a.md first (its words match better)", res.Hits)
	}
	if all := strings.Join(res.Hits[0].Explain, "\n"); strings.Contains(all, "by meaning") {
		t.Errorf("a rerank by meaning of one vector:\n%s", all)
	}
}
