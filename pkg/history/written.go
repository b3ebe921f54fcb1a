package history

import (
	"io/fs"
	"os"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// writtenFile is a file a sync's merge just wrote: the blob it holds, its
// mode, and its stat as written. The commit that brings the git index to
// the merge takes the blob id from here instead of reading and hashing the
// file again, which doubled the cost of a wide incoming commit (issue 41).
type writtenFile struct {
	hash gitrepo.Hash
	mode gitrepo.Mode
	fi   fs.FileInfo
}

// unchanged reports whether fi (the scan's lstat) is still the file the
// merge wrote: the same inode, size, mtime and mode. A later edit changes
// the mtime, and an editor's replacement the inode; an edit in place of
// the same size within the filesystem's clock tick is missed, as git's
// own checkout misses it.
func (w writtenFile) unchanged(fi fs.FileInfo, mode gitrepo.Mode) bool {
	return w.fi != nil && mode == w.mode && fi.Size() == w.fi.Size() &&
		fi.ModTime().Equal(w.fi.ModTime()) && os.SameFile(fi, w.fi)
}
