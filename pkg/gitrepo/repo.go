package gitrepo

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
)

// Repo is one git repository as the git layer reads and writes it: the
// one owner of go-git's *git.Repository (which is not goroutine-safe: a
// Repo is used from one goroutine) and of gitfmt's object store. It
// chooses per operation whether go-git, gitfmt or the git program does
// the work; its callers see only the layer's types.
type Repo struct {
	g      *git.Repository
	gitDir string  // absolute, symlinks resolved
	top    string  // the work tree root; "" for a bare repository
	prog   Program // for what the git program does faster (the commit graph)
	keep   bool    // KeepPacks: reads keep each pack file open
}

// ErrNotExist is returned by Open when no repository holds the folder.
var ErrNotExist = errors.New("not inside a git repository")

// Open opens the repository whose work tree holds dir (dir or any
// ancestor may hold .git); prog is how it runs git when it does.
func Open(dir string, prog Program) (*Repo, error) {
	g, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, ErrNotExist
	}
	if err != nil {
		return nil, err
	}
	wt, err := g.Worktree()
	if err != nil {
		return nil, fmt.Errorf("the git repository has no worktree: %w", err)
	}
	r, err := newRepo(g, prog)
	if err != nil {
		return nil, err
	}
	r.top = realPath(wt.Filesystem.Root())
	return r, nil
}

// OpenAt opens the repository at path exactly (a bare backup, a clone's
// source), looking in no parent folder.
func OpenAt(path string, prog Program) (*Repo, error) {
	g, err := git.PlainOpen(path)
	if err != nil {
		return nil, err
	}
	return newRepo(g, prog)
}

func newRepo(g *git.Repository, prog Program) (*Repo, error) {
	st, ok := g.Storer.(*filesystem.Storage)
	if !ok {
		return nil, errors.New("unsupported git storage")
	}
	return &Repo{g: g, gitDir: realPath(st.Filesystem().Root()), prog: prog}, nil
}

// Init makes dir a git repository unless it already lies inside one, and
// says whether it made one.
func Init(dir string) (bool, error) {
	_, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true})
	if !errors.Is(err, git.ErrRepositoryNotExists) {
		return false, err
	}
	if _, err := git.PlainInit(dir, false); err != nil {
		return false, fmt.Errorf("%s: git init: %w", dir, err)
	}
	return true, nil
}

// InitBare makes dir a bare repository (a new backup or sync remote).
func InitBare(dir string, prog Program) (*Repo, error) {
	g, err := git.PlainInit(dir, true)
	if err != nil {
		return nil, err
	}
	return newRepo(g, prog)
}

func realPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// GitDir is the absolute path of the repository's git folder.
func (r *Repo) GitDir() string { return r.gitDir }

// Top is the absolute path of the work tree root ("" when bare).
func (r *Repo) Top() string { return r.top }

// Refresh makes the reads see the object store as it is now. go-git lists
// the packs at its first read and looks nowhere else afterwards, so without
// it a pack written since (one of ours, a fetch's or a push's) is "not
// found", and so is every object a repack since (git gc --auto, which a
// fetch or a commit by the git program runs) moved out of a listed pack or
// a loose file. Object contents never change, so what is cached stays.
func (r *Repo) Refresh() {
	if st, ok := r.g.Storer.(*filesystem.Storage); ok {
		st.Reindex()
	}
}

// KeepPacks makes the reads keep each pack file open until release:
// go-git otherwise opens the pack again (and resolves its path) for every
// object it reads, a quarter of the CPU of a sync taking one commit of
// 10,000 memories (issue 41).
func (r *Repo) KeepPacks() (release func(), err error) {
	g, err := withPacksKept(r.g, true)
	if err != nil {
		return nil, err
	}
	r.g, r.keep = g, true
	return func() {
		if !r.keep {
			return
		}
		r.closePacks()
		r.keep = false
		if g, err := withPacksKept(r.g, false); err == nil {
			r.g = g
		}
	}, nil
}

