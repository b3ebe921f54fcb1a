// Command mem is a git-native markdown memory toolkit for AI agents. Each
// command lives in its own file, registers itself, and is a few lines wiring
// flags to a package function.
package main

import (
	"context"
	"fmt"
	"io"
	"log"
	"os"
	"sort"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/vault"
)

// commands is filled by each command file's init.
var commands []*cli.Command

func register(c *cli.Command) { commands = append(commands, c) }

func main() {
	// bleve's scorch reports snapshot recovery through the standard logger;
	// mem says what it does itself, once, so that output is only noise.
	log.SetOutput(io.Discard)
	os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
}

// run executes mem and maps its error to the documented exit code:
// 0 success, 1 the command's check failed, 2 usage or environment error.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	sort.Slice(commands, func(i, j int) bool { return commands[i].Name < commands[j].Name })
	root := &cli.Command{
		Name:                  "mem",
		Usage:                 "git-native markdown memory for AI agents",
		Version:               vault.Version,
		Description:           "Exit codes: 0 success (warnings allowed), 1 the command's check failed, 2 usage or environment error.",
		Writer:                stdout,
		ErrWriter:             stderr,
		EnableShellCompletion: true,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "vault", Usage: "vault directory (else $MEM_VAULT, else the nearest ancestor holding mem.yaml)"},
			&cli.BoolFlag{Name: "json", Usage: "machine output on stdout; messages on stderr"},
			&cli.BoolFlag{Name: "quiet", Aliases: []string{"q"}, Usage: "print only what scripts need"},
		},
		Commands:       commands,
		ExitErrHandler: func(context.Context, *cli.Command, error) {},
		OnUsageError: func(_ context.Context, _ *cli.Command, err error, _ bool) error {
			return usageError{err}
		},
	}
	for _, c := range commands {
		c.OnUsageError = root.OnUsageError
	}
	err := root.Run(ctx, args)
	if err == nil {
		return 0
	}
	code := exitCode(err)
	if code == 1 {
		if msg := err.Error(); msg != "" {
			fmt.Fprintln(stderr, "mem:", msg)
		}
		return 1
	}
	fmt.Fprintln(stderr, "mem:", err)
	if _, ok := err.(usageError); ok {
		fmt.Fprintln(stderr, "Run 'mem --help' or 'mem COMMAND --help' for usage.")
	}
	return code
}
