package lint

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// Staged reads the index the hook's `git commit` names: `git commit -a`
// stages into a temporary index (GIT_INDEX_FILE) and leaves .git/index as
// it was, so a mass deletion made that way must still be refused.
func TestStagedReadsTheHooksIndex(t *testing.T) {
	vaulttest.GitEnv(t)
	dir := t.TempDir()
	git := func(env []string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git(nil, "init", "-q", "-b", "main")
	if _, err := vault.Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		vaulttest.Write(t, dir, fmt.Sprintf("memory/m%d.md", i), fmt.Sprintf("---\ntype: fact\n---\nfact %d\n", i))
	}
	git(nil, "add", "-A")
	git(nil, "commit", "-q", "-m", "init")
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}

	tmp := filepath.Join(t.TempDir(), "index")
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	env := []string{"GIT_INDEX_FILE=" + tmp}
	for i := range 6 {
		git(env, "rm", "-q", "--cached", fmt.Sprintf("memory/m%d.md", i))
	}
	if sc, err := Staged(v, os.Environ()); err != nil || len(sc.Problems) != 0 {
		t.Fatalf("with .git/index: %v %+v, want nothing staged", err, sc)
	}
	t.Setenv("GIT_INDEX_FILE", tmp)
	sc, err := Staged(v, os.Environ())
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.Problems) != 1 || sc.Problems[0].Rule != "mass-deletion" || sc.Removed != 6 {
		t.Fatalf("with the hook's index: %+v, want one mass-deletion of 6 memories", sc)
	}
}
