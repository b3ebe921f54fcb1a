// Package frontmatter reads and writes the YAML frontmatter of a mem
// markdown file: typed fields for every key of the spec, unknown keys kept
// verbatim, and the line of every key so later errors can name path:line:col.
package frontmatter

import "time"

// Memory types understood by mem. Any other type value is kept and treated
// as TypeNote by the views.
const (
	TypeIdentity   = "identity"
	TypePreference = "preference"
	TypeDecision   = "decision"
	TypeFact       = "fact"
	TypeLesson     = "lesson"
	TypeRule       = "rule"
	TypeCorrection = "correction"
	TypeNote       = "note"
	TypeProject    = "project"
)

// Types lists mem's own types, in the order the docs present them.
var Types = []string{TypeIdentity, TypePreference, TypeDecision, TypeFact, TypeLesson, TypeRule, TypeCorrection, TypeNote, TypeProject}

// Provenance values, strongest first.
const (
	Stated   = "stated"
	Observed = "observed"
	Inferred = "inferred"
)

// Provenances lists the provenance values, strongest first.
var Provenances = []string{Stated, Observed, Inferred}

// Status values (OKF).
const (
	StatusDraft      = "draft"
	StatusStable     = "stable"
	StatusDeprecated = "deprecated"
)

// Sections are the pinned sections, in their default render order.
var Sections = []string{"Identity", "Preferences", "Decisions", "Notes"}

// Actor is OKF's {by, at} pair used by generated and verified.
type Actor struct {
	By string
	At Time
}

// Source is one OKF sources entry.
type Source struct {
	Resource     string
	ID           string
	Title        string
	Author       string
	LastModified Time
}

// Signal is one piece of evidence for an inferred lesson (spec §6).
type Signal struct {
	Session  string
	At       Time
	Evidence string
}

// Meta holds the typed frontmatter. A zero value means the key is absent.
type Meta struct {
	ID          string
	Type        string
	Title       string
	Description string
	Provenance  string
	Status      string
	Project     string
	Pinned      bool
	Section     string
	Importance  int
	Key         string // extension: reconciler subject key (docs/gate.md)
	ValidAt     Time
	StaleAfter  Time
	InvalidAt   Time
	Supersedes  []string
	Tags        []string
	Aliases     []string
	Roots       []string
	Source      string
	Session     string
	Evidence    string // extension: what was checked for an observed claim (spec §3)
	Generated   *Actor
	Verified    []Actor
	Sources     []Source
	Signals     []Signal
}

// IsMemoryType reports whether a type needs provenance (all but note and project).
func IsMemoryType(t string) bool {
	switch t {
	case TypeIdentity, TypePreference, TypeDecision, TypeFact, TypeLesson, TypeRule, TypeCorrection:
		return true
	}
	return false
}

// EffectiveType maps unknown types to note, as the spec says views treat them.
func EffectiveType(t string) string {
	for _, k := range Types {
		if k == t {
			return t
		}
	}
	return TypeNote
}

// ImportanceOrDefault is importance with the spec's default of 5.
func (m *Meta) ImportanceOrDefault() int {
	if m.Importance == 0 {
		return 5
	}
	return m.Importance
}

// ProvenanceRank orders provenance: stated 3 > observed 2 > inferred 1 > anything else 0.
func ProvenanceRank(p string) int {
	switch p {
	case Stated:
		return 3
	case Observed:
		return 2
	case Inferred:
		return 1
	}
	return 0
}

// IsStale reports whether the claim is stale at now: today ≥ stale_after
// (spec §3). Render, lint and audit all ask this one question.
func (m *Meta) IsStale(now time.Time) bool {
	return !m.StaleAfter.IsZero() && !now.Before(m.StaleAfter.Time)
}

// IsRetired reports whether the claim stopped being true: now is on or past
// its invalid_at.
func (m *Meta) IsRetired(now time.Time) bool {
	return !m.InvalidAt.IsZero() && !now.Before(m.InvalidAt.Time)
}

// IsDeprecated reports OKF's status: deprecated (never renders).
func (m *Meta) IsDeprecated() bool { return m.Status == StatusDeprecated }
