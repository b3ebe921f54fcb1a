package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/rules"
)

// A file name is never made from text that would put a key in it (spec
// §8): remember's text and note's title pass the content scan here, but
// the name made from them (lower case, a dash for the dots) is a Slack bot
// token or a GitLab token. Each is refused as the body's secret is, naming
// the argument the name comes from, echoing no key, and writing nothing;
// a file that arrives so named is held back from every reading tool.
func TestSecretFileNameOverMCP(t *testing.T) {
	t.Parallel()
	// The scanner a vault holds files back with, as cmd/mem hands it in.
	cs, root := newSessionWith(t, func(o *Options) { o.Vault.SecretInName = rules.NameRule })
	n := len(mustList(t, root))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"remember", map[string]any{"text": "xoxb.123456789012.1234567890123.abcdefghijklmnopqrstuvwx", "provenance": "stated"},
			"refused: text (as a file name): secret-slack-bot-token: "},
		{"note", map[string]any{"title": "glpat.abcdefghij0123456789", "body": "the runner's notes", "provenance": "stated"},
			"refused: title (as a file name): secret-gitlab-pat: "},
	} {
		text, isErr := call(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s: isError=%v %q, want %q", c.tool, isErr, text, c.want)
		}
		if strings.Contains(text, "abcdefghij") {
			t.Errorf("%s: the refusal echoes the key: %q", c.tool, text)
		}
	}
	if got := len(mustList(t, root)); got != n {
		t.Fatalf("refused writes left files: %d before, %d after", n, got)
	}

	// By hand: the reading tools never show the file or its name.
	const key = "ghp_8aZ3qW9xV2bN4mK7pL1sD5fG6hJ0kQ2wE4rT"
	hand := "---\ntype: fact\nprovenance: stated\nimportance: 5\nvalid_at: 2026-11-28\n---\nThe walrus deploy runs nightly.\n"
	if err := os.WriteFile(filepath.Join(root, "memory", "walrus-"+key+".md"), []byte(hand), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"search", map[string]any{"query": "walrus"}},
		{"list", map[string]any{}},
		{"recall", map[string]any{}},
	} {
		text, _ := call(t, cs, c.tool, c.args, nil)
		if strings.Contains(text, key) || strings.Contains(text, "walrus deploy") {
			t.Errorf("%s shows the held file: %q", c.tool, text)
		}
	}
	// Asked by its path, it is not found (the answer repeats only what
	// the agent asked for).
	if text, isErr := call(t, cs, "get", map[string]any{"id": "memory/walrus-" + key}, nil); !isErr || strings.Contains(text, "walrus deploy") {
		t.Errorf("get shows the held file: isError=%v %q", isErr, text)
	}
}
