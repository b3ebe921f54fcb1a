package main

import (
	"context"
	"log/slog"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/mcpserver"
)

func mcpCommand() *cli.Command {
	return &cli.Command{
		Name:  "mcp",
		Usage: "serve the vault to agent harnesses over the Model Context Protocol (stdio)",
		Description: "Tools: recall, search, get, remember, note, signal, audit. The protocol runs on stdin and\n" +
			"stdout; diagnostics go to stderr. The project of a call without cwd is resolved from the\n" +
			"directory the harness starts mem in. See docs/integrations.md.",
		Action: runMCP,
	}
}

func runMCP(ctx context.Context, cmd *cli.Command) error {
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	level := slog.LevelInfo
	if cmd.Bool("quiet") {
		level = slog.LevelWarn
	}
	logger := slog.New(slog.NewTextHandler(cmd.Root().ErrWriter, &slog.HandlerOptions{Level: level}))
	return mcpserver.Run(ctx, mcpserver.Options{Vault: v, Now: now, Cwd: cwd, Logger: logger, Ask: daemonMCP(v, logger),
		Home: os.Getenv("HOME"), CodexHome: os.Getenv("CODEX_HOME"), Env: historyEnv()},
		&mcpserver.Transport{In: os.Stdin, Out: os.Stdout, Logger: logger})
}
