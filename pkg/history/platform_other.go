//go:build !linux

package history

import (
	"io/fs"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// indexEntry fills the portable part of git's stat data; git re-reads
// such files once and then records the rest itself.
func indexEntry(p string, h gitrepo.Hash, mode gitrepo.Mode, fi fs.FileInfo) *gitrepo.IndexEntry {
	return &gitrepo.IndexEntry{Name: p, Hash: h, Mode: mode, ModifiedAt: fi.ModTime(), Size: uint32(fi.Size())}
}

// dirStatter stats a folder's entries; portably, by their full paths.
type dirStatter struct{}

func openDirStatter(string) dirStatter                      { return dirStatter{} }
func (dirStatter) lstat(e fs.DirEntry) (fs.FileInfo, error) { return e.Info() }
func (dirStatter) close()                                   {}
