//go:build unix

package vault

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// tryLock takes f's exclusive flock without waiting: false when another
// open file holds it.
func tryLock(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) {
		return false, nil
	}
	return err == nil, err
}

func unlockFile(f *os.File) { unix.Flock(int(f.Fd()), unix.LOCK_UN) }

// ProcessState says whether pid is stopped, gone or running, as far as
// the system tells (Linux's /proc has the state; elsewhere "running" only
// means the pid exists).
func ProcessState(pid int) string {
	if err := unix.Kill(pid, 0); errors.Is(err, unix.ESRCH) {
		return "not running"
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return "running"
	}
	// pid (comm) state …: comm may hold spaces and parentheses.
	if i := bytes.LastIndexByte(data, ')'); i >= 0 && i+2 < len(data) {
		switch data[i+2] {
		case 'T', 't':
			return "stopped"
		case 'Z', 'X':
			return "not running"
		}
	}
	return "running"
}
