package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// updateRef moves name from old to new with git's lock-file protocol:
// create <ref>.lock exclusively (recorded, see createLock), check the ref
// still holds old, then gitfmt writes, fsyncs and renames it. The reflog
// gets a line too.
func (r *Repo) updateRef(name gitrepo.RefName, old, new gitrepo.Hash, who gitrepo.Signature, msg string) error {
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

	cur, err := r.git.Direct(name)
	if err != nil {
		return err
	}
	if cur != old {
		return errBusy(fmt.Sprintf("%s moved from %s to %s while mem was committing; nothing was committed, the next run picks the changes up", name, short(old), short(cur)))
	}
	if err := gitrepo.PublishRef(f, lockPath, new); err != nil {
		return err
	}
	published = true
	r.git.AppendReflog(name, old, new, who, msg)
	return nil
}

func short(h gitrepo.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:7]
}
