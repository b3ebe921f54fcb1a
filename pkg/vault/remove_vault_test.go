package vault

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestRemove(t *testing.T) {
	v := newVault(t, map[string]string{"notes/a.md": "a\n"})
	outside := filepath.Join(filepath.Dir(v.Root), "outside.md")
	if err := os.WriteFile(outside, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Remove(v, "notes/a.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(v.Root, "notes", "a.md")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("notes/a.md still there: %v", err)
	}
	if err := Remove(v, "notes/a.md"); err != nil {
		t.Fatalf("removing a file already gone: %v, want nil", err)
	}
	if err := Remove(v, "../outside.md"); err == nil {
		t.Fatal("a path out of the vault was removed")
	}
	if _, err := os.Stat(outside); err != nil {
		t.Fatalf("the file outside the vault is gone: %v", err)
	}
}
