//go:build linux

package vault

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A lock held by a stopped process (Ctrl-Z on a mem command) is given up
// on after the vault's LockTimeout, naming the pid and its state, instead of blocking
// the next command forever.
func TestLockHeldByStoppedProcess(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	v.LockTimeout = 50 * time.Millisecond

	// The holder: a child given the locked file, then stopped.
	path := filepath.Join(v.StateDir(), "locks", "commit.lock")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	child := exec.Command("sleep", "600")
	child.ExtraFiles = []*os.File{f}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Process.Kill()
	pid := child.Process.Pid
	os.WriteFile(path, []byte(strconv.Itoa(pid)+"\n"), 0o644)
	f.Close() // the child's copy still holds the lock
	if err := child.Process.Signal(syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	// The signal is delivered asynchronously: poll, with a hang guard.
	for deadline := time.Now().Add(time.Minute); ProcessState(pid) != "stopped"; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d is %q a minute after SIGSTOP", pid, ProcessState(pid))
		}
	}

	_, err = v.Lock("commit")
	var le *LockedError
	if !errors.As(err, &le) || !errors.Is(err, errLocked) || le.PID != pid || le.State != "stopped" {
		t.Fatalf("err = %#v, want a LockedError for pid %d (stopped)", err, pid)
	}
	if msg := err.Error(); !strings.Contains(msg, "held by pid "+strconv.Itoa(pid)+" (stopped)") || !strings.Contains(msg, "kill -CONT") {
		t.Errorf("message %q", msg)
	}

	// Once the holder is gone the lock is free, and records its new holder.
	child.Process.Kill()
	child.Wait()
	unlock, err := v.Lock("commit")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if data, _ := os.ReadFile(path); strings.TrimSpace(string(data)) != strconv.Itoa(os.Getpid()) {
		t.Errorf("lock file holds %q, want this pid", data)
	}
}
