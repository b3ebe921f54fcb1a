package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/doctor"
	"github.com/mem-md/mem/pkg/render"
)

func doctorCommand() *cli.Command {
	return &cli.Command{
		Name:  "doctor",
		Usage: "integrity check: files parse, index matches, no stale temp files or locks, views complete, git healthy, backup verified",
		Description: "In the spirit of git fsck. Exit 0 when healthy, 1 when a check fails. The last verified backup is read\n" +
			"again: its head, counts, connectivity and loose objects, or with --full every object. --fix rebuilds the index\n" +
			"and the rendered views of mem.yaml render.outputs and removes mem's stale temp files; it never\n" +
			"writes, moves or deletes a memory file. See docs/reliability.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "fix", Usage: "rebuild what is rebuildable and remove what is safe to remove"},
			&cli.BoolFlag{Name: "full", Usage: "read and hash every object of the last backup (default: its head, counts, connectivity and loose objects)"},
		},
		Action: runDoctor,
	}
}

func runDoctor(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 0 {
		return usagef("doctor takes no arguments: it checks the whole vault")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	views, err := render.Outputs(v)
	if err != nil {
		return err
	}
	r, err := doctor.Run(ctx, v, doctor.Options{
		Fix:    cmd.Bool("fix"),
		Full:   cmd.Bool("full"),
		Now:    now(),
		Views:  views,
		Notify: notifier(cmd),
		Env:    historyEnv(),
	})
	if err != nil {
		return err
	}
	w := cmd.Root().Writer
	switch {
	case cmd.Bool("json"):
		err = writeJSON(w, r)
	case cmd.Bool("quiet"):
		err = doctor.WriteProblems(w, r) // no ok lines: cron mails only problems
	default:
		if vaultFound(cmd) {
			fmt.Fprintf(w, "vault %s\n", v.Root)
		}
		err = doctor.WriteText(w, r)
	}
	if err != nil {
		return err
	}
	if !r.Healthy {
		return checkFailed("")
	}
	return nil
}
