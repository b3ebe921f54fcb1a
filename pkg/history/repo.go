// Package history is the vault's git history and its verified backup:
// `mem commit`, `mem backup`, `mem log`, and the read helpers the audit
// uses (age of the last commit, a file's content at a past time, the last
// verified backup).
//
// One *Repo holds the one gitrepo.Repo, the git layer's repository (not
// goroutine-safe); history decides what to write, the layer how git stores it.
// Commits are built with plumbing: blobs for changed files, tree objects,
// a commit object, then the branch moved with git's own lock-file
// check-and-set. go-git's worktree status and its in-place index writer are
// never used; the git index is rewritten under git's index.lock protocol so
// `git status` agrees with what mem committed (docs/history.md).
package history

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
)

// Repo is the git repository holding a vault. The vault may be the whole
// worktree or a sub-folder of it; every path mem commits lies under Prefix.
type Repo struct {
	v      *vault.Vault
	git    *gitrepo.Repo
	gitDir string           // absolute path of the .git directory
	top    string           // absolute path of the worktree root
	prefix string           // vault root relative to top, slash-separated; "" when equal
	objs   *gitrepo.Objects // set for the length of a commit
	env    Env              // set by the entry point (Commit, Sync, Backup, Clone)
	// locks takes git's lock files, recorded so a later commit can clear
	// them if this one is killed.
	locks *gitrepo.Locks
}

// ErrNoRepo is returned by Open when the vault is not inside a git repository.
var ErrNoRepo = errors.New("not inside a git repository")

// Open finds the git repository that contains the vault (the vault root or
// any ancestor may hold .git); env is what its git children run with.
func Open(v *vault.Vault, env Env) (*Repo, error) {
	g, err := gitrepo.Open(v.Root, env.Git())
	if errors.Is(err, gitrepo.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w: run 'git init %s' (or 'mem init %s') first", v.Root, ErrNoRepo, v.Root, v.Root)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: open git repository: %w", v.Root, err)
	}
	r := &Repo{v: v, env: env, git: g, gitDir: g.GitDir(), top: g.Top()}
	r.locks = g.Locks(r.lockRecordPath())
	if _, err := os.Stat(filepath.Join(r.gitDir, "commondir")); err == nil {
		return nil, fmt.Errorf("%s: linked git worktrees are not supported by mem history; run mem in the main worktree", r.gitDir)
	}
	rel, err := filepath.Rel(r.top, v.Root)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s: vault is outside the git worktree %s", v.Root, r.top)
	}
	if rel != "." {
		r.prefix = filepath.ToSlash(rel)
	}
	return r, nil
}

// repoPath turns a vault-relative path into a repository-relative one.
func (r *Repo) repoPath(rel string) string {
	if r.prefix == "" {
		return rel
	}
	return r.prefix + "/" + rel
}

// vaultRel turns a repository path under the prefix into a vault-relative
// one; ok is false for paths outside the vault.
func (r *Repo) vaultRel(p string) (string, bool) {
	if r.prefix == "" {
		return p, true
	}
	if rest, ok := strings.CutPrefix(p, r.prefix+"/"); ok {
		return rest, true
	}
	return "", false
}

// head returns the commit HEAD points at, or nil on an unborn branch.
func (r *Repo) head() (*gitrepo.Commit, error) {
	_, h, err := r.git.Head()
	if err != nil || h.IsZero() {
		return nil, err
	}
	c, err := r.git.Commit(h)
	if err != nil {
		return nil, fmt.Errorf("%s: HEAD commit %s: %w", r.gitDir, h, err)
	}
	return c, nil
}

// vaultTree is the tree of the vault folder in commit c (nil when the
// commit has no such folder).
func (r *Repo) vaultTree(c *gitrepo.Commit) (*gitrepo.Tree, error) {
	t, err := r.git.SubTree(c.TreeHash, r.prefix)
	if err != nil {
		return nil, fmt.Errorf("commit %s: %w", c.Hash, err)
	}
	return t, nil
}

