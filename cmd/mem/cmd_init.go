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
	if res.hookLeft != "" {
		fmt.Fprintln(cmd.Root().ErrWriter, "mem: "+res.hookLeft)
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
	abs      string
	hookLeft string // what to say of a pre-commit hook left as it was
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
	hook, left, err := lint.InstallHook(res.abs)
	if hook != "" {
		res.Created = append(res.Created, hook)
	}
	res.hookLeft = left
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

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
