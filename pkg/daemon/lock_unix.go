//go:build unix

package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// RunningError is a second daemon's refusal: the vault has one already.
type RunningError struct {
	Lock string
	PID  int // 0 when the lock file does not say
}

func (e *RunningError) Error() string {
	who := "another process"
	if e.PID > 0 {
		who = "pid " + strconv.Itoa(e.PID)
	}
	return fmt.Sprintf("mem watch is already running for this vault (%s holds %s): one daemon per vault; see it with 'mem watch --status', or stop it first", who, e.Lock)
}

// Lock makes this process the vault's one daemon: an exclusive flock on
// .mem/locks/watch.lock (the kernel drops it when the process dies, so a
// killed daemon never blocks the next) holding this pid. It never waits:
// a second daemon refuses at once, naming the first.
func Lock(root string) (unlock func(), err error) {
	path := LockPath(root)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		f.Close()
		if !errors.Is(err, unix.EWOULDBLOCK) {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return nil, &RunningError{Lock: path, PID: LockPID(root)}
	}
	if f.Truncate(0) == nil {
		f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return func() { unix.Flock(int(f.Fd()), unix.LOCK_UN); f.Close() }, nil
}
