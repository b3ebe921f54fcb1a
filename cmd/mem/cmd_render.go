package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
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

func runRender(ctx context.Context, cmd *cli.Command) error {
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
	var shown []render.Emitted
	req := daemon.Request{Op: "render", Render: &daemon.Render{All: cmd.Bool("all"), Targets: targets, Options: opts}}
	if req.Render.All {
		req.Render.Targets = nil // the daemon reads mem.yaml's render.outputs itself
	}
	resp, ok := daemon.Response{}, absolute(targets)
	if ok {
		resp, ok = askDaemon(cmd, v.Root, req)
	}
	switch {
	case ok && resp.Code == 1:
		shown, err = resp.Render, checkFailed(resp.Error)
	case ok:
		shown = resp.Render
	default:
		shown, err = render.RunEmit(ctx, v, targets, opts)
	}
	if werr := showRendered(cmd, v, shown); werr != nil {
		return werr
	}
	return err
}

// absolute says every path of the targets is absolute: the daemon answers
// only those (a relative one is the client's, and its messages name it as
// given).
func absolute(targets []render.Target) bool {
	for _, t := range targets {
		for _, p := range []string{t.Cwd, t.Output} {
			if p != "" && !filepath.IsAbs(p) {
				return false
			}
		}
	}
	return true
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
	format, err := renderFormat(cmd)
	if err != nil {
		return nil, err
	}
	if cmd.Bool("all") {
		return allOutputs(cmd, v)
	}
	out, splice := cmd.String("output"), cmd.String("splice")
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

// renderFormat is --format, json with --json.
func renderFormat(cmd *cli.Command) (string, error) {
	format := cmd.String("format")
	if cmd.Bool("json") {
		if cmd.IsSet("format") && format != "json" {
			return "", usagef("--json and --format " + format + " disagree: give one")
		}
		format = "json"
	}
	switch format {
	case "markdown", "hook", "json":
		return format, nil
	}
	return "", usagef("--format " + format + ": use markdown, hook or json")
}

// allOutputs are the targets of --all: mem.yaml's render.outputs, which
// no flag of a single render may change.
func allOutputs(cmd *cli.Command, v *vault.Vault) ([]render.Target, error) {
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

// showRendered shows each render: its warnings, its explanation and the
// view printed, or the file it was written to.
func showRendered(cmd *cli.Command, v *vault.Vault, shown []render.Emitted) error {
	w, stderr := cmd.Root().Writer, cmd.Root().ErrWriter
	for _, e := range shown {
		for _, warn := range e.Warn {
			fmt.Fprintln(stderr, "mem: warning:", warn)
		}
		if e.Refused {
			break
		}
		io.WriteString(stderr, e.Explain)
		switch {
		case e.Output != "":
			if cmd.Bool("quiet") {
				continue
			}
			if e.Wrote {
				fmt.Fprintf(stderr, "mem: rendered %d bytes into %s%s\n", e.Bytes, e.Output, vaultNote(cmd, v))
			} else {
				fmt.Fprintf(stderr, "mem: %s is up to date%s\n", e.Output, vaultNote(cmd, v))
			}
		case e.Value != "":
			if err := writeJSON(w, json.RawMessage(e.Value)); err != nil {
				return err
			}
		default:
			if _, err := w.Write(e.Doc); err != nil {
				return err
			}
		}
	}
	return nil
}
