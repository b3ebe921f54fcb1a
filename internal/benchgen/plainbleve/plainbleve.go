// Package plainbleve is the benchmark's ceiling for full-text indexing: the
// bleve library used the plain way (scorch, batches), on the same files mem
// indexes, with nothing of mem's own in the way. Index uses bleve's default
// mapping; IndexLean the fields and analyzers of mem's, which is what mem's
// rebuild-index --full is measured against.
package plainbleve

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/index/tokens"
	"github.com/mem-md/mem/pkg/index/wordvec"
	"github.com/mem-md/mem/pkg/vault"
)

// batchSize documents go in one batch: bleve's memory grows with the batch,
// and a few hundred is what its authors recommend.
const batchSize = 500

type doc struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// Index builds a new bleve index at indexPath holding every memory file of
// the vault at root (the files vault.List returns), each as its path and
// its whole text. It returns the number of documents indexed.
func Index(root, indexPath string) (int, error) {
	return build(root, indexPath, bleve.NewIndexMapping(), func(rel string, data []byte) any {
		return doc{Path: rel, Content: string(data)}
	})
}

// build indexes every memory file of the vault at root into a new index
// at indexPath with mapping, in batches of batchSize, each file as docOf
// makes it (nil: not indexed): the plain way both references share.
func build(root, indexPath string, mapping mapping.IndexMapping, docOf func(rel string, data []byte) any) (int, error) {
	v, err := vault.Open(root)
	if err != nil {
		return 0, err
	}
	rels, err := v.List()
	if err != nil {
		return 0, err
	}
	idx, err := bleve.New(indexPath, mapping)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", indexPath, err)
	}
	batch := idx.NewBatch()
	for _, rel := range rels {
		data, err := os.ReadFile(filepath.Join(v.Root, filepath.FromSlash(rel)))
		if err != nil {
			idx.Close()
			return 0, err
		}
		d := docOf(rel, data)
		if d == nil {
			continue
		}
		if err := batch.Index(rel, d); err != nil {
			idx.Close()
			return 0, fmt.Errorf("%s: %w", rel, err)
		}
		if batch.Size() >= batchSize {
			if err := idx.Batch(batch); err != nil {
				idx.Close()
				return 0, err
			}
			batch.Reset()
		}
	}
	if err := idx.Batch(batch); err != nil {
		idx.Close()
		return 0, err
	}
	return len(rels), idx.Close()
}

// LeanMapping is mem's mapping (pkg/index/mapping.go) written out with
// bleve's own constructors: the same fields, analyzers, stored values and
// term vectors, so the reference does the same analysis and writes the
// same index as mem. pkg/index's TestLeanReferenceMatchesMapping keeps the
// two in step.
func LeanMapping() mapping.IndexMapping {
	prose := func(store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer, f.Store = tokens.Name, store
		f.IncludeInAll, f.IncludeTermVectors, f.DocValues = false, true, false
		return f
	}
	kw := func(store bool) *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store, f.IncludeInAll, f.IncludeTermVectors, f.DocValues = store, false, false, false
		return f
	}
	words := prose(false)
	words.Name = "tags_words"
	storedOnly := bleve.NewTextFieldMapping()
	storedOnly.Index, storedOnly.IncludeInAll, storedOnly.IncludeTermVectors, storedOnly.DocValues = false, false, false, false
	date := bleve.NewDateTimeFieldMapping()
	date.Store, date.IncludeInAll, date.DocValues = false, false, false
	num := bleve.NewNumericFieldMapping()
	num.Store, num.IncludeInAll, num.DocValues = false, false, false

	doc := bleve.NewDocumentStaticMapping()
	doc.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	doc.AddFieldMappingsAt("title", prose(true))
	doc.AddFieldMappingsAt("body", prose(true))
	doc.AddFieldMappingsAt("description", prose(false))
	doc.AddFieldMappingsAt("aliases", prose(false))
	doc.AddFieldMappingsAt("evidence", prose(false))
	doc.AddFieldMappingsAt("tags", kw(false), words)
	for _, f := range []string{"id", "type", "provenance", "session"} {
		doc.AddFieldMappingsAt(f, kw(true))
	}
	for _, f := range []string{"project", "source", "supersedes", "subject", "exact"} {
		doc.AddFieldMappingsAt(f, kw(false))
	}
	doc.AddFieldMappingsAt("valid_at_text", storedOnly)
	doc.AddFieldMappingsAt("meaning", storedOnly)
	doc.AddFieldMappingsAt("valid_at", date)
	doc.AddFieldMappingsAt("importance", num)
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.ScoringModel = bleveindex.TFIDFScoring
	m.DefaultAnalyzer = tokens.Name
	m.DefaultField = "body"
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	return m
}

// LeanDoc is the document LeanMapping indexes for the file rel holding
// data: its frontmatter parsed with mem's parser, the same values mem's
// index records, empty ones left out as mem leaves them out. It is nil
// for a file that is not text, which mem does not index either.
func LeanDoc(rel string, data []byte) map[string]any {
	fm, _ := vault.ParseFile(data) // mem indexes what parsed, problems or not
	if fm == nil {
		return nil
	}
	m := &fm.Meta
	d := map[string]any{"id": strings.TrimSuffix(rel, ".md"), "type": frontmatter.TypeNote, "body": fm.Body,
		"importance": float64(m.ImportanceOrDefault())}
	for k, v := range map[string]string{"id": m.ID, "type": strings.TrimSpace(m.Type), "provenance": m.Provenance,
		"project": m.Project, "source": m.Source, "title": m.Title, "description": m.Description, "evidence": m.Evidence, "subject": gate.Subject(m),
		"session": m.Session} {
		if v != "" {
			d[k] = v
		}
	}
	if m.Title == "" && !frontmatter.IsMemoryType(m.Type) {
		d["title"] = vault.FileTitle(rel)
	}
	for k, v := range map[string][]string{"tags": m.Tags, "supersedes": m.Supersedes, "aliases": m.Aliases} {
		if len(v) > 0 {
			d[k] = v
		}
	}
	title, _ := d["title"].(string)
	if v := wordvec.Of(title + "\n" + fm.Body); v != nil {
		d["meaning"] = wordvec.Encode(v)
	}
	if !m.ValidAt.IsZero() {
		d["valid_at"], d["valid_at_text"] = m.ValidAt.Time, m.ValidAt.String()
	}
	names := append([]string{m.Title}, m.Aliases...)
	if !frontmatter.IsMemoryType(m.Type) {
		names = append(names, vault.FileTitle(rel))
	}
	var exact []string
	for _, name := range names {
		if k := tokens.ExactKey(name); k != "" && !slices.Contains(exact, k) {
			exact = append(exact, k)
		}
	}
	if len(exact) > 0 {
		d["exact"] = exact
	}
	return d
}

// IndexLean is Index with mem's mapping and documents (LeanMapping,
// LeanDoc): the reference for rebuild-index --full (issue 22).
func IndexLean(root, indexPath string) (int, error) {
	return build(root, indexPath, LeanMapping(), func(rel string, data []byte) any {
		if d := LeanDoc(rel, data); d != nil {
			return d
		}
		return nil
	})
}
