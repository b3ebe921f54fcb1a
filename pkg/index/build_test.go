package index

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// TestFlatTableKeepsWholeHash: a full build's flat record holds what the
// manifest would have held, the whole of vault.Hash included, so a racy
// file's content check compares like with like.
func TestFlatTableKeepsWholeHash(t *testing.T) {
	t.Parallel()
	rels := []string{"a.md", "b.md", "gone.md"}
	tab := newFlatTable(rels)
	mtime := time.Unix(1700000000, 5)
	tab.set(0, &vault.Memory{Rel: "a.md", Size: 3, ModTime: mtime, Raw: "abc"})
	tab.set(1, &vault.Memory{Rel: "b.md", Size: 9, ModTime: mtime}) // unreadable: no hash
	rels, entries := tab.sorted()
	got := filesOf(&manifest{order: rels, entries: entries})
	want := map[string]entry{
		"a.md": {size: 3, mTime: mtime.UnixNano(), hash: vault.Hash([]byte("abc"))},
		"b.md": {size: 9, mTime: mtime.UnixNano()},
	}
	if len(got) != len(want) || got["a.md"] != want["a.md"] || got["b.md"] != want["b.md"] {
		t.Fatalf("recorded %v, want %v", got, want)
	}
}

// TestUpdatesAfterFullBuildStayInPlace: the index a full build leaves is
// updated in place run after run, each update kept.
func TestUpdatesAfterFullBuildStayInPlace(t *testing.T) {
	t.Parallel()
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

// TestInPlaceBatchIsOnDiskWhenItReturns: a full build runs with
// unsafe_batch, which bleve stores with the index; an in-place update
// opened later must still be persisted before Batch returns, or a process
// that exits right after loses it (checkSeq then finds the index behind
// its manifest and rebuilds it all). Without openBleve's override the new
// segment is not yet on disk when Batch returns.
func TestInPlaceBatchIsOnDiskWhenItReturns(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "", "The database is Postgres."))
	mustUpdate(t, v, Options{Full: true})
	g, reason := live(v)
	if g == nil {
		t.Fatal(reason)
	}
	meta, err := os.ReadFile(filepath.Join(g.blevePath(), "index_meta.json"))
	if err != nil || !strings.Contains(string(meta), `"unsafe_batch":true`) {
		t.Fatalf("index_meta.json = %s, %v; want the fresh build's unsafe_batch kept (else this test tests nothing)", meta, err)
	}
	segments := func() map[string]bool {
		zaps, _ := filepath.Glob(filepath.Join(g.blevePath(), "store", "*.zap"))
		set := map[string]bool{}
		for _, z := range zaps {
			set[z] = true
		}
		return set
	}
	idx, err := open(g, false)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	for i := range 5 {
		before := segments()
		b := idx.NewBatch()
		if err := b.Index(fmt.Sprintf("memory/new%d.md", i), map[string]any{"body": "redis"}); err != nil {
			t.Fatal(err)
		}
		if err := idx.Batch(b); err != nil {
			t.Fatal(err)
		}
		written := 0
		for z := range segments() {
			if !before[z] {
				written++
			}
		}
		if written == 0 {
			t.Fatalf("batch %d returned before its segment was on disk: not persisted", i)
		}
	}
}
