package lint

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