// maxOpenPacks bounds the pack files KeepPacks holds open (the least
// recently opened is closed first): a repository git has not repacked can
// hold hundreds, and each is a file descriptor.
const maxOpenPacks = 32

// withPacksKept is g over the same folders, keeping up to maxOpenPacks of
// its pack files open, or none.
func withPacksKept(g *git.Repository, keep bool) (*git.Repository, error) {
	st, ok := g.Storer.(*filesystem.Storage)
	if !ok {
		return nil, errors.New("unsupported git storage")
	}
	n := 0
	if keep {
		n = maxOpenPacks
	}
	s := filesystem.NewStorageWithOptions(st.Filesystem(), cache.NewObjectLRUDefault(), filesystem.Options{MaxOpenDescriptors: n})
	if w, err := g.Worktree(); err == nil {
		return git.Open(s, w.Filesystem)
	}
	return git.Open(s, nil) // a bare repository
}

// closePacks closes the pack files a KeepPacks storage holds open.
func (r *Repo) closePacks() {
	if st, ok := r.g.Storer.(*filesystem.Storage); ok {
		st.Close()
	}
}

// Has reports whether the object h is stored (loose, packed or in an
// alternate).
func (r *Repo) Has(h Hash) bool { return r.g.Storer.HasEncodedObject(plumbing.Hash(h)) == nil }

// ObjectSize is the size of object h's content. The object is looked up
// in the packs first, as go-git's EncodedObject does once their indexes are
// loaded: a sync's incoming objects sit in the pack its fetch kept, and
// EncodedObjectSize tries the loose file first (an lstat per path component
// and an open: over half the CPU of the incoming check of a wide commit,
// profiled on a sync of 10,000 new files). A small
// object is inflated on the way, and cached for the checkout that follows.
func (r *Repo) ObjectSize(h Hash) (int64, error) {
	o, err := r.g.Storer.EncodedObject(plumbing.AnyObject, plumbing.Hash(h))
	if err != nil {
		return 0, err
	}
	return o.Size(), nil
}

// ErrObjectNotFound is an object the repository does not hold.
var ErrObjectNotFound = plumbing.ErrObjectNotFound

// Commit reads the commit h.
func (r *Repo) Commit(h Hash) (*Commit, error) {
	c, err := r.g.CommitObject(plumbing.Hash(h))
	if err != nil {
		return nil, err
	}
	return toCommit(c), nil
}

// TagTarget is the object the annotated tag h points at.
func (r *Repo) TagTarget(h Hash) (Hash, error) {
	t, err := r.g.TagObject(plumbing.Hash(h))
	if err != nil {
		return ZeroHash, err
	}
	return Hash(t.Target), nil
}

// Tree reads the tree h.
func (r *Repo) Tree(h Hash) (*Tree, error) {
	t, err := r.g.TreeObject(plumbing.Hash(h))
	if err != nil {
		return nil, err
	}
	return toTree(t), nil
}

// Blob reads the content of blob h.
func (r *Repo) Blob(h Hash) ([]byte, error) {
	b, err := r.g.BlobObject(plumbing.Hash(h))
	if err != nil {
		return nil, err
	}
	rd, err := b.Reader()
	if err != nil {
		return nil, err
	}
	defer rd.Close()
	data := make([]byte, b.Size)
	n, err := readFull(rd, data)
	return data[:n], err
}

func readFull(r io.Reader, buf []byte) (int, error) {
	n, err := io.ReadFull(r, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return n, fmt.Errorf("object shorter than its header says: %w", err)
	}
	return n, err
}

// Entry is the entry at the slash path p of tree h; ok is false when the
// tree (or the zero hash, the empty tree) has no such path.
func (r *Repo) Entry(h Hash, p string) (e TreeEntry, ok bool, err error) {
	oe, err := r.entryAt(h, p)
	if err != nil || oe == nil {
		return e, false, err
	}
	return TreeEntry{Name: oe.Name, Mode: Mode(oe.Mode), Hash: Hash(oe.Hash)}, true, nil
}

