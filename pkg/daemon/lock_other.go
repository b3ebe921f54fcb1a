//go:build !unix

package daemon

import "errors"

// RunningError is a second daemon's refusal: the vault has one already.
type RunningError struct {
	Lock string
	PID  int
}

func (e *RunningError) Error() string { return "mem watch is already running for this vault" }

// Lock is not available here: the daemon needs unix locks and sockets.
func Lock(root string) (func(), error) {
	return nil, errors.New("mem watch runs on unix systems only (Linux, macOS, the BSDs); run mem's commands directly here")
}
