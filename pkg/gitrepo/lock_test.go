//go:build unix

package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// lockRepo is a repository with one commit on main, and how to run git in it.
func lockRepo(t *testing.T) (*Repo, func(args ...string) string) {
	t.Helper()
	dir, p, git := scratchGit(t)
	git("init", "--quiet", "--initial-branch=main")
	git("commit", "--quiet", "--allow-empty", "-m", "first")
	r, err := Open(dir, p)
	if err != nil {
		t.Fatal(err)
	}
	return r, git
}

// A ref lock is exclusive, publishing moves the ref, and the record lets
// the next holder remove the locks a killed one left, and only those.
func TestLocksRecordAndClear(t *testing.T) {
	r, git := lockRepo(t)
	record := filepath.Join(t.TempDir(), "git-locks")
	main := BranchRef("main")
	first, err := r.Direct(main)
	if err != nil {
		t.Fatal(err)
	}

	dead := r.Locks(record) // what a SIGKILL leaves: both locks, recorded
	if _, err := dead.Index(); err != nil {
		t.Fatal(err)
	}
	if _, err := dead.Ref(main); err != nil {
		t.Fatal(err)
	}
	var held *LockHeldError
	if _, err := r.Locks(record + ".other").Ref(main); !errors.As(err, &held) || held.Path != filepath.Join(r.GitDir(), "refs", "heads", "main.lock") {
		t.Fatalf("second lock of main: %v, want it held", err)
	}
	if got := LockFiles(r.GitDir()); len(got) != 2 {
		t.Fatalf("LockFiles = %q, want the index's and main's", got)
	}
	if p, _ := r.Busy(); p != filepath.Join(r.GitDir(), "index.lock") {
		t.Fatalf("Busy = %q, want the index lock", p)
	}

	next := r.Locks(record)
	removed, err := next.ClearStale()
	if err != nil || len(removed) != 2 {
		t.Fatalf("ClearStale = %q, %v", removed, err)
	}
	if got := LockFiles(r.GitDir()); len(got) != 0 {
		t.Fatalf("left after ClearStale: %q", got)
	}

	git("commit", "--quiet", "--allow-empty", "-m", "second")
	second, _ := r.Direct(main)
	l, err := next.Ref(main)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Publish(first); err != nil {
		t.Fatal(err)
	}
	l.Release()
	next.Forget()
	if got := git("rev-parse", "main"); got != first.String() || got == second.String() {
		t.Fatalf("main = %s after publishing %s", got, first)
	}

	// A lock some git made is not the record's: it stays.
	foreign := filepath.Join(r.GitDir(), "index.lock")
	os.WriteFile(foreign, nil, 0o644)
	if removed, err := r.Locks(record).ClearStale(); err != nil || len(removed) != 0 {
		t.Fatalf("ClearStale with git's own lock = %q, %v", removed, err)
	}
	if _, err := os.Lstat(foreign); err != nil {
		t.Fatal("a lock the record does not name was removed")
	}
}

// A kill between creating the private lock and linking it into place
// leaves the private file in refs/heads: git must not read it as a branch.
func TestLeftPrivateLockIsNoRef(t *testing.T) {
	r, git := lockRepo(t)
	refLock := filepath.Join(r.GitDir(), "refs", "heads", "main.lock")
	if err := os.WriteFile(privateLockName(refLock), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if refs := git("for-each-ref", "--format=%(refname)"); refs != "refs/heads/main" {
		t.Fatalf("git sees these refs: %q", refs)
	}
	git("fsck", "--strict", "--no-progress")
}
