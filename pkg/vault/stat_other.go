//go:build !linux

package vault

import (
	"io/fs"
	"os"
	"path/filepath"
)

// statExtra is not portable; elsewhere the parse cache checks size and
// mtime only.
func statExtra(fs.FileInfo) (ctime int64, ino uint64) { return 0, 0 }

// linkCount is not portable; elsewhere a hard link is not detected.
func linkCount(fs.FileInfo) uint64 { return 1 }

// renameNoReplace is Linux's; elsewhere createExclusive links instead.
func renameNoReplace(string, string) (bool, error) { return false, nil }

// readFile reads a file whose size is about sizeHint.
func readFile(path string, _ int64) ([]byte, error) { return os.ReadFile(path) }

// statFiles fills stamps[i] with the lstat of rels[i], zero for a failure or
// anything but a regular file.
func statFiles(root string, rels []string, stamps []fileStamp) {
	for i, rel := range rels {
		fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil || !fi.Mode().IsRegular() {
			stamps[i] = fileStamp{}
			continue
		}
		stamps[i] = stampOf(fi)
	}
}