// busy says why git (or an interrupted mem sync) is mid-operation, and
// the marker that says so, or "" when it is idle.
func (r *Repo) busy() (why, marker string) {
	p, what := r.git.Busy()
	if p == "" {
		p, what = filepath.Join(r.gitDir, syncJournal), "a mem sync was stopped while applying a merge (run 'mem sync' to finish it)"
		if _, err := os.Lstat(p); err != nil {
			return "", ""
		}
	}
	return fmt.Sprintf("%s exists: %s", p, what), p
}

// StuckError is a skip that has lasted too long: the lock or marker that
// makes every commit and sync skip is older than commit.interval, so the
// scheduled runs have been skipping (and new memories not leaving the
// machine) since. Exit 1, so cron and the daemon say so.
type StuckError struct {
	Reason string
	Age    time.Duration
	Limit  time.Duration
}

func (e *StuckError) Error() string {
	return fmt.Sprintf("%s; it has been there %s, longer than commit.interval (%s): every commit and sync since then skipped, nothing new has been committed or pushed",
		e.Reason, e.Age.Round(time.Second), e.Limit)
}

// Kind: the vault is not being committed (exit 1).
func (e *StuckError) Kind() fail.Kind { return fail.Check }

// skipFor is the error of a run that skips because of the lock or marker
// at path: a *SkipError (exit 0, the next run tries again) until the file is
// older than commit.interval (default 1h), a *StuckError after.
func skipFor(v *vault.Vault, path, reason string) error {
	limit := v.Config.Commit.Interval
	if limit <= 0 {
		limit = time.Hour
	}
	// Real time, not --now/MEM_NOW: the file's mtime is.
	if fi, err := os.Lstat(path); err == nil {
		if age := time.Since(fi.ModTime()); age > limit {
			return &StuckError{Reason: reason, Age: age, Limit: limit}
		}
	}
	return errBusy(reason)
}

// Env is what history takes from the process that runs it, handed in by
// the command (cmd/mem fills it) instead of read from package globals, so
// a test sets a deadline for itself alone.
type Env struct {
	// Vars is the process environment as KEY=value: the identity variables
	// commit honours as git does, and what every git child runs with (less
	// the locators, see pkg/gitrepo). The caller hands it in; history
	// reads no process environment, so nil is none.
	Vars []string
	// GitTimeout bounds every git process mem starts (push, ls-remote,
	// clone, fsck): a wedged transport or a prompt nobody answers must
	// fail an hourly job, not pile it up behind the last one. 0 is
	// gitrepo.DefaultTimeout.
	GitTimeout time.Duration
	// CommitLockWait is how long a commit waits for another mem commit
	// that is running: long enough for a first commit of a large vault on
	// a loaded machine, short enough that a scheduled run never hangs
	// (issue 17). 0 is DefaultCommitLockWait.
	CommitLockWait time.Duration
	// Context, when done (Ctrl-C), stops a sync at its next step and any
	// git it runs; nil never stops.
	Context context.Context
}

// DefaultCommitLockWait is the commit lock wait of the zero Env.
const DefaultCommitLockWait = 20 * time.Second

// getenv is os.Getenv over Vars (the last setting wins, as in exec).
func (e Env) getenv(k string) string {
	vars := e.Vars
	for i := len(vars) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(vars[i], k+"="); ok {
			return v
		}
	}
	return ""
}

func (e Env) gitTimeout() time.Duration {
	if e.GitTimeout > 0 {
		return e.GitTimeout
	}
	return gitrepo.DefaultTimeout
}

// Git is the git program as e runs it.
func (e Env) Git() gitrepo.Program {
	return gitrepo.Program{Env: e.Vars, Timeout: e.GitTimeout, Context: e.Context}
}

func (e Env) commitLockWait() time.Duration {
	if e.CommitLockWait > 0 {
		return e.CommitLockWait
	}
	return DefaultCommitLockWait
}

// Init makes dir a git repository unless it already lies inside one, and
// says whether it made one (`mem init`).
func Init(dir string) (bool, error) {
	made, err := gitrepo.Init(dir)
	if err != nil {
		return made, err
	}
	g, err := gitrepo.Open(dir, gitrepo.Program{})
	if err != nil {
		return made, err
	}
	return made, gitrepo.PinAttributes(g.GitDir(), vault.NoTransform)
}
