package vault

import (
	"os"
	"path/filepath"
	"testing"
)

// RemoveFile removes a file, and a file already gone is no error.
func TestRemoveFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "a.md")
	if err := os.WriteFile(p, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := RemoveFile(p); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(p); !os.IsNotExist(err) {
		t.Fatalf("still there: %v", err)
	}
	if err := RemoveFile(p); err != nil {
		t.Fatalf("removing it again: %v", err)
	}
}
