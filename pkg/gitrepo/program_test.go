package gitrepo

import (
	"errors"
	"os"
	"path/filepath"
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
