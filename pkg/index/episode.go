package index

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// An episode is memories of one session close in time. The figures were
// tuned on two LoCoMo conversations (26, 30; docs/index.md) and hold on
// the three others: the best ten hits lift their neighbours within a
// minute, by 0.6 of their score at the same instant falling linearly to
// nothing at the window's edge.
const (
	episodeSeeds  = 10
	episodeWindow = time.Minute
	episodeWeight = 0.6
	// episodeWords: a lifted memory longer than this many words gains
	// the lift × episodeWords / its length. Context stands in for what a
	// short turn's own words cannot say ("Yes, last Tuesday"); a long
	// message says it, and lifted in full a chat's long messages about
	// one exchange crowded out the evidence their own words ranked first
	// (BEAM: 13 of the 16 questions plain found and mem missed). No
	// LoCoMo turn, and few REALTALK ones, are this long (docs/index.md,
	// Session 28).
	episodeWords = 100
)

// episodes lifts, in a ranked answer to p, the episodes of its best hits:
// memories of the same session whose valid_at is within episodeWindow of
// a hit's gain a share of its score, falling with the distance, so the
// turn that answers a question ranks near the turn that asked it.
func episodes(idx bleve.Index, c *memo, hits []*search.DocumentMatch, p phrasing) ([]*search.DocumentMatch, error) {
	type seed struct {
		id, session string
		at          time.Time
		score       float64
	}
	var seeds []seed
	// The seeds' session and valid_at (hits ranked without their stored
	// fields: queryIndex).
	if err := loadStored(idx, c, hits[:min(len(hits), episodeSeeds)]); err != nil {
		return nil, err
	}
	for _, h := range hits[:min(len(hits), episodeSeeds)] {
		sess, _ := h.Fields[fieldSession].(string)
		text, _ := h.Fields[fieldValidAtText].(string)
		if sess == "" || text == "" {
			continue
		}
		at, err := frontmatter.ParseTime(text)
		if err != nil {
			continue
		}
		seeds = append(seeds, seed{h.ID, sess, at.Time, h.Score})
	}
	if len(seeds) == 0 {
		return hits, nil
	}
	// The seeds' sessions, each once; the window is checked below, on the
	// few memories a session holds, which costs less than a date range
	// query over the whole index.
	var ors []query.Query
	asked := map[string]bool{}
	for _, s := range seeds {
		if !asked[s.session] {
			asked[s.session] = true
			t := bleve.NewTermQuery(s.session)
			t.SetField(fieldSession)
			ors = append(ors, t)
		}
	}
	// A lifted memory still holds the phrasing's required clauses and
	// filters, and none of its excluded ones (the query-string mode drops
	// a required stop word, as the phrasing's own query does).
	nq := query.NewBooleanQueryForQueryString(append([]query.Query{bleve.NewDisjunctionQuery(ors...)}, p.required...), nil, p.excluded)
	req := bleve.NewSearchRequestOptions(nq, 1000, 0, false)
	req.Fields = storedFields
	req.Score = "none"
	sr, err := idx.Search(req)
	if err != nil {
		return nil, err
	}
	// A lifted memory's length, read only for those the lift reaches.
	var r bleveindex.IndexReader
	defer func() {
		if r != nil {
			r.Close()
		}
	}()
	byID := make(map[string]*search.DocumentMatch, len(hits))
	for _, h := range hits {
		byID[h.ID] = h
	}
	for _, n := range sr.Hits {
		sess, _ := n.Fields[fieldSession].(string)
		text, _ := n.Fields[fieldValidAtText].(string)
		at, err := frontmatter.ParseTime(text)
		if err != nil {
			continue
		}
		var lift float64
		for _, s := range seeds {
			d := at.Sub(s.at).Abs()
			if s.id == n.ID || s.session != sess || d > episodeWindow {
				continue
			}
			lift += episodeWeight * s.score * (1 - float64(d)/float64(episodeWindow+time.Second))
		}
		if lift <= 0 {
			continue
		}
		if r == nil {
			if r, err = c.reader(idx); err != nil {
				return nil, err
			}
		}
		w, err := bodyWords(r, n)
		if err != nil {
			return nil, err
		}
		if w > episodeWords {
			lift *= float64(episodeWords) / float64(w)
		}
		if h := byID[n.ID]; h != nil {
			h.Score += lift
			explainStep(h, "lifted by its episode: plus %.4g (same session, within %s of a better hit)", lift, episodeWindow)
			continue
		}
		n.Score = lift
		if hits[0].Expl != nil {
			// Found by its episode alone: nothing of its own to explain.
			n.Expl = &search.Explanation{Value: lift, Message: fmt.Sprintf("lifted by its episode alone (same session, within %s of a better hit)", episodeWindow)}
		}
		byID[n.ID] = n
		hits = append(hits, n)
	}
	slices.SortFunc(hits, byScore)
	return hits, nil
}

// bodyWords is the number of words of n's body as stored (split at
// spaces).
func bodyWords(r bleveindex.IndexReader, n *search.DocumentMatch) (int, error) {
	f, err := storedOf(r, n, fieldBody)
	if err != nil {
		return 0, err
	}
	b, _ := f[fieldBody].(string)
	return len(strings.Fields(b)), nil
}
