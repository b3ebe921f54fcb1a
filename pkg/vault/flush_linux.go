package vault

import (
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// flushFiles makes the files durable with one syncfs of the file system
// holding them (a batch's files all live in one vault).
func flushFiles(paths []string) error {
	d, err := os.Open(filepath.Dir(paths[0]))
	if err != nil {
		return err
	}
	defer d.Close()
	return unix.Syncfs(int(d.Fd()))
}
