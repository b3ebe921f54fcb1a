package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
)

func logCommand() *cli.Command {
	return &cli.Command{
		Name:      "log",
		Usage:     "the git history of one memory (by path or id) or of the whole vault: dates and summaries",
		ArgsUsage: "[PATH|ID]",
		Flags: []cli.Flag{
			&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Usage: "show at most this many commits (0: all)"},
		},
		Action: runLog,
	}
}

func runLog(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 1 {
		return usagef("log takes at most one PATH or ID")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	r, err := history.Open(v, historyEnvCtx(ctx))
	if err != nil {
		return err
	}
	rel := ""
	if arg := cmd.Args().First(); arg != "" {
		if rel, err = logTarget(ctx, v, arg); err != nil {
			return err
		}
	}
	entries, err := r.Log(rel, int(cmd.Int("limit")))
	if err != nil {
		return err
	}
	if rel != "" && len(entries) == 0 {
		if _, err := os.Stat(filepath.Join(v.Root, filepath.FromSlash(rel))); err != nil {
			// An unknown id, as everywhere: exit 2 without a usage hint.
			return fail.As(fail.Usage, fmt.Errorf("%s: no such memory in the vault or its history (give a path or an id)", cmd.Args().First()))
		}
		fmt.Fprintf(cmd.Root().ErrWriter, "mem log: %s has not been committed yet (run 'mem commit')\n", rel)
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, struct {
			Commits []history.LogEntry `json:"commits"`
			Path    string             `json:"path"`
		}{nonNil(entries), rel})
	}
	out := cmd.Root().Writer
	for _, e := range entries {
		when := e.Time.Format("2006-01-02 15:04")
		if rel == "" {
			fmt.Fprintf(out, "%s  %s  %s\n", when, shortHash(e.Commit), e.Subject)
			continue
		}
		text := e.Summary
		if e.Status == "D" {
			text = "(deleted) " + text
		}
		fmt.Fprintf(out, "%s  %s  %s  %s\n", when, shortHash(e.Commit), e.Status, text)
	}
	return nil
}

// logTarget turns PATH (relative to the working directory, or to the
// vault) or a memory id (a short one works) into a vault-relative path. A memory deleted since
// is still found by its path or by its default id (path without .md).
func logTarget(ctx context.Context, v *vault.Vault, arg string) (string, error) {
	if abs, err := filepath.Abs(arg); err == nil {
		if _, err := os.Stat(abs); err == nil {
			rel := v.Rel(abs)
			if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
				return "", usagef(fmt.Sprintf("%s is outside the vault %s", arg, v.Root))
			}
			return rel, nil
		}
	}
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return "", err
	}
	m, err := v.FindMemory(mems, arg)
	switch {
	case err == nil:
		return m.Rel, nil
	case errors.Is(err, vault.ErrAmbiguous):
		return "", err
	}
	rel := filepath.ToSlash(filepath.Clean(arg))
	if !strings.HasSuffix(rel, ".md") {
		if _, err := os.Stat(filepath.Join(v.Root, filepath.FromSlash(rel))); err != nil {
			rel += ".md"
		}
	}
	return rel, nil
}
