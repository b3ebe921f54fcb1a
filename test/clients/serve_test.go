package clients

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// memServe is a running `mem serve` over a session's vault, with what its
// first start printed for the person to paste.
type memServe struct {
	token  string // the first token, as printed once
	claude string // the printed `claude mcp add --transport http …` line
	codex  string // the printed [mcp_servers.mem] table
}

// serveToken is the name mem serve gives the token it makes on its first
// start: writes over /mcp with it are process:mem-serve/first's.
const serveToken = "first"

// serve starts `mem serve` on a free loopback port over s's vault, as the
// session's user, and stops it when the test ends.
func (s *session) serve(t *testing.T) *memServe {
	t.Helper()
	dir := t.TempDir()
	stdout, err := os.Create(filepath.Join(dir, "stdout"))
	if err != nil {
		t.Fatal(err)
	}
	defer stdout.Close()
	stderr, err := os.Create(filepath.Join(dir, "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer stderr.Close()
	cmd := exec.Command(memBin, "--vault", s.vault, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = s.home, clientEnv(s.home), stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case err := <-exited:
			if err != nil {
				t.Errorf("mem serve did not stop cleanly: %v\n%s", err, readFile(filepath.Join(dir, "stderr")))
			}
		case <-time.After(15 * time.Second):
			cmd.Process.Kill()
			<-exited
			t.Errorf("mem serve did not stop within 15s of an interrupt:\n%s", readFile(filepath.Join(dir, "stderr")))
		}
	})
	// The stderr line naming the URL comes after the token's lines on
	// stdout, and once the listener is open.
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(readFile(filepath.Join(dir, "stderr")), "mem serve: MCP at ") {
		select {
		case err := <-exited:
			t.Fatalf("mem serve exited (%v):\n%s", err, readFile(filepath.Join(dir, "stderr")))
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("mem serve did not start listening within 30s:\n%s", readFile(filepath.Join(dir, "stderr")))
		}
	}
	out := readFile(filepath.Join(dir, "stdout"))
	srv := &memServe{}
	lines := strings.Split(out, "\n")
	for i, line := range lines {
		line = strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "mem_") && srv.token == "":
			srv.token = line
		case strings.HasPrefix(line, "claude mcp add --transport http "):
			srv.claude = line
		case line == "[mcp_servers.mem]":
			var table []string
			for _, l := range lines[i:] {
				if strings.TrimSpace(l) == "" {
					break
				}
				table = append(table, strings.TrimSpace(l))
			}
			srv.codex = strings.Join(table, "\n") + "\n"
		}
	}
	if srv.token == "" || srv.claude == "" || srv.codex == "" {
		t.Fatalf("mem serve's first start did not print a token and the lines for Claude Code and Codex:\n%s", out)
	}
	return srv
}

func readFile(path string) string {
	data, _ := os.ReadFile(path)
	return string(data)
}

// checkAgentWrite checks that the claim the scripted remember call wrote
// over /mcp is the token's (generated.by process:mem-serve/<token name>,
// whatever the client calls itself) and unreviewed: a search says so.
func (s *session) checkAgentWrite(t *testing.T) {
	t.Helper()
	var res struct {
		Hits []struct {
			Path       string
			Unreviewed bool
			WrittenBy  string `json:"written_by"`
		}
	}
	out := s.mem(t, "--vault", s.vault, "--json", "search", "checkout flaky")
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("mem search --json: %v\n%s", err, out)
	}
	for _, h := range res.Hits {
		if !strings.HasPrefix(h.Path, "memory/the-checkout-test-is-flaky-on-ci-") {
			continue
		}
		if by := "process:mem-serve/" + serveToken; !h.Unreviewed || h.WrittenBy != by {
			t.Errorf("the claim written over /mcp: unreviewed %v, written by %q; want unreviewed, written by %q", h.Unreviewed, h.WrittenBy, by)
		}
		return
	}
	t.Errorf("the claim remember wrote over /mcp is not found:\n%s", out)
}
