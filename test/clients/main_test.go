// Package clients runs mem under the real agent clients — Claude Code,
// Codex and the MCP inspector, pinned in npm/package-lock.json — each
// talking to a fake model API on 127.0.0.1 that logs what the client sends,
// so the tests see exactly what reaches the model. Every client's HTTP
// proxy points at a dead loopback port: nothing leaves the machine.
//
// The client tests need npm and MEM_CLIENT_TESTS=1 (.ci/run sets it); the
// clients are installed once into .cache/clients at the module root and
// reused while the lock file is unchanged.
package clients

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
)

var (
	memBin     string // the mem binary under test
	root       string // the module root
	clientBin  string // node_modules/.bin of the installed clients
	clientSkip string // why the client tests skip, when they do
	deadProxy  string // a loopback address nothing listens on
)

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	wd, _ := os.Getwd()
	root = filepath.Dir(filepath.Dir(wd))
	dir, err := os.MkdirTemp("", "mem-clients-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer os.RemoveAll(dir)
	memBin = filepath.Join(dir, "mem")
	// A port that was free a moment ago and is closed now: a client that
	// tries to go through its proxy fails at once instead of reaching out.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	deadProxy = "http://" + l.Addr().String()
	l.Close()
	if os.Getenv("MEM_CLIENT_TESTS") != "1" {
		clientSkip = "the real-client tests run with MEM_CLIENT_TESTS=1 (.ci/run sets it; they install ~1 GB of clients from npm)"
	} else if err := installClients(); err != nil {
		if _, ok := err.(unreachable); !ok {
			fmt.Fprintln(os.Stderr, "installing the clients:", err)
			return 1
		}
		clientSkip = err.Error()
	}
	// Only the client tests run memBin: without them, `go test ./...`
	// links no mem it would not start.
	if clientSkip == "" {
		if err := vaulttest.BuildMem(memBin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	return m.Run()
}

// unreachable is an install that failed because npm's registry cannot be
// reached: the one reason the client tests skip instead of fail.
type unreachable struct{ error }

// installClients runs `npm ci` of npm/ into .cache/clients unless the
// cache already holds the same lock file.
func installClients() error {
	cache := filepath.Join(root, ".cache", "clients")
	clientBin = filepath.Join(cache, "node_modules", ".bin")
	lock, err := os.ReadFile("npm/package-lock.json")
	if err != nil {
		return err
	}
	if have, err := os.ReadFile(filepath.Join(cache, "installed.lock")); err == nil && bytes.Equal(have, lock) {
		return nil
	}
	if _, err := exec.LookPath("npm"); err != nil {
		return unreachable{fmt.Errorf("npm is not on PATH: the real-client tests need Node.js and npm")}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "npm", "ping", "--fetch-retries=0", "--fetch-timeout=20000").CombinedOutput(); err != nil {
		return unreachable{fmt.Errorf("npm's registry cannot be reached (npm ping: %v): %s", err, bytes.TrimSpace(out))}
	}
	os.RemoveAll(cache)
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return err
	}
	pkg, err := os.ReadFile("npm/package.json")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cache, "package.json"), pkg, 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(cache, "package-lock.json"), lock, 0o644); err != nil {
		return err
	}
	ctx, cancel = context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = cache
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("npm ci in %s: %v\n%s", cache, err, out)
	}
	// Written last: a cache without it is an install that did not finish.
	return os.WriteFile(filepath.Join(cache, "installed.lock"), lock, 0o644)
}

// needClients skips a test that runs the real clients when they are not
// installed, saying why.
func needClients(t *testing.T) {
	t.Helper()
	if clientSkip != "" {
		t.Skip(clientSkip)
	}
}

// clientEnv is the environment of a client process: a temp HOME, mem on
// PATH, every proxy variable at the dead port (loopback exempt, so the
// fakes answer), and the clients' optional traffic off.
func clientEnv(home string, extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch strings.ToUpper(k) {
		case "HOME", "PATH", "HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "MEM_VAULT",
			"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_API_KEY", "OPENAI_BASE_URL", "CODEX_HOME", "XDG_CONFIG_HOME":
			continue
		}
		if strings.HasPrefix(k, "CLAUDE") {
			continue
		}
		env = append(env, kv)
	}
	env = append(env,
		"HOME="+home,
		"PATH="+filepath.Dir(memBin)+string(os.PathListSeparator)+clientBin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HTTP_PROXY="+deadProxy, "HTTPS_PROXY="+deadProxy, "ALL_PROXY="+deadProxy,
		"http_proxy="+deadProxy, "https_proxy="+deadProxy, "all_proxy="+deadProxy,
		"NO_PROXY=127.0.0.1,localhost", "no_proxy=127.0.0.1,localhost",
		"MEM_NOW="+pinnedNow,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "NO_UPDATE_NOTIFIER=1", "npm_config_offline=true",
	)
	return append(env, extra...)
}

// pinnedNow keeps the rendered views comparable across processes.
const pinnedNow = "2026-11-29T12:00:00Z"

// execTimeout bounds every client run: a hang is a failure, never a
// stuck CI.
const execTimeout = 3 * time.Minute

// run runs a program and returns its stdout, stderr and error.
func run(t *testing.T, dir string, env []string, name string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), execTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("%s timed out after %v", name, execTimeout)
	}
	return out.String(), errb.String(), err
}
