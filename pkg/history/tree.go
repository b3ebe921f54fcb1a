package history

import (
	"fmt"
	"sort"
	"strings"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// dirNode is one folder of the tree being built.
type dirNode struct {
	dirs  map[string]*dirNode
	files []gitrepo.TreeEntry // by name: buildVault adds them in path order
	count int                 // files in this folder and below (the index entries it covers)
	hash  gitrepo.Hash
}

func newDir() *dirNode {
	return &dirNode{dirs: map[string]*dirNode{}}
}

// buildVault arranges the vault's files (repository paths under the
// prefix, sorted) into folders relative to the vault root. Sorted files
// come folder by folder, so a file in the same folder as the one before
// reuses its walk from the root: at 50k files in a few folders, splitting
// every path and a map entry per file were most of this function's time.
func (r *Repo) buildVault(files []*file) *dirNode {
	root := newDir()
	chain := []*dirNode{root} // the folders from the root to the last file's
	last := ""
	for _, f := range files {
		rel, ok := r.vaultRel(f.path)
		if !ok {
			continue
		}
		dir, name := "", rel
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			dir, name = rel[:i], rel[i+1:]
		}
		if dir != last {
			chain, last = chain[:1], dir
			for _, d := range splitPath(dir) {
				n := chain[len(chain)-1]
				c := n.dirs[d]
				if c == nil {
					c = newDir()
					n.dirs[d] = c
				}
				chain = append(chain, c)
			}
		}
		for _, n := range chain {
			n.count++
		}
		n := chain[len(chain)-1]
		n.files = append(n.files, gitrepo.TreeEntry{Name: name, Mode: f.mode, Hash: f.hash})
	}
	return root
}

// writeTree stores n (the folder at repository path dir) and its
// sub-folders as tree objects; an empty folder gets the zero hash (git has
// no empty sub-trees). A folder in reuse (its tree is known: nothing under
// it changed since the index cached it) is neither encoded nor hashed.
func (r *Repo) writeTree(n *dirNode, dir string, reuse map[string]gitrepo.Hash) (gitrepo.Hash, error) {
	ents := make([]gitrepo.TreeEntry, 0, len(n.dirs)+len(n.files))
	for name, c := range n.dirs {
		h, err := r.writeTree(c, join(dir, name), reuse)
		if err != nil {
			return h, err
		}
		if !h.IsZero() {
			ents = append(ents, gitrepo.TreeEntry{Name: name, Mode: gitrepo.Dir, Hash: h})
		}
	}
	if h, ok := reuse[dir]; ok {
		n.hash = h
		return h, nil
	}
	ents = append(ents, n.files...)
	if len(ents) == 0 {
		n.hash = gitrepo.ZeroHash
		return n.hash, nil
	}
	h, err := r.storeTree(ents)
	n.hash = h
	return h, err
}

// cacheTree is the index's cached-tree extension for the folder n (named
// name): every non-empty folder with its tree hash and entry count.
func cacheTree(name string, n *dirNode) *gitrepo.CacheTree {
	c := &gitrepo.CacheTree{Name: name, Entries: n.count, Hash: n.hash}
	for sub, d := range n.dirs {
		if !d.hash.IsZero() {
			c.Subs = append(c.Subs, cacheTree(sub, d))
		}
	}
	return c
}

// storeTree writes the tree object of ents (sorted in place, as git
// sorts), compressed in the background (see gitrepo.Objects.WriteLater).
func (r *Repo) storeTree(ents []gitrepo.TreeEntry) (gitrepo.Hash, error) {
	return r.objs.WriteTree(ents), nil
}

// damagedObject names an object of the repository that cannot be read
// (missing, truncated, corrupt), where it was needed, and what to do:
// go-git alone says only "unexpected EOF" or "object not found".
func (r *Repo) damagedObject(kind string, h gitrepo.Hash, where string, err error) error {
	if where != "" {
		where = " (" + where + ")"
	}
	return fmt.Errorf("%s: %s %s%s cannot be read: %w; the repository is damaged ('git fsck' lists what is broken) and nothing was committed: copy the object back from a backup or clone ('git -C BACKUP cat-file %s %s | git hash-object -w -t %s --stdin')",
		r.gitDir, kind, h, where, err, kind, h, kind)
}

// tree reads the tree object h, at path where of the commit.
func (r *Repo) tree(h gitrepo.Hash, where string) (*gitrepo.Tree, error) {
	t, err := r.git.Tree(h)
	if err != nil {
		return nil, r.damagedObject("tree", h, where, err)
	}
	return t, nil
}

// splice puts the vault's tree at the prefix inside the HEAD tree, leaving
// every path outside the vault exactly as HEAD has it.
func (r *Repo) splice(headRoot *gitrepo.Tree, vaultHash gitrepo.Hash) (gitrepo.Hash, error) {
	if r.prefix == "" {
		return vaultHash, nil
	}
	return r.spliceAt(headRoot, strings.Split(r.prefix, "/"), vaultHash)
}

func (r *Repo) spliceAt(t *gitrepo.Tree, comps []string, leaf gitrepo.Hash) (gitrepo.Hash, error) {
	if len(comps) == 0 {
		return leaf, nil
	}
	var ents []gitrepo.TreeEntry
	var child *gitrepo.Tree
	if t != nil {
		for _, e := range t.Entries {
			if e.Name == comps[0] {
				if e.Mode == gitrepo.Dir {
					c, err := r.tree(e.Hash, comps[0])
					if err != nil {
						return gitrepo.ZeroHash, err
					}
					child = c
				}
				continue
			}
			ents = append(ents, e)
		}
	}
	h, err := r.spliceAt(child, comps[1:], leaf)
	if err != nil {
		return h, err
	}
	if !h.IsZero() {
		ents = append(ents, gitrepo.TreeEntry{Name: comps[0], Mode: gitrepo.Dir, Hash: h})
	}
	if len(ents) == 0 {
		return gitrepo.ZeroHash, nil
	}
	return r.storeTree(ents)
}

