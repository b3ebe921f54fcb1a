package gitrepo

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
)

// Git's lock files, taken as git takes them: <file>.lock created
// exclusively, written, renamed over the file.
//
// A process killed while it holds git's index.lock or a ref's .lock leaves
// the lock behind, and every later commit would skip as "git is busy" —
// scheduled commits would stop without anyone noticing. So each lock taken
// through Locks is recorded (path and inode) in a record file the caller
// names, under a lock of its own that only one process holds at a time
// (mem's commit lock). The next holder finds the record and removes
// exactly the lock files still there with the recorded inode: those a dead
// process left. A lock any git created has another inode and is left alone.

// LockHeldError is a git lock file that already exists: another git
// process holds it, or one that crashed left it.
type LockHeldError struct{ Path string }

func (e *LockHeldError) Error() string { return e.Path + " exists" }

// Locks takes git's lock files for one process and keeps the record of
// them. Not goroutine-safe.
type Locks struct {
	gitDir string
	record string   // the record file, outside .git
	held   []string // "inode path" of each lock taken since the last Forget
}

// Locks returns r's lock taker, recording its locks at record.
func (r *Repo) Locks(record string) *Locks { return &Locks{gitDir: r.gitDir, record: record} }

// create creates git's lock file at path exclusively, as git does,
// recording it first: the file is made under a private name, its inode
// recorded, and only then linked to path (link fails when path exists).
// So there is no moment when a kill leaves a lock at path that the record
// does not name.
func (l *Locks) create(path string) (*os.File, error) {
	tmp := privateLockName(path)
	os.Remove(tmp) // a leftover of an earlier process with this pid
	f, err := os.OpenFile(tmp, os.O_CREATE|os.O_EXCL|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer os.Remove(tmp)
	if err := l.recordLock(f, path, tmp); err != nil {
		f.Close()
		return nil, err
	}
	if err := os.Link(tmp, path); err != nil {
		f.Close()
		if errors.Is(err, fs.ErrExist) {
			return nil, &LockHeldError{Path: path}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return f, nil
}

// privateLockName is where create makes the lock for path before linking
// it into place. It ends in ".lock", as every name git skips when it reads
// refs does: a kill can leave it in refs/heads until the next holder
// removes it, and a name like "main.lock.mem-42" would meanwhile be a
// broken branch to git (fsck: "invalid sha1 pointer").
func privateLockName(path string) string {
	return path + ".mem-" + strconv.Itoa(os.Getpid()) + ".lock"
}

// recordLock adds the file f, to be found at paths, to the record.
func (l *Locks) recordLock(f *os.File, paths ...string) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	ino, ok := inode(fi)
	if !ok {
		return nil // no inode here: such a lock is left for a person, as git does
	}
	for _, p := range paths {
		l.held = append(l.held, fmt.Sprintf("%d %s", ino, p))
	}
	// Renamed into place but not fsynced: the record has to outlive a killed
	// process, not a power cut.
	if err := os.MkdirAll(filepath.Dir(l.record), 0o700); err != nil {
		return err
	}
	tmp := l.record + "." + strconv.Itoa(os.Getpid())
	if err := os.WriteFile(tmp, []byte(strings.Join(l.held, "\n")+"\n"), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, l.record)
}

// Forget drops the record once the locks it names are released.
func (l *Locks) Forget() {
	if l.held != nil {
		os.Remove(l.record)
		l.held = nil
	}
}

// ClearStale removes the lock files a killed holder left, and says which.
// It must run under the caller's own lock, so that no other holder is
// alive.
func (l *Locks) ClearStale() ([]string, error) {
	f, err := os.Open(l.record)
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
		if !ok || err != nil || !strings.HasPrefix(path, l.gitDir+string(filepath.Separator)) {
			continue // not a record this wrote; never remove anything outside .git
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
	os.Remove(l.record)
	return removed, nil
}

// memPidPrefix opens the line naming the mem process that holds the
// index's lock (lockHolder reads it back).
const memPidPrefix = "mem pid "

// IndexLock is git's index.lock, held so no git command changes the index
// underneath its holder. The new index is written into it and renamed over
// the index, exactly as git does.
type IndexLock struct {
	path, index string
	f           *os.File
	done        bool
}

// Index takes the index lock (a *LockHeldError when someone holds it).
func (l *Locks) Index() (*IndexLock, error) {
	p := filepath.Join(l.gitDir, "index.lock")
	f, err := l.create(p)
	if err != nil {
		return nil, err
	}
	// Name the holder for whoever finds the lock after a crash.
	fmt.Fprintf(f, "%s%d\n", memPidPrefix, os.Getpid())
	return &IndexLock{path: p, index: filepath.Join(l.gitDir, "index"), f: f}, nil
}

// Path is where the lock file is.
func (il *IndexLock) Path() string { return il.path }

// Release drops the lock unless Write has replaced the index with it.
func (il *IndexLock) Release() {
	if !il.done {
		il.f.Close()
		os.Remove(il.path)
	}
}

// Write replaces the index with ents (sorted by name) and the cached
// trees, and releases the lock.
func (il *IndexLock) Write(ents []*IndexEntry, tree *CacheTree) error {
	if err := il.f.Truncate(0); err != nil {
		return err
	}
	if _, err := il.f.Seek(0, 0); err != nil {
		return err
	}
	if err := writeIndex(il.f, ents, tree); err != nil {
		return fmt.Errorf("%s: write git index: %w (run 'git reset -q' to rebuild it)", il.path, err)
	}
	// Not fsynced, as git does not by default (core.fsync): the index is a
	// cache of HEAD plus stat data that 'git reset -q' rebuilds, unlike the
	// objects and the ref, which are durable before the ref moves.
	if err := il.f.Close(); err != nil {
		return err
	}
	if err := os.Rename(il.path, il.index); err != nil {
		return fmt.Errorf("%s: %w", il.path, err)
	}
	il.done = true
	return nil
}

// RefLock is a ref's lock file, held while the caller checks the ref
// still holds what it expects and then publishes the new value.
type RefLock struct {
	path string
	f    *os.File
	done bool
}

// Ref takes the lock of ref name (a *LockHeldError when someone holds it).
func (l *Locks) Ref(name RefName) (*RefLock, error) {
	p := filepath.Join(l.gitDir, filepath.FromSlash(name.String()))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := l.create(p + ".lock")
	if err != nil {
		return nil, err
	}
	return &RefLock{path: p + ".lock", f: f}, nil
}

// Publish writes h into the lock, fsyncs it and renames it over the ref.
func (rl *RefLock) Publish(h Hash) error {
	if err := gitfmt.PublishRef(rl.f, rl.path, plumbing.Hash(h)); err != nil {
		return err
	}
	rl.done = true
	return nil
}

// Release drops the lock unless Publish has moved the ref with it.
func (rl *RefLock) Release() {
	if !rl.done {
		rl.f.Close()
		os.Remove(rl.path)
	}
}

// A LockFile is a git lock file present in a repository.
type LockFile struct {
	Path    string
	ModTime time.Time
	// MemPid is the mem process that took it, read from the line Index
	// writes into the index's lock; 0 when another program took it.
	MemPid int
}

// Remove deletes the lock file, for a caller that knows its holder is
// gone.
func (f LockFile) Remove() error { return os.Remove(f.Path) }

// LockFiles lists the git lock files present in the repository at gitDir:
// the index's, HEAD's, the config's, packed-refs' and any ref's.
func LockFiles(gitDir string) []LockFile {
	var found []LockFile
	add := func(p string) {
		if fi, err := os.Lstat(p); err == nil && !fi.IsDir() {
			found = append(found, LockFile{Path: p, ModTime: fi.ModTime(), MemPid: lockHolder(p)})
		}
	}
	for _, name := range []string{"index.lock", "HEAD.lock", "config.lock", "packed-refs.lock"} {
		add(filepath.Join(gitDir, name))
	}
	filepath.WalkDir(filepath.Join(gitDir, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".lock") {
			add(p)
		}
		return nil
	})
	return found
}

// lockHolder reads the "mem pid N" line Index writes into the lock it
// takes: N, or 0 when the file holds no such line.
func lockHolder(p string) int {
	data, err := os.ReadFile(p)
	if err != nil {
		return 0
	}
	line, _, _ := strings.Cut(string(data), "\n")
	n, ok := strings.CutPrefix(line, memPidPrefix)
	if !ok {
		return 0
	}
	pid, err := strconv.Atoi(n)
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}

// busyMarkers are the files git leaves while an operation is in progress.
var busyMarkers = []struct{ name, what string }{
	{"index.lock", "another git process holds the index lock (if none is running, it crashed: remove %s)"},
	{"MERGE_HEAD", "a merge is in progress (finish it with 'git commit' or 'git merge --abort')"},
	{"CHERRY_PICK_HEAD", "a cherry-pick is in progress (finish or 'git cherry-pick --abort')"},
	{"REVERT_HEAD", "a revert is in progress (finish or 'git revert --abort')"},
	{"rebase-merge", "a rebase is in progress (finish or 'git rebase --abort')"},
	{"rebase-apply", "a rebase or 'git am' is in progress (finish or abort it)"},
	{"BISECT_LOG", "a bisect is in progress (end it with 'git bisect reset')"},
}

// Busy names the file git leaves while it is mid-operation (its index
// lock, a merge, a cherry-pick, a revert, a rebase, a bisect) and says
// what to do about it; "" when git is idle.
func (r *Repo) Busy() (marker, what string) {
	for _, m := range busyMarkers {
		p := filepath.Join(r.gitDir, m.name)
		if _, err := os.Lstat(p); err == nil {
			what := m.what
			if strings.Contains(what, "%s") {
				what = fmt.Sprintf(what, p)
			}
			return p, what
		}
	}
	return "", ""
}

// RemoveEmptyRefs removes the empty loose refs of the repository at
// gitDir, and says which. git never writes an empty ref, so nothing is
// lost; go-git wrote refs in place (truncate, then write), so one killed
// in between left one, on which every later push failed ("ref file is
// empty").
func RemoveEmptyRefs(gitDir string) ([]string, error) {
	var torn []string
	err := filepath.WalkDir(filepath.Join(gitDir, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil // an unreadable folder is the push's to report
		}
		if fi, err := d.Info(); err == nil && fi.Size() == 0 {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("%s: an empty ref, left by a killed backup, cannot be removed: %w", p, err)
			}
			torn = append(torn, p)
		}
		return nil
	})
	return torn, err
}

// LooseObjects calls yield with the name and path of each loose object
// until it returns false; a file that is no object's name (a temp file of
// a running push) is skipped.
func (r *Repo) LooseObjects(yield func(h Hash, path string) bool) {
	fans, _ := filepath.Glob(filepath.Join(r.gitDir, "objects", "[0-9a-f][0-9a-f]"))
	for _, fan := range fans {
		ents, _ := os.ReadDir(fan)
		for _, e := range ents {
			h := filepath.Base(fan) + e.Name()
			if IsHash(h) && !yield(NewHash(h), filepath.Join(fan, e.Name())) {
				return
			}
		}
	}
}