// SubTree is the tree at the folder path p of tree h ("" is h itself),
// nil when h has no such folder.
func (r *Repo) SubTree(h Hash, p string) (*Tree, error) {
	t, err := r.g.TreeObject(plumbing.Hash(h))
	if err != nil {
		return nil, err
	}
	if p != "" {
		if t, err = t.Tree(p); errors.Is(err, object.ErrDirectoryNotFound) {
			return nil, nil
		} else if err != nil {
			return nil, err
		}
	}
	return toTree(t), nil
}

// Rehash reads object h in full and checks that its content hashes to
// its name, so a corrupt object cannot pass for a good one.
func (r *Repo) Rehash(h Hash) error {
	obj, err := r.g.Storer.EncodedObject(plumbing.AnyObject, plumbing.Hash(h))
	if err != nil {
		return err
	}
	rd, err := obj.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	hw := plumbing.NewHasher(obj.Type(), obj.Size())
	n, err := io.Copy(hw, rd)
	if err != nil {
		return err
	}
	if n != obj.Size() {
		return fmt.Errorf("read %d of %d bytes", n, obj.Size())
	}
	if got := hw.Sum(); got != plumbing.Hash(h) {
		return fmt.Errorf("content hashes to %s", got.String()[:7])
	}
	return nil
}

// IsAncestor reports whether commit a is in b's history (or b itself).
// The git program answers: it reads the commit graph, where go-git walks
// every commit object.
func (r *Repo) IsAncestor(a, b Hash) (bool, error) {
	_, err := r.prog.Run(r.gitDir, "merge-base", "--is-ancestor", a.String(), b.String())
	var ge *Error
	if errors.As(err, &ge) && ge.Stderr == "" {
		return false, nil // exit 1: not an ancestor
	}
	return err == nil, err
}

// MergeBase is the best common ancestor of the commits a and b, zero when
// their histories are unrelated (two vaults made by mem init).
func (r *Repo) MergeBase(a, b Hash) (Hash, error) {
	out, err := r.prog.Run(r.gitDir, "merge-base", a.String(), b.String())
	var ge *Error
	switch h := strings.TrimSpace(out); {
	case err == nil && IsHash(h):
		return NewHash(h), nil
	case errors.As(err, &ge) && ge.Stderr == "":
		return ZeroHash, nil // exit 1 with nothing said
	case err == nil:
		return ZeroHash, fmt.Errorf("git merge-base: unexpected output %q", h)
	}
	return ZeroHash, err
}

// FetchHead is the commit the last fetch brought, read as `git rev-parse
// --verify FETCH_HEAD^{commit}` reads it (without starting a git): the
// object named at the start of FETCH_HEAD's first line, annotated tags
// peeled; an object of any other kind is an error. Call Refresh after the
// fetch first: the objects it brought are in a pack go-git has not listed.
func (r *Repo) FetchHead() (Hash, error) {
	p := filepath.Join(r.gitDir, "FETCH_HEAD")
	data, err := os.ReadFile(p)
	if err != nil {
		return ZeroHash, err
	}
	// git's parse_loose_ref_contents: an object name, then the end or a
	// space or tab.
	const n = 2 * len(Hash{})
	if len(data) < n || !IsHash(strings.ToLower(string(data[:n]))) || len(data) > n && !isSpace(data[n]) {
		return ZeroHash, fmt.Errorf("%s: does not start with an object name", p)
	}
	h := NewHash(strings.ToLower(string(data[:n])))
	for {
		o, err := r.g.Storer.EncodedObject(plumbing.AnyObject, plumbing.Hash(h))
		if err != nil {
			return ZeroHash, fmt.Errorf("%s names %s: %w", p, h, err)
		}
		switch o.Type() {
		case plumbing.CommitObject:
			return h, nil
		case plumbing.TagObject:
			if h, err = r.TagTarget(h); err != nil {
				return ZeroHash, fmt.Errorf("%s names tag %s: %w", p, Hash(o.Hash()), err)
			}
		default:
			return ZeroHash, fmt.Errorf("%s names %s, a %s, not a commit", p, h, o.Type())
		}
	}
}

