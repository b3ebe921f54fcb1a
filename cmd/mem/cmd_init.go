package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/go-git/go-git/v5"
	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/examples"
	"github.com/mem-md/mem/pkg/vault"
)

func init() {
	register(&cli.Command{
		Name:      "init",
		Usage:     "create a vault: mem.yaml, folders, .gitignore, git init (idempotent)",
		ArgsUsage: "[DIR]",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "example", Usage: "fill the vault with a small realistic example vault"},
		},
		Action: runInit,
	})
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
	created, err := vault.Init(dir, example)
	if err != nil {
		return err
	}
	if _, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true}); err == git.ErrRepositoryNotExists {
		if _, err := git.PlainInit(dir, false); err != nil {
			return fmt.Errorf("%s: git init: %w", dir, err)
		}
		created = append(created, ".git/")
	}
	abs, _ := filepath.Abs(dir)
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, map[string]any{"vault": abs, "created": nonNil(created)})
	}
	if !cmd.Bool("quiet") {
		if len(created) == 0 {
			fmt.Fprintf(cmd.Root().Writer, "vault %s already set up; nothing to do\n", abs)
		} else {
			fmt.Fprintf(cmd.Root().Writer, "initialised vault %s (%d new: %v)\n", abs, len(created), created)
		}
	}
	return nil
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}
