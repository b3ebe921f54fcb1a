package index

import (
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// TestFlatTableKeepsWholeHash: a full build's flat record holds what the
// manifest would have held, the whole of vault.Hash included, so a racy
// file's content check compares like with like.
func TestFlatTableKeepsWholeHash(t *testing.T) {
	rels := []string{"a.md", "b.md", "gone.md"}
	tab := newFlatTable(rels)
	mtime := time.Unix(1700000000, 5)
	tab.set(0, &vault.Memory{Rel: "a.md", Size: 3, ModTime: mtime, Raw: []byte("abc")})
	tab.set(1, &vault.Memory{Rel: "b.md", Size: 9, ModTime: mtime}) // unreadable: no hash
	got := tab.files()
	want := map[string]entry{
		"a.md": {Size: 3, MTime: mtime.UnixNano(), Hash: vault.Hash([]byte("abc"))},
		"b.md": {Size: 9, MTime: mtime.UnixNano()},
	}
	if len(got) != len(want) || got["a.md"] != want["a.md"] || got["b.md"] != want["b.md"] {
		t.Fatalf("files() = %v, want %v", got, want)
	}
}
