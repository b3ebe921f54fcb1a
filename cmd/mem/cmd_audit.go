package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/wiring"
)

func auditCommand() *cli.Command {
	return &cli.Command{
		Name:  "audit",
		Usage: "health report: valid_at coverage, import collapse, orphan projects, stale, conflicts, duplicates, views, index, commit, backup",
		Description: "Counts over every memory (every file but project notes), the offending paths, and the\n" +
			"rendered views of mem.yaml render.outputs, the index, the last commit and the last verified\n" +
			"backup. --json prints the whole report. Exit 0 when healthy, 1 when any check crosses its\n" +
			"threshold in mem.yaml audit: (defaults and definitions in docs/audit.md).",
		Action: runAudit,
	}
}

func runAudit(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 0 {
		return usagef("audit takes no arguments: it reports on the whole vault")
	}
	setGC(wholeVaultGC)
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	r, err := wiring.Audit(ctx, v, now())
	if err != nil {
		return err
	}
	w := cmd.Root().Writer
	switch {
	case cmd.Bool("json"):
		err = writeJSON(w, r)
	case cmd.Bool("quiet") && !r.Healthy:
		err = audit.WriteFindings(w, r)
	case !cmd.Bool("quiet"):
		if vaultFound(cmd) {
			fmt.Fprintf(w, "vault %s\n", v.Root)
		}
		err = audit.WriteText(w, r)
	}
	if err != nil {
		return err
	}
	if !r.Healthy {
		return checkFailed("")
	}
	return nil
}
