package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

func versionCommand() *cli.Command {
	return &cli.Command{
		Name:        "version",
		Usage:       "print mem's version, as mem stamps it in the generated.by of what it writes",
		Description: "Prints mem/VERSION (the same as mem --version), the producer every file mem writes names in generated.by.",
		Action: func(_ context.Context, cmd *cli.Command) error {
			if cmd.NArg() > 0 {
				return usagef("version takes no arguments")
			}
			printVersion(cmd)
			return nil
		},
	}
}

// printVersion is both 'mem version' and 'mem --version'.
func printVersion(cmd *cli.Command) {
	fmt.Fprintln(cmd.Root().Writer, vault.Producer())
}

// takesID: the command's first argument names a memory (spec §4, IDs on
// the command line), so shell completion offers the vault's ids.
func takesID(c *cli.Command) bool {
	return strings.HasPrefix(c.ArgsUsage, "ID") || strings.HasPrefix(c.ArgsUsage, "[PATH|ID]")
}

// completeIDs offers, for the first argument, the id of every memory and
// note of the vault (the shell filters them by what is typed); past it,
// the flags as urfave/cli does. A directory outside a vault offers none.
func completeIDs(ctx context.Context, cmd *cli.Command) {
	if cmd.NArg() > 0 {
		cli.DefaultCompleteWithFlags(ctx, cmd)
		return
	}
	v, err := openVault(cmd)
	if err != nil {
		return
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return
	}
	w := cmd.Root().Writer
	for _, m := range mems {
		if m.OK() && m.Meta().Type != frontmatter.TypeProject {
			fmt.Fprintln(w, m.ID)
		}
	}
}
