package main

import (
	"context"
	"fmt"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/serve"
)

func tokenCommand() *cli.Command {
	return &cli.Command{
		Name:  "token",
		Usage: "manage the bearer tokens mem serve accepts",
		Description: "Only each token's SHA-256 is kept, in .mem/tokens.json (mode 0600). A running mem serve\n" +
			"honours an added or revoked token from its next request. See docs/serve.md.",
		Commands: []*cli.Command{
			{
				Name: "add", Usage: "make a token and print it, alone on stdout, once", ArgsUsage: "NAME",
				Flags:  []cli.Flag{&cli.BoolFlag{Name: "read-only", Usage: "the token's clients can read but call no tool that writes"}},
				Action: runTokenAdd,
			},
			{Name: "list", Usage: "the tokens by name (never the tokens themselves)", Action: runTokenList},
			{Name: "revoke", Usage: "remove a token: its clients are refused from their next request", ArgsUsage: "NAME", Action: runTokenRevoke},
		},
	}
}

func oneName(cmd *cli.Command) (string, error) {
	if cmd.NArg() != 1 {
		return "", usagef("mem token " + cmd.Name + " takes one NAME")
	}
	return cmd.Args().First(), nil
}

func runTokenAdd(ctx context.Context, cmd *cli.Command) error {
	name, err := oneName(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	secret, err := serve.AddToken(ctx, v, name, cmd.Bool("read-only"), now())
	if err != nil {
		return err
	}
	fmt.Fprintln(cmd.Root().Writer, secret)
	return nil
}

func runTokenList(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("mem token list takes no arguments")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	tokens, err := serve.ListTokens(ctx, v)
	if err != nil {
		return err
	}
	if cmd.Bool("json") {
		type entry struct {
			Name     string    `json:"name"`
			ReadOnly bool      `json:"read_only"`
			Created  time.Time `json:"created"`
		}
		out := []entry{}
		for _, t := range tokens {
			out = append(out, entry{t.Name, t.ReadOnly, t.Created})
		}
		return writeJSON(cmd.Root().Writer, out)
	}
	for _, t := range tokens {
		access := "read-write"
		if t.ReadOnly {
			access = "read-only"
		}
		fmt.Fprintf(cmd.Root().Writer, "%-32s %-10s %s\n", t.Name, access, t.Created.Format(time.RFC3339))
	}
	if len(tokens) == 0 && !cmd.Bool("quiet") {
		fmt.Fprintln(cmd.Root().ErrWriter, "no tokens: mem token add NAME makes one")
	}
	return nil
}

func runTokenRevoke(ctx context.Context, cmd *cli.Command) error {
	name, err := oneName(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	if err := serve.RevokeToken(ctx, v, name); err != nil {
		return err
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(cmd.Root().ErrWriter, "revoked %s\n", name)
	}
	return nil
}
