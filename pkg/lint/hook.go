package lint

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// PreCommitHook is the plain git pre-commit hook `mem init --hooks` writes
// to .git/hooks/pre-commit, for vaults that do not use the pre-commit
// framework. It lints the staged files and refuses mass deletions; `git
// commit --no-verify` skips it. If mem is not installed it says so and
// lets the commit through rather than blocking every commit.
const PreCommitHook = `#!/bin/sh
# mem pre-commit hook: lint staged memory files, refuse mass deletions.
# Written by 'mem init --hooks'. Skip once with: git commit --no-verify
if ! command -v mem >/dev/null 2>&1; then
	echo "mem pre-commit: 'mem' is not on PATH; commit not linted" >&2
	exit 0
fi
exec mem lint --staged
`

// hookMark is the line of PreCommitHook that says mem wrote it.
const hookMark = "# Written by 'mem init --hooks'."

// InstallHook writes PreCommitHook into the git repository holding
// vaultDir, unless a pre-commit hook is already there (it is never
// replaced). When the vault is a sub-folder of the repository the hook
// points MEM_VAULT at it, since git runs hooks from the repository's top.
// It returns the hook it wrote (".git/hooks/pre-commit"), or "" and what
// to tell the person about the one it left.
func InstallHook(vaultDir string) (written, left string, err error) {
	top, err := gitrepo.HookTop(vaultDir)
	if err != nil {
		return "", "", err
	}
	script := PreCommitHook
	if rel, err := filepath.Rel(top, vaultDir); err == nil && rel != "." {
		script = strings.Replace(script, "\n", fmt.Sprintf("\nexport MEM_VAULT=\"$(git rev-parse --show-toplevel)/%s\"\n", filepath.ToSlash(rel)), 1)
	}
	path, old, err := gitrepo.WriteHook(top, "pre-commit", script)
	switch {
	case err != nil:
		return "", "", err
	case old == nil:
		return ".git/hooks/pre-commit", "", nil
	case string(old) == script:
		return "", "", nil // mem's own hook, as this run would write it
	case strings.Contains(string(old), hookMark):
		return "", path + " is mem's hook from an earlier 'mem init --hooks'; left as it is", nil
	default:
		return "", path + " exists; left as it is (add 'mem lint --staged' to it by hand)", nil
	}
}
