package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// LockTimeout bounds every wait for one of the vault's locks: a holder
// that is stopped (Ctrl-Z) or hung must not block a scheduled job forever.
var LockTimeout = 5 * time.Second

// ErrLocked is what a lock wait that ran out of time wraps (errors.Is).
var ErrLocked = errors.New("locked")

// LockedError names the lock and who holds it.
type LockedError struct {
	Path  string
	PID   int    // from the lock file; 0 when unknown
	State string // "stopped", "not running", "running" or "" (unknown)
}

func (e *LockedError) Unwrap() error { return ErrLocked }

func (e *LockedError) Error() string {
	who, what := "another process", "wait for it to finish, then run the command again"
	if e.PID > 0 {
		who = "pid " + strconv.Itoa(e.PID)
		if e.State != "" {
			who += " (" + e.State + ")"
		}
		switch e.State {
		case "stopped":
			what = fmt.Sprintf("it was suspended (Ctrl-Z?): resume it ('fg', or 'kill -CONT %d') or end it ('kill %d'), then run the command again", e.PID, e.PID)
		case "not running":
			what = "it has exited, but a process it started still holds the lock: end that process, then run the command again"
		}
	}
	return fmt.Sprintf("%s: held by %s for more than %s: %s", e.Path, who, LockTimeout, what)
}

// lock takes an exclusive advisory lock under .mem/locks, waiting at most
// LockTimeout, and records this process's pid in the lock file so a
// waiter that gives up can say who holds it. The kernel drops the lock
// when the process dies, so a crash never leaves a stale lock behind.
func (v *Vault) lock(name string) (func(), error) {
	dir := filepath.Join(v.StateDir(), "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(filepath.Join(dir, name+".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(LockTimeout)
	for wait := 5 * time.Millisecond; ; wait = min(2*wait, 200*time.Millisecond) {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		if ok {
			break
		}
		if time.Now().After(deadline) {
			e := &LockedError{Path: f.Name()}
			if data, err := os.ReadFile(f.Name()); err == nil {
				if pid, err := strconv.Atoi(strings.TrimSpace(string(data))); err == nil && pid > 0 {
					e.PID, e.State = pid, processState(pid)
				}
			}
			f.Close()
			return nil, e
		}
		time.Sleep(wait)
	}
	// Best effort: the pid only improves a waiter's message.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { unlockFile(f); f.Close() }, nil
}

// Lock takes a named vault-wide lock (for example "index" or "commit").
// A wait longer than LockTimeout fails with a *LockedError.
func (v *Vault) Lock(name string) (func(), error) { return v.lock(name) }
