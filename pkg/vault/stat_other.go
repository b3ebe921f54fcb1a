//go:build !linux

package vault

import "io/fs"

// statExtra is not portable; elsewhere the parse cache checks size and
// mtime only.
func statExtra(fs.FileInfo) (ctime int64, ino uint64) { return 0, 0 }
