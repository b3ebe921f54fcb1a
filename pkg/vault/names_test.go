package vault

import (
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestNamesMemo: a scan asks the name check only of paths the memo does
// not know clean (a held name every time), a new file is checked once, the
// memo keeps no path, and a damaged memo costs checks, never an answer.
func TestNamesMemo(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 40)
	var calls atomic.Int64
	v.SecretInName = func(rel string) string {
		calls.Add(1)
		if strings.Contains(rel, "HELDKEY") {
			return "secret-test"
		}
		return ""
	}
	write := func(rel string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(v.Root, rel), []byte("---\ntype: fact\n---\nx\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory/HELDKEY.md")
	scan := func(wantCalls int64) *Snapshot {
		t.Helper()
		calls.Store(0)
		snap, err := v.Scan()
		if err != nil {
			t.Fatal(err)
		}
		if got := calls.Load(); got != wantCalls {
			t.Fatalf("the scan checked %d names, want %d", got, wantCalls)
		}
		if len(snap.Held) != 1 || snap.Held[0].Rel != "memory/HELDKEY.md" {
			t.Fatalf("held %v, want memory/HELDKEY.md", snap.Held)
		}
		return snap
	}
	first := scan(42) // 40 memories, the link, the held one
	if len(first.Rels) != 41 {
		t.Fatalf("first scan listed %d files, want 41", len(first.Rels))
	}
	scan(1) // only the held name is asked again
	write("memory/new.md")
	if snap := scan(2); len(snap.Rels) != 42 {
		t.Fatalf("listed %d files after one was added, want 42", len(snap.Rels))
	}
	calls.Store(0)
	if rels, err := v.List(); err != nil || len(rels) != 42 || calls.Load() != 1 {
		t.Fatalf("List: %d files, %d checks, %v (want 42, 1)", len(rels), calls.Load(), err)
	}

	raw, err := os.ReadFile(v.namesPath())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"HELDKEY", "m0001", "memory/"} {
		if strings.Contains(string(raw), s) {
			t.Fatalf("the names memo holds %q", s)
		}
	}
	if err := os.WriteFile(v.namesPath(), raw[:len(raw)/2], 0o600); err != nil {
		t.Fatal(err)
	}
	scan(43) // every name again, and the same answer
	scan(1)
}
