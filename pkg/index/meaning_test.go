package index

import (
	"context"
	"reflect"
	"testing"

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
