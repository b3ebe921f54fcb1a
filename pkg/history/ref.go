package history

import (
	"errors"
	"fmt"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// updateRef moves name from old to new with git's lock-file protocol: take
// the ref's lock (recorded, see gitrepo.Locks), check the ref still holds
// old, then publish new through the lock. The reflog gets a line too.
func (r *Repo) updateRef(name gitrepo.RefName, old, new gitrepo.Hash, who gitrepo.Signature, msg string) error {
	lock, err := r.locks.Ref(name)
	var held *gitrepo.LockHeldError
	if errors.As(err, &held) {
		return skipFor(r.v, held.Path, fmt.Sprintf("%s exists: another git process is updating %s (if none is running, remove it); nothing was committed", held.Path, name))
	}
	if err != nil {
		return err
	}
	defer lock.Release()

	cur, err := r.git.Direct(name)
	if err != nil {
		return err
	}
	if cur != old {
		return errBusy(fmt.Sprintf("%s moved from %s to %s while mem was committing; nothing was committed, the next run picks the changes up", name, short(old), short(cur)))
	}
	if err := lock.Publish(new); err != nil {
		return err
	}
	r.git.AppendReflog(name, old, new, who, msg)
	return nil
}

func short(h gitrepo.Hash) string {
	if h.IsZero() {
		return "(none)"
	}
	return h.String()[:7]
}
