package clients

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// codexProvider is the provider table docs/integrations.md gives for a
// model API at another address: Codex needs wire_api "responses" there
// (OPENAI_BASE_URL alone stalls it).
func codexProvider(url string) string {
	return fmt.Sprintf("model = \"fake-model\"\nmodel_provider = \"local\"\n\n[model_providers.local]\nname = \"local\"\nbase_url = \"%s/v1\"\nwire_api = \"responses\"\nenv_key = \"LOCAL_API_KEY\"\n\n", url)
}

// codexSession writes ~/.codex/config.toml (the provider, then extra) and
// returns the environment Codex runs in.
func codexSession(t *testing.T, s *session, f *fakeModel, extra string) []string {
	t.Helper()
	write(t, filepath.Join(s.home, ".codex", "config.toml"), codexProvider(f.srv.URL)+extra)
	return clientEnv(s.home, "LOCAL_API_KEY=sk-fake")
}

// codexExec runs script (which ends by running codex exec) in sh in dir
// and returns Codex's last message.
func codexExec(t *testing.T, env []string, dir, script string) string {
	t.Helper()
	last := filepath.Join(t.TempDir(), "last")
	script = strings.ReplaceAll(script, "codex exec ", "codex exec --skip-git-repo-check --output-last-message "+last+" ")
	out, stderr, err := run(t, dir, env, "sh", "-c", script)
	if err != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", script, err, out, stderr)
	}
	msg, _ := os.ReadFile(last)
	return strings.TrimSpace(string(msg))
}

// TestCodexSplice: the docs' shell function splices the view into the
// project's AGENTS.md before Codex starts, and Codex sends it to the model
// whole; a missing vault does not stop Codex from starting.
func TestCodexSplice(t *testing.T) {
	needClients(t)
	fn := docLine(t, "codex() {")
	s := newSession(t)
	f := newOpenAI(t)
	env := codexSession(t, s, f, "")
	if got := codexExec(t, env, s.project, fn+"\ncodex exec hello"); got != "done" {
		t.Errorf("codex answered %q", got)
	}
	agents, err := os.ReadFile(filepath.Join(s.project, "AGENTS.md"))
	if err != nil || !strings.Contains(string(agents), projectLine) {
		t.Fatalf("AGENTS.md after the splice (%v):\n%s", err, agents)
	}
	if !seen(f, string(agents)) {
		t.Errorf("AGENTS.md did not reach the model whole:\n%s\nrequests:\n%.5000s", agents, f.all())
	}

	os.RemoveAll(s.vault)
	f = newOpenAI(t)
	env = codexSession(t, s, f, "")
	if got := codexExec(t, env, s.project, fn+"\ncodex exec hello"); got != "done" || !seen(f, "hello") {
		t.Errorf("with the vault gone, codex answered %q", got)
	}
}

