package lint

import (
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// An embed's broken-link warning points at its "!", as a link's points at
// its "[[", however links and embeds follow each other.
func TestBrokenEmbedPosition(t *testing.T) {
	v := corpusVault(t)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(v, mems, testNow)
	data := "---\ntype: note\n---\n![[gone-a]] [[gone-b]]![[gone-c]]!![[gone-d]]\n"
	var cols []int
	for _, p := range lintBytes(l, "notes/embeds.md", []byte(data)) {
		if p.Rule == "link-broken" {
			cols = append(cols, p.Column)
		}
	}
	want := []int{1, 13, 23, 35}
	if len(cols) != len(want) {
		t.Fatalf("link-broken at columns %v, want %v", cols, want)
	}
	for i := range want {
		if cols[i] != want[i] {
			t.Fatalf("link-broken at columns %v, want %v", cols, want)
		}
	}
}
