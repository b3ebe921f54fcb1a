package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/serve"
	"github.com/mem-md/mem/pkg/vault"
)

// defaultServeAddr is mem serve's address: loopback only, unless told.
const defaultServeAddr = "127.0.0.1:7437"

func serveCommand() *cli.Command {
	return &cli.Command{
		Name:  "serve",
		Usage: "the memory daemon (mem watch) plus MCP over Streamable HTTP at /mcp, for agents elsewhere, and a review page at /",
		Description: "Runs the daemon of mem watch (one per vault: it refuses while mem watch runs) and answers\n" +
			"MCP over HTTP at /mcp with the tools of mem mcp. Every request carries a bearer token (mem token);\n" +
			"the first start makes one and prints it once with the lines to give Claude Code and Codex.\n" +
			"At / it serves the owner's review page; each start prints a one-time login link for it on stderr.\n" +
			"An address off loopback needs --tls-cert and --tls-key, or --behind-proxy. See docs/serve.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "addr", Value: defaultServeAddr, Usage: "`HOST:PORT` to listen on"},
			&cli.StringFlag{Name: "tls-cert", Usage: "serve HTTPS with this certificate `FILE` (PEM, with --tls-key)"},
			&cli.StringFlag{Name: "tls-key", Usage: "the certificate's private key `FILE` (PEM)"},
			&cli.BoolFlag{Name: "behind-proxy", Usage: "listen off loopback without TLS: a reverse proxy in front terminates it"},
			&cli.StringSliceFlag{Name: "allow-host", Usage: "a `NAME` clients reach the server by (a proxy's public name), allowed in Host and Origin (repeatable)"},
		},
		Action: runServe,
	}
}

// serveOptions is what mem serve's flags ask for, checked.
type serveOptions struct {
	addr, cert, key string
	hosts           []string
}

func serveFlags(cmd *cli.Command) (serveOptions, error) {
	o := serveOptions{addr: cmd.String("addr"), cert: cmd.String("tls-cert"), key: cmd.String("tls-key"), hosts: cmd.StringSlice("allow-host")}
	if cmd.NArg() > 0 {
		return o, usagef("serve takes no arguments")
	}
	if (o.cert == "") != (o.key == "") {
		return o, usagef("--tls-cert and --tls-key go together: give both")
	}
	host, _, err := net.SplitHostPort(o.addr)
	if err != nil {
		return o, usagef(fmt.Sprintf("--addr %q: give HOST:PORT, e.g. %s", o.addr, defaultServeAddr))
	}
	ip := net.ParseIP(host)
	loopback := host == "localhost" || (ip != nil && ip.IsLoopback())
	if !loopback && o.cert == "" && !cmd.Bool("behind-proxy") {
		return o, usagef(fmt.Sprintf("--addr %s is reachable from other machines, and bearer tokens would cross the network in clear text: "+
			"give --tls-cert FILE --tls-key FILE, or put a TLS proxy in front and pass --behind-proxy (see docs/serve.md), "+
			"or listen on loopback (--addr %s)", o.addr, defaultServeAddr))
	}
	return o, nil
}

func runServe(ctx context.Context, cmd *cli.Command) error {
	o, err := serveFlags(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	unlock, err := lockDaemon(v)
	if err != nil {
		return err
	}
	defer unlock()
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("mem serve: %w: choose another --addr, or stop what listens there", err)
	}
	defer ln.Close()
	stderr := cmd.Root().ErrWriter
	level := slog.LevelInfo
	if cmd.Bool("quiet") {
		level = slog.LevelWarn
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: level}))
	d := newDaemon(v, stderr, "mem serve")

	scheme := "http"
	if o.cert != "" {
		scheme = "https"
	}
	url := fmt.Sprintf("%s://%s/mcp", scheme, ln.Addr())
	if err := firstToken(ctx, cmd.Root().Writer, v, url); err != nil {
		return err
	}
	home, codexHome, env := os.Getenv("HOME"), os.Getenv("CODEX_HOME"), historyEnv()
	page := newPage(v, d, o.cert != "", logger)
	h := serve.Handler(serve.Options{Addr: o.addr, Hosts: o.hosts, Tokens: serve.NewTokens(v), Logger: logger, Page: page,
		MCP: func(t serve.Token) *mcp.Server {
			return mcpserver.New(mcpserver.Options{Vault: v, Now: now, Cwd: v.Root, Logger: logger, Ask: d.Ask,
				Home: home, CodexHome: codexHome, Env: env, Agent: "mem-serve/" + t.Name, ReadOnly: t.ReadOnly})
		}})
	srv := serve.NewServer(h, logger)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	served := make(chan error, 1)
	go func() {
		var err error
		if o.cert != "" {
			err = srv.ServeTLS(ln, o.cert, o.key)
		} else {
			err = srv.Serve(ln)
		}
		served <- err
		cancel(daemon.ErrStopped) // the daemon stops with the listener
	}()
	fmt.Fprintf(stderr, "mem serve: MCP at %s (pid %d)\n", url, os.Getpid())
	fmt.Fprintf(stderr, "mem serve: the review page: open %s (good once, for %s)\n", page.LoginLink(fmt.Sprintf("%s://%s", scheme, ln.Addr())), serve.LoginTTL)
	runErr := runDaemon(ctx, d)
	shut, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	srv.Shutdown(shut)
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("mem serve: %w", err)
	}
	return runErr
}

// firstToken makes the vault's first token when it has none yet (no token
// file), and prints it once with the lines that connect the clients.
func firstToken(ctx context.Context, w io.Writer, v *vault.Vault, url string) error {
	if _, err := os.Stat(serve.TokenPath(v)); !errors.Is(err, os.ErrNotExist) {
		return nil
	}
	secret, err := serve.AddToken(ctx, v, serve.FirstToken, false, now())
	if err != nil {
		return err
	}
	fmt.Fprintf(w, `mem serve: made the token %q; it is shown this once (mem token add NAME makes more):

  %s

Claude Code:
  claude mcp add --transport http mem %s --header "Authorization: Bearer %s"

Codex: export MEM_TOKEN=%s where Codex starts, and add to ~/.codex/config.toml:
  [mcp_servers.mem]
  url = %q
  bearer_token_env_var = "MEM_TOKEN"

`, serve.FirstToken, secret, url, secret, secret, url)
	return nil
}
