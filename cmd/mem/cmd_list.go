package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/inspect"
)

func listCommand() *cli.Command {
	return &cli.Command{
		Name:  "list",
		Usage: "memories as lines, filtered: id, status, type, and the text's first line",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "pinned", Usage: "only pinned memories"},
			&cli.StringFlag{Name: "project", Usage: "only memories of this project id, or none for global ones"},
			&cli.StringFlag{Name: "type", Usage: "only this type"},
			&cli.StringFlag{Name: "status", Usage: "only this status: " + strings.Join(inspect.Statuses, ", ")},
			&cli.StringFlag{Name: "since", Usage: "only claims with valid_at on or after this date, YYYY-MM-DD or RFC 3339"},
		},
		Action: runList,
	}
}

func runList(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("list takes no arguments: filter with --pinned, --project, --type, --status or --since")
	}
	f, err := listFilter(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	x, err := inspect.Load(v, now(), historyEnvCtx(ctx))
	if err != nil {
		return err
	}
	if err := x.CheckProject(f, func(name string) string { return "--" + name }); err != nil {
		return err
	}
	entries := x.List(f)
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, entries)
	}
	w := cmd.Root().Writer
	for _, e := range entries {
		pin := ""
		if e.Pinned {
			pin = " pinned"
		}
		if e.Unreviewed {
			pin += " unreviewed (" + e.WrittenBy + ")" // spec §5.2b: every read says it
		}
		fmt.Fprintf(w, "%s  %s  %s%s  %s\n", e.ID, status(e), e.Type, pin, e.Summary)
	}
	if len(entries) == 0 && !cmd.Bool("quiet") {
		fmt.Fprintln(cmd.Root().ErrWriter, "mem list: no memories match")
	}
	return nil
}

// listFilter checks the flags and fills an inspect.Filter.
func listFilter(cmd *cli.Command) (inspect.Filter, error) {
	f := inspect.Filter{Pinned: cmd.Bool("pinned"), Project: cmd.String("project"), Type: cmd.String("type"), Status: cmd.String("status")}
	if s := cmd.String("since"); s != "" {
		t, err := parseTimeFlag(s)
		if err != nil {
			return f, usagef("--since: " + err.Error())
		}
		f.Since = t
	}
	if err := f.Check(func(name string) string { return "--" + name }); err != nil {
		return f, usagef(err.Error())
	}
	return f, nil
}
