package writer

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// TestRetireWritesKnownKeys: every key a retire with a reason writes is in
// frontmatter.KnownKeys, so lint and the importers know it for mem's own.
func TestRetireWritesKnownKeys(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	m, err := Remember(v, Front{}, vault.NewMemory{Text: "CI takes ten minutes", Type: "fact"}, now)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Retire(v, Front{}, m.ID, "", frontmatter.Time{}, "moved to bigger runners", now); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(v.Root, m.Rel))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := frontmatter.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := doc.Keys[ReasonKey]; !ok {
		t.Fatalf("no %s written:\n%s", ReasonKey, data)
	}
	for k := range doc.Keys {
		if !slices.Contains(frontmatter.KnownKeys, k) {
			t.Errorf("retire wrote %q, which is not in frontmatter.KnownKeys:\n%s", k, data)
		}
	}
}
