package serve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/vault"
)

// Credentials a fuzzed request carries, by the fuzzer's byte (mod 6).
const (
	credNone = iota
	credAgent
	credReader
	credOwner    // the page's session cookie, logged in
	credMadeUp   // a bearer token no one was given
	credAsCookie // the agent's token sent as the page's cookie
)

// FuzzRequest sends mem serve's handler any request — method, path,
// Host, Origin, credentials, MCP revision and body — as a client on the
// network could. None panics or hangs; none without the agent's token
// or the owner's login is answered with anything of the vault, or with a
// 2xx on /mcp; and none but the agent's (whose tools write memories)
// changes a file of the vault: the page's actions need its form's CSRF
// field, which no fuzzed request can know.
func FuzzRequest(f *testing.F) {
	v := pageVault(f)
	logger := slog.New(slog.DiscardHandler)
	now := testNow
	page := NewPage(PageOptions{Vault: v, Now: func() time.Time { return now }, Logger: logger,
		Person: func() (string, error) { return "human:Dana", nil }})
	h := Handler(Options{Addr: "127.0.0.1:7437", Tokens: NewTokens(v), Logger: logger, Page: page,
		MCP: func(tok Token) *mcp.Server {
			return mcpserver.New(mcpserver.Options{Vault: v, Now: func() time.Time { return now }, Cwd: v.Root,
				Logger: logger, Agent: "mem-serve/" + tok.Name, ReadOnly: tok.ReadOnly})
		}})
	agent, reader := addToken(f, v, "agent", false), addToken(f, v, "reader", true)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", page.LoginLink("http://127.0.0.1:7437"), nil))
	owner := rec.Result().Cookies()
	if rec.Code != http.StatusSeeOther || len(owner) != 1 {
		f.Fatalf("login: %d, cookies %v", rec.Code, owner)
	}
	creds := map[int]func(*http.Request){
		credAgent:    func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+agent) },
		credReader:   func(r *http.Request) { r.Header.Set("Authorization", "Bearer "+reader) },
		credOwner:    func(r *http.Request) { r.AddCookie(owner[0]) },
		credMadeUp:   func(r *http.Request) { r.Header.Set("Authorization", "Bearer mem_"+strings.Repeat("0", 64)) },
		credAsCookie: func(r *http.Request) { r.AddCookie(&http.Cookie{Name: cookieName, Value: agent}) },
	}
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`
	call := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search","arguments":{"query":"staging"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"f","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`
	for _, seed := range []struct {
		method, path, host, origin string
		cred                       uint8
		rev, body                  string
	}{
		{"POST", "/mcp", "127.0.0.1:7437", "", credAgent, "", init},
		{"POST", "/mcp", "127.0.0.1:7437", "", credNone, "", init},
		{"POST", "/mcp", "127.0.0.1:7437", "", credReader, "2026-07-28", call},
		{"POST", "/mcp", "evil.example", "", credAgent, "", init},
		{"POST", "/mcp", "127.0.0.1:7437", "http://evil.example", credAgent, "", call},
		{"POST", "/mcp", "127.0.0.1:7437", "", credMadeUp, "2026-07-28", call},
		{"POST", "/mcp", "127.0.0.1:7437", "", credAgent, "", `[]`},
		{"GET", "/mcp", "127.0.0.1:7437", "", credAgent, "", ""},
		{"GET", "/memory?id=memory/db", "127.0.0.1:7437", "", credAsCookie, "", ""},
		{"GET", "/search?q=staging", "127.0.0.1:7437", "", credOwner, "", ""},
		{"POST", "/review/reject", "127.0.0.1:7437", "", credOwner, "", "id=memory/guess&csrf=0"},
		{"POST", "/memory/edit", "127.0.0.1:7437", "", credOwner, "", "id=memory/db&body=x"},
		{"GET", "/login?code=00", "127.0.0.1:7437", "", credNone, "", ""},
		{"GET", "/assets/style.css", "localhost:7437", "", credNone, "", ""},
	} {
		f.Add(seed.method, seed.path, seed.host, seed.origin, seed.cred, seed.rev, []byte(seed.body))
	}
	// The doors the fuzzer knocks on are open to the right credentials,
	// so what it finds closed is closed by the checks.
	for _, c := range []struct {
		cred         int
		method, path string
		body         string
	}{{credAgent, "POST", "/mcp", init}, {credOwner, "GET", "/search?q=staging", ""}} {
		r := httptest.NewRequest(c.method, "http://127.0.0.1:7437"+c.path, strings.NewReader(c.body))
		r.Header.Set("Accept", "application/json, text/event-stream")
		r.Header.Set("Content-Type", "application/json")
		creds[c.cred](r)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if rec.Code != http.StatusOK {
			f.Fatalf("%s %s with credentials %d: %d %s, want 200", c.method, c.path, c.cred, rec.Code, rec.Body)
		}
	}
	f.Fuzz(func(t *testing.T, method, path, host, origin string, cred uint8, rev string, body []byte) {
		r, err := http.NewRequest(method, "http://127.0.0.1:7437"+path, bytes.NewReader(body))
		if err != nil || !strings.HasPrefix(path, "/") {
			return // no client sends it: net/http cannot even write it
		}
		r.Host = host
		for k, val := range map[string]string{"Origin": origin, "Mcp-Protocol-Version": rev} {
			if val != "" {
				r.Header.Set(k, val)
			}
		}
		r.Header.Set("Accept", "application/json, text/event-stream")
		// As a client of the sessionless revision sends them: the method
		// and the tool's name, from the body.
		var msg struct {
			Method string
			Params struct{ Name string }
		}
		if json.Unmarshal(body, &msg) == nil && rev != "" {
			r.Header.Set("Mcp-Method", msg.Method)
			r.Header.Set("Mcp-Name", msg.Params.Name)
		}
		if strings.HasPrefix(string(body), "{") || strings.HasPrefix(string(body), "[") {
			r.Header.Set("Content-Type", "application/json")
		} else if method == "POST" {
			r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		}
		c := int(cred % 6)
		if set := creds[c]; set != nil {
			set(r)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		before := vaultSum(t, v)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r.WithContext(ctx))
		if ctx.Err() != nil {
			t.Fatalf("%s %s: no answer within 5s", method, path)
		}
		if c == credAgent {
			return
		}
		if after := vaultSum(t, v); after != before {
			t.Errorf("%s %s (credentials %d): the vault changed without the agent's token", method, path, c)
		}
		if c == credOwner || c == credReader {
			return
		}
		got := rec.Body.String()
		if strings.Contains(got, "staging") || strings.Contains(got, "build cache") {
			t.Errorf("%s %s (credentials %d): %d answered with the vault's text: %.200q", method, path, c, rec.Code, got)
		}
		if rec.Code/100 == 2 && strings.HasPrefix(r.URL.Path, "/mcp") {
			t.Errorf("%s %s (credentials %d): %d on /mcp without a token", method, path, c, rec.Code)
		}
	})
}

// vaultSum is a digest of every file under memory/ and mem.yaml, names
// and contents.
func vaultSum(t *testing.T, v *vault.Vault) [32]byte {
	t.Helper()
	h := sha256.New()
	err := filepath.WalkDir(v.Root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == ".mem" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		data, err := os.ReadFile(p)
		h.Write([]byte(p + "\x00"))
		h.Write(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return [32]byte(h.Sum(nil))
}
