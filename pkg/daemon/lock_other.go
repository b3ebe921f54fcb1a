//go:build !unix

package daemon

import (
	"errors"

	"github.com/mem-md/mem/pkg/vault"
)

// LockName is the vault lock the one daemon holds (on unix).
const LockName = "watch"

// RunningError is a second daemon's refusal: the vault has one already.
type RunningError struct {
	Lock string
	PID  int
}

func (e *RunningError) Error() string {
	return "a mem daemon (mem watch or mem serve) is already running for this vault"
}

// Lock is not available here: the daemon needs unix locks and sockets.
func Lock(*vault.Vault) (func(), error) {
	return nil, errors.New("mem watch runs on unix systems only (Linux, macOS, the BSDs); run mem's commands directly here")
}
