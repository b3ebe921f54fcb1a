package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/stores"
	"github.com/mem-md/mem/pkg/vault"
)

func storesCommand() *cli.Command {
	return &cli.Command{
		Name:  "stores",
		Usage: "the memory stores Claude Code and Codex load for a directory, their sizes, and what they share with the vault",
		Description: "Lists the CLAUDE.md and AGENTS.md chains, Claude Code's auto-memory for the directory,\n" +
			"~/.claude/CLAUDE.md, ~/.codex/AGENTS.md and ~/.codex/memories/ (CODEX_HOME is honoured), each\n" +
			"against its harness's load limit, with the lines found in the vault too and the lines that\n" +
			"contradict a current claim. --point writes a pointer to the vault in a mem zone at the top\n" +
			"of each store; --unpoint removes it, byte for byte.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "cwd", Usage: "the directory the harness runs in (default the working directory)"},
			&cli.BoolFlag{Name: "point", Usage: "write the pointer to the vault at the top of each store loaded at start"},
			&cli.BoolFlag{Name: "unpoint", Usage: "remove the pointer --point wrote"},
		},
		Action: runStores,
	}
}

// storesOptions is what mem stores' flags and environment ask: the
// stores to find (their Claims come from the vault) and whether to write
// or remove the pointer.
type storesOptions struct {
	find           stores.Options
	point, unpoint bool
}

func storesFlags(cmd *cli.Command) (storesOptions, error) {
	o := storesOptions{point: cmd.Bool("point"), unpoint: cmd.Bool("unpoint")}
	if cmd.NArg() > 0 {
		return o, usagef("stores takes no arguments: name the directory with --cwd DIR")
	}
	if o.point && o.unpoint {
		return o, usagef("give --point or --unpoint, not both")
	}
	o.find.Home, o.find.CodexHome = os.Getenv("HOME"), os.Getenv("CODEX_HOME")
	if o.find.Home == "" {
		return o, usagef("HOME is not set: mem stores reads ~/.claude and ~/.codex")
	}
	dir := cmd.String("cwd")
	if dir == "" {
		var err error
		if dir, err = os.Getwd(); err != nil {
			return o, err
		}
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return o, err
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return o, usagef(fmt.Sprintf("--cwd %s: not a directory", dir))
	}
	o.find.Dir = dir
	return o, nil
}

func runStores(ctx context.Context, cmd *cli.Command) error {
	o, err := storesFlags(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	if o.find.Claims, err = currentClaims(ctx, v); err != nil {
		return err
	}
	list, err := stores.Find(o.find)
	if err != nil {
		return err
	}
	if o.point || o.unpoint {
		return changeStores(cmd, o, list, v.Root)
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, list)
	}
	for _, s := range list {
		printStore(cmd.Root().Writer, s)
	}
	return nil
}

// changeStores points the stores found at the vault (--point), or takes
// the pointer zone out (--unpoint), and says what it did to each.
func changeStores(cmd *cli.Command, o storesOptions, list []stores.Store, root string) error {
	var res []stores.Result
	var err error
	if o.point {
		res, err = stores.Point(list, root)
	} else {
		res, err = stores.Unpoint(list)
	}
	w := cmd.Root().Writer
	if cmd.Bool("json") && err == nil {
		return writeJSON(w, res)
	}
	changed := 0
	for _, r := range res {
		if r.Action == stores.Pointed || r.Action == stores.Removed {
			changed++
		}
		fmt.Fprintf(w, "%s: %s", r.Path, r.Action)
		if r.Why != "" {
			fmt.Fprintf(w, " (%s)", r.Why)
		}
		fmt.Fprintln(w)
	}
	if changed == 0 && err == nil {
		fmt.Fprintln(w, "nothing changed")
	}
	return err
}

// printStore is one store's line (its size against its limit, whether the
// harness loads it all and points to the vault), and the lines it shares
// with the vault or contradicts.
func printStore(w io.Writer, s stores.Store) {
	if !s.Exists {
		fmt.Fprintf(w, "%-11s %-12s %s (absent)\n", s.Harness, s.Kind, s.Path)
		return
	}
	limit := "limit unknown"
	switch {
	case s.Limit.Lines > 0:
		limit = fmt.Sprintf("limit %d lines / %d bytes", s.Limit.Lines, s.Limit.Bytes)
	case s.Limit.Bytes > 0:
		limit = fmt.Sprintf("limit %d bytes with the rest of its chain", s.Limit.Bytes)
	}
	over := ""
	if s.Over {
		over = ", OVER: the harness does not load all of it"
	}
	fmt.Fprintf(w, "%-11s %-12s %s: %d lines, %d bytes (%s%s), loaded %s", s.Harness, s.Kind, s.Path, s.Lines, s.Bytes, limit, over, s.Loaded)
	if s.Pointed {
		fmt.Fprint(w, ", points to the vault")
	}
	fmt.Fprintln(w)
	for _, m := range s.Shared {
		fmt.Fprintf(w, "    %d: also in the vault as %s: %s\n", m.Line, m.Claim, m.Text)
	}
	for _, m := range s.Conflict {
		fmt.Fprintf(w, "    %d: contradicts %s: %s\n", m.Line, m.Claim, m.Text)
	}
}

// currentClaims are the vault's claims that stand now, by their summary.
func currentClaims(ctx context.Context, v *vault.Vault) ([]stores.Claim, error) {
	x, err := inspect.Load(v, now(), historyEnvCtx(ctx))
	if err != nil {
		return nil, err
	}
	var out []stores.Claim
	for _, m := range x.Mems {
		if !m.OK() || !frontmatter.IsMemoryType(m.Meta().Type) {
			continue
		}
		if s, _ := x.Status(m); s == vault.StatusCurrent {
			out = append(out, stores.Claim{ID: m.ID, Text: m.Summary()})
		}
	}
	return out, nil
}
