package index

import (
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/mem-md/mem/pkg/index/wordvec"
)

// meaningWeight is how much the rerank by meaning moves a candidate: its
// score is multiplied by 1 + meaningWeight × the cosine of its text's
// vector with the question's (pkg/index/wordvec). TF-IDF orders the window
// by how rare the shared words are; the vectors order it by meaning too
// (`cities` is near `Orlando`). Reranked after the episode lift, on the
// three sets of mem-bench recall it lowered none and raised each
// (docs/index.md, "Word vectors shipped"); before the lift BEAM lost, and
// from 2 the vectors outweighed the words on LoCoMo.
const meaningWeight = 1.0

// byMeaning reranks the first n of hits, p's ranked and lifted answer, by
// the cosine of each file's stored vector with the vector of p's words
// (those asked for, not the excluded ones) and answers those n in the new
// order. c is a held index's memo (nil: none), through which the stored
// vectors of hits ranked without them are read.
func byMeaning(idx bleve.Index, c *memo, hits []*search.DocumentMatch, p phrasing, n int) ([]*search.DocumentMatch, error) {
	hits = hits[:min(n, len(hits))]
	var asked []string
	for _, cl := range parse(p.text) {
		if cl.occur != mustNot && !queryFields[cl.field] {
			asked = append(asked, cl.text)
		}
	}
	q := wordvec.Of(strings.Join(asked, " "))
	if q == nil || len(hits) == 0 {
		return hits, nil
	}
	vs := make([][]float32, len(hits), len(hits)+1)
	var r bleveindex.IndexReader
	for i, h := range hits {
		s, _ := h.Fields[fieldMeaning].(string)
		if h.Fields == nil {
			// Ranked without its stored fields (a held index): read
			// through the memo, which keeps the document for the next search.
			if r == nil {
				var err error
				if r, err = c.reader(idx); err != nil {
					return nil, err
				}
				defer r.Close()
			}
			var err error
			if s, err = storedMeaning(r, h.ID); err != nil {
				return nil, err
			}
		}
		vs[i] = wordvec.Decode(s)
	}
	// The component the window and the question share, which depends
	// only on the window: the same whatever the limit, held or not.
	wordvec.RemoveShared(append(vs, q))
	for i, h := range hits {
		h.Score *= 1 + meaningWeight*wordvec.Cosine(q, vs[i])
	}
	slices.SortFunc(hits, byScore)
	return hits, nil
}

// storedMeaning is document id's stored vector (wordvec.Encode; "" for
// none), read by r.
func storedMeaning(r bleveindex.IndexReader, id string) (string, error) {
	doc, err := r.Document(id)
	if err != nil || doc == nil {
		return "", err
	}
	var s string
	doc.VisitFields(func(f bleveindex.Field) {
		if t, ok := f.(bleveindex.TextField); ok && f.Name() == fieldMeaning {
			s = t.Text()
		}
	})
	return s, nil
}
