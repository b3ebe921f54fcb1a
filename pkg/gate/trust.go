package gate

import (
	"strings"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// The trust tiers of spec §5.2b. This file is the one owner of "is this
// claim reviewed": render's selection, the reconciler, the writer's
// protection of a person's claims, show, list, search and recall all ask
// Reviewed or WrittenBy, and none reads generated or verified for it.

// humanActor is the OKF actor prefix of a person.
const humanActor = "human:"

// Reviewed reports whether a person wrote or accepted the claim: a human
// verifier (mem accept, mem review, the review page, or a hand edit that
// says so), or, short of one, a claim no agent or importer wrote — by hand
// (no generated), by the CLI (generated.by mem/<version>) or by a human:
// actor. An agent's write (generated.by process:…, over MCP or HTTP), an
// import or a capture (source import:*/capture:*) and a write by any other
// producer are unreviewed until a person accepts them; a verifier that is
// not human: counts for nothing.
func Reviewed(m *frontmatter.Meta) bool {
	if HumanVerified(m) {
		return true
	}
	if strings.HasPrefix(m.Source, "import:") || strings.HasPrefix(m.Source, "capture:") {
		return false
	}
	by := ""
	if m.Generated != nil {
		by = strings.TrimSpace(m.Generated.By)
	}
	return by == "" || strings.HasPrefix(by, "mem/") || strings.HasPrefix(by, humanActor)
}

// HumanVerified reports whether a human: actor is among the verifiers.
func HumanVerified(m *frontmatter.Meta) bool {
	for _, v := range m.Verified {
		if strings.HasPrefix(strings.TrimSpace(v.By), humanActor) && len(strings.TrimSpace(v.By)) > len(humanActor) {
			return true
		}
	}
	return false
}

// WrittenBy names who wrote an unreviewed claim, as every read says it
// ("unreviewed, written by <actor>"): the importer or capture for one
// (import:chatgpt), else generated.by (process:claude-code). Empty for a
// reviewed claim. The actor is cut to a plain token (ActorToken): a
// hand-written generated.by could hold text meant for a model.
func WrittenBy(m *frontmatter.Meta) string {
	if Reviewed(m) {
		return ""
	}
	if strings.HasPrefix(m.Source, "import:") || strings.HasPrefix(m.Source, "capture:") {
		return ActorToken(m.Source)
	}
	if m.Generated != nil {
		return ActorToken(m.Generated.By)
	}
	return "unknown"
}

// ActorToken is an actor as a view or a read prints it: ASCII letters,
// digits and - _ . : / @ +, at most 64 bytes; anything else makes it
// "unknown", so no actor carries a sentence into a model's context.
func ActorToken(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 64 {
		return "unknown"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.:/@+", c) >= 0) {
			return "unknown"
		}
	}
	return s
}
