package writer

import (
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

func TestSupersedeKeepsScope(t *testing.T) {
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
