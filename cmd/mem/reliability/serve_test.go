//go:build unix

package reliability

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// served is a running mem serve and the URL of its /mcp.
type served struct {
	cmd *exec.Cmd
	url string
}

var servingAt = regexp.MustCompile(`mem serve: MCP at (http://\S+/mcp)`)

// serve starts mem serve on a free loopback port and waits until it says
// where it answers.
func (v *tv) serve() *served {
	v.t.Helper()
	cmd := exec.Command(memBin, "--vault", v.dir, "serve", "--addr", "127.0.0.1:0")
	cmd.Dir, cmd.Env = v.dir, v.env
	stderr, err := cmd.StderrPipe()
	if err != nil {
		v.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		v.t.Fatal(err)
	}
	v.t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := servingAt.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			}
		}
	}()
	select {
	case url := <-found:
		return &served{cmd: cmd, url: url}
	case <-time.After(execTimeout):
		v.t.Fatal("mem serve did not say where it answers")
		return nil
	}
}

type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

func connectHTTP(ctx context.Context, url, token string) (*mcp.ClientSession, error) {
	tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer(token)}}
	return mcp.NewClient(&mcp.Implementation{Name: "reliability", Version: "v0"}, nil).Connect(ctx, tr, nil)
}

// SIGKILL of mem serve while 100 MCP writes over HTTP are in flight at once
// (100 sessions released together): every write it acknowledged is a file
// after the kill, and the restarted server reads each one back. And one daemon per vault: while mem serve runs, mem watch
// refuses naming its pid, and the other way round.
func TestServeKilledDuringWrites(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	token := strings.TrimSpace(v.must("token", "add", "writer"))
	s := v.serve()

	r := v.run(nil, "watch")
	if want := fmt.Sprintf("pid %d", s.cmd.Process.Pid); r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("mem watch beside mem serve: exit %d, %q; want 2 naming %s", r.code, r.stderr, want)
	}

	// 100 sessions, each connected first, then released together with one
	// remember each: 100 writes in flight at once. The kill lands as soon as
	// the first few are acknowledged, with most still unanswered.
	const writers, killAfter = 100, 5
	ctx, cancel := context.WithTimeout(context.Background(), 4*execTimeout)
	defer cancel()
	sessions := make([]*mcp.ClientSession, writers)
	for w := range sessions {
		cs, err := connectHTTP(ctx, s.url, token)
		if err != nil {
			t.Fatalf("session %d: %v", w, err)
		}
		defer cs.Close()
		sessions[w] = cs
	}
	text := func(w int) string { return fmt.Sprintf("Writer %d wrote its claim before the kill", w) }
	var mu sync.Mutex
	acked := map[string]int{} // path → writer
	var sent, failed int
	ackedSome := make(chan struct{})
	release := make(chan struct{})
	var wg sync.WaitGroup
	for w, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-release
			mu.Lock()
			sent++
			mu.Unlock()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "remember", Arguments: map[string]any{
				"text": text(w), "provenance": "observed", "evidence": "the reliability test sent it"}})
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				failed++ // the server died: not acknowledged
				return
			}
			if res.IsError {
				t.Errorf("writer %d refused: %+v", w, res.Content)
				return
			}
			out, _ := res.StructuredContent.(map[string]any)
			path, _ := out["path"].(string)
			acked[path] = w
			if len(acked) == killAfter {
				close(ackedSome)
			}
		}()
	}
	close(release)
	select {
	case <-ackedSome:
	case <-ctx.Done():
		t.Fatal("no write was acknowledged before the kill: the test proved nothing")
	}
	s.cmd.Process.Signal(syscall.SIGKILL)
	mu.Lock()
	atKill, sentAtKill := len(acked), sent
	mu.Unlock()
	wg.Wait()
	s.cmd.Wait()
	t.Logf("at the kill: %d of %d writes started, %d acknowledged, %d in flight; in the end %d acknowledged (answers the server sent before it died), %d failed with it",
		sentAtKill, writers, atKill, sentAtKill-atKill, len(acked), failed)
	if sentAtKill-atKill == 0 {
		t.Fatal("no write was in flight at the kill: the test proved nothing")
	}
	for p := range acked {
		if _, err := os.Stat(filepath.Join(v.dir, p)); err != nil {
			t.Errorf("acknowledged %s, lost after SIGKILL: %v", p, err)
		}
	}
	// How many of the 100 reached the disk at all, answered or not.
	files := 0
	filepath.WalkDir(v.dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			if data, _ := os.ReadFile(path); strings.Contains(string(data), "wrote its claim before the kill") {
				files++
			}
		}
		return nil
	})
	t.Logf("after the kill %d of the writers' claims are files (%d acknowledged)", files, len(acked))

	// After a restart each one is read back over HTTP, with its text.
	s = v.serve()
	cs, err := connectHTTP(ctx, s.url, token)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for p, w := range acked {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get", Arguments: map[string]any{"id": p}})
		if err != nil || res.IsError {
			t.Errorf("get %s after the restart: %v %+v", p, err, res)
			continue
		}
		if got := fmt.Sprint(res.StructuredContent); !strings.Contains(got, text(w)) {
			t.Errorf("get %s after the restart does not hold writer %d's text: %s", p, w, got)
		}
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	s.cmd.Wait()

	// mem watch holds the vault: mem serve refuses, naming it.
	w := exec.Command(memBin, "--vault", v.dir, "watch")
	w.Dir, w.Env = v.dir, v.env
	errs, _ := w.StderrPipe()
	if err := w.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { w.Process.Kill(); w.Wait() }()
	sc := bufio.NewScanner(errs)
	for sc.Scan() && !strings.Contains(sc.Text(), "answering on") {
	}
	go func() {
		for sc.Scan() {
		}
	}()
	r = v.run(nil, "serve", "--addr", "127.0.0.1:0")
	if want := fmt.Sprintf("pid %d", w.Process.Pid); r.code != 2 || !strings.Contains(r.stderr, want) {
		t.Errorf("mem serve beside mem watch: exit %d, %q; want 2 naming %s", r.code, r.stderr, want)
	}
}
