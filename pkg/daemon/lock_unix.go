//go:build unix

package daemon

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/mem-md/mem/pkg/vault"
)

// LockName is the vault lock (vault.LockWait) the one daemon holds; its
// file keeps the daemon's pid (v.LockPID(LockName)) after it ends.
const LockName = "watch"

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
	return fmt.Sprintf("a mem daemon (mem watch or mem serve) is already running for this vault (%s holds %s): one daemon per vault; see it with 'mem watch --status', or stop it first", who, e.Lock)
}

// Lock makes this process the vault's one daemon: the vault's watch lock,
// taken without waiting (the kernel drops it when the process dies, so a
// killed daemon never blocks the next); a second daemon refuses at once,
// naming the first.
func Lock(v *vault.Vault) (unlock func(), err error) {
	unlock, err = v.LockWait(context.Background(), LockName, 0, nil)
	if held := (*vault.LockedError)(nil); errors.As(err, &held) {
		return nil, &RunningError{Lock: held.Path, PID: held.PID}
	}
	return unlock, err
}
