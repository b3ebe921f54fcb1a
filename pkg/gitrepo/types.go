package gitrepo

import (
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// The git layer's own types: what a caller reads and writes through Repo.
// None is go-git's, so no go-git type crosses the layer; each converts to
// go-git's for free or field by field inside it.

// Hash is an object name (SHA-1). plumbing.Hash is a [20]byte too, so the
// layer converts between them without a copy.
type Hash [20]byte

// ZeroHash is no object: an absent file, an unborn branch, the empty tree
// where a diff takes one.
var ZeroHash Hash

// NewHash parses a hex object name; what is not one gives a hash that
// names no object (as git's own parsers do with garbage).
func NewHash(s string) Hash { return Hash(plumbing.NewHash(s)) }

// IsHash reports whether s is a full hex object name.
func IsHash(s string) bool { return plumbing.IsHash(s) }

func (h Hash) String() string { return hex.EncodeToString(h[:]) }

// IsZero reports the zero hash.
func (h Hash) IsZero() bool { return h == ZeroHash }

// HashObject is the name git gives data stored as an object of type t.
func HashObject(t ObjectType, data []byte) Hash {
	return Hash(plumbing.ComputeHash(plumbing.ObjectType(t), data))
}

// ObjectType is a git object's type, numbered as in a pack.
type ObjectType int8

// The object types mem writes.
const (
	CommitObject ObjectType = ObjectType(plumbing.CommitObject)
	TreeObject   ObjectType = ObjectType(plumbing.TreeObject)
	BlobObject   ObjectType = ObjectType(plumbing.BlobObject)
)

// Mode is a tree entry's mode as git writes it (octal 100644 and so on);
// 0 is no entry.
type Mode uint32

// The modes git writes.
const (
	Dir        Mode = 0o040000
	Regular    Mode = 0o100644
	Executable Mode = 0o100755
	Symlink    Mode = 0o120000
	Submodule  Mode = 0o160000
)

// String is the mode as git prints it: six octal digits.
func (m Mode) String() string { return fmt.Sprintf("%06o", uint32(m)) }

// TreeEntry is one name of a tree object.
type TreeEntry struct {
	Name string
	Mode Mode
	Hash Hash
}

// Tree is a tree object: its entries in git's order.
type Tree struct {
	Hash    Hash
	Entries []TreeEntry
}

// Signature is a commit's author or committer.
type Signature struct {
	Name, Email string
	When        time.Time
}

// Commit is a commit object with the fields mem reads and writes.
type Commit struct {
	Hash         Hash // its name; ignored when encoding
	TreeHash     Hash
	ParentHashes []Hash
	Author       Signature
	Committer    Signature
	Message      string
}

// RefName is a ref's full name ("refs/heads/main", "HEAD").
type RefName string

// HEAD is the ref naming the checked-out branch.
const HEAD RefName = "HEAD"

// BranchRef is the full name of the branch name.
func BranchRef(name string) RefName { return RefName("refs/heads/" + name) }

func (n RefName) String() string { return string(n) }

// Short is the name without refs/heads/, refs/tags/ or refs/remotes/, as
// git prints a branch.
func (n RefName) Short() string {
	for _, p := range []string{"refs/heads/", "refs/tags/", "refs/remotes/"} {
		if s, ok := strings.CutPrefix(string(n), p); ok {
			return s
		}
	}
	return string(n)
}

func hashes(hs []plumbing.Hash) []Hash {
	out := make([]Hash, len(hs))
	for i, h := range hs {
		out[i] = Hash(h)
	}
	return out
}

func toSig(s object.Signature) Signature {
	return Signature{Name: s.Name, Email: s.Email, When: s.When}
}

func fromSig(s Signature) object.Signature {
	return object.Signature{Name: s.Name, Email: s.Email, When: s.When}
}

func toCommit(c *object.Commit) *Commit {
	return &Commit{Hash: Hash(c.Hash), TreeHash: Hash(c.TreeHash), ParentHashes: hashes(c.ParentHashes),
		Author: toSig(c.Author), Committer: toSig(c.Committer), Message: c.Message}
}

func toTree(t *object.Tree) *Tree {
	out := &Tree{Hash: Hash(t.Hash), Entries: make([]TreeEntry, len(t.Entries))}
	for i, e := range t.Entries {
		out.Entries[i] = TreeEntry{Name: e.Name, Mode: Mode(e.Mode), Hash: Hash(e.Hash)}
	}
	return out
}

func fromEntries(ents []TreeEntry) []object.TreeEntry {
	out := make([]object.TreeEntry, len(ents))
	for i, e := range ents {
		out[i] = object.TreeEntry{Name: e.Name, Mode: filemode.FileMode(e.Mode), Hash: plumbing.Hash(e.Hash)}
	}
	return out
}

// EncodeCommit is c as the bytes of a commit object (go-git's encoder:
// the one git reads back byte for byte).
func EncodeCommit(c *Commit) ([]byte, error) {
	oc := &object.Commit{Author: fromSig(c.Author), Committer: fromSig(c.Committer), Message: c.Message,
		TreeHash: plumbing.Hash(c.TreeHash)}
	for _, p := range c.ParentHashes {
		oc.ParentHashes = append(oc.ParentHashes, plumbing.Hash(p))
	}
	var obj plumbing.MemoryObject
	if err := oc.Encode(&obj); err != nil {
		return nil, err
	}
	data := make([]byte, obj.Size())
	rd, _ := obj.Reader() // a memory object's reader never fails
	if _, err := readFull(rd, data); err != nil {
		return nil, err
	}
	return data, nil
}
