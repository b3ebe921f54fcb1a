package daemon

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the user id of the process at the other end of a unix
// socket, as the kernel recorded it when it connected (SO_PEERCRED): not
// something the peer says about itself.
func peerUID(conn net.Conn) (int, error) {
	return sockopt(conn, func(fd int) (int, error) {
		cred, err := unix.GetsockoptUcred(fd, unix.SOL_SOCKET, unix.SO_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}
