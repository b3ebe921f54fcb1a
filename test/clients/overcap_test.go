package clients

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeHookCap: Claude Code takes at most 10,000 characters of hook
// context. The default budget (8192 bytes) stays under it and the view
// arrives whole; a larger --budget goes over it, and then Claude Code does
// not cut the view: the model gets a ~2 KB preview and a file path instead,
// as docs/integrations.md says.
func TestClaudeHookCap(t *testing.T) {
	needClients(t)
	s := newSession(t)
	for i := range 80 {
		write(t, filepath.Join(s.vault, "memory", fmt.Sprintf("seed-%02d.md", i)), fmt.Sprintf("---\ntype: fact\nprovenance: stated\npinned: true\nvalid_at: 2026-10-01\n---\nSeed fact %d says the lighthouse keeper logs every ship that passes the northern rocks at night.\n", i))
	}
	settings := hookSettings(t)
	write(t, filepath.Join(s.home, ".claude", "settings.json"), settings)
	f := newAnthropic(t)
	claude(t, s, f, s.project, "hello")
	if view := s.rawView(t); !seen(f, view) {
		t.Errorf("the default budget's view (%d bytes) did not reach the model whole", len(view))
	}

	big := strings.Replace(settings, `--cwd \"$CLAUDE_PROJECT_DIR\"`, `--cwd \"$CLAUDE_PROJECT_DIR\" --budget 16000`, 1)
	if big == settings {
		t.Fatal("the docs' hook command has no --cwd \"$CLAUDE_PROJECT_DIR\" to add a budget to")
	}
	write(t, filepath.Join(s.home, ".claude", "settings.json"), big)
	f = newAnthropic(t)
	claude(t, s, f, s.project, "hello")
	for _, want := range []string{"Output too large", "Full output saved to: ", "Preview (first 2KB)"} {
		if !seen(f, want) {
			t.Errorf("over the cap the model's context lacks %q:\n%.3000s", want, f.all())
		}
	}
	if seen(f, "Seed fact 79 ") {
		t.Errorf("over the cap the whole view reached the model: Claude Code's handling changed, update docs/integrations.md")
	}
}
