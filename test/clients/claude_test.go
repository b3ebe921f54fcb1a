package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// claude runs `claude -p PROMPT` in dir against the fake model. Tool
// search is off so the MCP tools are in the request's tool list, as a
// model sees them when it has few tools.
func claude(t *testing.T, s *session, f *fakeModel, dir, prompt string, args ...string) string {
	t.Helper()
	env := clientEnv(s.home, "ANTHROPIC_BASE_URL="+f.srv.URL, "ANTHROPIC_API_KEY=sk-ant-fake-key", "ENABLE_TOOL_SEARCH=false")
	out, stderr, err := run(t, dir, env, filepath.Join(clientBin, "claude"), append([]string{"-p", prompt, "--output-format", "json"}, args...)...)
	var res struct {
		IsError bool `json:"is_error"`
		Result  string
	}
	if err != nil || json.Unmarshal([]byte(out), &res) != nil || res.IsError {
		t.Fatalf("claude -p %s: %v\nstdout: %s\nstderr: %s", prompt, err, out, stderr)
	}
	return res.Result
}

// hookSettings is the docs' SessionStart hook block, as settings.json.
func hookSettings(t *testing.T) string {
	return findBlock(t, "json", `"SessionStart": [`)
}

// TestClaudeHook: the documented SessionStart hook puts the rendered view
// into the model's request whole, from the user-level settings (from any
// directory, and again on --continue) and from a project's settings (at
// its root only: Claude Code does not look for .claude/settings.json above
// the directory it starts in).
func TestClaudeHook(t *testing.T) {
	needClients(t)
	t.Run("user settings", func(t *testing.T) {
		s := newSession(t)
		write(t, filepath.Join(s.home, ".claude", "settings.json"), hookSettings(t))
		view := s.view(t)
		for _, dir := range []string{s.project, filepath.Join(s.project, "src")} {
			f := newAnthropic(t)
			claude(t, s, f, dir, "hello")
			if !seen(f, view) {
				t.Errorf("from %s the view did not reach the model whole:\nwant %q\nrequests:\n%s", dir, view, f.all())
			}
		}
		f := newAnthropic(t)
		claude(t, s, f, filepath.Join(s.project, "src"), "and again", "--continue")
		if !seen(f, view) || !seen(f, "hello") {
			t.Errorf("--continue: the view or the earlier turn did not reach the model:\n%s", f.all())
		}
	})
	t.Run("project settings", func(t *testing.T) {
		s := newSession(t)
		write(t, filepath.Join(s.project, ".claude", "settings.json"), hookSettings(t))
		view := s.view(t)
		f := newAnthropic(t)
		claude(t, s, f, s.project, "hello")
		if !seen(f, view) {
			t.Errorf("the view did not reach the model whole:\n%s", f.all())
		}
		// The limitation docs/integrations.md states (upstream issues
		// 36793, 76441, 86187): if this starts failing, Claude Code runs
		// project hooks from subdirectories and the docs must say so.
		f = newAnthropic(t)
		claude(t, s, f, filepath.Join(s.project, "src"), "hello")
		if seen(f, "Remembered notes") {
			t.Errorf("a project-level hook ran from a subdirectory: update docs/integrations.md")
		}
	})
	t.Run("broken or missing vault", func(t *testing.T) {
		s := newSession(t)
		write(t, filepath.Join(s.home, ".claude", "settings.json"), hookSettings(t))
		write(t, filepath.Join(s.vault, "memory", "broken.md"), "---\ntype: [unclosed\n---\nbody\n")
		f := newAnthropic(t)
		claude(t, s, f, s.project, "hello")
		if !seen(f, projectLine) {
			t.Errorf("a broken file cost the session its memory:\n%s", f.all())
		}
		if err := os.RemoveAll(s.vault); err != nil {
			t.Fatal(err)
		}
		f = newAnthropic(t)
		if got := claude(t, s, f, s.project, "hello"); got != "ok" || !seen(f, "hello") {
			t.Errorf("a missing vault blocked the session: %q", got)
		}
	})
}

