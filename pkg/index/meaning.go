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

// nearDuplicate is the cosine above which a candidate repeats a hit
// ranked above it (diversify): from it its score falls linearly, by
// duplicateCost at 1. On the three sets of mem-bench recall 0.8 raised
// BEAM and REALTALK and kept LoCoMo; 0.7 lost LoCoMo a question
// (docs/index.md, "Near-duplicates in the first five").
const nearDuplicate = 0.8

// duplicateCost is the share of its score a hit loses at a cosine of 1
// with one above it: half, so a copy gives way to a memory that says
// something else and matches nearly as well, never to one that lacks the
// question's words (at 1 a copy fell below memories that matched a filter
// alone). On the suite it found what 1 found and a REALTALK question more.
const duplicateCost = 0.5

// diverseFirst is how many of the first hits diversify compares the
// others with: a copy of one of them gives way, and the first
// diverseFirst+1 places are those of a comparison with every hit placed,
// at a tenth of its cost (100 cosines a place).
const diverseFirst = 10

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
	// One vector beside the question's is their shared component and
	// what is left of the two points opposite ways (a cosine of −1 that
	// says nothing): a window with one memory in the table's words has
	// nothing to reorder by meaning, and its score stays what its words
	// gave it, not nearly nothing below the hits without a vector.
	withVector := 0
	for _, v := range vs {
		if v != nil {
			withVector++
		}
	}
	if withVector < 2 {
		return hits, nil
	}
	// The component the window and the question share, which depends
	// only on the window: the same whatever the limit, held or not.
	wordvec.RemoveShared(append(vs, q))
	for i, h := range hits {
		if cos := wordvec.Cosine(q, vs[i]); cos != 0 {
			h.Score *= 1 + meaningWeight*cos
			explainStep(h, "times %.4g by meaning (the cosine of the question's and the memory's word vectors, %.3f)", 1+meaningWeight*cos, cos)
		}
	}
	diversify(hits, vs)
	slices.SortFunc(hits, byScore)
	return hits, nil
}

// diversify lowers the score of each of hits that nearly repeats one
// ranked above it (maximal marginal relevance, with a threshold): greedily,
// best first, each of the first diverseFirst places goes to the candidate
// whose score × (1 − penalty) is highest, the penalty rising linearly from
// 0 at a cosine of nearDuplicate with a hit already placed to
// duplicateCost at a cosine of 1 (the highest over those placed; vs are
// the hits' vectors, nil for none). A hit's score becomes its score when placed, and the
// rest keep theirs after the penalty, so the order by score is the greedy
// one and never rises along it; a hit that repeats none above it keeps
// its score. A summary, or a question whose evidence is spread over a
// conversation, wants its first five to be five things, where
// near-identical turns (an assistant's restated plan, a repeated request)
// would each take a place; a hit's neighbours that say something else
// (the answer after the question) are not touched. The window alone
// decides it: the same whatever the limit.
func diversify(hits []*search.DocumentMatch, vs [][]float32) {
	maxSim := make([]float64, len(hits)) // with the hits placed; below nearDuplicate it does not count
	placed := make([]bool, len(hits))
	penalty := func(i int) float64 { // the factor of hits[i]'s score
		if maxSim[i] <= nearDuplicate {
			return 1
		}
		return 1 - duplicateCost*(maxSim[i]-nearDuplicate)/(1-nearDuplicate)
	}
	score := func(i int) float64 { return hits[i].Score * penalty(i) }
	lower := func(i int) {
		if f := penalty(i); f != 1 {
			hits[i].Score *= f
			explainStep(hits[i], "times %.4g: nearly repeats a hit placed above it (cosine %.3f)", f, maxSim[i])
		}
	}
	unit := make([][]float32, len(vs))
	for i, v := range vs {
		unit[i] = wordvec.Unit(v)
	}
	for range min(len(hits), diverseFirst) {
		best, bestScore := -1, 0.0
		for i, h := range hits {
			if s := score(i); !placed[i] && (best < 0 || s > bestScore || (s == bestScore && h.ID < hits[best].ID)) {
				best, bestScore = i, s
			}
		}
		placed[best] = true
		lower(best)
		if unit[best] == nil {
			continue
		}
		for i := range hits {
			if !placed[i] && unit[i] != nil {
				maxSim[i] = max(maxSim[i], wordvec.Dot(unit[i], unit[best]))
			}
		}
	}
	// The rest are compared with the first diverseFirst only: each keeps
	// the score it has now, none above the last placed.
	for i := range hits {
		if !placed[i] {
			lower(i)
		}
	}
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
