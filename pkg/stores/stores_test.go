package stores

import "testing"

// TestClaudeProjectDir holds the folder names Claude Code was seen to
// create (omnara-ai/omnara#106, lossless-claude/lcm#534).
func TestClaudeProjectDir(t *testing.T) {
	for dir, want := range map[string]string{
		"/Users/foo/src/github.com/omnara-ai/omnara": "-Users-foo-src-github-com-omnara-ai-omnara",
		"/Users/me/.agents":                          "-Users-me--agents",
		"/home/u/my_repo":                            "-home-u-my-repo",
	} {
		if got := ClaudeProjectDir(dir); got != want {
			t.Errorf("ClaudeProjectDir(%q) = %q, want %q", dir, got, want)
		}
	}
}
