package vault

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/viewfmt"
)

func TestScanListsWhatListLists(t *testing.T) {
	v := cacheVault(t, 300)
	if err := os.WriteFile(filepath.Join(v.Root, "MEMORY.md"), []byte(viewfmt.Header+"v; do not edit -->\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := v.Scan()
	if err != nil {
		t.Fatal(err)
	}
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(snap.Rels, rels) || len(rels) != 301 || !slices.IsSorted(rels) {
		t.Fatalf("Scan listed %d files, List %d (want 301, sorted, equal)", len(snap.Rels), len(rels))
	}
}

// TestSnapshotKey: the key changes with every kind of change, even one that
// keeps the size, and is withheld while a stamp cannot vouch for a file.
func TestSnapshotKey(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 20)
	v.RacyWindow = vaulttest.NoRacyWindow
	key := func() (string, bool) {
		t.Helper()
		snap, err := v.Scan()
		if err != nil {
			t.Fatal(err)
		}
		return snap.Key()
	}
	if _, ok := key(); ok {
		t.Fatal("a vault holding a symlinked file got a key")
	}
	if err := os.Remove(filepath.Join(v.Root, "notes", "link.md")); err != nil {
		t.Fatal(err)
	}
	k0, ok := key()
	if !ok {
		t.Fatal("no key for a settled vault without links")
	}
	if k, _ := key(); k != k0 {
		t.Fatal("two scans of an unchanged vault gave different keys")
	}
	file := filepath.Join(v.Root, "memory", "m0001.md")
	data, _ := os.ReadFile(file)
	changes := map[string]func() error{
		"same-size edit in place": func() error { data[len(data)-2] ^= 1; return os.WriteFile(file, data, 0o644) },
		"new file":                func() error { return os.WriteFile(filepath.Join(v.Root, "memory", "new.md"), data, 0o644) },
		"rename": func() error {
			return os.Rename(filepath.Join(v.Root, "memory", "new.md"), filepath.Join(v.Root, "memory", "renamed.md"))
		},
		"delete": func() error { return os.Remove(filepath.Join(v.Root, "memory", "renamed.md")) },
	}
	prev := k0
	for _, name := range []string{"same-size edit in place", "new file", "rename", "delete"} {
		if err := changes[name](); err != nil {
			t.Fatal(err)
		}
		k, ok := key()
		if !ok {
			t.Fatalf("%s: no key", name)
		}
		if k == prev {
			t.Errorf("%s: the key did not change", name)
		}
		prev = k
	}

	v.RacyWindow = 1 << 62 // every file counts as just written
	if _, ok := key(); ok {
		t.Error("a key was given while files were racy")
	}
}

// TestCacheFrame: WriteCache's payload comes back whole, and only under its
// own magic; a flipped byte anywhere makes it absent.
func TestCacheFrame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "c")
	payload := []byte("some derived view")
	if err := WriteCache(path, "magic one\n", payload); err != nil {
		t.Fatal(err)
	}
	if got, ok := ReadCache(path, "magic one\n"); !ok || string(got) != string(payload) {
		t.Fatalf("ReadCache = %q, %v", got, ok)
	}
	if _, ok := ReadCache(path, "magic two\n"); ok {
		t.Error("read under another magic")
	}
	raw, _ := os.ReadFile(path)
	for i := range raw {
		bad := slices.Clone(raw)
		bad[i] ^= 1
		os.WriteFile(path, bad, 0o644)
		if _, ok := ReadCache(path, "magic one\n"); ok {
			t.Fatalf("byte %d flipped: still read", i)
		}
	}
}

// TestLoadStops: a Load whose Context is done, before its walk or after it
// while the files are read, returns a fail.Interrupted error and no
// memories, and writes no parse cache of the part it read.
func TestLoadStops(t *testing.T) {
	v := cacheVault(t, 300)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if mems, err := v.Load(LoadOptions{Context: ctx}); fail.Of(err) != fail.Interrupted || mems != nil {
		t.Fatalf("Load with a done context: %d memories, %v (want none, interrupted)", len(mems), err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	v.HeldScan = func(_ *Vault, scan func() (*Snapshot, error)) (*Snapshot, error) {
		defer cancel() // Ctrl-C once the walk is done, before a file is read
		return scan()
	}
	if mems, err := v.Load(LoadOptions{Context: ctx}); fail.Of(err) != fail.Interrupted || mems != nil {
		t.Fatalf("Load stopped after its walk: %d memories, %v (want none, interrupted)", len(mems), err)
	}
	if _, err := os.Stat(v.cachePath()); !os.IsNotExist(err) {
		t.Fatalf("a stopped Load wrote the parse cache (%v)", err)
	}
	v.HeldScan = nil
	rels, _ := v.List()
	if mems, err := v.Load(LoadOptions{Context: context.Background()}); err != nil || len(mems) != len(rels) {
		t.Fatalf("Load: %d memories, %v (want %d)", len(mems), err, len(rels))
	}
}
