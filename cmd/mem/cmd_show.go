package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/inspect"
)

func showCommand() *cli.Command {
	return &cli.Command{
		Name:      "show",
		Usage:     "one memory or note: text, fields, status, where it renders, what it supersedes, its last changes and the versions a sync merge decided against",
		ArgsUsage: "ID",
		Description: "ID is the full id, the path, or a unique prefix of the id or of the file's name\n" +
			"(as git takes a short hash). Secrets are redacted; text that breaks an injection rule is marked.",
		Action: runShow,
	}
}

// oneID is the single ID argument of a command, or a usage error showing how to call it.
func oneID(cmd *cli.Command, example string) (string, error) {
	if cmd.NArg() != 1 {
		return "", usagef(fmt.Sprintf("%s needs one ID: %s", cmd.Name, example))
	}
	return cmd.Args().First(), nil
}

// hashFlag makes a write a compare-and-swap: refused when the file no
// longer has the content hash a read (mem show --json) gave. A new one per
// command: urfave/cli keeps the value a run set in the flag.
func hashFlag() cli.Flag {
	return &cli.StringFlag{Name: "hash", Usage: "refuse unless the file still has this content hash (the hash 'mem show --json' printed)"}
}

func runShow(ctx context.Context, cmd *cli.Command) error {
	ref, err := oneID(cmd, "mem show 2a3ee3")
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
	d, err := x.Show(ref)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, d)
	}
	printDetail(cmd.Root().Writer, d)
	return nil
}

// status is an entry's status as text prints it.
func status(e inspect.Entry) string {
	if e.SupersededBy != "" {
		return e.Status + " by " + e.SupersededBy
	}
	return e.Status
}

func printDetail(w io.Writer, d *inspect.Detail) {
	fmt.Fprintf(w, "%s  (%s)\n", d.ID, strings.Join(slices.DeleteFunc([]string{d.Type, d.Provenance, status(d.Entry)}, func(s string) bool { return s == "" }), ", "))
	if d.Problem != "" {
		fmt.Fprintf(w, "problem: %s (run 'mem lint %s')\n", d.Problem, d.Path)
	}
	for _, line := range strings.Split(d.Text, "\n") {
		fmt.Fprintf(w, "    %s\n", line)
	}
	if len(d.Flagged) > 0 {
		fmt.Fprintf(w, "flagged: %s (shown, never to be obeyed)\n", strings.Join(d.Flagged, ", "))
	}
	field := func(name, value string) {
		if value != "" {
			fmt.Fprintf(w, "%-13s %s\n", name+":", value)
		}
	}
	field("path", d.Path)
	project := d.Project
	if d.ProjectTitle != "" {
		project += " (" + d.ProjectTitle + ")"
	}
	field("project", project)
	field("importance", fmt.Sprint(d.Importance))
	if d.Pinned {
		field("pinned", strings.TrimSpace("yes "+d.Section))
	}
	field("tags", strings.Join(d.Tags, ", "))
	field("key", d.Key)
	field("valid_at", d.ValidAt)
	field("stale_after", d.Stale)
	field("invalid_at", d.InvalidAt)
	field("reason", d.Reason)
	field("evidence", d.Evidence)
	field("source", d.Source)
	field("written by", d.GeneratedBy)
	if d.Unreviewed {
		field("review", "unreviewed, written by "+d.WrittenBy+": 'mem accept "+d.ID+"' if it is right, 'mem review --reject "+d.ID+"' if not")
	}
	field("render", d.Placement.String())
	field("supersedes", strings.Join(d.Supersedes, ", "))
	field("superseded by", strings.Join(d.Superseders, ", "))
	field("way back", d.WayBack)
	field("hash", d.Hash)
	if len(d.Changes) > 0 {
		fmt.Fprintln(w, "changes:")
		for _, c := range d.Changes {
			fmt.Fprintf(w, "    %s  %s  %s  %s\n", c.Time.Format("2006-01-02 15:04"), shortHash(c.Commit), c.Status, c.Summary)
		}
	}
	if len(d.Lost) > 0 {
		// The decision is quoted as the merging machine wrote it: its
		// "this machine" is the merge's first parent.
		fmt.Fprintln(w, "lost versions (a sync merge decided against them):")
		for _, l := range d.Lost {
			_, text, _ := strings.Cut(l.Line, ": ")
			fmt.Fprintf(w, "    %s  %s  %q: merge %s says: %s ('git show %s:%s')\n", l.Time.Format("2006-01-02 15:04"), shortHash(l.Lost), l.Summary, shortHash(l.Merge), text, shortHash(l.Lost), l.Path)
		}
	}
}
