package gitrepo

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
)

// Objects writes the objects of one commit or merge through gitfmt
// (loose objects, a pack, durability); go-git answers for the objects
// already in packs and alternates.
type Objects struct {
	w *gitfmt.Objects
	r *Repo
}

// NewObjects is the object writer of one commit or merge.
func (r *Repo) NewObjects() *Objects {
	return &Objects{gitfmt.NewObjects(r.gitDir, func(h plumbing.Hash) bool {
		return r.g.Storer.HasEncodedObject(h) == nil
	}), r}
}

// Write stores data as an object of type t, compressed now.
func (o *Objects) Write(t ObjectType, data []byte) (Hash, error) {
	h, err := o.w.Write(plumbing.ObjectType(t), data)
	return Hash(h), err
}

// WriteTree stores the tree of ents (sorted in place, as git sorts),
// compressed in the background (see gitfmt.Objects.WriteLater).
func (o *Objects) WriteTree(ents []TreeEntry) Hash {
	return Hash(o.w.WriteLater(plumbing.TreeObject, gitfmt.EncodeTree(fromEntries(ents))))
}

// Wait waits for the background writes and returns their first error.
func (o *Objects) Wait() error { return o.w.Wait() }

// Sync makes every object written durable.
func (o *Objects) Sync() error { return o.w.Sync() }

// Pack is one pack being written (a first commit's thousands of blobs).
type Pack struct {
	p *gitfmt.Pack
	r *Repo
}

// NewPack starts a pack.
func (o *Objects) NewPack() (*Pack, error) {
	p, err := o.w.NewPack()
	if err != nil {
		return nil, err
	}
	return &Pack{p, o.r}, nil
}

// Write adds an object to the pack; safe from several goroutines.
func (p *Pack) Write(t ObjectType, data []byte) (Hash, error) {
	h, err := p.p.Write(plumbing.ObjectType(t), data)
	return Hash(h), err
}

// Finish writes the pack's index and moves it into place, where the
// repository's reads see it (Refresh): the writes' own checks for
// objects already stored have listed the packs before it existed.
func (p *Pack) Finish() error {
	if err := p.p.Finish(); err != nil {
		return err
	}
	p.r.Refresh()
	return nil
}

// Abort drops an unfinished pack; a no-op once finished.
func (p *Pack) Abort() { p.p.Abort() }

// IndexEntry is one path of git's index: its blob, mode and the stat data
// that lets an unchanged file go unread.
type IndexEntry struct {
	Name                  string // repository path
	Hash                  Hash
	Mode                  Mode
	CreatedAt, ModifiedAt time.Time
	Dev, Inode, UID, GID  uint32
	Size                  uint32
	Stage                 int // 0 unless the path is in conflict
	SkipWorktree          bool
	IntentToAdd           bool
}

// Index is git's index as read.
type Index struct {
	Entries []*IndexEntry
	// Trees are the cached trees still valid, by folder ("" the root).
	Trees map[string]Hash
}

// ReadIndex reads .git/index: gitfmt's codec, else (a version 4 or split
// index) go-git's. An absent index is an error satisfying os.IsNotExist.
func (r *Repo) ReadIndex() (*Index, error) {
	data, err := os.ReadFile(filepath.Join(r.gitDir, "index"))
	if err != nil {
		return nil, err
	}
	idx, err := gitfmt.DecodeIndex(data)
	if errors.Is(err, gitfmt.ErrIndexFormat) {
		idx, err = r.g.Storer.Index()
	}
	if err != nil {
		return nil, err
	}
	out := &Index{Entries: make([]*IndexEntry, len(idx.Entries)), Trees: map[string]Hash{}}
	ents := make([]IndexEntry, len(idx.Entries)) // one allocation for all
	for i, e := range idx.Entries {
		ents[i] = IndexEntry{Name: e.Name, Hash: Hash(e.Hash), Mode: Mode(e.Mode), CreatedAt: e.CreatedAt, ModifiedAt: e.ModifiedAt,
			Dev: e.Dev, Inode: e.Inode, UID: e.UID, GID: e.GID, Size: e.Size, Stage: int(e.Stage),
			SkipWorktree: e.SkipWorktree, IntentToAdd: e.IntentToAdd}
		out.Entries[i] = &ents[i]
	}
	for d, h := range gitfmt.CachedTrees(idx.Cache) {
		out.Trees[d] = Hash(h)
	}
	return out, nil
}

// CacheTree is one folder of the index's cached-tree extension: its tree
// and the number of index entries it covers.
type CacheTree struct {
	Name    string
	Entries int
	Hash    Hash
	Subs    []*CacheTree
}

func (c *CacheTree) gitfmt() *gitfmt.CacheTree {
	if c == nil {
		return nil
	}
	out := &gitfmt.CacheTree{Name: c.Name, Entries: c.Entries, Hash: plumbing.Hash(c.Hash)}
	for _, s := range c.Subs {
		out.Subs = append(out.Subs, s.gitfmt())
	}
	return out
}

// writeIndex encodes an index of ents (sorted by name) with the cached
// trees of tree (nil: none) into w.
func writeIndex(w io.Writer, ents []*IndexEntry, tree *CacheTree) error {
	out := make([]*index.Entry, len(ents))
	all := make([]index.Entry, len(ents))
	for i, e := range ents {
		all[i] = index.Entry{Name: e.Name, Hash: plumbing.Hash(e.Hash), Mode: filemode.FileMode(e.Mode), CreatedAt: e.CreatedAt, ModifiedAt: e.ModifiedAt,
			Dev: e.Dev, Inode: e.Inode, UID: e.UID, GID: e.GID, Size: e.Size, Stage: index.Stage(e.Stage),
			SkipWorktree: e.SkipWorktree, IntentToAdd: e.IntentToAdd}
		out[i] = &all[i]
	}
	return gitfmt.EncodeIndex(w, out, tree.gitfmt())
}
