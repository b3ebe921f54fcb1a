package main

import (
	"context"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/writer"
)

func retireCommand() *cli.Command {
	return &cli.Command{
		Name:      "retire",
		Usage:     "mark a claim as no longer true (sets invalid_at); the file stays",
		ArgsUsage: "ID",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "at", Usage: "when it stopped being true, YYYY-MM-DD or RFC 3339 (default now)"},
			&cli.StringFlag{Name: "reason", Usage: "why, in a few words (kept in the file as invalid_reason)"},
			hashFlag(),
		},
		Action: runRetire,
	}
}

func runRetire(ctx context.Context, cmd *cli.Command) error {
	ref, err := oneID(cmd, "mem retire 2a3ee3 --reason 'moved to Postgres 16'")
	if err != nil {
		return err
	}
	o, err := retireFlags(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, changed, err := writer.Retire(v, frontIn(ctx, cliFront), ref, o.hash, o.at, o.reason, now())
	if err != nil {
		return err
	}
	return printEdited(ctx, cmd, v, m, changed)
}

// retireOptions is what mem retire's flags ask of writer.Retire.
type retireOptions struct {
	hash, reason string
	at           frontmatter.Time // zero: now
}

func retireFlags(cmd *cli.Command) (retireOptions, error) {
	o := retireOptions{hash: cmd.String("hash"), reason: cmd.String("reason")}
	if s := cmd.String("at"); s != "" {
		var err error
		if o.at, err = frontmatter.ParseTime(s); err != nil {
			return o, usagef("--at: " + err.Error())
		}
	}
	return o, nil
}
