package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/examples"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/vault"
)

func initCommand() *cli.Command {
	return &cli.Command{
		Name:      "init",
		Usage:     "create a vault: mem.yaml, folders, .gitignore, git init (idempotent)",
		ArgsUsage: "[DIR]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "example", Usage: "fill the vault with a small realistic example vault"},
			&cli.BoolFlag{Name: "hooks", Usage: "write a git pre-commit hook that runs 'mem lint --staged'"},
		},
		Action: runInit,
	}
}

func runInit(_ context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 1 {
		return usagef("init takes at most one DIR")
	}
	dir := cmd.Args().First()
	if dir == "" {
		dir = "."
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var example = examples.Vault()
	if !cmd.Bool("example") {
		example = nil
	}
	res, err := vaultOptions().Init(dir, example)
	if err != nil {
		return err
	}
	created := res.Created
	if made, err := history.Init(dir); err != nil {
		return err
	} else if made {
		created = append(created, ".git/")
	}
	abs, _ := filepath.Abs(dir)
	if cmd.Bool("hooks") {
		hook, err := installHook(abs)
		if err != nil {
			return err
		}
		if hook != "" {
			created = append(created, hook)
		}
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, struct {
			Created           []string `json:"created"`
			GitignoreAppended []string `json:"gitignore_appended"`
			Vault             string   `json:"vault"`
		}{nonNil(created), nonNil(res.Appended), abs})
	}
	if !cmd.Bool("quiet") {
		w := cmd.Root().Writer
		switch {
		case len(created)+len(res.Appended) == 0:
			fmt.Fprintf(w, "vault %s already set up; nothing to do\n", abs)
		case len(created) == 0:
			fmt.Fprintf(w, "initialised vault %s (nothing new)\n", abs)
		default:
			fmt.Fprintf(w, "initialised vault %s (%d new: %v)\n", abs, len(created), created)
		}
		if len(res.Appended) > 0 {
			// An existing file changed: say how (spec §2, init takes nothing).
			fmt.Fprintf(w, "appended to your .gitignore: %s\n", strings.Join(res.Appended, " "))
		}
	}
	return nil
}

// hookMark is the line of lint.PreCommitHook that says mem wrote it.
const hookMark = "# Written by 'mem init --hooks'."

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// installHook writes the plain pre-commit hook into the repository that holds
// vaultDir, unless a pre-commit hook is already there (it is never replaced).
// When the vault is a sub-folder of the repository the hook points
// MEM_VAULT at it, since git runs hooks from the repository's top.
func installHook(vaultDir string) (string, error) {
	top := vaultDir
	for {
		if fi, err := os.Stat(filepath.Join(top, ".git")); err == nil && fi.IsDir() {
			break
		}
		parent := filepath.Dir(top)
		if parent == top {
			return "", fmt.Errorf("%s: not inside a git repository with a .git folder; run git init first", vaultDir)
		}
		top = parent
	}
	path := filepath.Join(top, ".git", "hooks", "pre-commit")
	script := lint.PreCommitHook
	if rel, err := filepath.Rel(top, vaultDir); err == nil && rel != "." {
		script = strings.Replace(script, "\n", fmt.Sprintf("\nexport MEM_VAULT=\"$(git rev-parse --show-toplevel)/%s\"\n", filepath.ToSlash(rel)), 1)
	}
	if _, err := os.Lstat(path); err == nil {
		old, _ := os.ReadFile(path)
		switch {
		case string(old) == script:
			// mem's own hook, as this run would write it: nothing to do.
		case strings.Contains(string(old), hookMark):
			fmt.Fprintf(os.Stderr, "mem: %s is mem's hook from an earlier 'mem init --hooks'; left as it is\n", path)
		default:
			fmt.Fprintf(os.Stderr, "mem: %s exists; left as it is (add 'mem lint --staged' to it by hand)\n", path)
		}
		return "", nil
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	if err := vault.WriteFileAtomic(path, []byte(script), 0o755); err != nil {
		return "", err
	}
	return ".git/hooks/pre-commit", nil
}
