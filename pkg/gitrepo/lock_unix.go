//go:build unix

package gitrepo

import (
	"io/fs"
	"syscall"
)

// inode is fi's inode number, which tells a lock file Locks made from one
// another git made at the same path.
func inode(fi fs.FileInfo) (uint64, bool) {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return uint64(st.Ino), true
}
