//go:build unix

package history

import (
	"io/fs"
	"syscall"
)

// inode is fi's inode number, which tells a lock file mem made from one
// another git made at the same path.
func inode(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}

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
