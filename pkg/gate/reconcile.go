// Package gate decides between claims: the promotion gate for inferred
// lessons (spec §6) and the reconciler that picks the winner when claims
// supersede or contradict each other (spec §1, principles 3–5). Pure
// functions over loaded memories; render, lint and audit all call these.
package gate

import (
	"sort"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Compare orders two claims about one subject: positive when a beats b.
// Stated beats observed beats inferred; among equals the later valid_at
// wins; an undated claim loses to a dated one. Zero means a tie.
func Compare(a, b *frontmatter.Meta) int {
	if d := frontmatter.ProvenanceRank(a.Provenance) - frontmatter.ProvenanceRank(b.Provenance); d != 0 {
		return d
	}
	switch {
	case a.ValidAt.IsZero() && b.ValidAt.IsZero():
		return 0
	case a.ValidAt.IsZero():
		return -1
	case b.ValidAt.IsZero():
		return 1
	}
	return a.ValidAt.Compare(b.ValidAt.Time)
}

// Conflict is one resolved disagreement: the winner and who lost, and why.
type Conflict struct {
	Subject string // the shared key, or the superseded id
	Winner  *vault.Memory
	Losers  []*vault.Memory
	Reason  string // "supersedes" or "provenance" or "valid_at" or "tie"
}

// Resolution is the reconciler's verdict over a set of memories.
type Resolution struct {
	// Lost maps the id of every memory that must not render to the id of
	// the memory that beat it.
	Lost      map[string]string
	Conflicts []Conflict
}

// Reconcile resolves supersession and same-subject claims among mems (the
// memories still eligible for a view). A memory listed in another's
// supersedes loses to it. Memories sharing a non-empty `key` are claims
// about one subject: the best by Compare wins, ties go to the smaller id so
// the result is deterministic.
func Reconcile(mems []*vault.Memory) Resolution {
	res := Resolution{Lost: map[string]string{}}
	byID := make(map[string]*vault.Memory, len(mems))
	for _, m := range mems {
		byID[m.ID] = m
	}
	for _, m := range mems {
		for _, old := range m.Meta().Supersedes {
			loser, ok := byID[old]
			if !ok || loser == m {
				continue
			}
			if _, done := res.Lost[old]; !done {
				res.Lost[old] = m.ID
				res.Conflicts = append(res.Conflicts, Conflict{Subject: old, Winner: m, Losers: []*vault.Memory{loser}, Reason: "supersedes"})
			}
		}
	}
	groups := map[string][]*vault.Memory{}
	for _, m := range mems {
		if k := m.Meta().Key; k != "" {
			if _, lost := res.Lost[m.ID]; !lost {
				groups[k] = append(groups[k], m)
			}
		}
	}
	keys := make([]string, 0, len(groups))
	for k, g := range groups {
		if len(g) > 1 {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		g := groups[k]
		sort.SliceStable(g, func(i, j int) bool {
			if c := Compare(g[i].Meta(), g[j].Meta()); c != 0 {
				return c > 0
			}
			return g[i].ID < g[j].ID
		})
		c := Conflict{Subject: k, Winner: g[0], Losers: g[1:], Reason: reason(g[0].Meta(), g[1].Meta())}
		for _, l := range c.Losers {
			res.Lost[l.ID] = g[0].ID
		}
		res.Conflicts = append(res.Conflicts, c)
	}
	return res
}

func reason(w, l *frontmatter.Meta) string {
	switch {
	case frontmatter.ProvenanceRank(w.Provenance) != frontmatter.ProvenanceRank(l.Provenance):
		return "provenance"
	case Compare(w, l) != 0:
		return "valid_at"
	}
	return "tie"
}
