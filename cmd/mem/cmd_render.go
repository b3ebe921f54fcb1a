package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:  "render",
		Usage: "render the memory view (MEMORY.md) for a working directory or project",
		Description: "Pinned memories, then the session's project, then durable global memories, inside a byte budget.\n" +
			"Prints markdown on stdout unless -o, --splice or --all writes files. A broken memory file, or\n" +
			"one that breaks a rule of docs/security.md (a secret, an injection, an unearned rule), is skipped with\n" +
			"a warning (exit 0) unless --strict. See docs/render.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "resolve the project from this directory (default: the working directory)"},
			&cli.StringFlag{Name: "project", Usage: "render for this project id instead of resolving one from --cwd"},
			&cli.IntFlag{Name: "budget", Usage: "most bytes of output (default render.budget, 8192)"},
			&cli.StringFlag{Name: "now", Usage: "render as of this time, YYYY-MM-DD or RFC 3339 (default now)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the view to `FILE` atomically (untouched when only the time line would change)"},
			&cli.StringFlag{Name: "splice", Usage: "render into the " + viewfmt.Begin + " ... " + viewfmt.End + " zone of `FILE`, appending it if absent"},
			&cli.StringFlag{Name: "format", Value: "markdown", Usage: "markdown, hook (Claude Code SessionStart JSON) or json"},
			&cli.BoolFlag{Name: "explain", Usage: "print every selection and drop, with its reason, on stderr"},
			&cli.BoolFlag{Name: "strict", Usage: "fail (exit 1) instead of skipping broken or rule-breaking files with a warning"},
			&cli.BoolFlag{Name: "all", Usage: "render every render.outputs entry of mem.yaml"},
		},
		Action: runRender,
	}
}

func runRender(_ context.Context, cmd *cli.Command) error {
	if done, err := askDaemon(cmd); done {
		return err
	}
	opts, err := renderOptions(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	targets, err := renderTargets(cmd, v)
	if err != nil {
		return err
	}
	for _, t := range targets {
		if t.Cwd == "" && opts.Cwd == "" {
			if opts.Cwd, err = os.Getwd(); err != nil {
				return err
			}
		}
	}
	done, err := render.Run(v, targets, opts)
	stderr := cmd.Root().ErrWriter
	for _, r := range done {
		for _, w := range r.Warn {
			fmt.Fprintln(stderr, "mem: warning:", w)
		}
		if r.Refused {
			break
		}
		if opts.Explain {
			if err := r.Result.Explain(stderr); err != nil {
				return err
			}
		}
		if err := emitRender(cmd, v, r); err != nil {
			return err
		}
	}
	return err
}

// renderOptions checks --now and fills what every target's render takes
// but the working directory, asked only when a target needs it.
func renderOptions(cmd *cli.Command) (render.RunOptions, error) {
	o := render.RunOptions{Now: now(), Explain: cmd.Bool("explain"), Strict: cmd.Bool("strict")}
	if s := cmd.String("now"); s != "" {
		var err error
		if o.Now, err = parseTimeFlag(s); err != nil {
			return o, usagef("--now: " + err.Error())
		}
	}
	return o, nil
}

// renderTargets turns the flags (or, with --all, mem.yaml render.outputs)
// into the renders to run.
func renderTargets(cmd *cli.Command, v *vault.Vault) ([]render.Target, error) {
	format := cmd.String("format")
	if cmd.Bool("json") {
		if cmd.IsSet("format") && format != "json" {
			return nil, usagef("--json and --format " + format + " disagree: give one")
		}
		format = "json"
	}
	switch format {
	case "markdown", "hook", "json":
	default:
		return nil, usagef("--format " + format + ": use markdown, hook or json")
	}
	out, splice := cmd.String("output"), cmd.String("splice")
	if cmd.Bool("all") {
		for _, f := range []string{"cwd", "project", "budget", "output", "splice", "format"} {
			if cmd.IsSet(f) {
				return nil, usagef("--all renders what mem.yaml render.outputs says: drop --" + f)
			}
		}
		ts, err := render.Outputs(v)
		if err == nil && len(ts) == 0 {
			err = fmt.Errorf("%s: render.outputs is empty: add an entry like {path: MEMORY.md} or render with -o FILE", filepath.Join(v.Root, vault.ConfigFile))
		}
		return ts, err
	}
	if out != "" && splice != "" {
		return nil, usagef("-o and --splice both name a file: give one")
	}
	if (out != "" || splice != "") && format != "markdown" {
		return nil, usagef("-o and --splice write markdown: drop --format " + format + " (or print it to stdout)")
	}
	t := render.Target{Cwd: cmd.String("cwd"), CwdFrom: "--cwd", Project: cmd.String("project"), Budget: int(cmd.Int("budget")), Output: out, Format: format}
	if splice != "" {
		t.Output, t.Splice = splice, true
	}
	if t.Budget == 0 {
		t.Budget = v.Config.Render.Budget
	}
	if t.Budget < 0 {
		return nil, usagef("--budget must be a positive number of bytes")
	}
	return []render.Target{t}, nil
}

// emitRender prints or writes one render.
func emitRender(cmd *cli.Command, v *vault.Vault, r render.Rendered) error {
	w := cmd.Root().Writer
	switch {
	case r.Output != "":
		wrote, err := r.Write(r.Result.Doc)
		if err != nil {
			return err
		}
		if !cmd.Bool("quiet") {
			if wrote {
				fmt.Fprintf(cmd.Root().ErrWriter, "mem: rendered %d bytes into %s%s\n", len(r.Result.Doc), r.Output, vaultNote(cmd, v))
			} else {
				fmt.Fprintf(cmd.Root().ErrWriter, "mem: %s is up to date%s\n", r.Output, vaultNote(cmd, v))
			}
		}
		return nil
	case r.Format == "hook":
		return writeJSON(w, r.Result.Hook())
	case r.Format == "json":
		return writeJSON(w, r.Result.JSON())
	}
	_, err := w.Write(r.Result.Doc)
	return err
}
