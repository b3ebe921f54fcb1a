//go:build unix

package bench

import (
	"os"
	"syscall"
)

// maxRSS is the finished process's peak resident set as the kernel
// reports it (kilobytes on Linux).
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return int64(ru.Maxrss)
	}
	return 0
}
