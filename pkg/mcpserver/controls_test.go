package mcpserver

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// The write tools refuse control characters (an OSC 8 link, CSI as one
// C1 character, DEL) in every argument, naming it, and write nothing.
func TestControlsRefusedOverMCP(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	n := len(mustList(t, root))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"remember", map[string]any{"text": "see \x1b]8;;http://x\athe docs\x1b]8;;\a", "provenance": "stated"}, "refused: text: control-character: "},
		{"remember", map[string]any{"text": "The CI runs on every push", "provenance": "stated", "tags": []string{"ci\u009b2J"}}, "refused: tags: control-character: "},
		{"note", map[string]any{"title": "Ports", "body": "The API\x7f listens on 8080.", "provenance": "stated"}, "control-character"},
	} {
		text, isErr := call(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s %v: isError=%v %q, want %q", c.tool, c.args, isErr, text, c.want)
		}
	}
	if got := len(mustList(t, root)); got != n {
		t.Fatalf("refused writes left files: %d before, %d after", n, got)
	}
}

// Any JSON value on a line is answered as JSON-RPC says (an Invalid
// Request error, to a null id unless the line gave a string or number
// one; nothing for a notification; one error per member of a batch) and
// the session goes on: the SDK's transport ended it on each of these.
func TestTransportAnyJSONValue(t *testing.T) {
	t.Parallel()
	in, sc, _ := serveRaw(t, maxRequest)
	io.WriteString(in, initLines)
	if r := reply(t, sc); r["id"] != 0.0 || r["result"] == nil {
		t.Fatalf("initialize: %v", r)
	}
	invalidNull := func(r any) bool {
		m, _ := r.(map[string]any)
		e, _ := m["error"].(map[string]any)
		_, hasID := m["id"]
		return hasID && m["id"] == nil && e["code"] == -32600.0
	}
	for i, c := range []struct {
		line string
		want func(raw string) bool // nil: no reply is due
	}{
		{`[]`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`{"jsonrpc":"2.0","id":[1],"method":"ping"}`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`{"jsonrpc":"2.0","id":true,"method":"ping"}`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`{"jsonrpc":"1.0","id":"v1","method":"ping"}`, func(raw string) bool {
			m := decode(raw).(map[string]any)
			return m["id"] == "v1" && strings.Contains(raw, "-32600")
		}},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/x"},3]`, func(raw string) bool {
			a, _ := decode(raw).([]any)
			return len(a) == 2 && a[0].(map[string]any)["id"] == 5.0 && invalidNull(a[1])
		}},
		{`[{"jsonrpc":"2.0","method":"notifications/x"}]`, nil},
		{`42`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`"ping"`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`null`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`{}`, func(raw string) bool { return invalidNull(decode(raw)) }},
		{`{"jsonrpc":"2.0","method":5}`, nil},
		{"{\"jsonrpc\":\"2.0\",\"id\":\"u\",\"method\":\"ping\",\"params\":{\"s\":\"\xff\xfe\"}}", func(raw string) bool {
			return decode(raw).(map[string]any)["id"] == "u"
		}},
	} {
		io.WriteString(in, c.line+"\n")
		if c.want != nil {
			if !sc.Scan() {
				t.Fatalf("%s: no reply: %v", c.line, sc.Err())
			}
			if !c.want(sc.Text()) {
				t.Errorf("%s: reply %s", c.line, sc.Text())
			}
		}
		// The session goes on: a ping after each line is answered.
		io.WriteString(in, `{"jsonrpc":"2.0","id":"after-`+string(rune('a'+i))+`","method":"ping"}`+"\n")
		if r := reply(t, sc); r["id"] != "after-"+string(rune('a'+i)) || r["result"] == nil {
			t.Fatalf("after %s: %v", c.line, r)
		}
	}
	io.WriteString(in, `{"jsonrpc":"2.0","id":9,"method":"tools/list"}`+"\n")
	if r := reply(t, sc); r["id"] != 9.0 || !strings.Contains(sprint(r["result"]), "remember") {
		t.Errorf("tools/list after it all: %v", r)
	}
}

func decode(raw string) any {
	var v any
	json.Unmarshal([]byte(raw), &v)
	return v
}

// Ten thousand lines of garbage, each answered, and the session serves on.
func TestTransportGarbageLines(t *testing.T) {
	t.Parallel()
	in, sc, _ := serveRaw(t, 4<<10)
	io.WriteString(in, initLines)
	reply(t, sc)
	const n = 10000
	go func() {
		var b strings.Builder
		for i := range n {
			switch i % 5 {
			case 0:
				b.WriteString("]]]garbage\x00\xff\n")
			case 1:
				b.WriteString("[]\n")
			case 2:
				b.WriteString(`{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}` + "\n")
			case 3:
				b.WriteString(strings.Repeat("x", 5<<10) + "\n")
			case 4:
				b.WriteString("7\n")
			}
		}
		b.WriteString(`{"jsonrpc":"2.0","id":"last","method":"tools/list"}` + "\n")
		io.WriteString(in, b.String())
	}()
	for i := range n {
		if r := reply(t, sc); r["error"] == nil {
			t.Fatalf("garbage line %d: %v", i, r)
		}
	}
	if r := reply(t, sc); r["id"] != "last" || r["result"] == nil {
		t.Fatalf("tools/list after %d garbage lines: %v", n, r)
	}
}

// FuzzMCPLine: whatever one line holds, mem mcp answers what it owes and
// serves the next request. Each input runs a server over pipes, with a
// small line limit so long lines are tried too.
func FuzzMCPLine(f *testing.F) {
	for _, s := range []string{
		`[]`, `[{}]`, `[1,2,3]`, `{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}`, `null`, `"x"`, `1e999`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":5}`, `{"jsonrpc":"2.0","id":1,"result":{}}`,
		`{"jsonrpc":"2.0","id":2,"error":"x"}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":{"x":1}}}`,
		"\xff\xfe", `{"jsonrpc":"2.0","id":"a","method":"initialize","params":{}}`, `[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	if _, err := vault.Init(dir, nil); err != nil {
		f.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, line string) {
		line = strings.ReplaceAll(line, "\n", " ")
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		logger := slog.New(slog.NewTextHandler(io.Discard, nil))
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		done := make(chan error, 1)
		go func() {
			done <- Run(ctx, Options{Vault: v, Now: func() time.Time { return testNow }, Cwd: dir, Logger: logger},
				&Transport{In: inR, Out: outW, Logger: logger, maxRequest: 1 << 10})
			outW.Close()
		}()
		defer outR.Close()
		go func() {
			io.WriteString(inW, initLines+line+"\n"+`{"jsonrpc":"2.0","id":"probe-7c1e","method":"ping"}`+"\n")
		}()
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		deadline := time.AfterFunc(10*time.Second, func() { outR.Close() })
		defer deadline.Stop()
		for sc.Scan() {
			var m map[string]any
			// A line may use the probe's id itself: only its answer counts.
			if json.Unmarshal(sc.Bytes(), &m) == nil && m["id"] == "probe-7c1e" && m["result"] != nil {
				inW.Close()
				return
			}
		}
		t.Fatalf("line %q ended the session: the ping after it got no answer", line)
	})
}
