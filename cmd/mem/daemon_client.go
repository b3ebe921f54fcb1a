package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/vault"
)

// NoDaemonEnv set to anything makes every command do its own work, as if
// no daemon ran (benchmarks, and users who suspect the daemon).
const NoDaemonEnv = "MEM_NO_DAEMON"

// HelloWaitEnv, a duration, is how long a client waits for the daemon's
// greeting (default daemon.HelloWait, 20ms): tests on a loaded machine set
// it, so that a client that gave up is not taken for a daemon that did not
// answer.
const HelloWaitEnv = "MEM_HELLO_WAIT"

// helloWait is $MEM_HELLO_WAIT, or daemon.HelloWait.
func helloWait() time.Duration {
	if d, err := time.ParseDuration(os.Getenv(HelloWaitEnv)); err == nil {
		return d
	}
	return daemon.HelloWait
}

// askDaemon offers req, a typed question (a search query, render
// targets), to the daemon of the vault at root. ok false: the caller does
// the work itself (no daemon, a stuck one, another version, or a question
// it declined: a usage error, which the caller reports the same way).
func askDaemon(cmd *cli.Command, root string, req daemon.Request) (resp daemon.Response, ok bool) {
	if os.Getenv(NoDaemonEnv) != "" {
		return resp, false
	}
	req.Home = os.Getenv("HOME")
	resp, err := daemon.Ask(daemon.SocketPath(root), req, helloWait())
	if foreign := (*daemon.ForeignError)(nil); errors.As(err, &foreign) {
		fmt.Fprintln(cmd.Root().ErrWriter, "mem:", foreign)
	}
	return resp, err == nil
}

// daemonMCP is mem mcp's way to offer recall and search to the daemon; a
// socket another user answers is named on the log, once.
func daemonMCP(v *vault.Vault, logger *slog.Logger) func(tool string, in any, now time.Time) (mcpserver.Answer, bool) {
	if os.Getenv(NoDaemonEnv) != "" {
		return nil
	}
	sock, wait := daemon.SocketPath(v.Root), helloWait()
	var warned sync.Once
	return func(tool string, in any, now time.Time) (mcpserver.Answer, bool) {
		raw, err := json.Marshal(in)
		if err != nil {
			return mcpserver.Answer{}, false
		}
		resp, err := daemon.Ask(sock, daemon.Request{Op: "mcp", Tool: tool, Input: raw, Now: now}, wait)
		if foreign := (*daemon.ForeignError)(nil); errors.As(err, &foreign) {
			warned.Do(func() { logger.Warn(foreign.Error()) })
		}
		if err != nil {
			return mcpserver.Answer{}, false
		}
		return mcpserver.Answer{Text: resp.Text, Out: resp.Out, Error: resp.Error}, true
	}
}
