// Package gitrepo is mem's git layer. Repo is the repository behind one
// API and the layer's own types (no go-git type crosses it): objects,
// trees, refs, the index, config and the one tree diff, each done by
// go-git, gitfmt or the git program as the layer chooses. Program is the
// one runner of the git program (push, fetch, fsck, clone, merge-base,
// `lint --staged`): a deadline, no prompt, no stdin, the environment its
// caller hands it and none of the variables that would point git at
// another repository. The sub-packages hold git's file formats (gitfmt)
// and the .gitignore matcher (ignore).
package gitrepo

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// DefaultTimeout is the deadline of the zero Program.
const DefaultTimeout = 10 * time.Minute

// Program is the git program as mem runs it.
type Program struct {
	// Env is the environment (KEY=value) git runs with, less the
	// locators. The caller hands it in (cmd/mem passes its own): the git
	// layer reads no process environment, so nil is none.
	Env []string
	// Timeout bounds every run: a wedged transport or a prompt nobody
	// answers must fail an hourly job, not pile it up behind the last one.
	// 0 is DefaultTimeout.
	Timeout time.Duration
	// Context, when done, stops a running git (Ctrl-C on mem sync): the
	// run fails with an error wrapping context.Canceled. Nil never stops.
	Context context.Context
}

// locators are the variables that point git at a repository, index or
// object store other than the one named on its command line. `mem backup`
// run from a git hook inherits them (GIT_DIR, GIT_INDEX_FILE), and a child
// git would then read the wrong repository.
var locators = []string{"GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
	"GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_COMMON_DIR", "GIT_NAMESPACE", "GIT_CEILING_DIRECTORIES"}

// Error is a git run that failed or ran past its deadline.
type Error struct {
	Args   []string
	Stderr string // git's own messages, trimmed
	Err    error
}

func (e *Error) Error() string {
	msg := e.Stderr
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Run runs git on the repository at gitDir (empty: outside any
// repository, as a clone or an init runs) and returns its stdout. Git
// must be installed: go-git's own local transport runs git-receive-pack
// anyway, and without a deadline.
func (p Program) Run(gitDir string, args ...string) (string, error) {
	return p.RunWith(gitDir, "", nil, args...)
}

// RunWith is Run with stdin text and extra environment (GIT_WORK_TREE for
// a checkout).
func (p Program) RunWith(gitDir, stdin string, extraEnv []string, args ...string) (string, error) {
	bin, err := exec.LookPath("git")
	if err != nil {
		return "", fmt.Errorf("git is not installed (%v): mem backup, sync, clone, doctor and lint --staged need it; install git", err)
	}
	timeout := p.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	parent := p.Context
	if parent == nil {
		parent = context.Background()
	}
	ctx, cancel := context.WithTimeout(parent, timeout)
	defer cancel()
	full := args
	if gitDir != "" {
		full = append([]string{"--git-dir", gitDir}, args...)
	}
	cmd := exec.CommandContext(ctx, bin, full...)
	env := slices.Clone(p.Env)
	for _, k := range locators {
		env = slices.DeleteFunc(env, func(kv string) bool { return strings.HasPrefix(kv, k+"=") })
	}
	cmd.Env = append(append(env, "GIT_TERMINAL_PROMPT=0", "LC_ALL=C"), extraEnv...)
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	// A grandchild (git-receive-pack, ssh) may hold the pipes after git is
	// killed; WaitDelay closes them instead of waiting on it.
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	switch {
	case parent.Err() != nil:
		err = fmt.Errorf("stopped: %w", context.Cause(parent))
	case ctx.Err() != nil:
		err = fmt.Errorf("did not finish within %s and was stopped", timeout)
	}
	if err != nil {
		return stdout.String(), &Error{Args: args, Stderr: strings.TrimSpace(stderr.String()), Err: err}
	}
	return stdout.String(), nil
}

// Fsck runs `git fsck args...` on the repository at gitDir. git fsck
// starts `git commit-graph verify` and `git multi-pack-index verify` even
// when the object store has no such file, two processes that check
// nothing (a third of the processes of a `mem backup`'s read-back); each
// is turned off when its file is absent, so fsck checks what it did.
func (p Program) Fsck(gitDir string, args ...string) (string, error) {
	return p.RunWith(gitDir, "", configOff(p.Env, unusedIndexes(gitDir)), append([]string{"fsck"}, args...)...)
}

// unusedIndexes are the settings naming the object store's commit-graph
// and multi-pack-index when it has none. A linked work tree's store (a
// commondir) or a store with alternates, which fsck verifies too, is left
// to git.
func unusedIndexes(gitDir string) []string {
	objects := filepath.Join(gitDir, "objects")
	absent := func(rel ...string) bool {
		for _, r := range rel {
			if _, err := os.Lstat(filepath.Join(objects, r)); !os.IsNotExist(err) {
				return false
			}
		}
		return true
	}
	if _, err := os.Lstat(filepath.Join(gitDir, "commondir")); !os.IsNotExist(err) || !absent(filepath.Join("info", "alternates")) {
		return nil
	}
	var off []string
	if absent(filepath.Join("info", "commit-graph"), filepath.Join("info", "commit-graphs")) {
		off = append(off, "core.commitGraph")
	}
	if absent(filepath.Join("pack", "multi-pack-index")) {
		off = append(off, "core.multiPackIndex")
	}
	return off
}

// configOff is the environment that sets each key to false for one git
// run (GIT_CONFIG_COUNT, after any the caller's env already sets), so the
// command line, and the error that quotes it, stay the caller's.
func configOff(env, keys []string) []string {
	if len(keys) == 0 {
		return nil
	}
	n := 0
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "GIT_CONFIG_COUNT="); ok {
			n, _ = strconv.Atoi(v)
		}
	}
	var out []string
	for i, k := range keys {
		out = append(out, fmt.Sprintf("GIT_CONFIG_KEY_%d=%s", n+i, k), fmt.Sprintf("GIT_CONFIG_VALUE_%d=false", n+i))
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(n+len(keys)))
}

// InWorkTree is Run in the work tree folder dir (paths are relative to
// it, as --relative and "HEAD:./path" need) with the locators of Env kept:
// `mem lint --staged` runs as a hook inside `git commit`, which may stage
// into a temporary index (GIT_INDEX_FILE, for `git commit -a` or `git
// commit PATH`) that the hook must read.
func (p Program) InWorkTree(dir string, args ...string) (string, error) {
	var keep []string
	for _, kv := range p.Env {
		if k, _, ok := strings.Cut(kv, "="); ok && slices.Contains(locators, k) {
			keep = append(keep, kv)
		}
	}
	return p.RunWith("", "", keep, append([]string{"-C", dir}, args...)...)
}
