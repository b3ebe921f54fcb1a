package index

import (
	"fmt"
	"reflect"
	"slices"
	"testing"

	blevedoc "github.com/blevesearch/bleve/v2/document"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/internal/benchgen/plainbleve"
	"github.com/mem-md/mem/pkg/vault"
)

// TestLeanReferenceMatchesMapping: the benchmark's lean plain-bleve
// reference, which rebuild-index --full is judged by, must index what mem
// indexes — every field, value, option (stored, term vectors) and token —
// or the comparison flatters one side. A change to newMapping or document
// that this test catches needs the same change in plainbleve.
func TestLeanReferenceMatchesMapping(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := benchgen.Write(dir, benchgen.Options{N: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	write(t, v, "notes/plain.md", "No frontmatter at all, just words.\n")
	write(t, v, "memory/own-id.md", memory("  Metric ", "stated", "2026-03-04", "Own id.", "id: custom_id", "key: Colour", "project: p", "aliases: [hue]"))
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	mems := v.LoadFiles(rels, vault.LoadOptions{Raw: true})
	for _, m := range mems {
		want := fields(t, newMapping(), m.Rel, document(m))
		got := fields(t, plainbleve.LeanMapping(), m.Rel, plainbleve.LeanDoc(m.Rel, []byte(m.Raw)))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the reference indexes\n%v\nmem indexes\n%v", m.Rel, got, want)
		}
	}
}

// fields is what bleve makes of data under m: each field's name, options,
// value and analysed tokens, in a stable order.
func fields(t *testing.T, m mapping.IndexMapping, id string, data map[string]any) []string {
	t.Helper()
	if data == nil {
		return nil
	}
	doc := blevedoc.NewDocument(id)
	if err := m.MapDocument(doc, data); err != nil {
		t.Fatal(err)
	}
	var out []string
	doc.VisitFields(func(f bleveindex.Field) {
		f.Analyze()
		var toks []string
		for term, tf := range f.AnalyzedTokenFrequencies() {
			tok := fmt.Sprintf("%q×%d", term, tf.Frequency())
			for _, l := range tf.Locations {
				tok += fmt.Sprintf(" %v@%d:%d-%d", l.ArrayPositions, l.Position, l.Start, l.End)
			}
			toks = append(toks, tok)
		}
		slices.Sort(toks)
		out = append(out, fmt.Sprintf("%s %v %v %q %v", f.Name(), f.Options(), f.ArrayPositions(), f.Value(), toks))
	})
	slices.Sort(out)
	return out
}
