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

// A folder missing when the batch looks is written whole in a stage under
// a temp name and appears on Commit with every file, never before; the
// stat Add returns is the placed file's; Abort leaves nothing behind.
func TestBatchMissingFolder(t *testing.T) {
	dir := t.TempDir()
	deep, other := filepath.Join(dir, "new", "a", "b.md"), filepath.Join(dir, "new", "c.md")
	var aborted Batch
	if _, err := aborted.Add(deep, []byte("b"), 0o644); err != nil {
		t.Fatal(err)
	}
	aborted.Abort()
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Fatalf("an aborted batch left %v", ents)
	}
	var batch Batch
	if !batch.Missing(filepath.Dir(deep)) || batch.Missing(dir) {
		t.Fatal("Missing is wrong")
	}
	fi, err := batch.Add(deep, []byte("b"), 0o640)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := batch.Add(other, []byte("c"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "new")); !os.IsNotExist(err) {
		t.Fatalf("the folder appeared before Commit: %v", err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || !IsOwn(ents[0].Name()+"/a/b.md") {
		t.Fatalf("the stage is not one temp folder of mem's own: %v", ents)
	}
	if err := batch.Commit(); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{deep: "b", other: "c"} {
		if data, err := os.ReadFile(p); string(data) != want {
			t.Fatalf("%s = %q, %v", p, data, err)
		}
	}
	placed, err := os.Lstat(deep)
	if err != nil || !os.SameFile(fi, placed) || placed.Mode().Perm() != 0o640 || !placed.ModTime().Equal(fi.ModTime()) {
		t.Fatalf("placed %v, written %v (%v)", placed, fi, err)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 || ents[0].Name() != "new" {
		t.Fatalf("left beside the folder: %v", ents)
	}
}
