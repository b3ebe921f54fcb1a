package render

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// randomVault builds n memories with random tiers, importance, dates,
// staleness, supersession, keys and lengths, from a fixed seed.
func randomVault(t testing.TB, rng *rand.Rand, n int) []*vault.Memory {
	t.Helper()
	types := []string{"identity", "preference", "decision", "fact", "lesson", "rule", "correction", "note"}
	provs := []string{"stated", "observed", "inferred"}
	projects := []string{"", "", "proj_webshop", "proj_other"}
	mems := make([]*vault.Memory, 0, n)
	for i := range n {
		var b strings.Builder
		fmt.Fprintf(&b, "---\ntype: %s\nprovenance: %s\n", types[rng.Intn(len(types))], provs[rng.Intn(len(provs))])
		if p := projects[rng.Intn(len(projects))]; p != "" {
			fmt.Fprintf(&b, "project: %s\n", p)
		}
		if rng.Intn(4) == 0 {
			b.WriteString("pinned: true\n")
		}
		if rng.Intn(3) > 0 {
			fmt.Fprintf(&b, "importance: %d\n", 1+rng.Intn(10))
		}
		if rng.Intn(5) > 0 {
			fmt.Fprintf(&b, "valid_at: 2026-%02d-%02d\n", 1+rng.Intn(12), 1+rng.Intn(28))
		}
		if rng.Intn(6) == 0 {
			fmt.Fprintf(&b, "stale_after: 2026-%02d-01\n", 1+rng.Intn(12))
		}
		if rng.Intn(8) == 0 {
			fmt.Fprintf(&b, "tags: [durable]\n")
		}
		if rng.Intn(10) == 0 && i > 0 {
			fmt.Fprintf(&b, "supersedes: [memory/m%04d]\n", rng.Intn(i))
		}
		if rng.Intn(10) == 0 {
			fmt.Fprintf(&b, "key: k%d\n", rng.Intn(5))
		}
		fmt.Fprintf(&b, "---\nMemory %d %s\n", i, strings.Repeat("word ", rng.Intn(40)))
		mems = append(mems, mem(t, fmt.Sprintf("memory/m%04d.md", i), b.String()))
	}
	return mems
}

var tierRank = map[string]int{tierPinned: 0, tierProject: 1, tierGlobal: 2}

// TestProperties checks, over random vaults and budgets: the output never
// exceeds the budget, the same input (in any order) renders the same bytes,
// and no item is dropped for the budget while an item of a lower tier
// renders — so a pinned item is never dropped while a lower-tier one remains.
func TestProperties(t *testing.T) {
	t.Parallel()
	for seed := int64(1); seed <= 200; seed++ {
		rng := rand.New(rand.NewSource(seed))
		mems := randomVault(t, rng, 1+rng.Intn(120))
		o := opts()
		if rng.Intn(3) > 0 {
			o.Project = webshop
		}
		o.Budget = minBudget(o) + rng.Intn(4000)
		r, err := Render(mems, o)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if len(r.Doc) > o.Budget {
			t.Fatalf("seed %d: %d bytes over the %d budget", seed, len(r.Doc), o.Budget)
		}
		if len(r.Items)+len(r.Dropped) != len(mems) {
			t.Fatalf("seed %d: %d items + %d drops for %d memories", seed, len(r.Items), len(r.Dropped), len(mems))
		}

		shuffled := append([]*vault.Memory(nil), mems...)
		rng.Shuffle(len(shuffled), func(i, j int) { shuffled[i], shuffled[j] = shuffled[j], shuffled[i] })
		again, err := Render(shuffled, o)
		if err != nil || string(again.Doc) != string(r.Doc) {
			t.Fatalf("seed %d: rendering the same memories in another order changed the output", seed)
		}

		worstKept := -1
		for _, it := range r.Items {
			worstKept = max(worstKept, tierRank[it.Tier])
		}
		full := opts()
		full.Project, full.Budget = o.Project, 1<<30
		unlimited, _ := Render(mems, full)
		for _, d := range r.Dropped {
			if d.Reason != reasonBudget {
				continue
			}
			it := itemOf(unlimited, d.ID)
			if it == nil && strings.HasPrefix(reasonOf(unlimited, d.ID), "breaks ") {
				continue // the fill never reached it to check it against §8
			}
			if it == nil {
				t.Fatalf("seed %d: %s dropped for budget but not rendered without one", seed, d.ID)
			}
			if tierRank[it.Tier] < worstKept {
				t.Fatalf("seed %d: %s (%s) dropped for budget while a %d-tier item remains", seed, d.ID, it.Tier, worstKept)
			}
		}
		// Within the project and global tiers what stays is the top of the
		// unbudgeted order: items drop from the bottom.
		for _, tier := range []string{tierProject, tierGlobal} {
			kept, all := ofTier(r, tier), ofTier(unlimited, tier)
			if len(kept) > len(all) || strings.Join(kept, " ") != strings.Join(all[:len(kept)], " ") {
				t.Fatalf("seed %d: %s tier kept %v, not a prefix of %v", seed, tier, kept, all)
			}
		}
	}
}

func ofTier(r *Result, tier string) []string {
	var ids []string
	for _, it := range r.Items {
		if it.Tier == tier {
			ids = append(ids, it.ID)
		}
	}
	return ids
}
