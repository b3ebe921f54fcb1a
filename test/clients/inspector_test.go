package clients

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// inspectorResult is what the inspector's CLI prints for a call.
type inspectorResult struct {
	Tools []struct {
		Name        string
		InputSchema struct{ Properties map[string]json.RawMessage }
	}
	Prompts  []struct{ Name string }
	Messages []struct {
		Role    string
		Content struct{ Type, Text string }
	}
	Content    []struct{ Type, Text string }
	Structured json.RawMessage `json:"structuredContent"`
	IsError    bool
}

const npxInspector = "npx -y @modelcontextprotocol/inspector "

// inspector runs one command line of the docs with the installed
// inspector in place of `npx -y @modelcontextprotocol/inspector`; a tool
// error fails the test.
func inspector(t *testing.T, s *session, line string) inspectorResult {
	t.Helper()
	res := inspectorRun(t, s, line)
	if res.IsError {
		t.Errorf("%s: a tool error: %+v", line, res.Content)
	}
	return res
}

// inspectorRun is inspector for a call that may be refused.
func inspectorRun(t *testing.T, s *session, line string) inspectorResult {
	t.Helper()
	if !strings.HasPrefix(line, npxInspector) {
		t.Fatalf("not an inspector command: %s", line)
	}
	line = filepath.Join(clientBin, "mcp-inspector") + " " + strings.TrimPrefix(line, npxInspector)
	out, stderr, err := run(t, s.project, clientEnv(s.home), "sh", "-c", line)
	var res inspectorResult
	if err != nil || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", line, err, out, stderr)
	}
	return res
}

// promptNames are the prompts of `mem mcp`.
var promptNames = []string{"consolidate", "session-end", "session-start"}

// promptText is the one message prompts/get returns for a prompt of mem,
// checked to be the user's text.
func promptText(t *testing.T, s *session, name string) string {
	t.Helper()
	r := inspector(t, s, npxInspector+"--cli mem --vault "+s.vault+" mcp --quiet --method prompts/get --prompt-name "+name)
	if len(r.Messages) != 1 || r.Messages[0].Role != "user" || r.Messages[0].Content.Type != "text" || r.Messages[0].Content.Text == "" {
		t.Fatalf("prompts/get %s: %+v", name, r.Messages)
	}
	return r.Messages[0].Content.Text
}

