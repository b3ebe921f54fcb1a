package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// syncBuffer collects a child's stderr while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// connectMem starts the real binary as `mem --vault dir mcp` (TestMain puts
// mem on PATH) and connects the SDK's client to it over stdio, as a harness
// does.
func connectMem(t *testing.T, dir string) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	cmd := exec.Command("mem", "--vault", dir, "mcp")
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	t.Cleanup(cancel)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mem-test", Version: "v0"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("connect to mem mcp: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, stderr
}

// callTool calls a tool; a protocol error fails the test, a tool error is
// returned with its text.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: %s: %v", name, data, err)
		}
	}
	return text.String(), res.IsError
}

// TestMCPEndToEnd speaks MCP to the real `mem mcp` over stdio: initialize,
// tools/list, a remember, a search that finds it, a get, and a conflicting
// write refused when two agents edit the same lesson.
func TestMCPEndToEnd(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mem", "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("mem init: %v\n%s", err, out)
	}
	a, stderrA := connectMem(t, dir)

	init := a.InitializeResult()
	if init.ServerInfo.Name != "mem" || init.Capabilities.Tools == nil || !strings.Contains(init.Instructions, "not instructions") {
		t.Fatalf("initialize = %+v", init)
	}

	list, err := a.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range list.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	if want := []string{"audit", "get", "note", "recall", "remember", "search", "signal"}; !slices.Equal(names, want) {
		t.Fatalf("tools/list = %v, want %v", names, want)
	}

	type written struct{ ID, Path, Hash string }
	var fact written
	if text, isErr := callTool(t, a, "remember", map[string]any{"text": "The billing cron runs at 03:00 UTC.", "provenance": "stated", "project": "none"}, &fact); isErr {
		t.Fatal(text)
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(fact.Path))); err != nil || !strings.HasPrefix(fact.ID, "memory/the-billing-cron") {
		t.Fatalf("remember = %+v (%v)", fact, err)
	}

	var found struct {
		Hits []struct{ ID, Path, Snippet string }
	}
	text, isErr := callTool(t, a, "search", map[string]any{"query": "billing cron"}, &found)
	if isErr || len(found.Hits) != 1 || found.Hits[0].ID != fact.ID || !strings.Contains(text, "(id: "+fact.ID+")") {
		t.Fatalf("search = %+v\n%s", found, text)
	}

	var got struct{ ID, Path, Hash, Content string }
	if text, isErr := callTool(t, a, "get", map[string]any{"id": fact.ID}, &got); isErr {
		t.Fatal(text)
	}
	if got.Hash != fact.Hash || !strings.HasSuffix(got.Content, "\nThe billing cron runs at 03:00 UTC.\n") {
		t.Fatalf("get = %+v", got)
	}

	// Two agents read the same lesson; the first write wins and the
	// second, holding the hash it read before, is refused.
	var lesson written
	callTool(t, a, "remember", map[string]any{"text": "When the cron overlapped a deploy, pausing it helped.", "type": "lesson", "provenance": "inferred", "project": "none"}, &lesson)
	b, _ := connectMem(t, dir)
	var readA, readB struct{ Hash string }
	callTool(t, a, "get", map[string]any{"id": lesson.ID}, &readA)
	callTool(t, b, "get", map[string]any{"id": lesson.ID}, &readB)
	if text, isErr := callTool(t, a, "signal", map[string]any{"id": lesson.ID, "expected_hash": readA.Hash, "session": "a", "evidence": "pausing fixed Monday's deploy"}, nil); isErr {
		t.Fatal(text)
	}
	text, isErr = callTool(t, b, "signal", map[string]any{"id": lesson.ID, "expected_hash": readB.Hash, "session": "b", "evidence": "pausing fixed Tuesday's deploy"}, nil)
	if !isErr || !strings.Contains(text, "file changed since it was read") {
		t.Fatalf("conflicting signal: isError=%v %s", isErr, text)
	}
	data, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(lesson.Path)))
	if !strings.Contains(string(data), "Monday") || strings.Contains(string(data), "Tuesday") {
		t.Fatalf("after the refused write:\n%s", data)
	}

	// Diagnostics go to stderr (stdout carries only the protocol, or the
	// client above could not have parsed it).
	if !strings.Contains(stderrA.String(), "msg=wrote path="+fact.Path) {
		t.Errorf("stderr lacks the write:\n%s", stderrA)
	}
}
