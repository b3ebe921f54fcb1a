package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// InstallHook writes the hook once, points it at a vault in a sub-folder,
// and never replaces a hook that is there, mem's own or another's.
func TestInstallHook(t *testing.T) {
	t.Parallel()
	top := t.TempDir()
	if _, _, err := InstallHook(top); err == nil || !strings.Contains(err.Error(), "run git init first") {
		t.Fatalf("outside a repository: %v", err)
	}
	if err := os.Mkdir(filepath.Join(top, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	vaultDir := filepath.Join(top, "notes", "memory")
	if err := os.MkdirAll(vaultDir, 0o755); err != nil {
		t.Fatal(err)
	}
	hook := filepath.Join(top, ".git", "hooks", "pre-commit")
	if written, left, err := InstallHook(vaultDir); err != nil || written != ".git/hooks/pre-commit" || left != "" {
		t.Fatalf("first install: %q %q %v", written, left, err)
	}
	data, err := os.ReadFile(hook)
	fi, _ := os.Stat(hook)
	if err != nil || !strings.Contains(string(data), "export MEM_VAULT=\"$(git rev-parse --show-toplevel)/notes/memory\"\n") || fi.Mode()&0o111 == 0 {
		t.Fatalf("the hook (mode %v):\n%s", fi.Mode(), data)
	}
	if written, left, err := InstallHook(vaultDir); err != nil || written != "" || left != "" {
		t.Fatalf("the same hook again: %q %q %v", written, left, err)
	}
	if err := os.WriteFile(hook, append(data, "echo edited\n"...), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, left, _ := InstallHook(vaultDir); !strings.Contains(left, "mem's hook from an earlier 'mem init --hooks'; left as it is") {
		t.Fatalf("an edited mem hook: %q", left)
	}
	if got, _ := os.ReadFile(hook); !strings.HasSuffix(string(got), "echo edited\n") {
		t.Fatal("an edited mem hook was replaced")
	}
}
