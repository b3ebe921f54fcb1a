package gitrepo

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// scratchGit is an empty folder, a git Program with its own HOME and an
// identity, and how to run git in the folder (its output trimmed).
func scratchGit(t *testing.T) (string, Program, func(args ...string) string) {
	t.Helper()
	dir := t.TempDir()
	p := Program{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"}}
	git := func(args ...string) string {
		t.Helper()
		out, err := p.InWorkTree(dir, args...)
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	return dir, p, git
}

// Diff lists what `git diff-tree -r --no-renames` lists, in its order,
// over additions, deletions, edits, a mode change, a file that becomes a
// folder and back, a symlink, nested folders, and with a path limit (a
// folder, a file, a path neither tree has); Changed says whether it
// lists anything.
func TestDiffIsGitDiffTree(t *testing.T) {
	dir, p, git := scratchGit(t)
	write := func(rel, data string) {
		t.Helper()
		abs := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(abs), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(abs, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "--quiet")
	var trees []string
	snap := func() {
		git("add", "-A")
		git("commit", "--quiet", "--allow-empty", "-m", "x")
		trees = append(trees, git("rev-parse", "HEAD^{tree}"))
	}
	write("a.md", "a")
	write("p", "file p")
	write("p.txt", "beside p")
	write("m/x/y.md", "deep")
	write("m/z.md", "z")
	write("exec.sh", "#!/bin/sh")
	snap()
	write("a.md", "a2")
	os.Remove(filepath.Join(dir, "p"))
	write("p/inside.md", "p is a folder now")
	write("m/x/new.md", "new")
	os.Remove(filepath.Join(dir, "m/z.md"))
	os.Chmod(filepath.Join(dir, "exec.sh"), 0o755)
	if err := os.Symlink("a.md", filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	snap()
	os.RemoveAll(filepath.Join(dir, "p"))
	write("p", "a file again")
	os.RemoveAll(filepath.Join(dir, "m"))
	snap()

	r, err := Open(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	empty := git("hash-object", "-t", "tree", "/dev/null")
	name := func(h string) Hash {
		if h == empty {
			return ZeroHash
		}
		return NewHash(h)
	}
	pairs := [][2]string{{empty, trees[0]}, {trees[0], empty}}
	for i := range trees {
		for j := range trees {
			if i != j {
				pairs = append(pairs, [2]string{trees[i], trees[j]})
			}
		}
	}
	for _, pr := range pairs {
		for _, limit := range []string{"", "m", "m/x", "p", "a.md", "absent"} {
			args := []string{"diff-tree", "-r", "--raw", "--no-renames", "--abbrev=40", pr[0], pr[1]}
			if limit != "" {
				args = append(args, "--", limit)
			}
			want := git(args...)
			chs, err := r.Diff(name(pr[0]), name(pr[1]), limit)
			if err != nil {
				t.Fatal(err)
			}
			if changed, err := r.Changed(name(pr[0]), name(pr[1]), limit); err != nil || changed != (len(chs) > 0) {
				t.Errorf("Changed(%.7s, %.7s, %q) = %v, %v; Diff lists %d changes", pr[0], pr[1], limit, changed, err, len(chs))
			}
			var got []string
			for _, c := range chs {
				status := "M"
				switch {
				case c.Added():
					status = "A"
				case c.Deleted():
					status = "D"
				case c.OldMode&0o170000 != c.NewMode&0o170000:
					status = "T"
				}
				got = append(got, fmt.Sprintf(":%s %s %s %s %s\t%s", c.OldMode, c.NewMode, c.Old, c.New, status, c.Path))
			}
			if g := strings.ReplaceAll(strings.Join(got, "\n"), ZeroHash.String(), strings.Repeat("0", 40)); g != want {
				t.Errorf("Diff(%.7s, %.7s, %q):\n%s\nwant (git diff-tree):\n%s", pr[0], pr[1], limit, g, want)
			}
		}
	}
}
