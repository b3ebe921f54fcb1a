package history

import (
	"context"
	"errors"
	"path/filepath"

	"github.com/mem-md/mem/pkg/vault"
)

// The git lock files a commit or sync takes (the index's, the branch's)
// are recorded by gitrepo.Locks in .mem/locks/git-locks while the vault's
// commit lock is held. The next commit takes that vault lock (the kernel
// released it when the holder died, and no other mem commit can be
// running) and clears what a killed one left (gitrepo.Locks.ClearStale).

func (r *Repo) lockRecordPath() string {
	return filepath.Join(r.v.StateDir(), "locks", "git-locks")
}

// forgetLocks drops the record once this commit has released its locks.
func (r *Repo) forgetLocks() { r.locks.Forget() }

// clearStaleLocks removes the lock files a killed mem commit left, and
// says which. It must run with the vault's commit lock held.
func (r *Repo) clearStaleLocks() ([]string, error) { return r.locks.ClearStale() }

// lockCommit takes the vault's commit lock (.mem/locks/commit.lock). It
// never blocks for good: when the holder is stopped or gone, or still busy
// after Env.CommitLockWait, the commit is skipped (exit 0, as when git is
// busy), naming the holder's pid.
func (r *Repo) lockCommit() (func(), error) {
	unlock, err := r.v.LockWait(context.Background(), "commit", r.env.commitLockWait(), nil)
	var held *vault.LockedError
	if errors.As(err, &held) {
		return nil, skipFor(r.v, held.Path, held.Error())
	}
	return unlock, err
}
