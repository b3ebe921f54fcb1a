package vault

import (
	"io/fs"
	"syscall"
)

// statExtra returns the change time (which no tool can set back, unlike
// mtime) and the inode, which the parse cache also checks.
func statExtra(fi fs.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano(), st.Ino
	}
	return 0, 0
}
