package serve

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// secretText is a memory's text no error body may show.
const secretText = "The staging database lives on db-7.internal"

func newVault(t testing.TB) *vault.Vault {
	t.Helper()
	root := t.TempDir()
	vaulttest.Write(t, root, "mem.yaml", "{}\n")
	vaulttest.Write(t, root, "memory/db.md", "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-02\n---\n"+secretText+"\n")
	vaulttest.Write(t, root, "memory/guess.md", "---\ntype: fact\nprovenance: inferred\nvalid_at: 2026-01-02\ngenerated: {by: \"process:agent\", at: 2026-01-02T00:00:00Z}\n---\nThe build cache is probably stale on Mondays\n")
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// newServer serves v as mem serve does, on an httptest server (loopback),
// and returns its URL. A token named "panic" makes building its MCP
// server panic.
func newServer(t *testing.T, v *vault.Vault, hosts ...string) string {
	t.Helper()
	logger := slog.New(slog.DiscardHandler)
	h := Handler(Options{Addr: "127.0.0.1:7437", Hosts: hosts, Tokens: NewTokens(v), Logger: logger,
		MCP: func(tok Token) *mcp.Server {
			if tok.Name == "panic" {
				panic("a bug in one request")
			}
			return mcpserver.New(mcpserver.Options{Vault: v, Now: func() time.Time { return testNow }, Cwd: v.Root,
				Logger: logger, Agent: "mem-serve/" + tok.Name, ReadOnly: tok.ReadOnly})
		}})
	srv := httptest.NewUnstartedServer(h)
	srv.Config = NewServer(h, logger)
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL
}

func addToken(t testing.TB, v *vault.Vault, name string, readOnly bool) string {
	t.Helper()
	secret, err := AddToken(context.Background(), v, name, readOnly, testNow)
	if err != nil {
		t.Fatal(err)
	}
	return secret
}

// bearer adds the token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// connect opens an MCP session over HTTP with token.
func connect(t *testing.T, url, token string) (*mcp.ClientSession, error) {
	t.Helper()
	tr := &mcp.StreamableClientTransport{Endpoint: url + "/mcp", HTTPClient: &http.Client{Transport: bearer{token}}}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test-client", Version: "v0"}, nil).Connect(context.Background(), tr, nil)
	if err == nil {
		t.Cleanup(func() { cs.Close() })
	}
	return cs, err
}

func callText(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", tool, err)
	}
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String(), res.IsError
}

// post sends one initialize request as a client would, with the headers
// given, and returns the status, the body and the response's headers.
func post(t *testing.T, url string, header map[string]string, body io.Reader) (int, string, http.Header) {
	t.Helper()
	if body == nil {
		body = strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	}
	req, err := http.NewRequest(http.MethodPost, url+"/mcp", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		if k == "Host" {
			req.Host = v
		} else {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<16))
	return resp.StatusCode, string(data), resp.Header
}

