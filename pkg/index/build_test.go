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

// TestUpdatesAfterFullBuildStayInPlace: the index a full build leaves is
// updated in place run after run, each update kept. (Built with bleve's
// unsafe_batch, the first in-place update was lost on the next open, so
// the second run found the index behind its manifest and rebuilt it.)
func TestUpdatesAfterFullBuildStayInPlace(t *testing.T) {
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "", "The database is Postgres."))
	write(t, v, "memory/b.md", memory("fact", "stated", "", "Deploys happen on Fridays."))
	mustUpdate(t, v, Options{Full: true})
	for i, word := range []string{"redis", "sqlite", "mysql"} {
		write(t, v, "memory/a.md", memory("fact", "stated", "", "The database is "+word+"."))
		if st := mustUpdate(t, v, Options{}); st.Full || st.Updated != 1 {
			t.Fatalf("update %d: %+v, want one file updated in place", i+1, st)
		}
		if got := paths(t, v, Query{Text: word}); len(got) != 1 || got[0] != "memory/a.md" {
			t.Fatalf("update %d: search %q = %v", i+1, word, got)
		}
	}
}
