//go:build unix

package history

import (
	"io/fs"
	"syscall"
)

// links is the number of names fi's file has (1 when unknown).
func links(fi fs.FileInfo) uint64 {
	if l, ok := fi.(interface{ links() uint64 }); ok {
		return l.links() // the scan's own fstatat
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
