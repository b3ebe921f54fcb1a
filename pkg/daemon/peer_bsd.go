//go:build darwin || freebsd

package daemon

import (
	"net"

	"golang.org/x/sys/unix"
)

// peerUID is the user id of the process at the other end of a unix
// socket, as the kernel recorded it (LOCAL_PEERCRED, what getpeereid(3)
// reads): not something the peer says about itself.
func peerUID(conn net.Conn) (int, error) {
	return sockopt(conn, func(fd int) (int, error) {
		cred, err := unix.GetsockoptXucred(fd, unix.SOL_LOCAL, unix.LOCAL_PEERCRED)
		if err != nil {
			return -1, err
		}
		return int(cred.Uid), nil
	})
}
