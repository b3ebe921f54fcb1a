package vault

import (
	"io/fs"
	"path"
	"syscall"

	"golang.org/x/sys/unix"
)

// statExtra returns the change time (which no tool can set back, unlike
// mtime) and the inode, which the parse cache also checks.
func statExtra(fi fs.FileInfo) (ctime int64, ino uint64) {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return st.Ctim.Nano(), st.Ino
	}
	return 0, 0
}

// statFiles fills stamps[i] with the lstat of rels[i], zero for a failure or
// anything but a regular file. Each file is stat'ed relative to its folder,
// opened once: the kernel then walks one name, not the whole path.
func statFiles(root string, rels []string, stamps []fileStamp) {
	dirfd, dir := -1, "\x00"
	defer func() {
		if dirfd >= 0 {
			unix.Close(dirfd)
		}
	}()
	var st unix.Stat_t
	for i, rel := range rels {
		d, name := path.Split(rel)
		if d != dir {
			if dirfd >= 0 {
				unix.Close(dirfd)
			}
			dir = d
			var err error
			if dirfd, err = unix.Open(root+"/"+d, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0); err != nil {
				dirfd = -1
			}
		}
		if dirfd < 0 || unix.Fstatat(dirfd, name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
			stamps[i] = fileStamp{}
			continue
		}
		stamps[i] = fileStamp{size: st.Size, mtime: st.Mtim.Nano(), ctime: st.Ctim.Nano(), ino: st.Ino}
	}
}
