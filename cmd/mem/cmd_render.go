package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

func renderCommand() *cli.Command {
	return &cli.Command{
		Name:  "render",
		Usage: "render the memory view (MEMORY.md) for a working directory or project",
		Description: "Pinned memories, then the session's project, then durable global memories, inside a byte budget.\n" +
			"Prints markdown on stdout unless -o, --splice or --all writes files. A broken memory file, or\n" +
			"one that breaks a rule of spec §8 (a secret, an injection, an unearned rule), is skipped with\n" +
			"a warning (exit 0) unless --strict. See docs/render.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "resolve the project from this directory (default: the working directory)"},
			&cli.StringFlag{Name: "project", Usage: "render for this project id instead of resolving one from --cwd"},
			&cli.IntFlag{Name: "budget", Usage: "most bytes of output (default render.budget, 8192)"},
			&cli.StringFlag{Name: "now", Usage: "render as of this time, YYYY-MM-DD or RFC 3339 (default now)"},
			&cli.StringFlag{Name: "output", Aliases: []string{"o"}, Usage: "write the view to `FILE` atomically (untouched when only the time line would change)"},
			&cli.StringFlag{Name: "splice", Usage: "render into the <!-- mem:begin --> ... <!-- mem:end --> zone of `FILE`, appending it if absent"},
			&cli.StringFlag{Name: "format", Value: "markdown", Usage: "markdown, hook (Claude Code SessionStart JSON) or json"},
			&cli.BoolFlag{Name: "explain", Usage: "print every selection and drop, with its reason, on stderr"},
			&cli.BoolFlag{Name: "strict", Usage: "fail (exit 1) instead of skipping broken or rule-breaking files with a warning"},
			&cli.BoolFlag{Name: "all", Usage: "render every render.outputs entry of mem.yaml"},
		},
		Action: runRender,
	}
}

// renderTarget is one render: where it is for and where it goes.
type renderTarget struct {
	cwd, project string
	cwdFrom      string // what named cwd, for an error ("--cwd"); "" for the working directory
	budget       int
	output       string // "" = stdout
	splice       bool
	format       string
}

