package history

import (
	"io/fs"
	"os"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"golang.org/x/sys/unix"
)

// indexEntry fills an index entry with the stat data git compares, so the
// git command line sees the committed files as clean without re-reading.
func indexEntry(p string, h plumbing.Hash, mode filemode.FileMode, fi fs.FileInfo) *index.Entry {
	e := &index.Entry{Name: p, Hash: h, Mode: mode, ModifiedAt: fi.ModTime(), Size: uint32(fi.Size())}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		e.CreatedAt = time.Unix(st.Ctim.Unix())
		e.Dev, e.Inode, e.UID, e.GID = uint32(st.Dev), uint32(st.Ino), st.Uid, st.Gid
	}
	return e
}

// syncFS flushes the filesystem holding gitDir (one syncfs call).
func syncFS(gitDir string) error {
	f, err := os.Open(gitDir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
