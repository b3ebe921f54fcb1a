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
	if _, err := batch.Add(a, []byte("new"), 0o644); err != nil {
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

// RemoveNow frees a name at once, so a file that becomes a folder in the
// same batch can be written; a name already gone is no error.
func TestBatchRemoveNow(t *testing.T) {
	dir := t.TempDir()
	x := filepath.Join(dir, "x")
	if err := os.WriteFile(x, []byte("a file"), 0o644); err != nil {
		t.Fatal(err)
	}
	var batch Batch
	defer batch.Abort()
	if err := batch.RemoveNow(x); err != nil {
		t.Fatal(err)
	}
	if err := batch.RemoveNow(filepath.Join(dir, "gone")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(x, 0o777); err != nil {
		t.Fatalf("the name is not free: %v", err)
	}
	if _, err := batch.Add(filepath.Join(x, "y.md"), []byte("in a folder"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := batch.Commit(); err != nil {
		t.Fatal(err)
	}
	if data, err := os.ReadFile(filepath.Join(x, "y.md")); err != nil || string(data) != "in a folder" {
		t.Fatalf("x/y.md = %q, %v", data, err)
	}
}
