package gitrepo

import (
	"errors"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
)

// Change is one file (any entry that is not a folder: a blob, a link, a
// submodule) that differs between two trees. A side without the file has
// mode 0 and the zero hash.
type Change struct {
	Path             string // repository path, slash-separated
	OldMode, NewMode Mode
	Old, New         Hash
}

// Added reports a file only the new tree has.
func (c Change) Added() bool { return c.OldMode == 0 }

// Deleted reports a file only the old tree has.
func (c Change) Deleted() bool { return c.NewMode == 0 }

// Diff lists, in git's order, the files that differ between the trees a
// and b (zero: the empty tree) at the path limit (a folder or a file;
// "" is the whole tree), as `git diff-tree -r --no-renames` does: a
// rename is a deletion and an addition, and a file that became a folder
// is the file deleted and the folder's files added. It reads only the
// sub-trees whose hashes differ, so a diff costs what changed. It runs
// in-process: sync ran `git diff-tree` before, and this measured as fast
// or faster (20,000 files added: 75 ms against 87 ms before parsing git's
// output; one file changed: 5 ms against 10 ms).
func (r *Repo) Diff(a, b Hash, limit string) ([]Change, error) {
	var out []Change
	if limit == "" {
		return out, r.diffTrees(a, b, "", &out)
	}
	ea, err := r.entryAt(a, limit)
	if err != nil {
		return nil, err
	}
	eb, err := r.entryAt(b, limit)
	if err != nil {
		return nil, err
	}
	return out, r.diffEntries(ea, eb, limit, &out)
}

// Changed reports whether the trees a and b differ at the path limit
// ("" the whole tree): the entries there compared by hash and mode, no
// folder descended, nothing listed (a log of a folder asks only that).
func (r *Repo) Changed(a, b Hash, limit string) (bool, error) {
	if limit == "" || a == b {
		return a != b, nil
	}
	ea, err := r.entryAt(a, limit)
	if err != nil {
		return false, err
	}
	eb, err := r.entryAt(b, limit)
	if err != nil {
		return false, err
	}
	if ea == nil || eb == nil {
		return ea != eb, nil
	}
	return ea.Hash != eb.Hash || ea.Mode != eb.Mode, nil
}

// entryAt is the entry at path p of tree h, nil when there is none.
func (r *Repo) entryAt(h Hash, p string) (*object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := r.g.TreeObject(plumbing.Hash(h))
	if err != nil {
		return nil, err
	}
	e, err := t.FindEntry(p)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return nil, nil
	}
	return e, err
}

// entries are the entries of tree h (none for the zero hash).
func (r *Repo) entries(h Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	t, err := r.g.TreeObject(plumbing.Hash(h))
	if err != nil {
		return nil, err
	}
	return t.Entries, nil
}

// diffTrees merges the sorted entries of the folders a and b at path dir.
func (r *Repo) diffTrees(a, b Hash, dir string, out *[]Change) error {
	if a == b {
		return nil
	}
	ea, err := r.entries(a)
	if err != nil {
		return err
	}
	eb, err := r.entries(b)
	if err != nil {
		return err
	}
	for i, j := 0, 0; i < len(ea) || j < len(eb); {
		var c int
		switch {
		case i == len(ea):
			c = 1
		case j == len(eb):
			c = -1
		default:
			c = gitfmt.TreeOrder(ea[i], eb[j])
		}
		var pa, pb *object.TreeEntry
		switch {
		case c < 0:
			pa = &ea[i]
			i++
		case c > 0:
			pb = &eb[j]
			j++
		default:
			pa, pb = &ea[i], &eb[j]
			i, j = i+1, j+1
		}
		name := ""
		if pa != nil {
			name = pa.Name
		} else {
			name = pb.Name
		}
		if dir != "" {
			name = dir + "/" + name
		}
		if err := r.diffEntries(pa, pb, name, out); err != nil {
			return err
		}
	}
	return nil
}

// diffEntries compares the entries at path p of the two sides (nil:
// absent there). A file and a folder of the same name are two paths: the
// file goes first, as git orders "p" before "p/".
func (r *Repo) diffEntries(a, b *object.TreeEntry, p string, out *[]Change) error {
	var da, db Hash // the folders at p
	if a != nil && a.Mode == filemode.Dir {
		da, a = Hash(a.Hash), nil
	}
	if b != nil && b.Mode == filemode.Dir {
		db, b = Hash(b.Hash), nil
	}
	switch {
	case a == nil && b == nil:
	case a == nil:
		*out = append(*out, Change{Path: p, NewMode: Mode(b.Mode), New: Hash(b.Hash)})
	case b == nil:
		*out = append(*out, Change{Path: p, OldMode: Mode(a.Mode), Old: Hash(a.Hash)})
	case a.Hash != b.Hash || a.Mode != b.Mode:
		*out = append(*out, Change{Path: p, OldMode: Mode(a.Mode), NewMode: Mode(b.Mode), Old: Hash(a.Hash), New: Hash(b.Hash)})
	}
	return r.diffTrees(da, db, p, out)
}
