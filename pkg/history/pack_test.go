package history

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A commit that must read at least packThreshold files writes them as one
// pack; git must accept it (fsck --strict, verify-pack), duplicates must
// be stored once, and later commits must read their parents' blobs from it.
func TestManyNewFilesGoIntoOnePack(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	n := packThreshold + 50
	for i := range n {
		text := fmt.Sprintf("fact number %d", i)
		if i%100 == 0 {
			text = "the same fact" // identical blobs: one pack entry
		}
		memory(t, v, fmt.Sprintf("notes/%02d/m%04d.md", i%7, i), "fact", "", text)
	}
	res := commit(t, v, CommitOptions{})
	if res.Added != n+3 || res.Read != n+3 { // + mem.yaml, .gitignore and .gitattributes
		t.Fatalf("added %d, read %d, want %d", res.Added, res.Read, n+3)
	}
	if !strings.Contains(res.Subject, fmt.Sprintf("fact %d", n)) {
		t.Errorf("subject %q does not count %d facts", res.Subject, n)
	}
	fsck(t, v)
	packs, _ := filepath.Glob(filepath.Join(v.Root, ".git", "objects", "pack", "pack-*.idx"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v, want one", packs)
	}
	out := run(t, v.Root, "git", "verify-pack", "-v", packs[0])
	blobs := strings.Count(out, " blob ")
	if want := n - (n+99)/100 + 1 + 3; blobs != want { // distinct facts, the shared one, mem.yaml, .gitignore, .gitattributes
		t.Errorf("pack holds %d blobs, want %d", blobs, want)
	}
	if tmp, _ := filepath.Glob(filepath.Join(v.Root, ".git", "objects", "pack", "tmp_*")); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}

	// The next commit diffs against trees and describes blobs in the pack.
	stampedAfter(t, filepath.Join(v.Root, ".git", "index"))
	memory(t, v, "notes/03/m0003.md", "lesson", "proj_x", "changed")
	if err := os.Remove(filepath.Join(v.Root, "notes", "00", "m0000.md")); err != nil {
		t.Fatal(err)
	}
	res = commit(t, v, CommitOptions{})
	// The deleted memory's type is read from its blob in the pack.
	if res.Modified != 1 || res.Deleted != 1 || res.Read != 1 || !strings.HasSuffix(res.Subject, "(fact 1, lesson 1)") {
		t.Fatalf("second commit: %s %+v", res.Subject, res)
	}
	fsck(t, v)
}