// docArgs are the arguments docs/integrations.md's tool table gives each
// tool ("the claim fields of `remember`" spelled out).
func docArgs(t *testing.T) map[string][]string {
	t.Helper()
	page, err := os.ReadFile(filepath.Join(root, "docs", "integrations.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(page), "## The MCP server")
	section, _, _ = strings.Cut(section, "### ")
	const claimFields = "the claim fields of `remember`"
	tick := regexp.MustCompile("`([a-z_]+)`")
	cells := map[string]string{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|.*\\|([^|]*)\\|$").FindAllStringSubmatch(section, -1) {
		cells[m[1]] = m[2]
	}
	out := map[string][]string{}
	var claim []string
	for _, m := range tick.FindAllStringSubmatch(cells["remember"], -1) {
		if m[1] != "text" && m[1] != "provenance" {
			claim = append(claim, m[1])
		}
	}
	for tool, cell := range cells {
		var args []string
		if strings.Contains(cell, claimFields) {
			args = append(args, claim...)
		}
		for _, m := range tick.FindAllStringSubmatch(strings.ReplaceAll(cell, claimFields, ""), -1) {
			args = append(args, m[1])
		}
		slices.Sort(args)
		out[tool] = args
	}
	return out
}

// TestInspector runs the docs' inspector commands as written, and checks
// that recall returns the view as text and in its structured content.
func TestInspector(t *testing.T) {
	needClients(t)
	s := newSession(t)
	var lines []string
	for _, b := range docBlocks(t) {
		if b.lang == "sh" && strings.Contains(b.text, "npx -y @modelcontextprotocol/inspector") {
			lines = strings.Split(strings.TrimSpace(strings.ReplaceAll(b.text, "\\\n", "")), "\n")
		}
	}
	if len(lines) != 3 {
		t.Fatalf("docs/integrations.md has %d inspector commands; the test expects 3", len(lines))
	}
	var names []string
	list := inspector(t, s, lines[0])
	for _, tl := range list.Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, toolNames) {
		t.Errorf("tools/list = %v, want %v", names, toolNames)
	}
	// Every argument of every tool, as the docs' table gives them: a new
	// argument shows here, and must be documented.
	documented, served := docArgs(t), map[string][]string{}
	for _, tl := range list.Tools {
		served[tl.Name] = slices.Sorted(maps.Keys(tl.InputSchema.Properties))
		if !slices.Equal(served[tl.Name], documented[tl.Name]) {
			t.Errorf("tools/list gives %s the arguments %v; docs/integrations.md's table %v", tl.Name, served[tl.Name], documented[tl.Name])
		}
	}
	for tool, want := range map[string][]string{"recall": {"query", "limit"}, "search": {"queries", "syntax", "explain", "current"},
		"remember": {"aliases", "evidence"}, "note": {"aliases", "evidence"}, "correct": {"aliases", "evidence"}} {
		for _, a := range want {
			if !slices.Contains(served[tool], a) {
				t.Errorf("%s has no argument %s", tool, a)
			}
		}
	}

	prompts := strings.Replace(lines[0], "--method tools/list", "--method prompts/list", 1)
	names = nil
	for _, p := range inspector(t, s, prompts).Prompts {
		names = append(names, p.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, promptNames) {
		t.Errorf("prompts/list = %v, want %v", names, promptNames)
	}
	if text := promptText(t, s, "session-start"); !strings.Contains(text, "`recall`") || !strings.Contains(text, "`stores`") {
		t.Errorf("session-start asks for no recall and its stores: %s", text)
	}
	if r := inspector(t, s, lines[1]); !strings.Contains(string(r.Structured), "memory/deploys-go-out-from-main-with-make-deploy-") {
		t.Errorf("remember: %s", r.Structured)
	}
	if r := inspector(t, s, lines[2]); len(r.Content) != 1 || !strings.Contains(r.Content[0].Text, "Deploys") || !strings.Contains(string(r.Structured), `"memory/deploys-go-out-from-main-with-make-deploy-`) {
		t.Errorf("search: %+v\n%s", r.Content, r.Structured)
	}

	// More phrasings in one search, fused by rank.
	queries := strings.Replace(lines[2], "--tool-arg query=deploy", `--tool-arg 'queries=["deploy","main branch"]'`, 1)
	if r := inspector(t, s, queries); queries == lines[2] || !strings.Contains(string(r.Structured), `"memory/deploys-go-out-from-main-with-make-deploy-`) {
		t.Errorf("search with queries: %+v\n%s", r.Content, r.Structured)
	}
	// An observed claim is written with its evidence and refused without.
	observed := strings.Replace(lines[1], "--tool-arg provenance=stated", "--tool-arg provenance=observed", 1)
	observed = strings.Replace(observed, "'text=Deploys go out from main with make deploy.'", "'text=The staging database runs Postgres 17.'", 1)
	if r := inspectorRun(t, s, observed); !r.IsError || len(r.Content) != 1 || !strings.Contains(r.Content[0].Text, "write it as inferred, or give evidence") {
		t.Errorf("an observed claim without evidence: %+v", r)
	}
	evidence := observed + " --tool-arg 'evidence=psql -c \"select version()\" printed PostgreSQL 17.2 at 2026-11-29T11:00Z'"
	if r := inspector(t, s, evidence); !strings.Contains(string(r.Structured), "memory/the-staging-database-runs-postgres-17-") {
		t.Errorf("an observed claim with evidence: %+v\n%s", r.Content, r.Structured)
	}

	recall := strings.Replace(lines[0], "--method tools/list", "--method tools/call --tool-name recall --tool-arg cwd="+s.project, 1)
	r := inspector(t, s, recall)
	var out struct{ View string }
	json.Unmarshal(r.Structured, &out)
	view := s.view(t)
	if len(r.Content) != 1 || !sameView(r.Content[0].Text, view) {
		t.Errorf("recall's text is not the view:\n%+v\nwant:\n%s", r.Content, view)
	}
	if !sameView(out.View, view) {
		t.Errorf("recall's structured content has not the view:\n%s\nwant:\n%s", r.Structured, view)
	}
}
