package gitrepo

import (
	"os"
	"path/filepath"
	"testing"
)

// FetchHead reads what `git rev-parse --verify FETCH_HEAD^{commit}` reads
// after a fetch of a branch: a commit, an annotated tag of a tag of one
// (peeled), the first of several fetched refs, and an error where git
// fails (a branch naming a tree).
func TestFetchHeadIsRevParse(t *testing.T) {
	src, p, git := scratchGit(t)
	git("init", "--quiet")
	git("commit", "--quiet", "--allow-empty", "-m", "one")
	first := git("rev-parse", "HEAD")
	git("commit", "--quiet", "--allow-empty", "-m", "two")
	git("tag", "-a", "-m", "inner", "inner", first)
	git("tag", "-a", "-m", "outer", "outer", "inner")
	branch := git("symbolic-ref", "HEAD")
	// git update-ref puts no other object in a branch; a remote may.
	for name, obj := range map[string]string{"tagged": "outer", "tree": "HEAD^{tree}"} {
		if err := os.WriteFile(filepath.Join(src, ".git", "refs", "heads", name), []byte(git("rev-parse", obj)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dst := filepath.Join(t.TempDir(), "dst.git")
	if _, err := p.Run("", "init", "--quiet", "--bare", dst); err != nil {
		t.Fatal(err)
	}
	for _, refs := range [][]string{{branch}, {"refs/heads/tagged"}, {"refs/heads/tagged", branch}, {"refs/heads/tree"}} {
		fails := refs[0] == "refs/heads/tree"
		if _, err := p.Run(dst, append([]string{"fetch", "--quiet", "--no-tags", src}, refs...)...); err != nil {
			t.Fatal(err)
		}
		want, gitErr := p.Run(dst, "rev-parse", "--verify", "FETCH_HEAD^{commit}")
		r, err := OpenAt(dst, p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := r.FetchHead()
		switch {
		case (gitErr != nil) != fails:
			t.Fatalf("fetch %v: git rev-parse: %v, failing %v expected", refs, gitErr, fails)
		case gitErr != nil && err == nil:
			t.Errorf("fetch %v: FetchHead %s, where git fails: %v", refs, got, gitErr)
		case gitErr == nil && (err != nil || got != NewHash(want[:40])):
			t.Errorf("fetch %v: FetchHead %s %v, git %s", refs, got, err, want)
		}
	}
}
