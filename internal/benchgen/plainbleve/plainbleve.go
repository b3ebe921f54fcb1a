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

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/mem-md/mem/pkg/vault"
)

// BatchSize documents go in one batch: bleve's memory grows with the batch,
// and a few hundred is what its authors recommend.
const BatchSize = 500

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
// at indexPath with mapping, in batches of BatchSize, each file as docOf
// makes it: the plain way both references share.
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
		if err := batch.Index(rel, docOf(rel, data)); err != nil {
			idx.Close()
			return 0, fmt.Errorf("%s: %w", rel, err)
		}
		if batch.Size() >= BatchSize {
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

// leanDoc is what IndexLean indexes: the fields mem's index searches by.
type leanDoc struct {
	Path    string   `json:"path"`
	Type    string   `json:"type,omitempty"`
	Project string   `json:"project,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Title   string   `json:"title,omitempty"`
	Body    string   `json:"body"`
}

// leanMapping is mem's mapping reduced to those fields, with the same
// analyzers and options: English prose (title and body stored with term
// vectors, as snippets need), keywords for the rest, no _all field.
func leanMapping() mapping.IndexMapping {
	prose := bleve.NewTextFieldMapping()
	prose.Analyzer = en.AnalyzerName
	prose.IncludeInAll, prose.IncludeTermVectors, prose.DocValues = false, true, false
	kw := bleve.NewKeywordFieldMapping()
	kw.Store, kw.IncludeInAll, kw.IncludeTermVectors, kw.DocValues = false, false, false, false
	doc := bleve.NewDocumentStaticMapping()
	doc.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping())
	doc.AddFieldMappingsAt("title", prose)
	doc.AddFieldMappingsAt("body", prose)
	for _, f := range []string{"path", "type", "project", "tags"} {
		doc.AddFieldMappingsAt(f, kw)
	}
	m := bleve.NewIndexMapping()
	m.DefaultMapping = doc
	m.DefaultAnalyzer = en.AnalyzerName
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	return m
}

// IndexLean is Index with the fields and analyzers of mem's own mapping
// (title, body, tags, project, type, path), the frontmatter parsed with
// mem's parser: the reference for rebuild-index --full (issue 22).
func IndexLean(root, indexPath string) (int, error) {
	return build(root, indexPath, leanMapping(), func(rel string, data []byte) any {
		d := leanDoc{Path: rel, Body: string(data)}
		if fm, err := vault.ParseFile(data); err == nil {
			m := fm.Meta
			d.Type, d.Project, d.Tags, d.Title, d.Body = m.Type, m.Project, m.Tags, m.Title, fm.Body
		}
		return d
	})
}
