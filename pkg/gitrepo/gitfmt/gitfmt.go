// Package gitfmt reads and writes git's own files by hand where go-git is
// too slow or cannot: the index (versions 2 and 3 with the cached-tree
// extension), loose objects, packs, tree objects, refs and reflogs. It knows
// git's formats and how git publishes them safely (temp file, rename,
// fsync), nothing of vaults or commits: pkg/history decides what to write.
package gitfmt

import "os"

// SyncDir makes a folder's entries (a rename into it) durable; it is best
// effort, as git's own is.
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