func TestTokensFile(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	secret := addToken(t, v, "laptop", false)
	addToken(t, v, "phone", true)
	if !strings.HasPrefix(secret, "mem_") || len(secret) != 4+64 {
		t.Errorf("token %q: want mem_ and 256 bits in hex", secret)
	}
	info, err := os.Stat(TokenPath(v))
	if err != nil {
		t.Fatal(err)
	}
	if info.Mode().Perm() != 0o600 {
		t.Errorf("%s has mode %v, want 0600", TokenPath(v), info.Mode().Perm())
	}
	data, _ := os.ReadFile(TokenPath(v))
	if strings.Contains(string(data), secret) || strings.Contains(string(data), secret[4:]) {
		t.Errorf("the token file holds the token itself:\n%s", data)
	}
	if !strings.Contains(string(data), hash(secret)) {
		t.Errorf("the token file holds no SHA-256 of the token:\n%s", data)
	}
	list, err := ListTokens(context.Background(), v)
	if err != nil || len(list) != 2 || list[0].Name != "laptop" || list[1].Name != "phone" || !list[1].ReadOnly || list[0].ReadOnly {
		t.Fatalf("list: %+v %v", list, err)
	}
	for _, c := range []struct{ name, want string }{
		{"laptop", "exists"}, {"Bad Name", "lower-case"}, {"", "lower-case"}, {"a/b", "lower-case"},
	} {
		if _, err := AddToken(context.Background(), v, c.name, false, testNow); fail.Of(err) != fail.Usage || !strings.Contains(err.Error(), c.want) {
			t.Errorf("add %q: %v, want a usage error saying %q", c.name, err, c.want)
		}
	}
	if err := RevokeToken(context.Background(), v, "nobody"); fail.Of(err) != fail.Usage {
		t.Errorf("revoke of an unknown name: %v", err)
	}
	if err := RevokeToken(context.Background(), v, "laptop"); err != nil {
		t.Fatal(err)
	}
	if list, _ := ListTokens(context.Background(), v); len(list) != 1 || list[0].Name != "phone" {
		t.Errorf("after revoke: %+v", list)
	}
	// A broken file counts no token, and says which file.
	if err := os.WriteFile(TokenPath(v), []byte("{not json"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := ListTokens(context.Background(), v); err == nil || !strings.Contains(err.Error(), TokenPath(v)) {
		t.Errorf("broken file: %v", err)
	}
	if _, ok, err := NewTokens(v).Lookup(secret); ok || err == nil {
		t.Errorf("a broken file let a token in: %v %v", ok, err)
	}
}

// No token, a wrong one, a revoked one: 401 with WWW-Authenticate and
// nothing of the vault; an added token counts from the next request, a
// revoked one is refused from the next request, without a restart.
func TestAuthentication(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	good := addToken(t, v, "laptop", false)
	for name, header := range map[string]map[string]string{
		"no token":     nil,
		"wrong token":  {"Authorization": "Bearer mem_" + strings.Repeat("0", 64)},
		"not bearer":   {"Authorization": "Basic " + good},
		"empty bearer": {"Authorization": "Bearer "},
		"token prefix": {"Authorization": "Bearer " + good[:20]},
	} {
		code, body, h := post(t, url, header, nil)
		if code != http.StatusUnauthorized || !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
			t.Errorf("%s: %d, WWW-Authenticate %q", name, code, h.Get("WWW-Authenticate"))
		}
		if strings.Contains(body, "staging") || strings.Contains(body, v.Root) {
			t.Errorf("%s: the body shows the vault: %q", name, body)
		}
	}
	if code, body, _ := post(t, url, map[string]string{"Authorization": "Bearer " + good}, nil); code != http.StatusOK {
		t.Fatalf("a good token: %d %s", code, body)
	}
	cs, err := connect(t, url, good)
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, cs, "search", map[string]any{"query": "staging database"}); isErr || !strings.Contains(text, "db-7") {
		t.Fatalf("search over HTTP: %v %q", isErr, text)
	}
	late := addToken(t, v, "late", false)
	if code, _, _ := post(t, url, map[string]string{"Authorization": "Bearer " + late}, nil); code != http.StatusOK {
		t.Errorf("a token added while serving: %d", code)
	}
	if err := RevokeToken(context.Background(), v, "laptop"); err != nil {
		t.Fatal(err)
	}
	if code, _, _ := post(t, url, map[string]string{"Authorization": "Bearer " + good}, nil); code != http.StatusUnauthorized {
		t.Errorf("a revoked token: %d, want 401", code)
	}
	// The session it opened is refused too.
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"query": "x"}}); err == nil {
		t.Error("a session of a revoked token still answers")
	}
	// Another token cannot take over a session it did not open.
	other := addToken(t, v, "other", false)
	code, _, h := post(t, url, map[string]string{"Authorization": "Bearer " + late}, nil) // initialize: a session
	if code != http.StatusOK || h.Get("Mcp-Session-Id") == "" {
		t.Fatalf("initialize: %d, session %q", code, h.Get("Mcp-Session-Id"))
	}
	code, _, _ = post(t, url, map[string]string{"Authorization": "Bearer " + other, "Mcp-Session-Id": h.Get("Mcp-Session-Id"), "Mcp-Protocol-Version": "2025-11-25"},
		strings.NewReader(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
	if code != http.StatusForbidden {
		t.Errorf("another token's session: %d, want 403", code)
	}
}

// A read-only token reads, and its writes are refused; a write over HTTP
// is attributed to its token, whatever the client calls itself.
func TestReadOnlyAndAttribution(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	ro, err := connect(t, url, addToken(t, v, "reader", true))
	if err != nil {
		t.Fatal(err)
	}
	if text, isErr := callText(t, ro, "remember", map[string]any{"text": "Deploys go out on Tuesdays", "provenance": "stated"}); !isErr || !strings.Contains(text, "read-only") {
		t.Errorf("a read-only token's write: %v %q", isErr, text)
	}
	if _, isErr := callText(t, ro, "search", map[string]any{"query": "staging"}); isErr {
		t.Error("a read-only token cannot search")
	}
	rw, err := connect(t, url, addToken(t, v, "laptop", false))
	if err != nil {
		t.Fatal(err)
	}
	text, isErr := callText(t, rw, "remember", map[string]any{"text": "Deploys go out on Tuesdays", "provenance": "stated"})
	if isErr {
		t.Fatal(text)
	}
	matches, _ := filepath.Glob(filepath.Join(v.Root, "memory", "*.md"))
	found := false
	for _, m := range matches {
		data, _ := os.ReadFile(m)
		if strings.Contains(string(data), "Tuesdays") {
			found = true
			if !strings.Contains(string(data), "by: process:mem-serve/laptop\n") {
				t.Errorf("the write is not attributed to its token:\n%s", data)
			}
		}
	}
	if !found {
		t.Fatal("the write is not in the vault")
	}
}

// Two clients edit one memory (an agent's: a person's claim is not theirs
// to change, spec §8) with the hash they read: one wins, the other
// is told the file changed, and its change is not written.
func TestCompareAndSwapOverHTTP(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	a, err := connect(t, url, addToken(t, v, "a", false))
	if err != nil {
		t.Fatal(err)
	}
	b, err := connect(t, url, addToken(t, v, "b", false))
	if err != nil {
		t.Fatal(err)
	}
	res, err := a.CallTool(context.Background(), &mcp.CallToolParams{Name: "get", Arguments: map[string]any{"id": "memory/guess"}})
	if err != nil || res.IsError {
		t.Fatalf("get: %v %+v", err, res)
	}
	h, _ := res.StructuredContent.(map[string]any)["hash"].(string)
	if h == "" {
		t.Fatalf("get returned no hash: %+v", res.StructuredContent)
	}
	results := make([]string, 2)
	errs := make([]bool, 2)
	var wg sync.WaitGroup
	for i, cs := range []*mcp.ClientSession{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i], errs[i] = callText(t, cs, "update", map[string]any{"id": "memory/guess", "expected_hash": h, "importance": 3 + i})
		}()
	}
	wg.Wait()
	if errs[0] == errs[1] {
		t.Fatalf("both or neither won: %q %q", results[0], results[1])
	}
	loser := 0
	if errs[1] {
		loser = 1
	}
	if !strings.Contains(results[loser], "changed") && !strings.Contains(results[loser], "conflict") {
		t.Errorf("the loser is not told the file changed: %q", results[loser])
	}
	data, _ := os.ReadFile(filepath.Join(v.Root, "memory", "guess.md"))
	if want := fmt.Sprintf("importance: %d\n", 3+1-loser); !strings.Contains(string(data), want) {
		t.Errorf("the winner's change is not the file's (%s):\n%s", want, data)
	}
}

