package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A commit killed while holding git's locks must not stop every later
// commit: the next one removes the locks that mem recorded, and only those.
func TestCommitClearsLocksOfAKilledCommit(t *testing.T) {
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	first := commit(t, v, CommitOptions{})

	// What a SIGKILL leaves: the index lock and a ref lock, both recorded.
	dead, err := Open(v)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.lockIndex(); err != nil {
		t.Fatal(err)
	}
	refLock := filepath.Join(v.Root, ".git", "refs", "heads", first.Branch+".lock")
	if _, err := dead.createLock(refLock); err != nil {
		t.Fatal(err)
	}

	memory(t, v, "memory/b.md", "fact", "", "b")
	res := commit(t, v, CommitOptions{Now: clock.Add(time.Minute)})
	if len(res.Warnings) != 2 || !strings.Contains(strings.Join(res.Warnings, "\n"), "index.lock, left by a mem commit that was killed") {
		t.Fatalf("warnings = %q", res.Warnings)
	}
	for _, p := range []string{refLock, filepath.Join(v.Root, ".git", "index.lock"), dead.lockRecordPath()} {
		if _, err := os.Lstat(p); err == nil {
			t.Errorf("%s is still there", p)
		}
	}
	fsck(t, v)

	// A lock some git process holds is not mem's: the commit skips.
	os.WriteFile(filepath.Join(v.Root, ".git", "index.lock"), nil, 0o644)
	memory(t, v, "memory/c.md", "fact", "", "c")
	var skip *SkipError
	if _, err := Commit(v, CommitOptions{Now: clock.Add(2 * time.Minute)}); !errors.As(err, &skip) {
		t.Fatalf("with git's own index.lock: err = %v, want a skip", err)
	}
	if _, err := os.Lstat(filepath.Join(v.Root, ".git", "index.lock")); err != nil {
		t.Fatal("mem removed a lock it did not create")
	}
}

// A kill between creating the private lock and linking it into place
// leaves the private file in refs/heads: git must not read it as a branch.
func TestLeftPrivateLockIsNoRef(t *testing.T) {
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	first := commit(t, v, CommitOptions{})
	refLock := filepath.Join(v.Root, ".git", "refs", "heads", first.Branch+".lock")
	if err := os.WriteFile(privateLockName(refLock), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if refs := run(t, v.Root, "git", "for-each-ref", "--format=%(refname)"); refs != "refs/heads/"+first.Branch {
		t.Fatalf("git sees these refs: %q", refs)
	}
	fsck(t, v)
}
