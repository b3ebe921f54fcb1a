package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
)

// ServeConfig says what `mem-bench serve` measures: MCP search over HTTP
// against `mem serve` of the binary Mem on the vault Vault (issue 43).
type ServeConfig struct {
	Mem, Vault string
	// Calls is how many searches one client times; Clients how many
	// clients then search at once, Calls/2 each.
	Calls, Clients int
	Log            io.Writer
}

// ServeResult is what it measured.
type ServeResult struct {
	One, Many []time.Duration // one client's searches; all clients' at once
	ManyWall  time.Duration
	// ManyCPU is the server's CPU time (user and system) while the many
	// clients searched: what a loaded machine inflates less than the wall.
	ManyCPU time.Duration
	// ClientCPU is this process's own CPU time over the same searches:
	// the clients share the server's cores.
	ClientCPU     time.Duration
	RSS, PeakRSS  int64 // KiB, after the searches
	Served, Warm  string
	Clients, Errs int
}

// Serve starts `mem serve` on a free loopback port with a fresh token and
// times MCP tools/call search, one client, then many at once.
func Serve(ctx context.Context, cfg ServeConfig) (*ServeResult, error) {
	root, err := filepath.Abs(cfg.Vault)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("bench-%d", time.Now().UnixNano())
	out, err := exec.CommandContext(ctx, cfg.Mem, "--vault", root, "token", "add", name).Output()
	if err != nil {
		return nil, fmt.Errorf("mem token add: %w", err)
	}
	secret := strings.TrimSpace(string(out))
	defer exec.Command(cfg.Mem, "--vault", root, "token", "revoke", name).Run()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	d := exec.CommandContext(ctx, cfg.Mem, "--vault", root, "--quiet", "serve", "--addr", addr)
	d.Stderr = cfg.Log
	if err := d.Start(); err != nil {
		return nil, err
	}
	defer func() { d.Process.Kill(); d.Wait() }()
	c := &mcpClient{url: "http://" + addr + "/mcp", token: secret, http: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 1024}}}
	// The server is up, and its first cycle has indexed, once a search
	// is answered from the index it holds (mem watch --status counts it).
	deadline := time.Now().Add(10 * time.Minute)
	for {
		if err = c.initialize(); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("mem serve did not answer: %w", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// A daemon that merges its index when idle (mem watch --status:
	// "merge: due" or "merging") is timed once it has.
	for st := ""; !indexed.MatchString(st) || merging.MatchString(st); st = daemonStatus(ctx, cfg.Mem, root) {
		time.Sleep(200 * time.Millisecond)
	}
	for i := range 20 {
		if _, err := c.search(benchgen.ServeQueries[i%len(benchgen.ServeQueries)]); err != nil {
			return nil, err
		}
	}
	res := &ServeResult{Clients: cfg.Clients}
	for i := range cfg.Calls {
		dt, err := c.search(benchgen.ServeQueries[i%len(benchgen.ServeQueries)])
		if err != nil {
			return nil, err
		}
		res.One = append(res.One, dt)
	}
	var mu sync.Mutex
	var wg sync.WaitGroup
	cpu0, _ := cpuTime(d.Process.Pid)
	self0, _ := cpuTime(os.Getpid())
	start := time.Now()
	for k := range cfg.Clients {
		wg.Go(func() {
			cc := &mcpClient{url: c.url, token: secret, http: c.http}
			if err := cc.initialize(); err != nil {
				mu.Lock()
				res.Errs++
				mu.Unlock()
				return
			}
			for i := range max(cfg.Calls/2, 1) {
				dt, err := cc.search(benchgen.ServeQueries[(i+k)%len(benchgen.ServeQueries)])
				mu.Lock()
				if err != nil {
					res.Errs++
				} else {
					res.Many = append(res.Many, dt)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	res.ManyWall = time.Since(start)
	if cpu1, err := cpuTime(d.Process.Pid); err == nil {
		res.ManyCPU = cpu1 - cpu0
	}
	if self1, err := cpuTime(os.Getpid()); err == nil {
		res.ClientCPU = self1 - self0
	}
	res.RSS, res.PeakRSS = procKiB(d.Process.Pid, "VmRSS:"), procKiB(d.Process.Pid, "VmHWM:")
	for _, l := range strings.Split(daemonStatus(ctx, cfg.Mem, root), "\n") {
		if strings.HasPrefix(l, "served:") {
			res.Served = strings.TrimSpace(strings.TrimPrefix(l, "served:"))
		}
	}
	return res, nil
}

// indexed is mem watch --status once the first cycle has indexed.
var indexed = regexp.MustCompile(`(?m)^index: +\S+ ok:`)

// merging is mem watch --status while an idle merge is due or running.
var merging = regexp.MustCompile(`(?m)^merge: +(due|merging)`)

func daemonStatus(ctx context.Context, mem, root string) string {
	out, _ := exec.CommandContext(ctx, mem, "--vault", root, "watch", "--status").Output()
	return string(out)
}

// WriteServe prints the figures as a docs/performance.md table row.
func WriteServe(w io.Writer, res *ServeResult) {
	fmt.Fprintf(w, "1 client: %d searches, p50 %s, p95 %s\n", len(res.One), ms(percentile(res.One, 50)), ms(percentile(res.One, 95)))
	fmt.Fprintf(w, "%d clients: %d searches in %s, p50 %s, p95 %s, %d errors\n", res.Clients, len(res.Many), res.ManyWall.Round(time.Millisecond),
		ms(percentile(res.Many, 50)), ms(percentile(res.Many, 95)), res.Errs)
	if len(res.Many) > 0 {
		fmt.Fprintf(w, "server CPU with %d clients: %s, %s a search\n", res.Clients, res.ManyCPU.Round(10*time.Millisecond), ms(res.ManyCPU/time.Duration(len(res.Many))))
		fmt.Fprintf(w, "client CPU (mem-bench) with %d clients: %s, %s a search\n", res.Clients, res.ClientCPU.Round(10*time.Millisecond), ms(res.ClientCPU/time.Duration(len(res.Many))))
	}
	fmt.Fprintf(w, "RSS %d MiB (peak %d MiB); served: %s\n", res.RSS/1024, res.PeakRSS/1024, res.Served)
}

func ms(d time.Duration) string { return fmt.Sprintf("%.1f ms", float64(d.Microseconds())/1000) }

// mcpClient is the least a Streamable HTTP MCP client does: initialize
// (2025-11-25), then tools/call, each answer JSON or one SSE event.
type mcpClient struct {
	url, token, session string
	http                *http.Client
	id                  int
}

func (c *mcpClient) post(method string, params any, notify bool) (json.RawMessage, error) {
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if !notify {
		c.id++
		msg["id"] = c.id
	}
	body, _ := json.Marshal(msg)
	req, _ := http.NewRequest("POST", c.url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Mcp-Protocol-Version", "2025-11-25")
	if c.session != "" {
		req.Header.Set("Mcp-Session-Id", c.session)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		b, _ := io.ReadAll(resp.Body)
		return nil, fmt.Errorf("%s: %s", resp.Status, b)
	}
	if s := resp.Header.Get("Mcp-Session-Id"); s != "" {
		c.session = s
	}
	if notify {
		io.Copy(io.Discard, resp.Body)
		return nil, nil
	}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 64<<20)
		data = nil
		for sc.Scan() {
			if d, ok := strings.CutPrefix(sc.Text(), "data:"); ok {
				data = []byte(d)
			}
		}
	}
	var r struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", data, err)
	}
	if r.Error != nil {
		return nil, errors.New(r.Error.Message)
	}
	return r.Result, nil
}

func (c *mcpClient) initialize() error {
	c.session = ""
	_, err := c.post("initialize", map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{},
		"clientInfo": map[string]any{"name": "mem-bench", "version": "1"}}, false)
	if err != nil {
		return err
	}
	_, err = c.post("notifications/initialized", map[string]any{}, true)
	return err
}

func (c *mcpClient) search(q string) (time.Duration, error) {
	start := time.Now()
	raw, err := c.post("tools/call", map[string]any{"name": "search", "arguments": map[string]any{"query": q}}, false)
	dt := time.Since(start)
	if err != nil {
		return dt, err
	}
	if bytes.Contains(raw, []byte(`"isError":true`)) {
		return dt, fmt.Errorf("search %q: %s", q, raw)
	}
	return dt, nil
}
