package index

import (
	"context"
	"fmt"
	"slices"
	"testing"
)

// Files whose scores are equal are answered by path, however the index
// lies: bleve orders them by document number, which the layout decides
// (here the later paths indexed first, the others by a second update, and
// then a full build of all). 130 ties also cross the window of 100 a
// search ranks. Before, neither layout answered the first ten by path.
func TestTiesOrderedByPath(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for _, half := range [][2]int{{65, 130}, {0, 65}} {
		for i := half[0]; i < half[1]; i++ {
			write(t, v, fmt.Sprintf("notes/n%03d.md", i), "The kiln was fired at cone six.\n")
		}
		if _, err := Update(v, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for i := range 10 {
		want = append(want, fmt.Sprintf("notes/n%03d.md", i))
	}
	ask := func() []string {
		res, err := Search(context.Background(), v, Query{Text: "kiln", Limit: 10, NoRefresh: true})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.Path)
		}
		return got
	}
	if got := ask(); !slices.Equal(got, want) {
		t.Errorf("two updates: got %v, want %v", got, want)
	}
	if _, err := Update(v, Options{Full: true}); err != nil {
		t.Fatal(err)
	}
	if got := ask(); !slices.Equal(got, want) {
		t.Errorf("after a full build: got %v, want %v", got, want)
	}
}
