//go:build !linux

package vault

import "os"

// flushFiles makes the files durable, one fsync each.
func flushFiles(paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// renameFile renames a batch's temp file over its path.
func renameFile(from, to string) error { return os.Rename(from, to) }
