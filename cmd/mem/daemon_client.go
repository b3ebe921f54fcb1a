package main

import (
	"encoding/json"
	"fmt"
	"os"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/vault"
)

// NoDaemonEnv set to anything makes every command do its own work, as if
// no daemon ran (benchmarks, and users who suspect the daemon).
const NoDaemonEnv = "MEM_NO_DAEMON"

// inDaemon is set in mem watch, whose in-process runs must not ask
// themselves.
var inDaemon bool

// daemonEnv are the variables a command's answer depends on; the client
// sends them, and the daemon runs the command with them.
var daemonEnv = []string{"MEM_NOW", "MEM_VAULT", "HOME"}

// askDaemon offers the parsed command to the vault's mem watch. When done,
// the daemon's answer is written and err is the command's result; else
// the caller does the work itself (no daemon, a stuck one, another
// version, or an answer that is a usage error, which the caller reports
// the same way on its own).
func askDaemon(cmd *cli.Command) (done bool, err error) {
	if inDaemon || os.Getenv(NoDaemonEnv) != "" {
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
	// The root flags as given (not --vault=root: an answer names the vault
	// when it was found rather than named); the daemon finds the same
	// vault from them, cwd and env.
	argv := append(setFlags(cmd.Root()), cmd.Name)
	argv = append(append(append(argv, setFlags(cmd)...), "--"), cmd.Args().Slice()...)
	env := map[string]string{}
	for _, k := range daemonEnv {
		if val, ok := os.LookupEnv(k); ok {
			env[k] = val
		}
	}
	resp, err := daemon.Ask(daemon.SocketPath(root), daemon.Request{Op: "run", Argv: argv, Cwd: cwd, Env: env})
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

// setFlags are cmd's flags as given, as --name=value arguments.
func setFlags(cmd *cli.Command) []string {
	var args []string
	for _, f := range cmd.Flags {
		name := f.Names()[0]
		if name == "help" || name == "version" || !cmd.IsSet(name) {
			continue
		}
		switch val := cmd.Value(name).(type) {
		case []string: // a repeated flag
			for _, s := range val {
				args = append(args, "--"+name+"="+s)
			}
		default:
			args = append(args, fmt.Sprintf("--%s=%v", name, val))
		}
	}
	return args
}

// daemonMCP is mem mcp's way to offer recall and search to the daemon.
func daemonMCP(v *vault.Vault) func(tool string, in any, now time.Time) (mcpserver.Answer, bool) {
	if os.Getenv(NoDaemonEnv) != "" {
		return nil
	}
	sock := daemon.SocketPath(v.Root)
	return func(tool string, in any, now time.Time) (mcpserver.Answer, bool) {
		raw, err := json.Marshal(in)
		if err != nil {
			return mcpserver.Answer{}, false
		}
		resp, err := daemon.Ask(sock, daemon.Request{Op: "mcp", Tool: tool, Input: raw, Now: now})
		if err != nil {
			return mcpserver.Answer{}, false
		}
		return mcpserver.Answer{Text: resp.Text, Out: resp.Out, Error: resp.Error}, true
	}
}
