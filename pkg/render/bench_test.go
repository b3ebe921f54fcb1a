package render

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// benchVault is n memories shaped like a large real vault: a few pinned,
// a third spread over 20 projects, some imports, notes, stale and retired
// claims, the rest global with importance from 1 to 10.
func benchVault(n int) []*vault.Memory {
	rng := rand.New(rand.NewSource(50000))
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	mems := make([]*vault.Memory, n)
	for i := range mems {
		m := frontmatter.Meta{
			Type: frontmatter.TypeFact, Provenance: frontmatter.Provenances[rng.Intn(3)],
			Importance: 1 + rng.Intn(10),
			ValidAt:    frontmatter.NewDate(base.AddDate(0, 0, rng.Intn(1000))),
		}
		switch r := rng.Intn(1000); {
		case r < 2:
			m.Pinned = true
		case r < 330:
			m.Project = fmt.Sprintf("proj_p%02d", rng.Intn(20))
		case r < 380:
			m.Source = "import:chatgpt"
		case r < 430:
			m.Type = frontmatter.TypeNote
		case r < 480:
			m.StaleAfter = frontmatter.NewDate(base.AddDate(0, 0, rng.Intn(1200)))
		case r < 500:
			m.InvalidAt = frontmatter.NewDate(base.AddDate(0, 0, rng.Intn(1200)))
		case r < 560:
			m.Tags = []string{"go", "durable"}
		}
		rel := fmt.Sprintf("memory/m%05d.md", i)
		body := fmt.Sprintf("Memory number %d says something worth one line of context.\n", i)
		mems[i] = &vault.Memory{Rel: rel, ID: rel[:len(rel)-3], Raw: "---\ntype: fact\n---\n" + body, Doc: &frontmatter.Document{
			Meta: m, Body: body, BodyLine: 8,
		}}
	}
	return mems
}

// BenchmarkRender is the session-boot cost of the view over 50,000
// memories already loaded (the loader's cost is measured separately).
func BenchmarkRender(b *testing.B) {
	mems := benchVault(50000)
	o := opts()
	o.Project = &vault.Project{ID: "proj_p07", Name: "P7"}
	b.ReportAllocs()
	for b.Loop() {
		r, err := Render(mems, o)
		if err != nil || len(r.Doc) > o.Budget {
			b.Fatal(err)
		}
	}
}
