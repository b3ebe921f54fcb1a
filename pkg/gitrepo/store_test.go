package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
)

// A blob in a pack the repository wrote after its reads had listed the
// packs (a commit of 1,000 new files or more writes one) is read like any
// other: a sync's check of what it is about to push read "object not found"
// for each, in a repository git fsck found whole.
func TestBlobOfAPackWrittenAfterTheFirstRead(t *testing.T) {
	dir, p, git := scratchGit(t)
	git("init", "--quiet")
	if err := os.WriteFile(filepath.Join(dir, "a.md"), []byte("a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	git("add", "a.md")
	git("commit", "--quiet", "-m", "a")
	git("gc", "--quiet") // the clone's objects: one pack
	for _, keep := range []bool{false, true} {
		r, err := Open(dir, p)
		if err != nil {
			t.Fatal(err)
		}
		if keep { // as mem sync reads
			release, err := r.KeepPacks()
			if err != nil {
				t.Fatal(err)
			}
			defer release()
		}
		objs := r.NewObjects()
		pack, err := objs.NewPack()
		if err != nil {
			t.Fatal(err)
		}
		// Each write asks whether the repository has the object: the first
		// miss lists the packs.
		want := "new " + map[bool]string{false: "loose", true: "kept"}[keep] + "\n"
		h, err := pack.Write(BlobObject, []byte(want))
		if err != nil {
			t.Fatal(err)
		}
		if err := pack.Finish(); err != nil {
			t.Fatal(err)
		}
		if !r.Has(h) {
			t.Errorf("keep=%v: Has(%s) is false after the pack holding it was written", keep, h)
		}
		got, err := r.Blob(h)
		if err != nil || string(got) != want {
			t.Errorf("keep=%v: Blob(%s) = %q, %v; want %q", keep, h, got, err, want)
		}
	}
}
