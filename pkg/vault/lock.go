package vault

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/clock"
)

// errLocked is what a lock wait that ran out of time wraps (errors.Is).
var errLocked = errors.New("locked")

// LockedError names the lock and who holds it.
type LockedError struct {
	Path  string
	PID   int    // from the lock file; 0 when unknown
	State string // "stopped", "not running", "running" or "" (unknown)
	// Waited is how long the waiter waited out a running holder; zero when
	// it gave up at once on a stopped or exited one.
	Waited time.Duration
}

func (e *LockedError) Unwrap() error { return errLocked }

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
	return fmt.Sprintf("%s: held by %s%s: %s", e.Path, who, e.held(), what)
}

// held says how long the waiter waited, when it waited out its deadline
// (a stopped or exited holder is given up on at once).
func (e *LockedError) held() string {
	if e.Waited == 0 {
		return ""
	}
	return " for more than " + e.Waited.String()
}

// Lock takes a named vault-wide lock (for example "sync" or "tokens").
// A wait longer than Options.LockTimeout fails with a *LockedError.
func (v *Vault) Lock(name string) (func(), error) {
	return v.LockWait(context.Background(), name, v.lockTimeout(), nil)
}

// holderSettles is how long a holder's pid and state must stay the same
// before a waiter acts on them: a new holder writes its pid just after
// taking the lock, and until then the file names the previous one.
const holderSettles = 300 * time.Millisecond

// LockWait takes the lock name, recording this process's pid in the lock
// file so a waiter can say who holds it. It is the one wait for a vault
// lock. A holder that is stopped (Ctrl-Z, SIGSTOP) or has exited is given
// up on as soon as that is clear, a running one after wait, each with a
// *LockedError naming its pid; a wait < 0 waits out a running holder for as
// long as it runs. A done ctx ends the wait with ctx's error. onWait, when
// not nil, is called once after a second of waiting with the holder's pid
// (0 when unknown), so a user knows why nothing happens. The kernel drops
// the lock when the holder dies, so a crash never leaves a stale lock.
//
// A wait of 0 never waits: a second mem watch refuses at once, naming the
// first.
func (v *Vault) LockWait(ctx context.Context, name string, wait time.Duration, onWait func(pid int)) (func(), error) {
	path := v.LockPath(name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, StateFileMode)
	if err != nil {
		return nil, err
	}
	h := &holderWatch{start: clock.Now(), wait: wait}
	for pause := 5 * time.Millisecond; ; pause = min(2*pause, 100*time.Millisecond) {
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("%s: %w", f.Name(), err)
		}
		if ok {
			break
		}
		e := LockedError{Path: f.Name(), PID: lockHolder(f)}
		if e.PID > 0 {
			e.State = ProcessState(e.PID)
		}
		if gone := h.giveUp(e); gone != nil {
			f.Close()
			return nil, gone
		}
		if onWait != nil && time.Since(h.start) >= time.Second {
			onWait(e.PID)
			onWait = nil
		}
		select {
		case <-ctx.Done():
			f.Close()
			return nil, fmt.Errorf("waiting for %s: %w", f.Name(), context.Cause(ctx))
		case <-time.After(pause):
		}
	}
	// Best effort: the pid only improves a waiter's message.
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { unlockFile(f); f.Close() }, nil
}

// holderWatch is what a waiter has seen of a lock's holder since it began
// to wait at start.
type holderWatch struct {
	start, seenAt time.Time
	seen          LockedError
	wait          time.Duration
}

// giveUp is the error to end the wait with, now that the holder is e, or
// nil to wait on: a holder stopped or gone (as it has been for
// holderSettles), or wait passed.
func (h *holderWatch) giveUp(e LockedError) *LockedError {
	if e != h.seen {
		h.seen, h.seenAt = e, clock.Now()
	}
	settled := time.Since(h.seenAt) >= holderSettles
	switch {
	case (e.State == "stopped" || e.State == "not running") && settled:
		return &e
	case h.wait >= 0 && time.Since(h.start) > h.wait:
		e.Waited = h.wait
		return &e
	}
	return nil
}

// LockPath is the file of the vault's lock name.
func (v *Vault) LockPath(name string) string {
	return filepath.Join(v.StateDir(), "locks", name+".lock")
}

// LockPID is the pid the last holder of the lock name wrote into it (it
// stays after the holder ends), 0 when none did.
func (v *Vault) LockPID(name string) int {
	f, err := os.Open(v.LockPath(name))
	if err != nil {
		return 0
	}
	defer f.Close()
	return lockHolder(f)
}

// lockHolder is the pid a lock's holder wrote into it, or 0.
func lockHolder(f *os.File) int {
	var b [32]byte
	n, _ := f.ReadAt(b[:], 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(b[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
