package index

import (
	"context"
	"slices"
	"testing"
)

// A phrasing that only repeats the question's words must not outvote the
// question's own ranking; one with a new word counts.
func TestPhrasingsCountByTheWordsTheyAdd(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/car.md", memory("fact", "stated", "", "Maria drives a red car to the red car wash"))
	write(t, v, "memory/maria.md", memory("fact", "stated", "", "Maria met Maria's sister Maria on Sunday"))
	write(t, v, "memory/auto.md", memory("fact", "stated", "", "The automobile is parked in the garage"))
	order := func(q Query) []string {
		t.Helper()
		res, err := Search(context.Background(), v, q)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, h := range res.Hits {
			out = append(out, h.Path)
		}
		return out
	}
	alone := order(Query{Text: "What red car does Maria drive?"})
	if len(alone) < 2 || alone[0] != "memory/car.md" {
		t.Fatalf("question alone = %v, want car.md first", alone)
	}
	if got := order(Query{Text: "What red car does Maria drive?", Also: []string{"Maria", "Maria does", "What Maria"}}); !slices.Equal(got, alone) {
		t.Fatalf("with rewrites of its own words = %v, want the question's order %v", got, alone)
	}
	if got := order(Query{Text: "What red car does Maria drive?", Also: []string{"automobile"}}); !slices.Contains(got, "memory/auto.md") {
		t.Fatalf("with a new word = %v, want auto.md among them", got)
	}
}
