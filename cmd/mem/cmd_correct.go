package main

import (
	"context"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/writer"
)

func correctCommand() *cli.Command {
	return &cli.Command{
		Name:      "correct",
		Usage:     "write a stated correction that supersedes ID, in its place: same project, importance, pin and section",
		ArgsUsage: "ID TEXT",
		Description: "The short way to say \"that was wrong, this is right\": a correction (provenance stated)\n" +
			"supersedes ID and takes its scope unless a flag says otherwise, so it renders where ID did.",
		// Everything remember takes but the type (always correction).
		Flags: slices.DeleteFunc(claimFlags(frontmatter.TypeCorrection), func(f cli.Flag) bool {
			return f.Names()[0] == "type"
		}),
		Action: runCorrect,
	}
}

func runCorrect(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() < 2 {
		return usagef("correct needs ID and TEXT: mem correct 2a3ee3 \"the database listens on 5433\"")
	}
	n, err := newMemoryFromFlags(cmd, strings.Join(cmd.Args().Slice()[1:], " "))
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	m, err := writer.Correct(v, frontIn(ctx, cliFront), cmd.Args().First(), n, now())
	if err != nil {
		return err
	}
	if err := printWritten(cmd, m); err != nil {
		return err
	}
	return printPlacement(ctx, cmd, v, m)
}