// isSpace is git's own isspace (sane-ctype): space, tab, CR and LF.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// Ref is the commit the ref name points at, following symbolic refs.
func (r *Repo) Ref(name RefName) (Hash, error) {
	ref, err := r.g.Reference(plumbing.ReferenceName(name), true)
	if err != nil {
		return ZeroHash, err
	}
	return Hash(ref.Hash()), nil
}

// Head is the ref a commit moves (the branch HEAD names, or HEAD itself
// when detached) and the commit it points at (zero on an unborn branch).
func (r *Repo) Head() (RefName, Hash, error) {
	h, err := r.g.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", ZeroHash, fmt.Errorf("%s: read HEAD: %w", r.gitDir, err)
	}
	if h.Type() != plumbing.SymbolicReference {
		return HEAD, Hash(h.Hash()), nil
	}
	name := h.Target()
	cur, err := r.Direct(RefName(name))
	if err != nil {
		return "", ZeroHash, err
	}
	return RefName(name), cur, nil
}

// Direct is what the ref name itself holds, unresolved (zero when it does
// not exist): the value a ref update checks before it moves the ref.
func (r *Repo) Direct(name RefName) (Hash, error) {
	ref, err := r.g.Storer.Reference(plumbing.ReferenceName(name))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return ZeroHash, nil
	}
	if err != nil {
		return ZeroHash, fmt.Errorf("%s: read %s: %w", r.gitDir, name, err)
	}
	return Hash(ref.Hash()), nil
}

// SetHEAD points HEAD at the branch name (a clone of a new bare backup
// should check out the vault's branch).
func (r *Repo) SetHEAD(branch RefName) error {
	return r.g.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, plumbing.ReferenceName(branch)))
}

// AppendReflog adds the move of name from old to new to its reflog.
func (r *Repo) AppendReflog(name RefName, old, new Hash, who Signature, msg string) {
	gitfmt.AppendReflog(r.gitDir, plumbing.ReferenceName(name), plumbing.Hash(old), plumbing.Hash(new), fromSig(who), msg)
}

// RemoteURL is the first URL of the configured remote name.
func (r *Repo) RemoteURL(name string) (string, bool) {
	cfg, err := r.g.Config()
	if err != nil {
		return "", false
	}
	if rc, ok := cfg.Remotes[name]; ok && len(rc.URLs) > 0 {
		return rc.URLs[0], true
	}
	return "", false
}

// SetConfig sets section.key to value in the repository's own config.
func (r *Repo) SetConfig(section, key, value string) error {
	cfg, err := r.g.Config()
	if err != nil {
		return err
	}
	cfg.Raw.Section(section).SetOption(key, value)
	return r.g.SetConfig(cfg)
}

// ConfigValue is section.key of the repository's own config ("" unset).
func (r *Repo) ConfigValue(section, key string) string {
	cfg, err := r.g.Config()
	if err != nil {
		return ""
	}
	return cfg.Raw.Section(section).Option(key)
}

// PinAttributes makes the repository's own attributes file
// ($GIT_DIR/info/attributes) hold line (vault.NoTransform): git reads it
// after every .gitattributes, so it wins over them, and no commit can
// change it.
func PinAttributes(gitDir, line string) error {
	p := filepath.Join(gitDir, "info", "attributes")
	data, err := os.ReadFile(p)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if strings.TrimSpace(l) == line {
			return nil
		}
	}
	if len(data) > 0 && data[len(data)-1] != '\n' {
		data = append(data, '\n')
	}
	data = append(data, "# mem: git never transforms a memory (a remote's .gitattributes cannot either)\n"+line+"\n"...)
	if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
		return err
	}
	return writeReplace(p, data, 0o644)
}
