package history

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
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
// create <ref>.lock exclusively, check the ref still holds old, write,
// fsync and rename. A crash leaves either the old ref or the new one (and
// at worst a stale .lock that git names). The reflog gets a line too.
func (r *Repo) updateRef(name plumbing.ReferenceName, old, new plumbing.Hash, who object.Signature, msg string) error {
	p := filepath.Join(r.gitDir, filepath.FromSlash(name.String()))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	lockPath := p + ".lock"
	f, err := r.createLock(lockPath)
	if errors.Is(err, os.ErrExist) {
		return errBusy(fmt.Sprintf("%s exists: another git process is updating %s (if none is running, remove it); nothing was committed", lockPath, name))
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
	if _, err := io.WriteString(f, new.String()+"\n"); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	if err := os.Rename(lockPath, p); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	published = true
	syncDir(filepath.Dir(p))
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, who.Name, who.Email, who.When.Unix(), who.When.Format("-0700"), strings.SplitN(msg, "\n", 2)[0])
	logs := []string{name.String()}
	if name != plumbing.HEAD {
		logs = append(logs, "HEAD")
	}
	for _, l := range logs {
		appendReflog(filepath.Join(r.gitDir, "logs", filepath.FromSlash(l)), line)
	}
	return nil
}

// appendReflog adds one line to a reflog. The reflog is a convenience
// (git fsck does not need it), so a failure here does not fail the commit.
func appendReflog(p, line string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.WriteString(line)
	f.Close()
}

func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
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