// TestCodexMCP: with the docs' config.toml table, and with the docs'
// `codex mcp add` line, Codex lists every mem tool and each call's data
// reaches the model; a server over a missing vault never blocks the
// session.
func TestCodexMCP(t *testing.T) {
	needClients(t)
	setups := map[string]func(t *testing.T, s *session, f *fakeModel) []string{
		"config.toml": func(t *testing.T, s *session, f *fakeModel) []string {
			return codexSession(t, s, f, strings.ReplaceAll(findBlock(t, "toml", "[mcp_servers.mem]"), "/home/you", s.home))
		},
		"codex mcp add": func(t *testing.T, s *session, f *fakeModel) []string {
			env := codexSession(t, s, f, "")
			line := docLine(t, "codex mcp add ")
			if _, stderr, err := run(t, s.project, env, "sh", "-c", line); err != nil {
				t.Fatalf("%s: %v\n%s", line, err, stderr)
			}
			return env
		},
	}
	for name, setup := range setups {
		t.Run(name, func(t *testing.T) {
			s := newSession(t)
			f := codexEveryTool(t, s, func(f *fakeModel) []string { return setup(t, s, f) })
			// The AGENTS.md recall names is the one Codex loaded (its
			// memories summary loads only with the memories feature on:
			// the next test).
			if !seen(f, agentsMDLine) {
				t.Errorf("Codex did not load the AGENTS.md recall names")
			}
		})
	}
	t.Run("memories feature", func(t *testing.T) {
		s := newSession(t)
		summary := s.harnessStores(t)[3]
		f := newOpenAI(t, call{"recall", map[string]any{"cwd": s.project}})
		env := codexSession(t, s, f, "[features]\nmemories = true\n\n"+strings.ReplaceAll(findBlock(t, "toml", "[mcp_servers.mem]"), "/home/you", s.home))
		if got := codexExec(t, env, s.project, "codex exec hello"); got != "done" {
			t.Errorf("the session ended with %q", got)
		}
		reqs := f.requests()
		if results := openAIResults(reqs[len(reqs)-1]); len(results) != 1 || !strings.Contains(results[0], summary) || !seen(f, summaryLine) {
			t.Errorf("the memories summary Codex loaded is not the one recall names (%s):\n%s", summary, results)
		}
	})
	t.Run("missing vault", func(t *testing.T) {
		s := newSession(t)
		f := newOpenAI(t, call{"recall", map[string]any{}})
		env := codexSession(t, s, f, strings.ReplaceAll(findBlock(t, "toml", "[mcp_servers.mem]"), "/home/you/memory", filepath.Join(s.home, "gone")))
		if got := codexExec(t, env, s.project, "codex exec hello"); got != "done" || !seen(f, "hello") {
			t.Errorf("a server over a missing vault blocked the session: %q", got)
		}
	})
}

// codexEveryTool runs a Codex session in s's project, in the environment
// setup gives for the fake model, whose model calls each of mem's tools
// once, and checks that Codex offered the model every tool and that each
// call's data reached it.
func codexEveryTool(t *testing.T, s *session, setup func(f *fakeModel) []string) *fakeModel {
	t.Helper()
	calls, want := toolScript(t, s)
	f := newOpenAI(t, calls...)
	env := setup(f)
	if got := codexExec(t, env, s.project, "codex exec 'use every mem tool'"); got != "done" {
		t.Errorf("the session ended with %q", got)
	}
	reqs := f.requests()
	last := reqs[len(reqs)-1]
	for _, n := range toolNames {
		if !strings.Contains(last, `"name":"`+n+`"`) || !strings.Contains(last, `"name":"mcp__mem"`) {
			t.Errorf("%s is not among the mem tools Codex offered the model", n)
		}
	}
	checkResults(t, calls, want, openAIResults(last))
	return f
}

// TestCodexServe: with the [mcp_servers.mem] table mem serve prints on its
// first start (url and bearer_token_env_var) and the token in MEM_TOKEN,
// Codex reaches every mem tool over Streamable HTTP, and what it writes is
// the token's and unreviewed.
func TestCodexServe(t *testing.T) {
	needClients(t)
	s := newSession(t)
	srv := s.serve(t)
	codexEveryTool(t, s, func(f *fakeModel) []string {
		return append(codexSession(t, s, f, srv.codex), "MEM_TOKEN="+srv.token)
	})
	s.checkAgentWrite(t)
}

// openAIResults are the tool outputs of a Responses request, in order.
func openAIResults(body string) []string {
	var req struct {
		Input []struct {
			Type   string
			Output json.RawMessage
		}
	}
	json.Unmarshal([]byte(body), &req)
	var out []string
	for _, in := range req.Input {
		if in.Type != "function_call_output" {
			continue
		}
		var text string
		if json.Unmarshal(in.Output, &text) != nil {
			text = strings.Join(strs(string(in.Output)), "\n")
		}
		out = append(out, text)
	}
	return out
}
