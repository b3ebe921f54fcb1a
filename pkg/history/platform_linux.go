package history

import (
	"io/fs"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// indexEntry fills an index entry with the stat data git compares, so the
// git command line sees the committed files as clean without re-reading.
func indexEntry(p string, h gitrepo.Hash, mode gitrepo.Mode, fi fs.FileInfo) *gitrepo.IndexEntry {
	e := &gitrepo.IndexEntry{Name: p, Hash: h, Mode: mode, ModifiedAt: fi.ModTime(), Size: uint32(fi.Size())}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CreatedAt = time.Unix(st.Ctim.Unix())
		e.Dev, e.Inode, e.UID, e.GID = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid
	}
	return e
}

// dirStatter stats a folder's entries relative to the open folder
// (fstatat): the kernel looks up one name instead of walking the whole
// path, 15-20% of a 50k-file scan's stat time here.
type dirStatter struct{ fd int }

func openDirStatter(dir string) dirStatter {
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1 // stat by path instead
	}
	return dirStatter{fd}
}

func (d dirStatter) lstat(e fs.DirEntry) (fs.FileInfo, error) {
	if d.fd < 0 {
		return e.Info()
	}
	var st unix.Stat_t
	if err := unix.Fstatat(d.fd, e.Name(), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, err
	}
	mode := fs.FileMode(st.Mode & 0o777)
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	}
	return statInfo{name: e.Name(), size: st.Size, mode: mode, mtime: time.Unix(st.Mtim.Unix()), nlink: uint64(st.Nlink)}, nil
}

func (d dirStatter) close() {
	if d.fd >= 0 {
		unix.Close(d.fd)
	}
}

// statInfo is what the scan reads of a stat: mode, size, mtime and the
// number of names (a hard-linked file is left unread).
type statInfo struct {
	name  string
	size  int64
	mode  fs.FileMode
	mtime time.Time
	nlink uint64
}

func (s statInfo) links() uint64 { return s.nlink }

func (s statInfo) Name() string       { return s.name }
func (s statInfo) Size() int64        { return s.size }
func (s statInfo) Mode() fs.FileMode  { return s.mode }
func (s statInfo) ModTime() time.Time { return s.mtime }
func (s statInfo) IsDir() bool        { return s.mode.IsDir() }
func (s statInfo) Sys() any           { return nil }
