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
	// The index's lock names this process; a ref's lock names none.
	if got := LockFiles(r.GitDir()); len(got) != 2 || got[0].Path != filepath.Join(r.GitDir(), "index.lock") || got[0].MemPid != os.Getpid() ||
		got[1].Path != filepath.Join(r.GitDir(), "refs", "heads", "main.lock") || got[1].MemPid != 0 {
		t.Fatalf("LockFiles = %+v, want the index's (pid %d) and main's", got, os.Getpid())
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
		t.Fatalf("left after ClearStale: %+v", got)
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

func TestLockHolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := filepath.Join(dir, "index.lock")
	for content, want := range map[string]int{"mem pid 42\n": 42, "mem pid 42": 42, "mem pid x\n": 0, "mem pid -3\n": 0, "DIRC\x00\x00": 0, "": 0} {
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := lockHolder(p); got != want {
			t.Errorf("%q: holder %d, want %d", content, got, want)
		}
	}
	if got := lockHolder(filepath.Join(dir, "none.lock")); got != 0 {
		t.Errorf("a missing lock: holder %d, want 0", got)
	}
}
