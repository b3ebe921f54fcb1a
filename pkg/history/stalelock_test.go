//go:build unix

package history

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
)

// A commit killed while holding git's locks must not stop every later
// commit: the next one removes the locks that mem recorded, and only those.
func TestCommitClearsLocksOfAKilledCommit(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	first := commit(t, v, CommitOptions{})

	// What a SIGKILL leaves: the index lock and a ref lock, both recorded.
	dead, err := Open(v, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := dead.lockIndex(); err != nil {
		t.Fatal(err)
	}
	refLock := filepath.Join(v.Root, ".git", "refs", "heads", first.Branch+".lock")
	if _, err := dead.locks.Ref(gitrepo.BranchRef(first.Branch)); err != nil {
		t.Fatal(err)
	}

	memory(t, v, "memory/b.md", "fact", "", "b")
	res := commit(t, v, CommitOptions{Env: testEnv(), Now: clock(t).Add(time.Minute)})
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
	if _, err := Commit(v, CommitOptions{Env: testEnv(), Now: clock(t).Add(2 * time.Minute)}); !errors.As(err, &skip) {
		t.Fatalf("with git's own index.lock: err = %v, want a skip", err)
	}
	if _, err := os.Lstat(filepath.Join(v.Root, ".git", "index.lock")); err != nil {
		t.Fatal("mem removed a lock it did not create")
	}
}

// TestHelperHoldCommitLock is not a test: run by the tests below as a
// child process, it takes the vault's commit lock, says so on stdout and
// holds it until killed or its parent is gone (its stdin closes).
func TestHelperHoldCommitLock(t *testing.T) {
	root := os.Getenv("MEM_TEST_HOLD_COMMIT_LOCK")
	if root == "" {
		t.Skip("only run as a child of the lock tests")
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(v, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.lockCommit(); err != nil {
		t.Fatal(err)
	}
	fmt.Println("held")
	io.Copy(io.Discard, os.Stdin)
}

// holdCommitLock starts a child process holding v's commit lock and
// returns it once the lock is held; the child is killed at the end.
func holdCommitLock(t *testing.T, v *vault.Vault) *os.Process {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperHoldCommitLock$")
	cmd.Env = append(os.Environ(), "MEM_TEST_HOLD_COMMIT_LOCK="+v.Root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe() // held open until the test ends
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); in.Close(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("lock holder: %q, %v", line, err)
	}
	return cmd.Process
}

// commitWithin runs a commit and fails the test if it has not returned
// after a minute (a watchdog: the lock wait must end by itself).
func commitWithin(t *testing.T, v *vault.Vault, env Env) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := Commit(v, CommitOptions{Now: clock(t).Add(time.Minute), Env: env})
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(time.Minute):
		t.Fatal("mem commit still waiting on the commit lock after a minute")
		return nil
	}
}

// A mem commit stopped with SIGSTOP (Ctrl-Z) while it holds the commit
// lock must not make the next one wait on it: the next commit skips (exit
// 0 from the CLI) naming the holder's pid and how to resume it (issue 17).
func TestCommitSkipsStoppedLockHolder(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	holder := holdCommitLock(t, v)
	if err := holder.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	err := commitWithin(t, v, testEnv())
	var skip *SkipError
	if !errors.As(err, &skip) || !strings.Contains(skip.Reason, fmt.Sprintf("pid %d (stopped)", holder.Pid)) || !strings.Contains(skip.Reason, "kill -CONT") {
		t.Fatalf("err = %v, want a skip naming stopped pid %d", err, holder.Pid)
	}
}

// A holder that keeps running past the wait's deadline also ends in a
// skip naming it, never an endless wait.
func TestCommitLockWaitHasADeadline(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	holder := holdCommitLock(t, v)
	err := commitWithin(t, v, Env{Vars: os.Environ(), CommitLockWait: 500 * time.Millisecond})
	var skip *SkipError
	if !errors.As(err, &skip) || !strings.Contains(skip.Reason, fmt.Sprintf("pid %d (running) for more than", holder.Pid)) {
		t.Fatalf("err = %v, want a skip naming running pid %d", err, holder.Pid)
	}
	holder.Kill()
	holder.Wait()
	if res := commit(t, v, CommitOptions{}); res.Commit == "" {
		t.Fatalf("no commit once the holder is gone: %+v", res)
	}
}
