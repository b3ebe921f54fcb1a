//go:build !unix

package history

import "io/fs"

// inode: no inode numbers here, so a lock a killed mem left is left for a
// person to remove, as git leaves its own.
func inode(fs.FileInfo) (uint64, bool) { return 0, false }

// links: a hard link is not detected here, as the loader does not either.
func links(fs.FileInfo) uint64 { return 1 }
