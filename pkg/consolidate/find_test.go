package consolidate

import (
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

func memory(id, text string) *claim {
	return newClaim(&vault.Memory{ID: id, Rel: id + ".md", Doc: &frontmatter.Document{
		Meta: frontmatter.Meta{Type: frontmatter.TypeFact, Provenance: frontmatter.Stated}, Body: text + "\n"}})
}

// TestMergeRefusedWhenItDropsWords: no member keeps more than 75% of the
// group's words, so the merge is proposed but refused (spec §11).
func TestMergeRefusedWhenItDropsWords(t *testing.T) {
	t.Parallel()
	p := mergeProposal([]*claim{
		memory("a", "Backups run nightly at two from the primary NAS box"),
		memory("b", "Backups run nightly at two into the offsite cloud bucket"),
	}, 0.5)
	if p.Refused == "" || p.Dropped <= maxDropped {
		t.Fatalf("merge dropping %.2f of the words was not refused: %+v", p.Dropped, p)
	}
	p = mergeProposal([]*claim{memory("a", "Deploys happen on Tuesdays."), memory("b", "Deploys happen on Tuesdays after the standup.")}, 0.5)
	if p.Refused != "" || p.Dropped != 0 || p.Keep != "b" {
		t.Fatalf("the longer text keeps every word and should be merged into: %+v", p)
	}
}

// TestMergeOfASecretIsRefusedAndRedacted: a hand-written claim holding a
// key is never merged into a new claim, and the proposal shows no key.
func TestMergeOfASecretIsRefusedAndRedacted(t *testing.T) {
	t.Parallel()
	p := mergeProposal([]*claim{
		memory("a", "The bucket key is AKIAQZ7MXK3V7PLW2RTB"),
		memory("b", "The bucket key is AKIAQZ7MXK3V7PLW2RTB, rotated yearly"),
	}, 0.5)
	if p.Refused == "" || strings.Contains(p.Text, "AKIA") || !strings.Contains(p.Text, "[redacted: secret-aws-access-token]") {
		t.Fatalf("a merge of a secret: %+v", p)
	}
}

// TestCandidatesFindEveryPairOverThreshold: the prefix filter loses no
// pair the full comparison would find.
func TestCandidatesFindEveryPairOverThreshold(t *testing.T) {
	t.Parallel()
	texts := []string{
		"Deploys happen on Tuesdays.", "deploys happen on tuesdays", "Deploys happen on Tuesdays after the standup.",
		"The CI cache is warm after nine in the morning.", "The CI cache is warm after nine.",
		"The billing service is written in Go.", "The search service is written in Go.", "The cart service is written in Rust.",
		"Port 9001 is reserved.", "Port 9002 is reserved.", "Answers in Dutch.",
	}
	var live []*claim
	for i, s := range texts {
		live = append(live, memory(string(rune('a'+i)), s))
	}
	found := map[[2]int]bool{}
	for _, p := range candidates(live, defaultThreshold) {
		found[p] = true
	}
	for i := range live {
		for j := i + 1; j < len(live); j++ {
			if jaccard(live[i].pairs, live[j].pairs) >= defaultThreshold && !found[[2]int{i, j}] {
				t.Errorf("%q and %q reach the threshold but are no candidates", texts[i], texts[j])
			}
		}
	}
}

// TestLinks: two pointers to two notes are no duplicates however alike
// their titles (their subjects are claimtext's TestSubject).
func TestLinks(t *testing.T) {
	t.Parallel()
	a, b := memory("a", "All A The: see [[notes/all-a-the-616f5c]]"), memory("b", "A The: see [[notes/a-the-21e990]]")
	var r Report
	r.Counts = map[string]int{}
	r.duplicates([]*claim{a, b}, defaultThreshold)
	if len(r.Proposals) != 0 {
		t.Fatalf("pointers to two notes merged: %+v", r.Proposals)
	}
	c := memory("c", "All A The notes: see [[notes/all-a-the-616f5c]]")
	r.duplicates([]*claim{a, c}, defaultThreshold)
	if len(r.Proposals) != 1 {
		t.Fatalf("two pointers to one note are one fact: %+v", r.Proposals)
	}
}
