// Package plainbleve is the benchmark's ceiling for full-text indexing: the
// bleve library used the plain way (default mapping, scorch, batches), on
// the same files mem indexes, with nothing of mem's own in the way. mem's
// rebuild-index --full is measured against it.
package plainbleve

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/blevesearch/bleve/v2"

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
	v, err := vault.Open(root)
	if err != nil {
		return 0, err
	}
	rels, err := v.List()
	if err != nil {
		return 0, err
	}
	idx, err := bleve.New(indexPath, bleve.NewIndexMapping())
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
		if err := batch.Index(rel, doc{Path: rel, Content: string(data)}); err != nil {
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
