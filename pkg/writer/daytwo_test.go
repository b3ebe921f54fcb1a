package writer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/vault"
)

func TestSupersedeKeepsScope(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	if _, err := AddProject(v, Front{}, NewProject{ID: "proj_b", Roots: []string{t.TempDir()}}, now); err != nil {
		t.Fatal(err)
	}
	pinned, err := Remember(v, Front{}, vault.NewMemory{Text: "Ana prefers tabs", Type: "preference", Pinned: true, Importance: 8, Project: "proj_b", ValidAt: mustDate(t, "2026-11-01")}, now)
	if err != nil {
		t.Fatal(err)
	}
	// The correction is written from a directory of no project: it keeps
	// proj_b, importance 8, the pin, and the section its old line rendered under.
	c, err := Correct(v, Front{}, pinned.ID, vault.NewMemory{Text: "Ana prefers spaces", Cwd: t.TempDir()}, now)
	if err != nil {
		t.Fatal(err)
	}
	m := c.Meta()
	if m.Type != "correction" || m.Provenance != "stated" || m.Project != "proj_b" || m.Importance != 8 || !m.Pinned || m.Section != "Preferences" {
		t.Errorf("correction = %+v", m)
	}
	// What the writer is told wins over what it inherits.
	c2, err := Correct(v, Front{}, c.ID, vault.NewMemory{Text: "Ana prefers two spaces", Importance: 3, Project: "none", Section: "Notes"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if m := c2.Meta(); m.Project != "" || m.Importance != 3 || m.Section != "Notes" || !m.Pinned {
		t.Errorf("explicit fields lost: %+v", m)
	}
}

// TestEditsRefuseADuplicatedKey: pin on a file that gives pinned twice
// would write a third pinned that no reader takes either; it refuses,
// naming the key and its line, and leaves the file as it was.
func TestEditsRefuseADuplicatedKey(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	rel := "memory/dup.md"
	data := "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\npinned: false\npinned: false\n---\nThe deploy key rotates weekly.\n"
	path := filepath.Join(v.Root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := Pin(v, Front{}, rel, "", true, "", now)
	if err == nil || !strings.Contains(err.Error(), `line 6: key "pinned" appears twice`) || !strings.Contains(err.Error(), rel) {
		t.Fatalf("Pin = %v, want a refusal naming the file, line 6 and the key", err)
	}
	if got, _ := os.ReadFile(path); string(got) != data {
		t.Fatalf("the file changed:\n%s", got)
	}
}

// TestEditMergesADuplicatedKey: mem edit is how a person merges a key
// given twice, so the whole-file edit that does it is written.
func TestEditMergesADuplicatedKey(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	rel := "memory/dup.md"
	path := filepath.Join(v.Root, rel)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\npinned: false\npinned: true\n---\nThe deploy key rotates weekly.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	fixed := "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\npinned: true\n---\nThe deploy key rotates weekly.\n"
	if _, changed, err := Edit(v, Front{}, rel, "", []byte(fixed), lint.Errors, now); err != nil || !changed {
		t.Fatalf("Edit = %v, changed %v; want the merged file written", err, changed)
	}
	data, _ := os.ReadFile(path)
	if doc, err := vault.ParseFile(data); err != nil || !doc.Meta.Pinned || len(doc.Problems) != 0 {
		t.Fatalf("after the edit: %v, %+v\n%s", err, doc, data)
	}
}
