package inspect

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
)

func TestStatusAndFilter(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"mem.yaml":        "",
		"memory/old.md":   "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-01\n---\nThe port is 5432\n",
		"memory/new.md":   "---\ntype: correction\nprovenance: stated\nvalid_at: 2026-02-01\nsupersedes: [memory/old]\n---\nThe port is 5433\n",
		"memory/gone.md":  "---\ntype: fact\nprovenance: stated\ninvalid_at: 2026-03-01\nstatus: deprecated\n---\nGone\n",
		"memory/ret.md":   "---\ntype: fact\nprovenance: stated\ninvalid_at: 2026-03-01\n---\nRetired\n",
		"memory/stale.md": "---\ntype: fact\nprovenance: observed\nvalid_at: 2026-01-01\nstale_after: 2026-02-01\n---\nCI is red\n",
		"memory/imp.md":   "---\ntype: fact\nprovenance: inferred\nsource: import:chatgpt\n---\nImported\n",
		"memory/key.md":   "---\ntype: fact\nprovenance: stated\n---\nThe token is ghp_R8s2Kd9mXq4Lw7Zp1Nv6Bt3Hc5Yj0Fg8Ua2E\n",
		"notes/n.md":      "---\ntype: note\nsupersedes: [memory/stale]\n---\nA note does not supersede claims\n",
	}
	for rel, data := range files {
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	x, err := Load(v, time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC), history.Env{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"memory/old": "superseded", "memory/new": "current", "memory/gone": "deprecated",
		"memory/ret": "retired", "memory/stale": "stale", "memory/imp": "import", "memory/key": "current"}
	got := x.List(Filter{})
	if len(got) != len(want) {
		t.Fatalf("list = %+v: the note must not be listed", got)
	}
	for _, e := range got {
		if e.Status != want[e.ID] {
			t.Errorf("%s: status %s, want %s", e.ID, e.Status, want[e.ID])
		}
		if e.ID == "memory/old" && e.SupersededBy != "memory/new" {
			t.Errorf("superseded by %q", e.SupersededBy)
		}
		if e.ID == "memory/key" && e.Summary != "The token is [redacted: secret-github-pat]" {
			t.Errorf("summary not redacted: %q", e.Summary)
		}
	}
	if l := x.List(Filter{Status: vault.StatusStale}); len(l) != 1 || l[0].ID != "memory/stale" {
		t.Errorf("--status stale = %+v", l)
	}
	if l := x.List(Filter{Since: time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)}); len(l) != 1 || l[0].ID != "memory/new" {
		t.Errorf("--since = %+v", l)
	}
}
