package writer

import (
	"regexp"
	"strings"
	"sync"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// evidenceMsg is the one answer to an agent's unverified claim (spec §11).
const evidenceMsg = "write it as inferred, or give evidence (the command and its result, a file and its hash, a commit, a URL and when it was checked)"

// doneClaim matches an agent reporting its own action as done — the
// phantom progress of "I set a reminder" — on the lower-cased text. The
// list is kept small on purpose (docs/frontmatter.md, evidence): "I" or
// "I've"/"I have" before one of a few verbs of doing, and "registered",
// the word an agent's report of a job ends on ("cron job registered").
// "deployed" or "scheduled" alone also describe the world ("the app is
// deployed on Fly"), so only their first-person form counts. Compiled on
// first use, not at every mem process's start.
var doneClaim = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\bi(?:'ve| have)?\s+(?:just\s+|already\s+)?(?:set|fixed|deployed|registered|scheduled|created|installed|configured|sent|pushed|merged|updated|added|removed|enabled|disabled)\b|\bregistered\b`)
})

// needsEvidence is the refusal for an agent's claim that says it was
// observed, or that the agent did something, and shows nothing checked.
// A person's claim is theirs to word; lint warns on it instead.
func needsEvidence(f Front, m *frontmatter.Meta, text string) *Refusal {
	if f.Agent == "" || strings.TrimSpace(m.Evidence) != "" {
		return nil
	}
	switch {
	case m.Provenance == frontmatter.Observed:
		return &Refusal{Rule: "evidence-missing", Field: f.name("evidence"), Msg: "an observed claim says what was checked: " + evidenceMsg}
	case doneClaim().MatchString(strings.ToLower(text)):
		return &Refusal{Rule: "evidence-missing", Field: f.name("evidence"), Msg: "the claim reports an action as done: " + evidenceMsg}
	}
	return nil
}
