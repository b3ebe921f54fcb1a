package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/examples"
	"github.com/mem-md/mem/pkg/fail"
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

func runInit(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 1 {
		return usagef("init takes at most one DIR")
	}
	dir := cmd.Args().First()
	if dir == "" {
		dir = "."
	}
	res, err := initVault(ctx, dir, cmd.Bool("example"), cmd.Bool("hooks"))
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, struct {
			Created           []string `json:"created"`
			GitignoreAppended []string `json:"gitignore_appended"`
			Vault             string   `json:"vault"`
		}{nonNil(res.Created), nonNil(res.Appended), res.abs})
	}
	if !cmd.Bool("quiet") {
		printInit(cmd.Root().Writer, res)
	}
	return nil
}

// initResult is what mem init made: vault.InitResult, with the git
// repository and the hook it created, and the vault's absolute path.
type initResult struct {
	vault.InitResult
	abs string
}

// initVault creates the vault in dir (with the example vault), its git
// repository and, with hooks, the pre-commit hook. ctx is checked between
// these steps: vault.Init and history.Init take none, and each step is
// idempotent, so a stopped init says what it kept and a second run
// finishes it.
func initVault(ctx context.Context, dir string, example, hooks bool) (initResult, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return initResult{}, err
	}
	files := examples.Vault()
	if !example {
		files = nil
	}
	vr, err := vaultOptions().Init(dir, files)
	res := initResult{InitResult: vr}
	if err != nil {
		return res, err
	}
	const kept = "mem init (the vault's files are written; run it again to finish)"
	if err := fail.Stopped(ctx, kept); err != nil {
		return res, err
	}
	if made, err := history.Init(dir); err != nil {
		return res, err
	} else if made {
		res.Created = append(res.Created, ".git/")
	}
	res.abs, _ = filepath.Abs(dir)
	if !hooks {
		return res, nil
	}
	if err := fail.Stopped(ctx, kept); err != nil {
		return res, err
	}
	hook, err := installHook(res.abs)
	if hook != "" {
		res.Created = append(res.Created, hook)
	}
	return res, err
}

// printInit says what mem init made, and what it appended to an existing
// .gitignore (spec §2: init takes nothing without saying so).
func printInit(w io.Writer, res initResult) {
	switch {
	case len(res.Created)+len(res.Appended) == 0:
		fmt.Fprintf(w, "vault %s already set up; nothing to do\n", res.abs)
	case len(res.Created) == 0:
		fmt.Fprintf(w, "initialised vault %s (nothing new)\n", res.abs)
	default:
		fmt.Fprintf(w, "initialised vault %s (%d new: %v)\n", res.abs, len(res.Created), res.Created)
	}
	if len(res.Appended) > 0 {
		fmt.Fprintf(w, "appended to your .gitignore: %s\n", strings.Join(res.Appended, " "))
	}
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
