package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A git run never reads the repository the caller's locators name (a hook
// inherits GIT_DIR); a work-tree run keeps them (lint --staged reads the
// hook's GIT_INDEX_FILE).
func TestLocatorsDroppedButInTheWorkTree(t *testing.T) {
	dir := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_DIR=" + filepath.Join(dir, "elsewhere")}
	p := Program{Env: env}
	if _, err := p.Run("", "init", "--quiet", dir); err != nil {
		t.Fatal(err)
	}
	if out, err := p.Run(filepath.Join(dir, ".git"), "rev-parse", "--git-dir"); err != nil || strings.TrimSpace(out) != filepath.Join(dir, ".git") {
		t.Errorf("Run with GIT_DIR set: %q %v, want the repository named", out, err)
	}
	// elsewhere is no repository: git reading it is the proof it was kept.
	if _, err := p.InWorkTree(dir, "rev-parse", "--git-dir"); err == nil || !strings.Contains(err.Error(), "elsewhere") {
		t.Errorf("InWorkTree with GIT_DIR set: %v, want git to read the inherited GIT_DIR", err)
	}
}

// A run past its deadline is stopped and says so.
func TestTimeoutStopsGit(t *testing.T) {
	dir := t.TempDir()
	p := Program{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, Timeout: 200 * time.Millisecond}
	// The alias's shell outlives git's kill and holds the pipes until it
	// ends (WaitDelay caps that at 5 s): the run still reports the deadline.
	_, err := p.Run("", "-c", "alias.wait=!sleep 1", "wait")
	var ge *Error
	if !errors.As(err, &ge) || !strings.Contains(err.Error(), "did not finish within 200ms") {
		t.Fatalf("err = %v, want a stopped run", err)
	}
}

// Fsck leaves out the commit-graph and multi-pack-index checks only for
// a store without those files: a damaged commit-graph still fails it.
func TestFsckVerifiesTheCommitGraphItHas(t *testing.T) {
	dir := t.TempDir()
	p := Program{Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}}
	if _, err := p.Run("", "init", "--quiet", dir); err != nil {
		t.Fatal(err)
	}
	gitDir := filepath.Join(dir, ".git")
	if _, err := p.Run(gitDir, "commit", "--quiet", "--allow-empty", "-m", "one"); err != nil {
		t.Fatal(err)
	}
	if got := unusedIndexes(gitDir); !slices.Equal(got, []string{"core.commitGraph", "core.multiPackIndex"}) {
		t.Errorf("a store without either file: %v turned off", got)
	}
	if _, err := p.Fsck(gitDir, "--no-progress"); err != nil {
		t.Fatalf("fsck of a sound repository: %v", err)
	}
	if _, err := p.Run(gitDir, "commit-graph", "write", "--reachable"); err != nil {
		t.Fatal(err)
	}
	if got := unusedIndexes(gitDir); !slices.Equal(got, []string{"core.multiPackIndex"}) {
		t.Errorf("a store with a commit-graph: %v turned off, want the multi-pack-index only", got)
	}
	graph := filepath.Join(gitDir, "objects", "info", "commit-graph")
	data, err := os.ReadFile(graph)
	if err != nil {
		t.Fatal(err)
	}
	// The trailing checksum, flipped: commit-graph verify names it.
	data[len(data)-1] ^= 0xff
	os.Chmod(graph, 0o644)
	if err := os.WriteFile(graph, data, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = p.Fsck(gitDir, "--no-progress")
	var ge *Error
	if !errors.As(err, &ge) || !strings.Contains(ge.Stderr, "commit-graph") || !slices.Equal(ge.Args, []string{"fsck", "--no-progress"}) {
		t.Fatalf("fsck of a damaged commit-graph: %v, want git's commit-graph error quoting the fsck command", err)
	}
}

// configOff numbers its settings after those the caller's environment has.
func TestConfigOffAddsToTheCallersSettings(t *testing.T) {
	got := configOff([]string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=a.b", "GIT_CONFIG_VALUE_0=c"}, []string{"core.commitGraph"})
	want := []string{"GIT_CONFIG_KEY_1=core.commitGraph", "GIT_CONFIG_VALUE_1=false", "GIT_CONFIG_COUNT=2"}
	if !slices.Equal(got, want) {
		t.Errorf("configOff = %v, want %v", got, want)
	}
	if got := configOff(nil, nil); got != nil {
		t.Errorf("nothing to turn off: %v", got)
	}
}
