package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// pinCommand is mem pin (pin true) or mem unpin.
func pinCommand(pin bool) *cli.Command {
	c := &cli.Command{
		Name:      "pin",
		Usage:     "pin a memory: it renders first, under its section, in every session of its scope (a project memory only in that project's sessions)",
		ArgsUsage: "ID",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "section", Usage: "pinned section: Identity, Preferences, Decisions or Notes"},
			hashFlag(),
		},
		Action: func(ctx context.Context, cmd *cli.Command) error { return runPin(ctx, cmd, pin) },
	}
	if !pin {
		c.Name, c.Usage = "unpin", "unpin a memory: it renders in its project or global tier again, if at all"
	}
	return c
}

func runPin(ctx context.Context, cmd *cli.Command, pin bool) error {
	ref, err := oneID(cmd, "mem "+cmd.Name+" 2a3ee3")
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, changed, err := writer.Pin(v, frontIn(ctx, cliFront), ref, cmd.String("hash"), pin, cmd.String("section"), now())
	if err != nil {
		return err
	}
	return printEdited(ctx, cmd, v, m, changed)
}

// printEdited reports an edit of m: its id and path (--json), or a line
// saying what happened, then where m renders now.
func printEdited(ctx context.Context, cmd *cli.Command, v *vault.Vault, m *vault.Memory, changed bool) error {
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, struct {
			Changed bool   `json:"changed"`
			ID      string `json:"id"`
			Path    string `json:"path"`
		}{changed, m.ID, m.Rel})
	}
	if !cmd.Bool("quiet") {
		verb := map[string]string{"pin": "pinned", "unpin": "unpinned", "retire": "retired", "edit": "saved"}[cmd.Name]
		if !changed {
			verb = "unchanged"
			if at := m.Meta().InvalidAt; cmd.Name == "retire" && !at.IsZero() {
				verb += ": already retired at " + at.String()
			}
		}
		fmt.Fprintf(cmd.Root().Writer, "%s %s\n", m.ID, verb)
	}
	return printPlacement(ctx, cmd, v, m)
}
