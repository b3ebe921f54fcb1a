package index

import (
	"context"
	"fmt"
	"strings"
	"testing"
)

// A question that asks when is answered by the memory that tells a time,
// above one that matches its words as well or better and tells none.
func TestWhenPrefersATime(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "", "Orla: Lisbon! we want to move to Lisbon."))
	write(t, v, "memory/b.md", memory("fact", "stated", "", "Orla: we moved to Lisbon in March."))
	for i, f := range []string{"the garden needs water", "the train was late again", "a new recipe for soup", "the cat sleeps all day long"} {
		write(t, v, fmt.Sprintf("memory/f%d.md", i), memory("fact", "stated", "", "Orla: "+f+"."))
	}
	res, err := Search(context.Background(), v, Query{Text: "When did Orla move to Lisbon?", Limit: 2, Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Path != "memory/b.md" {
		t.Fatalf("got %+v, want memory/b.md (it tells when) first", res.Hits)
	}
	if all := strings.Join(res.Hits[0].Explain, "\n"); !strings.Contains(all, "tells a time") {
		t.Errorf("the step is not explained:\n%s", all)
	}
	// The same words asked otherwise keep the order of the words.
	res, err = Search(context.Background(), v, Query{Text: "Did Orla move to Lisbon?", Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 || res.Hits[0].Path != "memory/a.md" {
		t.Fatalf("got %+v, want memory/a.md (its words match more) first", res.Hits)
	}
}

func TestAsksWhen(t *testing.T) {
	for q, want := range map[string]bool{
		"When did Kate dye her hair?":                                    true,
		"How long has Melanie been practicing art?":                      true,
		"How often does Nebraas change her nails?":                       true,
		"Since when has Moon been in different homes?":                   true,
		"What day did the team ship it?":                                 true,
		"How many pets does Vanessa have?":                               false,
		"What did Kate cook?":                                            false,
		"If I retire, what should I consider when choosing a successor?": false,
	} {
		if got := asksWhen(q); got != want {
			t.Errorf("asksWhen(%q) = %v, want %v", q, got, want)
		}
	}
	for text, want := range map[string]bool{
		"we moved two weeks ago": true,
		"on 3 June":              true,
		"see you Tuesday":        true,
		"I may go":               false,
		"we moved to the coast":  false,
	} {
		if got := tellsTime(text); got != want {
			t.Errorf("tellsTime(%q) = %v, want %v", text, got, want)
		}
	}
}