// TestClaudeMCP: with the docs' .mcp.json, and with the docs' `claude mcp
// add` line, Claude Code lists every mem tool and each call's data (the
// structured content) reaches the model.
func TestClaudeMCP(t *testing.T) {
	needClients(t)
	setups := map[string]func(t *testing.T, s *session){
		".mcp.json": func(t *testing.T, s *session) {
			write(t, filepath.Join(s.project, ".mcp.json"), findBlock(t, "json", `"mcpServers"`))
			// -p has no prompt to approve a project's servers.
			write(t, filepath.Join(s.home, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)
		},
		"claude mcp add": func(t *testing.T, s *session) {
			line := docLine(t, "claude mcp add ")
			if _, stderr, err := run(t, s.project, clientEnv(s.home), "sh", "-c", line); err != nil {
				t.Fatalf("%s: %v\n%s", line, err, stderr)
			}
		},
	}
	for name, setup := range setups {
		t.Run(name, func(t *testing.T) {
			s := newSession(t)
			setup(t, s)
			debug := filepath.Join(t.TempDir(), "debug.log")
			f := claudeEveryTool(t, s, "--debug-file", debug)
			// Claude Code logs each stderr line of a server as an error:
			// the docs' --quiet keeps mem's informational lines out.
			if log, _ := os.ReadFile(debug); !strings.Contains(string(log), "mem") || strings.Contains(string(log), "Server stderr") {
				t.Errorf("Claude Code's debug log has mem's stderr (or no mem at all):\n%s", log)
			}
			// The files recall names are the ones Claude Code loaded: its
			// auto-memory folder is where pkg/stores looks for it.
			for _, line := range []string{claudeMDLine, autoMemoryLine} {
				if !seen(f, line) {
					t.Errorf("Claude Code did not load the store holding %q", line)
				}
			}
		})
	}
}

// claudeEveryTool runs a Claude Code session in s's project whose model
// calls each of mem's tools once, and checks that Claude Code offered the
// model every tool and that each call's data reached it.
func claudeEveryTool(t *testing.T, s *session, args ...string) *fakeModel {
	t.Helper()
	calls, want := toolScript(t, s)
	f := newAnthropic(t, calls...)
	if got := claude(t, s, f, s.project, "use every mem tool", append([]string{"--allowedTools", "mcp__mem"}, args...)...); got != "done" {
		t.Errorf("the session ended with %q", got)
	}
	reqs := f.requests()
	last := reqs[len(reqs)-1]
	for _, n := range toolNames {
		if !strings.Contains(last, `"name":"mcp__mem__`+n+`"`) {
			t.Errorf("mcp__mem__%s is not among the tools Claude Code offered the model", n)
		}
	}
	checkResults(t, calls, want, anthropicResults(t, last))
	return f
}

// TestClaudeServe: with the `claude mcp add --transport http` line mem
// serve prints on its first start, Claude Code reaches every mem tool over
// HTTP with the bearer token, and what it writes is the token's and
// unreviewed.
func TestClaudeServe(t *testing.T) {
	needClients(t)
	s := newSession(t)
	srv := s.serve(t)
	if _, stderr, err := run(t, s.project, clientEnv(s.home), "sh", "-c", srv.claude); err != nil {
		t.Fatalf("%s: %v\n%s", srv.claude, err, stderr)
	}
	claudeEveryTool(t, s)
	s.checkAgentWrite(t)
}

// TestClaudePrompts: mem's prompts are Claude Code's /mcp__mem__<name>
// commands. Sent as the prompt of `claude -p`, each hands the model its
// text, as prompts/get returns it, as the user's turn; the recall that
// session-start asks for brings the model the view and the stores Claude
// Code loaded, and an observed claim without evidence in session-end's
// write pass brings it the refusal saying what to do.
func TestClaudePrompts(t *testing.T) {
	needClients(t)
	s := newSession(t)
	write(t, filepath.Join(s.project, ".mcp.json"), findBlock(t, "json", `"mcpServers"`))
	write(t, filepath.Join(s.home, ".claude", "settings.json"), `{"enableAllProjectMcpServers": true}`)
	loaded := s.harnessStores(t)
	for _, name := range promptNames {
		text := promptText(t, s, name)
		var script []call
		switch name {
		case "session-start":
			script = []call{{"recall", map[string]any{"cwd": s.project}}}
		case "session-end":
			script = []call{{"remember", map[string]any{"text": "I deployed the shop to staging.", "provenance": "observed"}}}
		}
		f := newAnthropic(t, script...)
		if got := claude(t, s, f, s.project, "/mcp__mem__"+name, "--allowedTools", "mcp__mem"); got != "done" {
			t.Errorf("/mcp__mem__%s: the session ended with %q", name, got)
		}
		if !userSaid(f.requests()[0], text) {
			t.Errorf("/mcp__mem__%s: the prompt's text is not the user's turn:\nwant %q\nrequests:\n%.5000s", name, text, f.all())
		}
		if name == "session-end" && !seen(f, "write it as inferred, or give evidence") {
			t.Errorf("/mcp__mem__session-end: the refusal of an observed claim without evidence did not reach the model:\n%.5000s", f.all())
		}
		if written, _ := filepath.Glob(filepath.Join(s.vault, "memory", "i-deployed-*")); name == "session-end" && written != nil {
			t.Errorf("/mcp__mem__session-end: the claim without evidence was written: %v", written)
		}
		if name != "session-start" {
			continue
		}
		reqs := f.requests()
		results := anthropicResults(t, reqs[len(reqs)-1])
		if len(results) != 1 {
			t.Fatalf("/mcp__mem__%s: %d tool results, want recall's", name, len(results))
		}
		for _, want := range append([]string{projectLine}, loaded...) {
			if !strings.Contains(results[0], want) {
				t.Errorf("/mcp__mem__%s: recall's result lacks %q:\n%s", name, want, results[0])
			}
		}
	}
}

// userSaid reports whether a user message of a Messages request holds
// text whole.
func userSaid(body, text string) bool {
	var req struct {
		Messages []struct {
			Role    string
			Content json.RawMessage
		}
	}
	json.Unmarshal([]byte(body), &req)
	for _, m := range req.Messages {
		if m.Role != "user" {
			continue
		}
		for _, s := range strs(string(m.Content)) {
			if strings.Contains(s, text) {
				return true
			}
		}
	}
	return false
}

// anthropicResults are the tool results of a Messages request, in order.
func anthropicResults(t *testing.T, body string) []string {
	t.Helper()
	var req struct {
		Messages []struct {
			Content json.RawMessage
		}
	}
	json.Unmarshal([]byte(body), &req)
	var out []string
	for _, m := range req.Messages {
		var blocks []struct {
			Type    string
			IsError bool `json:"is_error"`
			Content json.RawMessage
		}
		json.Unmarshal(m.Content, &blocks)
		for _, b := range blocks {
			if b.Type != "tool_result" {
				continue
			}
			var text string
			if json.Unmarshal(b.Content, &text) != nil {
				text = strings.Join(strs(string(b.Content)), "\n")
			}
			if b.IsError {
				t.Errorf("a tool call failed: %s", text)
			}
			out = append(out, text)
		}
	}
	return out
}

// docLine is the one line of docs/integrations.md's sh blocks that starts
// with prefix.
func docLine(t *testing.T, prefix string) string {
	t.Helper()
	var found []string
	for _, b := range docBlocks(t) {
		for _, line := range strings.Split(b.text, "\n") {
			if b.lang == "sh" && strings.HasPrefix(line, prefix) {
				found = append(found, line)
			}
		}
	}
	if len(found) != 1 {
		t.Fatalf("docs/integrations.md has %d lines starting %q; the test expects 1", len(found), prefix)
	}
	return found[0]
}
