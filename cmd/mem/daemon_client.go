package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
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

// askDaemon offers the command's question to the vault's mem watch, as a
// typed request (daemon.Search, daemon.Render). When done, the daemon's
// answer is written and err is the command's result; else the caller does
// the work itself: no daemon, a stuck one, another version, an answer that
// is a usage error (which the caller reports the same way on its own), or
// a question out of the ordinary (a relative path, a flag set to its zero
// value), which is not worth a second way of being right.
func askDaemon(cmd *cli.Command) (done bool, err error) {
	// mem watch's own runs do not ask themselves.
	if daemonOf(cmd) != nil || os.Getenv(NoDaemonEnv) != "" {
		return false, nil
	}
	cwd, err := os.Getwd()
	if err != nil {
		return false, nil
	}
	root, err := vault.Find(cmd.Root().String("vault"), os.Getenv("MEM_VAULT"), cwd)
	if err != nil {
		return false, nil
	}
	req, ok := daemonRequest(cmd, cwd)
	if !ok {
		return false, nil
	}
	resp, err := daemon.Ask(daemon.SocketPath(root), req, helloWait())
	if foreign := (*daemon.ForeignError)(nil); errors.As(err, &foreign) {
		fmt.Fprintln(cmd.Root().ErrWriter, "mem:", foreign)
	}
	if err != nil || (resp.Code != 0 && resp.Code != 1) {
		return false, nil
	}
	cmd.Root().Writer.Write(resp.Stdout)
	cmd.Root().ErrWriter.Write(resp.Stderr)
	if resp.Code == 1 {
		return true, checkFailed("") // the daemon's stderr said why
	}
	return true, nil
}

// daemonRequest is the typed question cmd asks (mem search or mem render),
// false when it is none the daemon answers.
func daemonRequest(cmd *cli.Command, cwd string) (daemon.Request, bool) {
	f := flagReader{cmd: cmd, ok: true}
	c := daemon.Client{Found: cmd.Root().String("vault") == "", Now: now(), Home: os.Getenv("HOME"),
		JSON: f.bool("json"), Quiet: f.bool("quiet")}
	switch cmd.Name {
	case "search":
		q := &daemon.Search{Client: c, Query: strings.Join(cmd.Args().Slice(), " "),
			Project: f.str("project"), Type: f.str("type"), Provenance: f.str("provenance"), Since: f.str("since"),
			Limit: f.int("limit"), Current: f.bool("current"), NoRefresh: f.bool("no-refresh")}
		return daemon.Request{Op: "search", Search: q}, f.ok
	case "render":
		if s := cmd.String("now"); s != "" {
			t, err := parseTimeFlag(s)
			if err != nil {
				return daemon.Request{}, false
			}
			c.Now = t
		}
		r := &daemon.Render{Client: c, Cwd: cwd, Project: f.str("project"), Budget: f.int("budget"),
			Format: f.str("format"), Output: f.path("output"), Splice: f.path("splice"),
			Explain: f.bool("explain"), Strict: f.bool("strict"), All: f.bool("all")}
		if cmd.IsSet("cwd") {
			// --all with --cwd is a usage error the command reports itself.
			r.Cwd = f.path("cwd")
			f.ok = f.ok && !r.All
		}
		return daemon.Request{Op: "render", Render: r}, f.ok && r.Cwd != ""
	}
	return daemon.Request{}, false
}

// flagReader reads the flags a typed request carries: a flag not given is
// its zero value, and one given as its zero value (or a relative path)
// clears ok, so the command runs by itself.
type flagReader struct {
	cmd *cli.Command
	ok  bool
}

func (f *flagReader) set(name string, zero bool) bool {
	if !f.cmd.IsSet(name) {
		return false
	}
	f.ok = f.ok && !zero
	return true
}

func (f *flagReader) str(name string) string {
	if v := f.cmd.String(name); f.set(name, v == "") {
		return v
	}
	return ""
}

func (f *flagReader) int(name string) int {
	if v := int(f.cmd.Int(name)); f.set(name, v == 0) {
		return v
	}
	return 0
}

func (f *flagReader) bool(name string) bool {
	if v := f.cmd.Bool(name); f.set(name, !v) {
		return v
	}
	return false
}

func (f *flagReader) path(name string) string {
	v := f.str(name)
	f.ok = f.ok && (v == "" || filepath.IsAbs(v))
	return v
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
