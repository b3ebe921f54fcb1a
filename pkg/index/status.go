package index

import (
	"cmp"
	"slices"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

// statusText is the status as a person reads it: "superseded by ID".
func (h Hit) statusText() string {
	if h.Status == vault.StatusSuperseded && h.SupersededBy != "" {
		return h.Status + " by " + h.SupersededBy
	}
	return h.Status
}

// Cite is the hit's citation line, as mem search and the MCP search print
// it: path, type, provenance, valid_at and status, and the id.
func (h Hit) Cite() string {
	validAt := h.ValidAt
	if validAt == "" {
		validAt = "undated"
	}
	var tags []string
	for _, s := range []string{h.Type, h.Provenance, validAt, h.statusText()} {
		if s != "" {
			tags = append(tags, s)
		}
	}
	return h.Path + "  " + strings.Join(tags, ", ") + "  (id: " + h.ID + ")"
}

// relatedMax bounds the claims read to decide whether hits were beaten.
// They are asked relatedFirst at a time first: bleve sets aside a match
// for every document asked before it reads one, and a thousand was ~170
// KB a search, a fifth of the garbage of a search from the held index,
// for the few claims a page of hits has related.
const (
	relatedMax   = 1000
	relatedFirst = 64
)

// annotate fills each hit's Status and SupersededBy from its file, as the
// render decides it: the claims that could beat a hit (those superseding
// it, those sharing its subject key, its rivals: those superseding what it
// supersedes, and what it supersedes) are found through the index, read
// (through the held index's memo c, when there is one), and reconciled
// with the hits, read as mems, by gate.Reconcile.
func annotate(v *vault.Vault, idx bleve.Index, c *memo, hits []Hit, mems []*vault.Memory, now time.Time) error {
	if len(hits) == 0 {
		return nil
	}
	rels := make([]string, len(hits))
	for i, h := range hits {
		rels[i] = h.Path
	}
	var ors []query.Query
	// ask adds the claims holding term in field; self says the hit holds it
	// too. A held index knows which terms more files hold (memo.holders):
	// the others would find nothing but the hit, and each term asked is a
	// lookup in every segment (two in three hits' ids are never superseded).
	ask := func(field, term string, self bool) {
		if n, known := c.holders(idx, field, term); known && (n == 0 || self && n == 1) {
			return
		}
		t := bleve.NewTermQuery(term)
		t.SetField(field)
		ors = append(ors, t)
	}
	for i, m := range mems {
		ask(fieldSupersedes, hits[i].ID, false)
		if m.OK() {
			for _, old := range m.Meta().Supersedes {
				ask(fieldSupersedes, old, true)
				ask(fieldID, old, false)
			}
			if s := gate.Subject(m.Meta()); s != "" {
				ask(fieldSubject, s, true)
			}
		}
	}
	seen := make(map[string]bool, len(rels))
	for _, r := range rels {
		seen[r] = true
	}
	var more []string
	if len(ors) > 0 {
		related := bleve.NewDisjunctionQuery(ors...)
		sr, err := idx.Search(bleve.NewSearchRequestOptions(related, relatedFirst, 0, false))
		if err == nil && sr.Total > relatedFirst {
			sr, err = idx.Search(bleve.NewSearchRequestOptions(related, relatedMax, 0, false))
		}
		if err != nil {
			return err
		}
		for _, h := range sr.Hits {
			if !seen[h.ID] {
				seen[h.ID] = true
				more = append(more, h.ID)
			}
		}
	}
	res := gate.Reconcile(append(slices.Clip(mems), c.load(v, more)...), now)
	for i, m := range mems {
		hits[i].Status, hits[i].SupersededBy = res.Status(m)
		hits[i].File = m
	}
	return nil
}

// rank orders hits by relevance, current claims first where it is equal,
// and never a superseded claim above the claim that beat it: a beaten hit
// ranks as its winner does (or lower), just after it.
func rank(hits []Hit) {
	byID := make(map[string]int, len(hits))
	for i, h := range hits {
		byID[h.ID] = i
	}
	eff := make([]float64, len(hits))
	depth := make([]int, len(hits)) // winners above it in the answer
	for i := range hits {
		eff[i] = hits[i].Score
		// Follow the chain of winners inside the answer (a cycle cannot
		// come from Reconcile, but the walk is bounded all the same).
		for j, steps := i, 0; hits[j].SupersededBy != "" && steps < len(hits); steps++ {
			w, ok := byID[hits[j].SupersededBy]
			if !ok {
				break
			}
			eff[i] = min(eff[i], hits[w].Score)
			depth[i]++
			j = w
		}
	}
	order := make([]int, len(hits))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(eff[b], eff[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(depth[a], depth[b]); c != 0 {
			return c
		}
		if c := cmp.Compare(statusRank(hits[a].Status), statusRank(hits[b].Status)); c != 0 {
			return c
		}
		if c := cmp.Compare(hits[b].Score, hits[a].Score); c != 0 {
			return c
		}
		return cmp.Compare(hits[a].Path, hits[b].Path) // equal hits in one order, whatever bleve's segments gave
	})
	sorted := make([]Hit, len(hits))
	for i, o := range order {
		sorted[i] = hits[o]
	}
	copy(hits, sorted)
}

// statusRank puts standing claims before the rest at equal relevance.
func statusRank(s string) int {
	switch s {
	case vault.StatusCurrent:
		return 0
	case vault.StatusStale:
		return 1
	}
	return 2
}
