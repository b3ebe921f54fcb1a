package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveRaw runs the server on Transport over pipes with a small request
// cap; it returns the client's ends: a writer for request lines and a
// reader of reply lines, and a channel that yields Run's result.
func serveRaw(t *testing.T, limit int) (io.WriteCloser, *bufio.Scanner, <-chan error) {
	t.Helper()
	dir := t.TempDir()
	if _, err := vault.Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	done := make(chan error, 1)
	go func() {
		err := Run(context.Background(), Options{Vault: v, Now: func() time.Time { return testNow }, Cwd: dir, Logger: logger},
			&Transport{In: inR, Out: outW, Logger: logger, maxRequest: limit})
		outW.Close()
		done <- err
	}()
	t.Cleanup(func() { inW.Close(); outR.Close() })
	sc := bufio.NewScanner(outR)
	sc.Buffer(nil, 4<<20)
	return inW, sc, done
}

const initLines = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}
{"jsonrpc":"2.0","method":"notifications/initialized"}
`

// reply reads the next reply line.
func reply(t *testing.T, sc *bufio.Scanner) map[string]any {
	t.Helper()
	if !sc.Scan() {
		t.Fatalf("no reply: %v", sc.Err())
	}
	var m map[string]any
	if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
		t.Fatalf("reply %q: %v", sc.Text(), err)
	}
	return m
}

// A request line over the cap is answered (a tool error for tools/call, to
// the id given after the params) and the next request is served; so is a
// line that is not JSON, with a parse error (to a null id when it names
// none), and an oversized notification gets no reply.
func TestTransportRefusesAndServesOn(t *testing.T) {
	t.Parallel()
	const limit = 64 << 10
	in, sc, _ := serveRaw(t, limit)
	io.WriteString(in, initLines)
	if r := reply(t, sc); r["id"] != 0.0 || r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	big := strings.Repeat("x", 4*limit)
	io.WriteString(in, `{"method":"tools/call","params":{"name":"note","arguments":{"title":"big","text":"`+big+`","id":"not this one"}},"jsonrpc":"2.0","id":"big-1"}`+"\n")
	r := reply(t, sc)
	res, _ := r["result"].(map[string]any)
	if r["id"] != "big-1" || res == nil || res["isError"] != true || !strings.Contains(sprint(res["content"]), "over the 65536-byte limit") {
		t.Errorf("oversized tools/call: reply %v, want a tool error to id big-1 naming the limit", r)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","method":"notifications/progress","params":{"x":"`+big+`"}}`+"\n")
	io.WriteString(in, `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"`+big+`"}}`+"\n")
	if r := reply(t, sc); r["id"] != 7.0 || sprint(r["error"]) == "" || !strings.Contains(sprint(r["error"]), "-32600") {
		t.Errorf("oversized tools/list: reply %v, want an invalid-request error to id 7 (and none to the notification)", r)
	}
	io.WriteString(in, "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\n")
	if r := reply(t, sc); r["id"] != 8.0 || !strings.Contains(sprint(r["error"]), "-32700") {
		t.Errorf("a line that is not JSON: reply %v, want a parse error to id 8", r)
	}
	io.WriteString(in, "not json\n")
	if r := reply(t, sc); r["id"] != nil || !strings.Contains(sprint(r["error"]), "-32700") {
		t.Errorf("a line that is not JSON: reply %v, want a parse error to a null id", r)
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`+"\n")
	if r := reply(t, sc); r["id"] != 9.0 || !strings.Contains(sprint(r["result"]), "remember") {
		t.Errorf("tools/list after the refusals: %v", r)
	}
}

func sprint(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// Requests piped in followed by the end of the input are all answered
// before Run returns (the SDK's transport cancelled them: 0 of 6 answered).
func TestTransportAnswersBeforeEOF(t *testing.T) {
	t.Parallel()
	in, sc, done := serveRaw(t, maxRequest)
	var lines strings.Builder
	lines.WriteString(initLines)
	const calls = 6
	for i := range calls {
		lines.WriteString(`{"jsonrpc":"2.0","id":` + string(rune('1'+i)) + `,"method":"tools/call","params":{"name":"recall","arguments":{}}}` + "\n")
	}
	go func() {
		io.WriteString(in, lines.String())
		in.Close()
	}()
	got := 0
	for sc.Scan() {
		got++
	}
	if got != calls+1 {
		t.Errorf("%d replies, want %d (initialize and %d tool calls)", got, calls+1, calls)
	}
	if err := <-done; err != nil {
		t.Errorf("Run: %v", err)
	}
}

// The probe finds the top-level id and method wherever they are, and no
// id nested in params.
func TestRequestProbe(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ line, id, method string }{
		{`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{}}`, "3", "tools/call"},
		{`{"method":"ping","params":{"id":5,"s":"a \"quoted\" } ] string"},"id" : "x-1" }`, `"x-1"`, "ping"},
		{`{"params":{"id":5},"method":"notifications/x"}`, "", "notifications/x"},
		{`{"id":{"a":1},"method":"m"}`, "", "m"},
		{`{"id":"` + strings.Repeat("a", 300) + `","method":"m"}`, "", "m"},
		{`[{"id":1,"method":"m"}]`, "", ""},
		{`{"id":12`, "", ""},
	} {
		var p requestProbe
		// Fed in pieces, as lineGuard does.
		for i := 0; i < len(c.line); i += 7 {
			p.feed([]byte(c.line[i:min(i+7, len(c.line))]))
		}
		id, method := p.request()
		if string(id) != c.id || method != c.method {
			t.Errorf("%.60s: id %q method %q, want %q %q", c.line, id, method, c.id, c.method)
		}
	}
}

// scriptedConn reads the given calls, then the end of the input; what is
// written to it is dropped.
type scriptedConn struct {
	mcp.Connection
	calls []jsonrpc.Message
}

func (c *scriptedConn) Read(context.Context) (jsonrpc.Message, error) {
	if len(c.calls) == 0 {
		return nil, io.EOF
	}
	m := c.calls[0]
	c.calls = c.calls[1:]
	return m, nil
}

func (c *scriptedConn) Write(context.Context, jsonrpc.Message) error { return nil }

// The end of the input waits for answers as long as they keep coming, even
// when all of them take longer than the idle bound, and gives up only after
// the bound passes with no answer (a stuck handler).
func TestDrainWaitsWhileAnswersCome(t *testing.T) {
	t.Parallel()
	// A gap of idle/10 leaves a busy machine's scheduler nine tenths of the
	// bound; 15 gaps add up to 1.5 × idle.
	const calls, idle = 15, time.Second
	for _, stuck := range []bool{false, true} {
		inner := &scriptedConn{}
		var ids []jsonrpc.ID
		for i := range calls {
			id, err := jsonrpc.MakeID(float64(i + 1))
			if err != nil {
				t.Fatal(err)
			}
			ids = append(ids, id)
			inner.calls = append(inner.calls, &jsonrpc.Request{ID: id, Method: "tools/call"})
		}
		c := &drainConn{Connection: inner, pending: map[jsonrpc.ID]bool{}, changed: make(chan struct{}), idle: idle}
		for range calls {
			if _, err := c.Read(t.Context()); err != nil {
				t.Fatal(err)
			}
		}
		answers := ids
		if stuck {
			answers = ids[:calls-1]
		}
		go func() {
			for _, id := range answers {
				time.Sleep(idle / 10)
				c.Write(t.Context(), &jsonrpc.Response{ID: id})
			}
		}()
		start := time.Now()
		if _, err := c.Read(t.Context()); err != io.EOF {
			t.Fatalf("stuck=%v: Read after the calls: %v, want EOF", stuck, err)
		}
		c.mu.Lock()
		left := len(c.pending)
		c.mu.Unlock()
		want := 0
		if stuck {
			want = 1
		}
		if left != want {
			t.Errorf("stuck=%v: the end of the input came with %d call(s) unanswered, want %d", stuck, left, want)
		}
		if waited := time.Since(start); waited < time.Duration(len(answers))*idle/10 {
			t.Errorf("stuck=%v: drained after %v, before the answers were written", stuck, waited)
		}
	}
}

// boundCalls lets n tool calls run at once and the others wait their
// turn; every call is answered, and other methods are not held.
func TestBoundCalls(t *testing.T) {
	t.Parallel()
	const n, calls = 2, 20
	var running, most atomic.Int32
	release := make(chan struct{})
	slow := boundCalls(n)(func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == "tools/call" {
			now := running.Add(1)
			for m := most.Load(); now > m && !most.CompareAndSwap(m, now); m = most.Load() {
			}
			<-release
			running.Add(-1)
		}
		return &mcp.CallToolResult{}, nil
	})
	var wg sync.WaitGroup
	for range calls {
		wg.Go(func() {
			if _, err := slow(t.Context(), "tools/call", &mcp.CallToolRequest{}); err != nil {
				t.Error(err)
			}
		})
	}
	// A ping is answered while the tool calls hold every turn.
	for running.Load() < n {
		time.Sleep(time.Millisecond)
	}
	if _, err := slow(t.Context(), "ping", nil); err != nil {
		t.Fatal(err)
	}
	close(release)
	wg.Wait()
	if m := most.Load(); m != n {
		t.Errorf("%d tool calls ran at once, want %d", m, n)
	}
	// A call waiting for a turn ends with its context.
	started, hold := make(chan struct{}), make(chan struct{})
	held := boundCalls(1)(func(context.Context, string, mcp.Request) (mcp.Result, error) {
		close(started)
		<-hold
		return nil, nil
	})
	go held(t.Context(), "tools/call", nil)
	<-started
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if _, err := held(ctx, "tools/call", nil); err == nil {
		t.Error("a call waiting for its turn did not end with its context")
	}
	close(hold)
}
