//go:build unix

package vault

import "syscall"

// swapUmask reads the umask the only way umask(2) allows: set, then restore.
func swapUmask() int {
	m := syscall.Umask(0o022)
	syscall.Umask(m)
	return m
}
