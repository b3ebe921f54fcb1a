//go:build !linux && !darwin && !freebsd

package daemon

import (
	"errors"
	"net"
)

// peerUID cannot be read here (the other BSDs, Solaris, Windows): a client
// takes no daemon's answer, and a daemon answers no one. Every command
// does its own work, as with no daemon at all.
func peerUID(net.Conn) (int, error) {
	return -1, errors.New("this system offers mem no way to read a socket peer's user (SO_PEERCRED or LOCAL_PEERCRED)")
}
