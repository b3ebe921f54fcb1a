package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	t.Parallel()
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
	if want := []string{"audit", "consolidate", "correct", "get", "list", "note", "pin", "recall", "remember", "retire", "search", "show", "signal", "update"}; !slices.Equal(names, want) {
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

// docBlock is one fenced code block of a doc.
type docBlock struct{ lang, text string }

var fenceRE = regexp.MustCompile("(?ms)^```(\\w*)\\n(.*?)^```")

func docBlocks(t *testing.T, path string) []docBlock {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	for _, m := range fenceRE.FindAllStringSubmatch(string(data), -1) {
		out = append(out, docBlock{m[1], m[2]})
	}
	return out
}

// TestIntegrationDocs runs the configurations of docs/integrations.md
// exactly as written there: the Claude Code hook command through a shell,
// the .mcp.json, Codex config.toml and `mcp add` server commands through
// the SDK's client, and the render commands for files.
func TestIntegrationDocs(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	project := filepath.Join(home, "code", "webshop")
	env := append(os.Environ(), "HOME="+home, "MEM_NOW=2026-11-29T12:00:00Z", "MEM_VAULT=")
	run := func(dir, script string, extra ...string) []byte {
		t.Helper()
		cmd := exec.Command("sh", "-c", script)
		cmd.Dir, cmd.Env = dir, append(env, extra...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, stderr.Bytes())
		}
		return out
	}
	run(home, `mem init memory >/dev/null && mkdir -p code/webshop && cd memory &&
mem remember --pin --type identity "The user is Dana." >/dev/null &&
mem remember --project none "The office Wi-Fi is slow on Fridays." >/dev/null &&
printf -- '---\nid: proj_webshop\ntype: project\ntitle: Webshop\nroots: [~/code/webshop]\n---\nThe shop.\n' > projects/webshop.md &&
mem remember --project proj_webshop "Webshop deploys with make deploy." >/dev/null`)
	const projectLine = "Webshop deploys with make deploy. (stated)"

	// recallFrom starts an MCP server command as a harness does, in the
	// project directory, and checks it serves the project's view.
	recallFrom := func(name string, cmd *exec.Cmd) {
		t.Helper()
		cmd.Dir, cmd.Env = project, env
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "docs-test", Version: "v0"}, nil).
			Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		defer cs.Close()
		text, isErr := callTool(t, cs, "recall", nil, nil)
		if isErr || !strings.Contains(text, "## Project: Webshop\n- [2026-11-29] "+projectLine) {
			t.Errorf("%s: recall = %s", name, text)
		}
	}

	var hooks, mcpJSON, toml, shell int
	for _, b := range docBlocks(t, "../../docs/integrations.md") {
		switch {
		case b.lang == "json" && strings.Contains(b.text, `"SessionStart": [`):
			hooks++
			var settings struct {
				Hooks map[string][]struct {
					Matcher string
					Hooks   []struct{ Type, Command string }
				}
			}
			if err := json.Unmarshal([]byte(b.text), &settings); err != nil {
				t.Fatalf("settings.json block: %v", err)
			}
			h := settings.Hooks["SessionStart"][0].Hooks[0]
			out := run(home, h.Command, "CLAUDE_PROJECT_DIR="+project)
			var got struct {
				HookSpecificOutput struct{ HookEventName, AdditionalContext string }
			}
			if err := json.Unmarshal(out, &got); err != nil {
				t.Fatalf("hook output is not JSON: %v\n%s", err, out)
			}
			ctx := got.HookSpecificOutput.AdditionalContext
			if h.Type != "command" || got.HookSpecificOutput.HookEventName != "SessionStart" ||
				!strings.HasPrefix(ctx, "<!-- generated by mem render from "+filepath.Join(home, "memory")) || !strings.Contains(ctx, projectLine) {
				t.Errorf("hook %q printed %s", h.Command, out)
			}
		case b.lang == "json" && strings.Contains(b.text, `"mcpServers"`):
			mcpJSON++
			var cfg struct {
				MCPServers map[string]struct {
					Command string
					Args    []string
				}
			}
			if err := json.Unmarshal([]byte(b.text), &cfg); err != nil {
				t.Fatalf(".mcp.json block: %v", err)
			}
			s := cfg.MCPServers["mem"]
			args := make([]string, len(s.Args))
			for i, a := range s.Args { // Claude Code expands ${VAR} in .mcp.json
				args[i] = os.Expand(a, func(k string) string { return map[string]string{"HOME": home}[k] })
			}
			recallFrom(".mcp.json", exec.Command(s.Command, args...))
		case b.lang == "toml":
			toml++
			var command string
			var args []string
			for _, line := range strings.Split(strings.ReplaceAll(b.text, "/home/you", home), "\n") {
				k, v, _ := strings.Cut(line, " = ")
				switch k { // both values are valid JSON as well as TOML
				case "command":
					json.Unmarshal([]byte(v), &command)
				case "args":
					json.Unmarshal([]byte(v), &args)
				}
			}
			if !strings.Contains(b.text, "[mcp_servers.mem]") || command == "" {
				t.Fatalf("config.toml block: %s", b.text)
			}
			recallFrom("config.toml", exec.Command(command, args...))
		case b.lang == "sh" && !strings.Contains(b.text, "npx"):
			for _, line := range strings.Split(strings.TrimSpace(b.text), "\n") {
				switch {
				case strings.HasPrefix(line, "mem "):
					shell++
					run(project, line)
				case strings.HasPrefix(line, "claude mcp add ") || strings.HasPrefix(line, "codex mcp add "):
					shell++
					_, server, _ := strings.Cut(line, " -- ")
					recallFrom(line, exec.Command("sh", "-c", "exec "+server))
				}
			}
		}
	}
	if hooks != 1 || mcpJSON != 1 || toml != 1 || shell != 4 {
		t.Fatalf("found %d hook, %d .mcp.json, %d config.toml blocks and %d commands in docs/integrations.md; the test expects 1, 1, 1, 4", hooks, mcpJSON, toml, shell)
	}
	agents, _ := os.ReadFile(filepath.Join(project, "AGENTS.md"))
	memory, _ := os.ReadFile(filepath.Join(project, "MEMORY.md"))
	for name, data := range map[string][]byte{"AGENTS.md": agents, "MEMORY.md": memory} {
		if !strings.Contains(string(data), projectLine) {
			t.Errorf("%s after the documented render:\n%s", name, data)
		}
	}
	if !strings.HasPrefix(string(agents), "<!-- mem:begin -->\n") {
		t.Errorf("AGENTS.md has no mem zone:\n%s", agents)
	}
}
