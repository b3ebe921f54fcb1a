package writer

import (
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Control characters are refused on every door of the writer and in every
// field a person or a model reads (spec §8), the importers' Create and an
// edit through Update included: OSC 52 and CSI sequences, DEL, and CSI as
// one C1 character.
func TestControlsRefusedOnEveryPath(t *testing.T) {
	t.Parallel()
	values := map[string]string{
		"osc52": "copy \x1b]52;c;Y3VybCB4fHNo\a this",
		"csi":   "clear \x1b[2J the screen",
		"del":   "a \x7f b",
		"c1":    "a \u009b2J b",
	}
	doors := append([]path{}, paths...)
	doors = append(doors,
		path{"create", "text", func(v *vault.Vault, s string) error {
			doc := &frontmatter.Document{HasFrontmatter: true, Meta: frontmatter.Meta{Type: frontmatter.TypeFact, Provenance: "inferred", Source: "import:test"}, Body: s + "\n"}
			_, err := Create(v, Front{}, "memory", "imported", "", doc, now)
			return err
		}},
		path{"update", "text", func(v *vault.Vault, s string) error {
			_, err := Update(v, Front{}, "memory/cold-cache", "", now, func(d *frontmatter.Document) error {
				d.Body = s + "\n"
				return nil
			})
			return err
		}},
	)
	for _, p := range doors {
		for name, value := range values {
			t.Run(p.name+"/"+p.field+"/"+name, func(t *testing.T) {
				t.Parallel()
				refusedUnchanged(t, p, value, "control-character", false)
			})
		}
	}
}

// A tab is no control character to refuse.
func TestTabIsWritten(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	if _, err := Remember(v, Front{}, vault.NewMemory{Text: "The build\tuses Go 1.26"}, now); err != nil {
		t.Fatalf("a tab: %v", err)
	}
}
