package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// MCP search says, as mem search does, whether each claim stands, puts a
// correction before the claim it corrects, and with current keeps only
// standing claims.
func TestSearchStatus(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	for rel, data := range map[string]string{
		"memory/region-old.md": "---\nid: region-old\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-01\n---\nDeploys go to eu-central-1; eu-central-1 hosts everything\n",
		"memory/region-new.md": "---\nid: region-new\ntype: correction\nprovenance: stated\nvalid_at: 2026-06-01\nsupersedes: [region-old]\n---\nDeploys moved off eu-central-1 to eu-west-1 in June, with the database and the queues\n",
	} {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var res struct {
		Hits []struct {
			ID, Status   string
			SupersededBy string `json:"superseded_by"`
		}
	}
	text, isErr := call(t, cs, "search", map[string]any{"query": `"eu-central-1"`}, &res)
	if isErr {
		t.Fatal(text)
	}
	if len(res.Hits) != 2 || res.Hits[0].ID != "region-new" || res.Hits[0].Status != "current" ||
		res.Hits[1].Status != "superseded" || res.Hits[1].SupersededBy != "region-new" {
		t.Fatalf("search = %+v", res.Hits)
	}
	if !strings.Contains(text, "superseded by region-new  (id: region-old)") {
		t.Errorf("search text does not mark the superseded claim: %q", text)
	}
	call(t, cs, "search", map[string]any{"query": `"eu-central-1"`, "current": true}, &res)
	if len(res.Hits) != 1 || res.Hits[0].ID != "region-new" {
		t.Fatalf("current search = %+v", res.Hits)
	}
}
