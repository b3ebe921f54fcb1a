package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// The reference and the man page are what the command definitions say:
// a new command, flag or usage line fails this test until they are
// regenerated (MEM_UPDATE_REFERENCE=1).
func TestReferenceIsCurrent(t *testing.T) {
	root := newRoot(io.Discard, io.Discard)
	for name, write := range map[string]func(*bytes.Buffer){
		"reference.md": func(b *bytes.Buffer) { writeReference(b, root) },
		"mem.1":        func(b *bytes.Buffer) { writeMan(b, root) },
	} {
		var want bytes.Buffer
		write(&want)
		path := filepath.Join("..", "..", "docs", name)
		if os.Getenv("MEM_UPDATE_REFERENCE") != "" {
			if err := os.WriteFile(path, want.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		got, err := os.ReadFile(path)
		if err != nil || !bytes.Equal(got, want.Bytes()) {
			t.Errorf("docs/%s is not what the commands define (%v): run MEM_UPDATE_REFERENCE=1 go test ./cmd/mem -run TestReferenceIsCurrent", name, err)
		}
	}
	for _, c := range visible(root.Commands) {
		if c.Usage == "" {
			t.Errorf("mem %s has no usage line for the reference", c.Name)
		}
	}
}
