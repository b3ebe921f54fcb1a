package history

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
)

// changes renders a commit's changes as "M path" lines for comparison.
func changes(res *CommitResult) string {
	var b []string
	for _, c := range res.Changes {
		b = append(b, c.Status+" "+c.Path)
	}
	return strings.Join(b, ", ")
}

// freshTree is the tree git builds for the worktree from an empty index,
// with no cached trees to trust.
func freshTree(t *testing.T, dir string) string {
	t.Helper()
	env := append(os.Environ(), "GIT_INDEX_FILE="+filepath.Join(t.TempDir(), "index"))
	runEnv(t, dir, env, "git", "add", "-A")
	return runEnv(t, dir, env, "git", "write-tree")
}

// The index mem writes must be one git reads the same way (entries and
// cached trees), whose cached trees git may trust for unchanged folders,
// and mem must read git's own index (with git's cached trees) back.
func TestIndexAgreesWithGit(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for _, p := range []string{"a/x.md", "a/y.md", "a/b/x.md", "a/b/c/x.md", "c/w.md", "c/z.md", "top.md"} {
		memory(t, v, p, "fact", "", "about "+p)
	}
	commit(t, v, CommitOptions{})
	fsck(t, v)
	if wt, head := run(t, v.Root, "git", "write-tree"), run(t, v.Root, "git", "rev-parse", "HEAD^{tree}"); wt != head {
		t.Fatalf("git write-tree from mem's index = %s, HEAD's tree %s", wt, head)
	}

	// git invalidates a/b, a and the root, and trusts mem's cache for c
	// and a/b/c when it writes the tree.
	stampedAfter(t, filepath.Join(v.Root, ".git", "index"))
	memory(t, v, "a/b/x.md", "fact", "", "changed")
	run(t, v.Root, "git", "add", "a/b/x.md")
	if got, want := run(t, v.Root, "git", "write-tree"), freshTree(t, v.Root); got != want {
		t.Fatalf("git write-tree with mem's cached trees = %s, from scratch %s", got, want)
	}
	// mem reads a partly invalid cache: it diffs against HEAD's trees.
	res := commit(t, v, CommitOptions{})
	if got := changes(res); got != "M a/b/x.md" {
		t.Fatalf("changes after git add: %s", got)
	}
	fsck(t, v)

	// After a git commit the index carries git's cached trees; mem diffs
	// against the index alone and must find exactly what changed.
	memory(t, v, "c/z.md", "fact", "", "changed by git")
	run(t, v.Root, "git", "add", "c/z.md")
	run(t, v.Root, "git", "commit", "-q", "-m", "by git")
	data, err := os.ReadFile(filepath.Join(v.Root, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	mine, err := gitfmt.DecodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	var gg index.Index
	if err := index.NewDecoder(strings.NewReader(string(data))).Decode(&gg); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(mine.Entries, gg.Entries) || !reflect.DeepEqual(mine.Cache, gg.Cache) {
		t.Fatalf("gitfmt.DecodeIndex differs from go-git's decoder:\nmine %+v\ngo-git %+v", mine.Cache, gg.Cache)
	}
	if trees := gitfmt.CachedTrees(mine.Cache); trees[""].String() != run(t, v.Root, "git", "rev-parse", "HEAD^{tree}") || trees["a/b/c"].IsZero() {
		t.Fatalf("cached trees of git's index: %v", trees)
	}
	stampedAfter(t, filepath.Join(v.Root, ".git", "index"))
	memory(t, v, "a/y.md", "fact", "", "changed by mem")
	memory(t, v, "a/b/new.md", "fact", "", "new")
	if err := os.Remove(filepath.Join(v.Root, "c", "w.md")); err != nil {
		t.Fatal(err)
	}
	res = commit(t, v, CommitOptions{})
	if got := changes(res); got != "A a/b/new.md, M a/y.md, D c/w.md" {
		t.Fatalf("changes against git's index: %s", got)
	}
	fsck(t, v)
	if got, want := run(t, v.Root, "git", "rev-parse", "HEAD^{tree}"), freshTree(t, v.Root); got != want {
		t.Fatalf("HEAD tree %s, git builds %s", got, want)
	}
	if wt := run(t, v.Root, "git", "write-tree"); wt != run(t, v.Root, "git", "rev-parse", "HEAD^{tree}") {
		t.Fatalf("git write-tree %s differs from HEAD", wt)
	}
	// Nothing changed: the index is already exact and is not rewritten.
	fi, _ := os.Stat(filepath.Join(v.Root, ".git", "index"))
	stampedAfter(t, filepath.Join(v.Root, ".git", "index"))
	if res := commit(t, v, CommitOptions{}); res.Commit != "" || res.Read != 0 {
		t.Fatalf("no-op commit: %+v", res)
	}
	if fi2, _ := os.Stat(filepath.Join(v.Root, ".git", "index")); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Errorf("index rewritten on a no-op commit")
	}
}

// An index mem cannot read must not survive a commit that moved HEAD: it
// names the old HEAD's files, so the next plain 'git commit' would delete
// what mem just committed (issue 17). With the vault as the whole worktree
// mem rebuilds it.
func TestCommitRebuildsUnreadableIndex(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "Obsidian Sync/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	p := filepath.Join(v.Root, ".git", "index")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-1] ^= 0xff // checksum mismatch: neither codec reads it
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	memory(t, v, "Obsidian Sync/b.md", "fact", "", "b")
	res := commit(t, v, CommitOptions{})
	fsck(t, v) // git status clean: nothing a plain git commit would undo
	if w := strings.Join(res.Warnings, "\n"); !strings.Contains(w, "cannot read the git index") || !strings.Contains(w, "rebuilt") {
		t.Fatalf("warnings: %q", w)
	}
	run(t, v.Root, "git", "commit", "-q", "--allow-empty", "-m", "plain git commit")
	if got := strings.Join(lsTree(t, v), " "); !strings.Contains(got, "Obsidian Sync/b.md") {
		t.Fatalf("a plain git commit after mem's lost b.md: %s", got)
	}
}