func runRender(_ context.Context, cmd *cli.Command) error {
	if done, err := askDaemon(cmd); done {
		return err
	}
	t := now()
	if s := cmd.String("now"); s != "" {
		var err error
		if t, err = parseTimeFlag(s); err != nil {
			return usagef("--now: " + err.Error())
		}
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	targets, err := renderTargets(cmd, v)
	if err != nil {
		return err
	}
	rd, err := render.NewRenderer(v, t)
	if err != nil {
		return err
	}
	defer rd.Keep()
	projects := rd.Projects()
	stderr := cmd.Root().ErrWriter
	warned := map[string]bool{}
	for _, tg := range targets {
		p, err := targetProject(projects, tg)
		if err != nil {
			return err
		}
		res, err := rd.Render(p, tg.budget, tg.format == "json" || cmd.Bool("explain"))
		var be *render.BudgetError
		if errors.As(err, &be) {
			return usagef(err.Error())
		}
		if err != nil {
			return err
		}
		for _, w := range res.Warnings {
			if !warned[w] {
				warned[w] = true
				fmt.Fprintln(stderr, "mem: warning:", w)
			}
		}
		if cmd.Bool("strict") && len(res.Warnings) > 0 {
			return checkFailed(strconv.Itoa(len(res.Warnings)) + " " + plural(len(res.Warnings), "file") + " would be skipped; --strict refuses to render (fix them, or drop --strict)")
		}
		if tg.format == "hook" && tg.budget > render.HookCap {
			fmt.Fprintf(stderr, "mem: warning: budget %d bytes is over Claude Code's %d-character cap on hook output: the view may be cut; lower render.budget or --budget\n", tg.budget, render.HookCap)
		}
		if cmd.Bool("explain") {
			if err := res.Explain(stderr); err != nil {
				return err
			}
		}
		if err := emitRender(cmd, v, tg, res); err != nil {
			return err
		}
	}
	return nil
}

// renderTargets turns the flags (or, with --all, mem.yaml render.outputs)
// into the renders to run.
func renderTargets(cmd *cli.Command, v *vault.Vault) ([]renderTarget, error) {
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
		if len(v.Config.Render.Outputs) == 0 {
			return nil, errors.New(filepath.Join(v.Root, vault.ConfigFile) + ": render.outputs is empty: add an entry like {path: MEMORY.md} or render with -o FILE")
		}
		var ts []renderTarget
		for i, o := range v.Config.Render.Outputs {
			if o.Path == "" {
				return nil, fmt.Errorf("%s: render.outputs[%d] has no path: give each output a path", filepath.Join(v.Root, vault.ConfigFile), i)
			}
			t := renderTarget{cwd: v.Path(o.Cwd), cwdFrom: fmt.Sprintf("%s: render.outputs[%d].cwd", filepath.Join(v.Root, vault.ConfigFile), i), project: o.Project, budget: o.Budget, output: v.Path(o.Path), splice: o.Splice, format: "markdown"}
			if t.budget == 0 {
				t.budget = v.Config.Render.Budget
			}
			if t.cwd == "" {
				t.cwd = v.Root
			}
			ts = append(ts, t)
		}
		return ts, nil
	}
	if out != "" && splice != "" {
		return nil, usagef("-o and --splice both name a file: give one")
	}
	if (out != "" || splice != "") && format != "markdown" {
		return nil, usagef("-o and --splice write markdown: drop --format " + format + " (or print it to stdout)")
	}
	t := renderTarget{cwd: cmd.String("cwd"), cwdFrom: "--cwd", project: cmd.String("project"), budget: int(cmd.Int("budget")), output: out, format: format}
	if splice != "" {
		t.output, t.splice = splice, true
	}
	if t.budget == 0 {
		t.budget = v.Config.Render.Budget
	}
	if t.budget < 0 {
		return nil, usagef("--budget must be a positive number of bytes")
	}
	if t.cwd == "" {
		var err error
		if t.cwd, err = os.Getwd(); err != nil {
			return nil, err
		}
	}
	return []renderTarget{t}, nil
}

// targetProject is the named project, or the one whose root holds the cwd.
func targetProject(projects []vault.Project, tg renderTarget) (*vault.Project, error) {
	if tg.project == "" {
		// A typo (…/acme/biling) would otherwise resolve, silently, to the
		// project holding its parent.
		if fi, err := os.Stat(tg.cwd); tg.cwdFrom != "" && (err != nil || !fi.IsDir()) {
			return nil, errors.New(tg.cwdFrom + " " + tg.cwd + ": no such directory: give the directory the session works in, or --project ID")
		}
		return vault.ResolveProject(projects, tg.cwd), nil
	}
	if p := vault.FindProject(projects, tg.project); p != nil {
		return p, nil
	}
	known := ""
	for _, p := range projects {
		known += " " + p.ID
	}
	if known == "" {
		known = " (none: add a note with type: project)"
	}
	return nil, usagef("--project " + tg.project + ": no project note has that id; known:" + known)
}

// emitRender prints or writes one result.
func emitRender(cmd *cli.Command, v *vault.Vault, tg renderTarget, res *render.Result) error {
	w := cmd.Root().Writer
	switch {
	case tg.output != "":
		write := render.WriteFile
		if tg.splice {
			write = render.SpliceFile
		}
		wrote, err := write(tg.output, res.Doc)
		if err != nil {
			return err
		}
		if !cmd.Bool("quiet") {
			if wrote {
				fmt.Fprintf(cmd.Root().ErrWriter, "mem: rendered %d bytes into %s%s\n", len(res.Doc), tg.output, vaultNote(cmd, v))
			} else {
				fmt.Fprintf(cmd.Root().ErrWriter, "mem: %s is up to date%s\n", tg.output, vaultNote(cmd, v))
			}
		}
		return nil
	case tg.format == "hook":
		return writeJSON(w, res.Hook())
	case tg.format == "json":
		return writeJSON(w, res.JSON())
	}
	_, err := w.Write(res.Doc)
	return err
}
