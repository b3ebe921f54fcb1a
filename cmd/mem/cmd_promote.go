package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/writer"
)

func promoteCommand() *cli.Command {
	return &cli.Command{
		Name:      "promote",
		Usage:     "turn an eligible lesson into a standing rule (the promotion gate)",
		ArgsUsage: "ID",
		Description: "An inferred lesson becomes a rule only when its signals weigh at least 3 and come from at\n" +
			"least 2 sessions (mem.yaml gate:); otherwise promote exits 1 and says what is missing.\n" +
			"Stated and observed lessons need no gate. Signals are kept and promoted_at is recorded.\n" +
			"See docs/gate.md.",
		Action: runPromote,
	}
}

func runPromote(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 1 {
		return usagef("promote needs one ID: mem promote memory/the-lesson")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	t := now()
	m, verdict, err := writer.Promote(v, frontIn(ctx, cliFront), cmd.Args().First(), t)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, struct {
			ID         string  `json:"id"`
			Path       string  `json:"path"`
			PromotedAt string  `json:"promoted_at"` // gate.PromotedAtKey
			Sessions   int     `json:"sessions"`
			Type       string  `json:"type"`
			Weight     float64 `json:"weight"`
		}{m.ID, m.Rel, frontmatter.NewTime(t).String(), verdict.Sessions, frontmatter.TypeRule, verdict.Weight})
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(cmd.Root().Writer, "%s is now a rule\n", m.ID)
	}
	return nil
}
