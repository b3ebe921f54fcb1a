package history

import (
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
)

// OKF's index.md and log.md and any file without frontmatter are plain
// notes (spec §2): a commit counts them as notes, never as broken, and
// editing one loses no memory. A memory overwritten without frontmatter
// is still lost (massdelete_test.go).
func TestCommitPlainNotesAreNotBroken(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	vaulttest.Write(t, v.Root, "index.md", "* [Gross margin](metrics/gross-margin.md) - revenue minus cost\n")
	vaulttest.Write(t, v.Root, "log.md", "# Log\n\n## 2026-11-01\n* created\n")
	vaulttest.Write(t, v.Root, "notes/readme.md", "# Readme\n\nA plain note.\n")
	vaulttest.Write(t, v.Root, "metrics/gross-margin.md", "---\ntype: Metric\n---\nRevenue minus cost, over revenue.\n")
	res := commit(t, v, CommitOptions{})
	if want := "memory: +7 ~0 -0 (note 4)"; res.Subject != want {
		t.Fatalf("subject %q, want %q", res.Subject, want)
	}
	vaulttest.Write(t, v.Root, "log.md", "# Log\n\n## 2026-11-01\n* created\n\n## 2026-11-02\n* edited\n")
	res = commit(t, v, CommitOptions{})
	if strings.Contains(res.Subject, "broken") || res.Modified != 1 {
		t.Fatalf("subject %q, %+v", res.Subject, res)
	}
}
