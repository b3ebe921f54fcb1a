package vault

import (
	"os"
	"path/filepath"
	"testing"
)

// A batch removes the files marked only on Commit, after its
// replacements, and one already gone is no error; Abort removes nothing.
func TestBatchRemove(t *testing.T) {
	dir := t.TempDir()
	a, b, gone := filepath.Join(dir, "a.md"), filepath.Join(dir, "b.md"), filepath.Join(dir, "gone.md")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var aborted Batch
	aborted.Remove(b)
	aborted.Abort()
	if err := aborted.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(b); err != nil {
		t.Fatal("an aborted batch removed a file")
	}
	var batch Batch
	batch.Remove(b)
	batch.Remove(gone)
	if err := batch.Add(a, []byte("new"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(b); err != nil {
		t.Fatal("removed before Commit")
	}
	if err := batch.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(a); string(data) != "new" {
		t.Fatalf("a.md = %q", data)
	}
	if _, err := os.Lstat(b); !os.IsNotExist(err) {
		t.Fatalf("b.md still there: %v", err)
	}
	var onlyRemoves Batch
	onlyRemoves.Remove(a)
	if err := onlyRemoves.Commit(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(a); !os.IsNotExist(err) {
		t.Fatalf("a.md still there: %v", err)
	}
}
