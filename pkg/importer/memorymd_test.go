package importer

import (
	"fmt"
	"strings"
	"testing"
)

// parseBullets skips the frontmatter by the parser's fences: an indented
// "  ---" inside it (TrimSpace read it as the closing fence) does not end
// it, so no frontmatter line is imported as a memory; the line numbers
// count from the file's first line.
func TestParseBulletsFrontmatterFences(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, in, want string }{
		{"indented fence inside", "---\ntags:\n  ---\n- not a bullet\n---\n- real one\n", "6 real one"},
		{"indented opening line is no frontmatter", "  ---\n- first\n---\n- second\n", "2 first\n4 second"},
		{"BOM and CRLF", "\uFEFF---\r\ntype: note\r\n---\r\n\r\n- real one\r\n", "5 real one"},
		{"unclosed is all body", "---\n- one\n", "2 one"},
	} {
		var got []string
		for _, b := range parseBullets([]byte(c.in)) {
			got = append(got, fmt.Sprintf("%d %s", b.Line, b.Text))
		}
		if strings.Join(got, "\n") != c.want {
			t.Errorf("%s: bullets %q, want %q", c.name, got, c.want)
		}
	}
}
