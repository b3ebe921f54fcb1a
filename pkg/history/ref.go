package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
)

// headRef is the ref a commit moves (the branch HEAD names, or HEAD itself
// when detached) and the commit it points at (zero on an unborn branch).
func (r *Repo) headRef() (plumbing.ReferenceName, plumbing.Hash, error) {
	h, err := r.git.Storer.Reference(plumbing.HEAD)
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("%s: read HEAD: %w", r.gitDir, err)
	}
	if h.Type() != plumbing.SymbolicReference {
		return plumbing.HEAD, h.Hash(), nil
	}
	name := h.Target()
	ref, err := r.git.Storer.Reference(name)
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return name, plumbing.ZeroHash, nil
	}
	if err != nil {
		return "", plumbing.ZeroHash, fmt.Errorf("%s: read %s: %w", r.gitDir, name, err)
	}
	return name, ref.Hash(), nil
}

// updateRef moves name from old to new with git's lock-file protocol:
// create <ref>.lock exclusively (recorded, see createLock), check the ref
// still holds old, then gitfmt writes, fsyncs and renames it. The reflog
// gets a line too.
func (r *Repo) updateRef(name plumbing.ReferenceName, old, new plumbing.Hash, who object.Signature, msg string) error {
	p := filepath.Join(r.gitDir, filepath.FromSlash(name.String()))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	lockPath := p + ".lock"
	f, err := r.createLock(lockPath)
	if errors.Is(err, os.ErrExist) {
		return skipFor(r.v, lockPath, fmt.Sprintf("%s exists: another git process is updating %s (if none is running, remove it); nothing was committed", lockPath, name))
	}
	if err != nil {
		return fmt.Errorf("%s: %w", lockPath, err)
	}
	published := false
	defer func() {
		if !published {
			f.Close()
			os.Remove(lockPath)
		}
	}()

	cur := plumbing.ZeroHash
	if ref, err := r.git.Storer.Reference(name); err == nil {
		cur = ref.Hash()
	} else if !errors.Is(err, plumbing.ErrReferenceNotFound) {
		return fmt.Errorf("%s: read %s: %w", r.gitDir, name, err)
	}
	if cur != old {
		return errBusy(fmt.Sprintf("%s moved from %s to %s while mem was committing; nothing was committed, the next run picks the changes up", name, short(old), short(cur)))
	}
	if err := gitfmt.PublishRef(f, lockPath, new); err != nil {
		return err
	}
	published = true
	gitfmt.AppendReflog(r.gitDir, name, old, new, who, msg)
	return nil
}

func short(h plumbing.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:7]
}

func readAll(r io.Reader, buf []byte) (int, error) {
	n, err := io.ReadFull(r, buf)
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return n, fmt.Errorf("object shorter than its header says: %w", err)
	}
	return n, err
}