// Change is one path the commit adds (A), modifies (M), deletes (D) or
// renames (R, From holds the old path). Paths are vault-relative.
type Change struct {
	Status string       `json:"status"`
	Path   string       `json:"path"`
	From   string       `json:"from,omitempty"`
	Old    gitrepo.Hash `json:"-"`
	New    gitrepo.Hash `json:"-"`
}

// diff compares the vault tree of HEAD (old, may be nil) with the folder
// being committed, descending only into sub-trees whose hashes differ.
func (r *Repo) diff(old *gitrepo.Tree, n *dirNode, base string, out *[]Change) error {
	if old != nil && n != nil && old.Hash == n.hash {
		return nil
	}
	oldFiles, oldDirs := splitTree(old)
	if n == nil {
		n = newDir()
	}
	diffFiles(n.files, oldFiles, base, out)
	for name, c := range n.dirs {
		var sub *gitrepo.Tree
		if h, ok := oldDirs[name]; ok {
			t, err := r.tree(h, join(base, name))
			if err != nil {
				return err
			}
			sub = t
		}
		if err := r.diff(sub, c, join(base, name), out); err != nil {
			return err
		}
	}
	for name, h := range oldDirs {
		if _, ok := n.dirs[name]; ok {
			continue
		}
		t, err := r.tree(h, join(base, name))
		if err != nil {
			return err
		}
		if err := r.diff(t, nil, join(base, name), out); err != nil {
			return err
		}
	}
	return nil
}

// splitTree is a stored tree's files and its folders by name (none for
// nil); a submodule is neither.
func splitTree(t *gitrepo.Tree) (files map[string]gitrepo.TreeEntry, dirs map[string]gitrepo.Hash) {
	files, dirs = map[string]gitrepo.TreeEntry{}, map[string]gitrepo.Hash{}
	if t == nil {
		return files, dirs
	}
	for _, e := range t.Entries {
		if e.Mode == gitrepo.Dir {
			dirs[e.Name] = e.Hash
		} else if e.Mode != gitrepo.Submodule {
			files[e.Name] = e
		}
	}
	return files, dirs
}

// diffFiles adds to out the changes from the files of a stored folder
// (old, emptied as it goes) to those now in it, at base.
func diffFiles(now []gitrepo.TreeEntry, old map[string]gitrepo.TreeEntry, base string, out *[]Change) {
	for _, e := range now {
		o, had := old[e.Name]
		delete(old, e.Name) // what remains is deleted
		switch {
		case !had:
			*out = append(*out, Change{Status: "A", Path: join(base, e.Name), New: e.Hash})
		case o.Hash != e.Hash || o.Mode != e.Mode:
			*out = append(*out, Change{Status: "M", Path: join(base, e.Name), Old: o.Hash, New: e.Hash})
		}
	}
	for name, o := range old {
		*out = append(*out, Change{Status: "D", Path: join(base, name), Old: o.Hash})
	}
}

// diffIndex compares the baseline index's vault entries with the files
// being committed. It stands in for diff when the index's cached tree of
// the vault equals HEAD's (the index then holds exactly HEAD's files), and
// needs no tree read: both lists are sorted by path.
func (r *Repo) diffIndex(base *baseline, files []*file) []Change {
	old := r.committedEntries(base.index)
	var out []Change
	i := 0
	for _, f := range files {
		rel, in := r.vaultRel(f.path)
		if !in || f.mode == gitrepo.Submodule {
			continue
		}
		for ; i < len(old) && old[i].Name < f.path; i++ {
			orel, _ := r.vaultRel(old[i].Name)
			out = append(out, Change{Status: "D", Path: orel, Old: old[i].Hash})
		}
		switch {
		case i < len(old) && old[i].Name == f.path:
			if o := old[i]; o.Hash != f.hash || o.Mode != f.mode {
				out = append(out, Change{Status: "M", Path: rel, Old: o.Hash, New: f.hash})
			}
			i++
		default:
			out = append(out, Change{Status: "A", Path: rel, New: f.hash})
		}
	}
	for ; i < len(old); i++ {
		orel, _ := r.vaultRel(old[i].Name)
		out = append(out, Change{Status: "D", Path: orel, Old: old[i].Hash})
	}
	return out
}

// committedEntries are the index's entries of the vault that a commit
// holds: not conflicted, not intent-to-add, not submodules.
func (r *Repo) committedEntries(idx *gitrepo.Index) []*gitrepo.IndexEntry {
	var ents []*gitrepo.IndexEntry
	for _, e := range idx.Entries {
		if _, in := r.vaultRel(e.Name); in && e.Stage == 0 && !e.IntentToAdd && e.Mode != gitrepo.Submodule {
			ents = append(ents, e)
		}
	}
	return ents
}

// pairRenames turns a deletion and an addition of the same content into
// one rename, so moving a memory is not counted as losing it.
func pairRenames(chs []Change) []Change {
	added := map[gitrepo.Hash][]int{}
	for i, c := range chs {
		if c.Status == "A" {
			added[c.New] = append(added[c.New], i)
		}
	}
	drop := map[int]bool{}
	for i, c := range chs {
		if c.Status != "D" || len(added[c.Old]) == 0 {
			continue
		}
		j := added[c.Old][0]
		added[c.Old] = added[c.Old][1:]
		chs[j].Status, chs[j].From, chs[j].Old = "R", c.Path, c.Old
		drop[i] = true
	}
	out := chs[:0]
	for i, c := range chs {
		if !drop[i] {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}