// DNS rebinding and cross-site requests: a foreign Host or Origin is
// refused before the token is even looked at; the server's own origin and
// a name given with --allow-host are answered.
func TestHostAndOrigin(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v, "mem.example.org")
	auth := "Bearer " + addToken(t, v, "laptop", false)
	own := strings.TrimPrefix(url, "http://")
	for _, c := range []struct {
		name   string
		header map[string]string
		want   int
	}{
		{"foreign Host", map[string]string{"Host": "evil.example:7437"}, http.StatusForbidden},
		{"rebound name", map[string]string{"Host": "attacker.test"}, http.StatusForbidden},
		{"cross-origin POST", map[string]string{"Origin": "http://evil.example"}, http.StatusForbidden},
		{"another local port", map[string]string{"Origin": "http://localhost:3000"}, http.StatusForbidden},
		{"null origin", map[string]string{"Origin": "null"}, http.StatusForbidden},
		{"own origin", map[string]string{"Origin": "http://" + own}, http.StatusOK},
		{"localhost Host", map[string]string{"Host": "localhost:7437"}, http.StatusOK},
		{"allowed name", map[string]string{"Host": "mem.example.org", "Origin": "https://mem.example.org"}, http.StatusOK},
	} {
		c.header["Authorization"] = auth
		if code, body, _ := post(t, url, c.header, nil); code != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, code, body, c.want)
		}
	}
	// Refused before authentication: no token, still 403.
	if code, _, _ := post(t, url, map[string]string{"Host": "evil.example"}, nil); code != http.StatusForbidden {
		t.Errorf("foreign Host without a token: %d", code)
	}
}

