package rules

import (
	"os"
	"strings"
	"testing"
)

// What the unreviewed-only rules cost (testdata/agent-claims.txt): ordinary
// third-person claims an agent writes, in 37 languages, that Instruction
// would hold from the view until a person accepts them. docs/security.md
// gives the figure: one is held as a message, a claim quoting the user in
// the first person, and as unjudged the 30 written in a script no verb
// lexicon covers (Arabic, Han, Devanagari, …), the 9 in a Latin- or
// Cyrillic-script language it does not that languages.tsv names (Dutch,
// Ukrainian, Vietnamese, Indonesian, Javanese, Romanian), and the 13 whose
// words no covered language writes often enough (Tagalog, Swahili, Zulu,
// Irish, Scottish Gaelic, Finnish, Swedish, Czech, Hungarian, Polish,
// Turkish, Indonesian). The statement gate holds 7 more (unstated), whose
// verbs its table does not read as stating: English plurals that are also
// verbs ("streams", "caches", "reviews"), German "bevorzugt", Spanish
// "prefiere" and Italian "usa" (not in the treebanks as verbs, or written
// more as a name: USA), and an Albanian claim (Albanian has no telling
// words of its own). Rounds 2 and 4 changed that to 5: "Error messages
// name the file and line, per the team's style guide." rendered only
// because "team's" was read as "team is".
func TestAgentClaims(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/agent-claims.txt")
	if err != nil {
		t.Fatal(err)
	}
	n, held, unjudged, unstated := 0, []string{}, 0, 0
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		n++
		switch rule, _ := Instruction(line); rule {
		case "":
		case Unjudged:
			unjudged++
		case Unstated:
			unstated++
		default:
			held = append(held, rule+": "+line)
		}
	}
	if unjudged != 52 {
		t.Errorf("%d of %d held as unjudged, want the 30 in scripts, the 9 in languages no verb lexicon covers and the 13 it cannot read", unjudged, n)
	}
	if unstated != 5 {
		t.Errorf("%d of %d held as unstated, want the 5 whose verbs the statement table does not read (bevorzugt, prefiere, an Albanian one, \"Error messages name …\", once the possessive in \"the team's style guide\" is no longer read as \"is\") or whose plural noun is read before its verb (Feature flags)", unstated, n)
	}
	if n < 100 {
		t.Fatalf("%d claims, want the whole file", n)
	}
	if len(held) != 1 || !strings.Contains(held[0], `said "we never force-push`) {
		t.Errorf("%d of %d held, want only the quote:\n%s", len(held), n, strings.Join(held, "\n"))
	}
}

// BenchmarkInstruction times Instruction over the agent claims, the
// text it is asked of on every write and render of an unreviewed claim.
func BenchmarkInstruction(b *testing.B) {
	raw, err := os.ReadFile("testdata/agent-claims.txt")
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	b.ResetTimer()
	for range b.N {
		for _, l := range lines {
			Instruction(l)
		}
	}
}
