package examples

import (
	"io/fs"
	"os"
	"slices"
	"testing"
)

// TestEmbedsEveryEntry: the embedded vault is the folder on disk, every
// top-level entry of it, bar the .mem/ that running mem there writes.
func TestEmbedsEveryEntry(t *testing.T) {
	onDisk, err := os.ReadDir("vault")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range onDisk {
		if e.Name() != ".mem" {
			want = append(want, e.Name())
		}
	}
	embedded, err := fs.ReadDir(Vault(), ".")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range embedded {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("embedded %v, on disk %v: add the new entry to the go:embed line of embed.go", got, want)
	}
}