// A 50 MB body is refused with 413, whether it says its length or not.
func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	auth := map[string]string{"Authorization": "Bearer " + addToken(t, v, "laptop", false)}
	big := func() io.Reader {
		return io.MultiReader(strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"`),
			io.LimitReader(repeatReader('a'), 50<<20), strings.NewReader(`"}}`))
	}
	if code, _, _ := post(t, url, auth, strings.NewReader(strings.Repeat(" ", 50<<20))); code != http.StatusRequestEntityTooLarge {
		t.Errorf("50 MB with Content-Length: %d, want 413", code)
	}
	if code, _, _ := post(t, url, auth, big()); code != http.StatusRequestEntityTooLarge { // chunked: no length
		t.Errorf("50 MB chunked: %d, want 413", code)
	}
}

type repeatReader byte

func (r repeatReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}

// A panic while answering one request ends that request only.
func TestPanicEndsOneRequest(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	bad := addToken(t, v, "panic", false)
	good := addToken(t, v, "laptop", false)
	req, _ := http.NewRequest(http.MethodPost, url+"/mcp", strings.NewReader(`{}`))
	req.Header.Set("Authorization", "Bearer "+bad)
	if resp, err := http.DefaultClient.Do(req); err == nil {
		resp.Body.Close()
		t.Fatalf("the panicking request was answered %d", resp.StatusCode)
	}
	if code, body, _ := post(t, url, map[string]string{"Authorization": "Bearer " + good}, nil); code != http.StatusOK {
		t.Fatalf("after a panic: %d %s", code, body)
	}
}

// 200 connections sending their headers slowly do not keep a normal client
// out, and the server has a header deadline, so they cannot stay forever.
func TestSlowClients(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	good := addToken(t, v, "laptop", false)
	addr := strings.TrimPrefix(url, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range 200 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nX-Slow: ", addr)
	}
	start := time.Now()
	if code, body, _ := post(t, url, map[string]string{"Authorization": "Bearer " + good}, nil); code != http.StatusOK {
		t.Fatalf("with 200 slow clients: %d %s", code, body)
	}
	// Blocked behind them, it would be answered only once they were
	// dropped, ReadHeaderTimeout after they connected.
	if d := time.Since(start); d >= ReadHeaderTimeout {
		t.Errorf("a normal request took %s beside 200 slow clients", d)
	}
	// One more byte a second keeps none of them past ReadHeaderTimeout:
	// the server's setting, checked here rather than waited out.
	if s := NewServer(nil, slog.New(slog.DiscardHandler)); s.ReadHeaderTimeout == 0 || s.IdleTimeout == 0 || s.MaxHeaderBytes == 0 {
		t.Errorf("the server sets no connection limits: %+v", s)
	}
	// A slow client still gets its answer when it ends its headers.
	fmt.Fprintf(conns[0], "1\r\nContent-Length: 0\r\n\r\n")
	conns[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	line, err := bufio.NewReader(conns[0]).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		t.Fatal(err)
	}
	if !strings.Contains(line, "401") {
		t.Errorf("the slow client, done, got %q", line)
	}
}

// The sessionless revision (2026-07-28): a call with no initialize and no
// session is answered, under the same token rules.
func TestSessionlessRevision(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	url := newServer(t, v)
	call := func(token, tool string, args string) (int, string) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args +
			`,"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
		code, out, _ := post(t, url, map[string]string{"Authorization": "Bearer " + token, "Mcp-Protocol-Version": "2026-07-28",
			"Mcp-Method": "tools/call", "Mcp-Name": tool}, strings.NewReader(body))
		return code, out
	}
	rw, ro := addToken(t, v, "laptop", false), addToken(t, v, "reader", true)
	if code, out := call(rw, "search", `{"query":"staging database"}`); code != http.StatusOK || !strings.Contains(out, "db-7") {
		t.Fatalf("a sessionless search: %d %s", code, out)
	}
	if code, out := call(ro, "remember", `{"text":"Deploys go out on Tuesdays","provenance":"stated"}`); code != http.StatusOK || !strings.Contains(out, "read-only") {
		t.Errorf("a read-only token's sessionless write: %d %s", code, out)
	}
	if code, _ := call("mem_"+strings.Repeat("1", 64), "search", `{"query":"x"}`); code != http.StatusUnauthorized {
		t.Errorf("a sessionless call with a wrong token: %d", code)
	}
}
