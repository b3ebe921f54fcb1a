package history

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/mem-md/mem/pkg/vault"
)

// A mem commit killed while it holds git's index.lock or a ref's .lock
// leaves the lock behind, and every later commit would skip as "git is
// busy" — scheduled commits would stop without anyone noticing. So each
// lock mem creates is recorded (path and inode) in .mem/locks/git-locks
// while the vault's commit lock is held. The next commit takes that vault
// lock (the kernel released it when the holder died, and no other mem
// commit can be running), finds the record, and removes exactly the lock
// files still there with the recorded inode: those a dead mem left. A lock
// any git created has another inode and is left alone.

func (r *Repo) lockRecordPath() string {
	return filepath.Join(r.v.StateDir(), "locks", "git-locks")
}

// createLock creates git's lock file at path exclusively, as git does,
// recording it first: the file is made under a private name, its inode
// recorded, and only then linked to path (link fails when path exists).
// So there is no moment when a kill leaves a lock at path that the record
// does not name. os.ErrExist means someone holds the lock.
func (r *Repo) createLock(path string) (*os.File, error) {
	tmp := privateLockName(path)
	os.Remove(tmp) // a leftover of an earlier process with this pid
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	defer os.Remove(tmp)
	if err := r.recordLock(f, path, tmp); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Link(tmp, path); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// privateLockName is where createLock makes the lock for path before
// linking it into place. It ends in ".lock", as every name git skips when
// it reads refs does: a kill can leave it in refs/heads until the next
// commit removes it, and a name like "main.lock.mem-42" would meanwhile be
// a broken branch to git (fsck: "invalid sha1 pointer").
func privateLockName(path string) string {
	return path + ".mem-" + strconv.Itoa(os.Getpid()) + ".lock"
}

// recordLock adds the file f, to be found at paths, to the record.
func (r *Repo) recordLock(f *os.File, paths ...string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	ino, ok := inode(fi)
	if !ok {
		return nil // no inode here: such a lock is left for a person, as git does
	}
	for _, p := range paths {
		r.heldLocks = append(r.heldLocks, fmt.Sprintf("%d %s", ino, p))
	}
	// Renamed into place but not fsynced: the record has to outlive a killed
	// process, not a power cut.
	rec := r.lockRecordPath()
	if err := os.MkdirAll(filepath.Dir(rec), 0o700); err != nil {
		return err
	}
	tmp := rec + "." + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, []byte(strings.Join(r.heldLocks, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, rec)
}

// forgetLocks drops the record once this commit has released its locks.
func (r *Repo) forgetLocks() {
	if r.heldLocks != nil {
		os.Remove(r.lockRecordPath())
		r.heldLocks = nil
	}
}

// clearStaleLocks removes the lock files a killed mem commit left, and
// says which. It must run with the vault's commit lock held.
func (r *Repo) clearStaleLocks() ([]string, error) {
	f, err := os.Open(r.lockRecordPath())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var removed []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		ino, path, ok := strings.Cut(sc.Text(), " ")
		n, err := strconv.ParseUint(ino, 10, 64)
		if !ok || err != nil || !strings.HasPrefix(path, r.gitDir+string(filepath.Separator)) {
			continue // not a record mem wrote; never remove anything outside .git
		}
		fi, err := os.Lstat(path)
		if err != nil {
			continue
		}
		if ino, ok := inode(fi); ok && ino == n {
			if err := os.Remove(path); err != nil {
				return removed, fmt.Errorf("%s: a killed mem commit left this lock and it cannot be removed: %w", path, err)
			}
			removed = append(removed, path)
		}
	}
	os.Remove(r.lockRecordPath())
	return removed, nil
}

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
