package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// A memory lifted by its episode gains the share of a better hit's score
// that its own words cannot earn: a short turn ("Yes, last Tuesday") says
// too little to match the question, a long message says enough. Here the
// best hit's long neighbour (440 words, none of the question's) ranks
// below a memory of another session that matches one of its words; lifted
// in full it ranked above it. A short neighbour, the answer, still ranks
// just below the turn it answers.
func TestLiftShrinksWithLength(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	at := func(s string) string { return "2024-03-15T10:00:" + s + "Z" }
	write(t, v, "memory/a.md", memory("fact", "stated", at("00"),
		"user: how many annual gifts did I give my children this year?", "session: chat"))
	write(t, v, "memory/b.md", memory("fact", "stated", at("10"),
		"user: yes, three of them.", "session: chat"))
	long := strings.Repeat("assistant: Presents to your kids each year lower the estate tax, so plan the family transfers with the lawyer before the exclusion limit changes. ", 20)
	write(t, v, "memory/c.md", memory("fact", "stated", at("20"), long, "session: chat"))
	write(t, v, "memory/d.md", memory("fact", "stated", "2024-05-01T09:00:00Z",
		"user: I bought annual passes to the city museum for my nephews and nieces, who love the dinosaur hall.", "session: other"))
	for i, f := range []string{"the school", "the park", "the museum", "the zoo", "the library", "the beach"} {
		write(t, v, fmt.Sprintf("memory/f%d.md", i), memory("fact", "stated", fmt.Sprintf("2024-0%d-02T09:00:00Z", i+4),
			"user: the children went to "+f+" with their cousins on Sunday.", fmt.Sprintf("session: s%d", i)))
	}
	res, err := Search(context.Background(), v, Query{Text: "What annual gifts did I give my children?", Limit: 4})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, h := range res.Hits {
		got = append(got, h.Path)
	}
	pos := map[string]int{}
	for i, p := range got {
		pos[p] = i + 1
	}
	if pos["memory/a.md"] != 1 || pos["memory/b.md"] == 0 || pos["memory/d.md"] == 0 || pos["memory/c.md"] != 0 && pos["memory/c.md"] < pos["memory/d.md"] {
		t.Fatalf("got %v, want memory/a.md first, then the short answer and memory/d.md above the long neighbour", got)
	}
}
