package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/vault"
)

func lintCommand() *cli.Command {
	return &cli.Command{
		Name:      "lint",
		Usage:     "validate memory files: frontmatter, provenance, projects, the gate, secrets, prompt injection, links",
		ArgsUsage: "[PATH...]",
		Description: "Lints every file of the vault, or only the PATHs given (as pre-commit passes them) with the\n" +
			"whole vault as context. --staged lints the files staged for commit and refuses a commit that\n" +
			"deletes more than lint.mass_delete_share of the memories or empties a rendered view.\n" +
			"Exit 0 clean or warnings only, 1 errors (or warnings with --strict), 2 usage. Rules: docs/lint.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Usage: "text, json or github (default text; json with --json)"},
			&cli.BoolFlag{Name: "strict", Usage: "warnings are errors (stale claims included)"},
			&cli.BoolFlag{Name: "staged", Usage: "lint the files staged in git and guard against mass deletion (the pre-commit hook)"},
		},
		Action: runLint,
	}
}

// lintOptions is what mem lint's flags ask: the report's format, whether
// warnings fail, and whether the staged files are linted.
type lintOptions struct {
	format         string
	strict, staged bool
}

func lintFlags(cmd *cli.Command) (lintOptions, error) {
	o := lintOptions{format: cmd.String("format"), strict: cmd.Bool("strict"), staged: cmd.Bool("staged")}
	if o.format == "" {
		o.format = "text"
		if cmd.Bool("json") {
			o.format = "json"
		}
	}
	if !slices.Contains(lint.Formats, o.format) {
		return o, usagef(fmt.Sprintf("--format %q: use %s", o.format, strings.Join(lint.Formats, ", ")))
	}
	return o, nil
}

func runLint(ctx context.Context, cmd *cli.Command) error {
	o, err := lintFlags(cmd)
	if err != nil {
		return err
	}
	setGC(wholeVaultGC)
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	rep, staged, err := lintReport(ctx, v, cwd, cmd.Args().Slice(), o)
	if err != nil {
		return err
	}
	errOut := cmd.Root().ErrWriter
	show := displayPath(v, cwd)
	for i := range rep.Problems {
		rep.Problems[i].Path = show(rep.Problems[i].Path)
	}
	if !cmd.Bool("quiet") {
		for _, p := range rep.Skipped {
			fmt.Fprintf(errOut, "mem lint: %s: not a memory file of the vault (ignored folder, rendered view or mem state); skipped\n", show(p))
		}
	}
	if err := lint.Write(cmd.Root().Writer, rep, o.format); err != nil {
		return err
	}
	if o.format == "text" && !cmd.Bool("quiet") {
		lintSummary(errOut, v, rep, staged)
	}
	if rep.Errors() > 0 {
		return checkFailed("")
	}
	return nil
}

// lintReport lints what args name (or, with --staged, the files staged
// for commit; or the whole vault), the staged commit's own problems
// added. ctx is checked once before the files are linted: lint.Run and
// lint.Staged take none.
func lintReport(ctx context.Context, v *vault.Vault, cwd string, args []string, o lintOptions) (*lint.Report, *lint.StagedCommit, error) {
	paths, err := lintPaths(v, cwd, args)
	if err != nil {
		return nil, nil, err
	}
	var staged *lint.StagedCommit
	if o.staged {
		if staged, err = lint.Staged(v, os.Environ()); err != nil {
			return nil, nil, err
		}
		if len(args) == 0 {
			paths = staged.Paths
		}
	}
	if err := fail.Stopped(ctx, "mem lint"); err != nil {
		return nil, nil, err
	}
	opts := lint.Options{Now: now(), Strict: o.strict, Paths: paths}
	whole := len(args) == 0 && !o.staged
	var rep *lint.Report
	if !whole && len(paths) == 0 {
		rep = &lint.Report{Problems: []lint.Problem{}} // nothing of the vault to lint
	} else if rep, err = lint.Run(v, opts); err != nil {
		return nil, nil, err
	}
	if staged != nil {
		rep.Problems = append(rep.Problems, staged.Problems...)
	}
	lint.Finish(rep, opts.Strict)
	return rep, staged, nil
}

// lintSummary is the text format's last line: how many files, errors and
// warnings, and for a staged commit removing memories, how many against
// the limit.
func lintSummary(w io.Writer, v *vault.Vault, rep *lint.Report, staged *lint.StagedCommit) {
	errs := rep.Errors()
	if staged != nil && staged.Removed > 0 {
		// A commit that removes memories is judged by how many against
		// the limit, not by the files it leaves to lint.
		fmt.Fprintf(w, "mem lint: this commit removes %d of the %d memories, at most %d may go (lint.mass_delete_share %.0f%%, mass_delete_min %d); ",
			staged.Removed, staged.Of, staged.Allowed, 100*v.Config.Lint.MassDeleteShare, v.Config.Lint.MassDeleteMin)
		fmt.Fprintf(w, "%d file(s) linted, %d error(s), %d warning(s)\n", rep.Files, errs, len(rep.Problems)-errs)
		return
	}
	fmt.Fprintf(w, "mem lint: %d file(s), %d error(s), %d warning(s)\n", rep.Files, errs, len(rep.Problems)-errs)
}

// lintPaths turns PATH arguments (relative to cwd, as pre-commit passes
// them) into vault-relative paths; a folder names the memory files under it. A path outside the vault is dropped:
// pre-commit also passes the repository's other markdown files.
func lintPaths(v *vault.Vault, cwd string, args []string) ([]string, error) {
	var out, all []string
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(cwd, a)
		}
		fi, err := os.Lstat(abs)
		if err != nil {
			return nil, usagef(fmt.Sprintf("%s: %v", a, err))
		}
		// Resolve the folder's symlinks the way the vault root was, but not
		// the file's own: a link leaving the vault is reported, not followed.
		if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
			abs = filepath.Join(dir, filepath.Base(abs))
		}
		rel := v.Rel(abs)
		if rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
			continue
		}
		if !fi.IsDir() {
			out = append(out, rel)
			continue
		}
		// A folder stands for the memory files the vault reads under it.
		if all == nil {
			if all, err = v.List(); err != nil {
				return nil, err
			}
		}
		for _, r := range all {
			if rel == "." || strings.HasPrefix(r, rel+"/") {
				out = append(out, r)
			}
		}
	}
	return out, nil
}

// displayPath is how lint prints a vault-relative path: relative to the
// working directory, as editors, pre-commit and GitHub annotations expect.
func displayPath(v *vault.Vault, cwd string) func(rel string) string {
	// Resolved once: a whole-vault lint can report thousands of problems,
	// and resolving a path is a system call per folder of it.
	if c, err := filepath.EvalSymlinks(cwd); err == nil {
		cwd = c
	}
	return func(rel string) string {
		if r, err := filepath.Rel(cwd, filepath.Join(v.Root, filepath.FromSlash(rel))); err == nil {
			return filepath.ToSlash(r)
		}
		return rel
	}
}
