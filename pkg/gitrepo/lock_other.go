//go:build !unix

package gitrepo

import "io/fs"

// inode: no inode numbers here, so a lock a killed process left is left
// for a person to remove, as git leaves its own.
func inode(fs.FileInfo) (uint64, bool) { return 0, false }
