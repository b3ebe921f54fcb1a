package clients

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// session is one temp HOME with a vault at ~/memory and a project
// outside it at ~/code/webshop, as docs/integrations.md assumes.
type session struct {
	home, vault, project string
}

// projectLine is a memory only the webshop project's view holds.
const projectLine = "Webshop deploys with make deploy. (stated)"

func newSession(t *testing.T) *session {
	t.Helper()
	home := t.TempDir()
	s := &session{home: home, vault: filepath.Join(home, "memory"), project: filepath.Join(home, "code", "webshop")}
	s.mem(t, "init", "-q", s.vault)
	os.MkdirAll(filepath.Join(s.project, "src"), 0o755)
	write(t, filepath.Join(s.vault, "projects", "webshop.md"), "---\nid: proj_webshop\ntype: project\ntitle: Webshop\nroots: [~/code/webshop]\n---\nThe shop.\n")
	s.mem(t, "--vault", s.vault, "remember", "-q", "--pin", "--type", "identity", "The user is Dana.")
	s.mem(t, "--vault", s.vault, "remember", "-q", "--project", "proj_webshop", "Webshop deploys with make deploy.")
	return s
}

// mem runs the mem binary in the session's HOME and fails the test
// unless it exits 0.
func (s *session) mem(t *testing.T, args ...string) string {
	t.Helper()
	out, stderr, err := run(t, s.home, clientEnv(s.home), memBin, args...)
	if err != nil {
		t.Fatalf("mem %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out
}

// view is what the SessionStart hook hands Claude Code for the project.
func (s *session) view(t *testing.T) string {
	t.Helper()
	v := s.rawView(t)
	if !strings.Contains(v, projectLine) {
		t.Fatalf("the view lacks the project's memory:\n%s", v)
	}
	return v
}

// rawView is the hook's view, whatever it holds.
func (s *session) rawView(t *testing.T) string {
	t.Helper()
	var got struct {
		HookSpecificOutput struct{ AdditionalContext string }
	}
	out := s.mem(t, "--vault", s.vault, "render", "--format", "hook", "--cwd", s.project)
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("hook output: %v\n%s", err, out)
	}
	return got.HookSpecificOutput.AdditionalContext
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// strs collects every string in a JSON document (a request body), so a
// test can ask whether a text reached the model whole, wherever the
// client put it.
func strs(body string) []string {
	var v any
	if json.Unmarshal([]byte(body), &v) != nil {
		return nil
	}
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			out = append(out, v)
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return out
}

// seen reports whether some string of some logged request holds want.
func seen(f *fakeModel, want string) bool {
	for _, b := range f.requests() {
		for _, s := range strs(b) {
			if strings.Contains(s, want) {
				return true
			}
		}
	}
	return false
}

type docBlock struct{ lang, text string }

var fenceRE = regexp.MustCompile("(?ms)^```(\\w*)\\n(.*?)^```")

// docBlocks are the fenced blocks of docs/integrations.md, in order.
func docBlocks(t *testing.T) []docBlock {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "docs", "integrations.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []docBlock
	for _, m := range fenceRE.FindAllStringSubmatch(string(data), -1) {
		out = append(out, docBlock{m[1], m[2]})
	}
	return out
}

// docBlock returns the one block of the docs whose text holds marker.
func findBlock(t *testing.T, lang, marker string) string {
	t.Helper()
	var found []string
	for _, b := range docBlocks(t) {
		if b.lang == lang && strings.Contains(b.text, marker) {
			found = append(found, b.text)
		}
	}
	if len(found) != 1 {
		t.Fatalf("docs/integrations.md has %d %s blocks holding %q; the test expects 1", len(found), lang, marker)
	}
	return found[0]
}
