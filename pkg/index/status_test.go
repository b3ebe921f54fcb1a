package index

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

var statusNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// Every hit says whether its claim stands; at equal relevance a standing
// claim ranks first, and a superseded claim never ranks above the claim
// that superseded it, however the words score (the eu-central-1 report).
func TestSearchStatus(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	// The old claim says the region twice, so it scores higher on its own.
	write(t, v, "memory/old.md", memory("fact", "stated", "2026-01-01", "Deploys go to eu-central-1; eu-central-1 hosts everything", "id: region-old"))
	write(t, v, "memory/new.md", memory("correction", "stated", "2026-06-01", "Deploys moved off eu-central-1 to eu-west-1 in June, with the database and the queues", "id: region-new", "supersedes: [region-old]"))
	write(t, v, "memory/gone.md", memory("fact", "stated", "2026-01-01", "The eu-central-1 bastion is bastion-1", "invalid_at: 2026-03-01"))
	write(t, v, "memory/dep.md", memory("fact", "stated", "2026-01-01", "eu-central-1 costs are tracked in the ops sheet", "status: deprecated"))
	write(t, v, "memory/imp.md", memory("fact", "stated", "2026-01-01", "eu-central-1 was chosen for latency", "source: import:chatgpt"))
	write(t, v, "memory/old-key.md", memory("fact", "observed", "2026-01-01", "The eu-central-1 cluster has 3 nodes", "key: cluster-size"))
	write(t, v, "memory/new-key.md", memory("fact", "stated", "2026-02-01", "The eu-central-1 cluster has 5 nodes", "key: cluster-size"))
	write(t, v, "memory/stale.md", memory("fact", "stated", "2026-01-01", "eu-central-1 quota is 200 vCPU", "stale_after: 2026-05-01"))

	res, err := Search(context.Background(), v, Query{Text: `"eu-central-1"`, Now: statusNow, Limit: 20})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	var order []string
	for _, h := range res.Hits {
		got[h.Path] = h.statusText()
		order = append(order, h.ID)
	}
	want := map[string]string{
		"memory/old.md": "superseded by region-new", "memory/new.md": "current",
		"memory/gone.md": "retired", "memory/dep.md": "deprecated", "memory/imp.md": "import",
		"memory/old-key.md": "superseded by memory/new-key", "memory/new-key.md": "current",
		"memory/stale.md": "stale",
	}
	for p, w := range want {
		if got[p] != w {
			t.Errorf("%s: status %q, want %q", p, got[p], w)
		}
	}
	if slices.Index(order, "region-old") < slices.Index(order, "region-new") {
		t.Errorf("the superseded claim ranks above its correction: %v", order)
	}
	if slices.Index(order, "memory/old-key") < slices.Index(order, "memory/new-key") {
		t.Errorf("the beaten claim ranks above its winner: %v", order)
	}

	res, err = Search(context.Background(), v, Query{Text: `"eu-central-1"`, Now: statusNow, Current: true, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].Status != vault.StatusCurrent {
		t.Fatalf("--current, limit 1: %+v", res.Hits)
	}
	res, err = Search(context.Background(), v, Query{Text: `"eu-central-1"`, Now: statusNow, Current: true})
	if err != nil {
		t.Fatal(err)
	}
	var cur []string
	for _, h := range res.Hits {
		cur = append(cur, h.Path)
	}
	slices.Sort(cur)
	if !slices.Equal(cur, []string{"memory/new-key.md", "memory/new.md"}) {
		t.Fatalf("--current: %v", cur)
	}
}

// TestRankOrdersEqualHitsByPath: hits equal in score and status come in
// path order, not in the order bleve's segments happened to give them.
func TestRankOrdersEqualHitsByPath(t *testing.T) {
	t.Parallel()
	hits := []Hit{
		{ID: "c", Path: "memory/c.md", Score: 1, Status: vault.StatusCurrent},
		{ID: "top", Path: "memory/z.md", Score: 2, Status: vault.StatusCurrent},
		{ID: "a", Path: "memory/a.md", Score: 1, Status: vault.StatusCurrent},
		{ID: "b", Path: "memory/b.md", Score: 1, Status: vault.StatusCurrent},
	}
	rank(hits)
	var got []string
	for _, h := range hits {
		got = append(got, h.ID)
	}
	if want := []string{"top", "a", "b", "c"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// A hit whose subject more claims share than annotate asks for at first
// (relatedFirst) is still judged against all of them: the claim that beat
// it is found among the many it shares the key with (its name puts it
// last, past the first page: equal scores come in the index's order).
func TestSearchStatusManyRelated(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for i := range relatedFirst + 6 {
		write(t, v, fmt.Sprintf("memory/size-%03d.md", i), memory("fact", "observed", "2026-01-01", fmt.Sprintf("Cluster count %d noted", i), "key: cluster-size"))
	}
	write(t, v, "memory/zz-winner.md", memory("fact", "stated", "2026-06-01", "The cluster has 5 nodes", "key: cluster-size"))
	write(t, v, "memory/walrus.md", memory("fact", "observed", "2026-01-01", "The walrus cluster has 3 nodes", "key: cluster-size"))
	res, err := Search(context.Background(), v, Query{Text: "walrus", Now: statusNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 || res.Hits[0].statusText() != "superseded by memory/zz-winner" {
		t.Fatalf("hits %+v, want memory/walrus.md superseded by memory/zz-winner", res.Hits)
	}
}
