package clients

import (
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// inspectorResult is what the inspector's CLI prints for a call.
type inspectorResult struct {
	Tools      []struct{ Name string }
	Content    []struct{ Type, Text string }
	Structured json.RawMessage `json:"structuredContent"`
	IsError    bool
}

// inspector runs one command line of the docs with the installed
// inspector in place of `npx -y @modelcontextprotocol/inspector`.
func inspector(t *testing.T, s *session, line string) inspectorResult {
	t.Helper()
	const npx = "npx -y @modelcontextprotocol/inspector "
	if !strings.HasPrefix(line, npx) {
		t.Fatalf("not an inspector command: %s", line)
	}
	line = filepath.Join(clientBin, "mcp-inspector") + " " + strings.TrimPrefix(line, npx)
	out, stderr, err := run(t, s.project, clientEnv(s.home), "sh", "-c", line)
	var res inspectorResult
	if err != nil || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("%s: %v\nstdout: %s\nstderr: %s", line, err, out, stderr)
	}
	if res.IsError {
		t.Errorf("%s: a tool error: %s", line, out)
	}
	return res
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
	for _, tl := range inspector(t, s, lines[0]).Tools {
		names = append(names, tl.Name)
	}
	slices.Sort(names)
	if !slices.Equal(names, toolNames) {
		t.Errorf("tools/list = %v, want %v", names, toolNames)
	}
	if r := inspector(t, s, lines[1]); !strings.Contains(string(r.Structured), "memory/deploys-go-out-from-main-with-make-deploy-") {
		t.Errorf("remember: %s", r.Structured)
	}
	if r := inspector(t, s, lines[2]); len(r.Content) != 1 || !strings.Contains(r.Content[0].Text, "Deploys") || !strings.Contains(string(r.Structured), `"memory/deploys-go-out-from-main-with-make-deploy-`) {
		t.Errorf("search: %+v\n%s", r.Content, r.Structured)
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
