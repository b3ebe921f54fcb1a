package gitfmt

import (
	"os"

	"golang.org/x/sys/unix"
)

// SyncFS flushes the filesystem holding dir (one syncfs call): cheaper
// than an fsync per file once a repository got thousands of new files.
func SyncFS(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer f.Close()
	return unix.Syncfs(int(f.Fd()))
}
