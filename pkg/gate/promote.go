package gate

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// promotedAtKey is the extension key `mem promote` writes: when a lesson
// became a rule. It is not a Meta field, so the frontmatter package keeps
// it verbatim like any unknown key.
const promotedAtKey = frontmatter.PromotedAtKey

// Entry is one row of the gate report, in the JSON shape of `mem gate --json`.
type Entry struct {
	ID       string  `json:"id"`
	Path     string  `json:"path"`
	Weight   float64 `json:"weight"`
	Sessions int     `json:"sessions"`
	Eligible bool    `json:"eligible"`
	Missing  string  `json:"missing"`
}

// Report is what `mem gate` shows: every inferred lesson, and every
// inferred rule whose signals no longer pass (they aged, or the rule was
// written by hand without them).
type Report struct {
	Lessons []Entry `json:"lessons"`
	Rules   []Entry `json:"rules"`
}

// BuildReport runs the gate over mems at now. Broken files, deprecated
// claims and claims past their invalid_at are left out: they stand for
// nothing. Rows come in the order of mems (the loader sorts by path).
func BuildReport(mems []*vault.Memory, now time.Time, cfg vault.GateConfig) Report {
	r := Report{Lessons: []Entry{}, Rules: []Entry{}}
	for _, m := range mems {
		meta := m.Meta()
		if !m.OK() || !NeedsGate(meta) || meta.IsDeprecated() || meta.IsRetired(now) {
			continue
		}
		v := Evaluate(meta, now, cfg)
		e := Entry{ID: m.ID, Path: m.Rel, Weight: v.Weight, Sessions: v.Sessions, Eligible: v.Eligible, Missing: v.Missing}
		switch {
		case meta.Type == frontmatter.TypeLesson:
			r.Lessons = append(r.Lessons, e)
		case !v.Eligible:
			r.Rules = append(r.Rules, e)
		}
	}
	return r
}

// RefusedError is a gate decision against the caller (exit 1 in the CLI),
// as opposed to a malformed request.
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// Kind: the gate said no (exit 1).
func (e *RefusedError) Kind() fail.Kind { return fail.Check }

func refused(format string, args ...any) error {
	return &RefusedError{fmt.Sprintf(format, args...)}
}

// maxEvidence bounds a signal's evidence: one line, like a memory.
const maxEvidence = vault.MaxMemoryChars

// CheckSignal validates a signal before it is written: a session, one
// line of evidence, and an `at` no later than today.
func CheckSignal(s frontmatter.Signal, now time.Time) error {
	switch {
	case strings.TrimSpace(s.Session) == "":
		return errors.New("a signal needs the session that saw it: --session ID")
	case strings.TrimSpace(s.Evidence) == "":
		return errors.New("a signal needs evidence: --evidence 'what happened'")
	case strings.Contains(strings.TrimSpace(s.Evidence), "\n"):
		return errors.New("evidence is one line: put the story in a note and cite it")
	case utf8.RuneCountInString(s.Evidence) > maxEvidence:
		return fmt.Errorf("evidence has %d characters, at most %d: summarise it", utf8.RuneCountInString(s.Evidence), maxEvidence)
	case ageDays(s.At, now) < 0:
		return fmt.Errorf("at %s is after today %s: a signal records something that happened", s.At, now.UTC().Format("2006-01-02"))
	}
	return nil
}

// AddSignal appends s to the claim in doc (an inferred lesson or rule).
// It returns false, and leaves doc alone, when the same session already
// gave the same evidence: the gate would not count it twice, and an agent
// retrying a write must not grow the file. Errors are *RefusedError.
func AddSignal(doc *frontmatter.Document, s frontmatter.Signal) (bool, error) {
	meta := &doc.Meta
	if !NeedsGate(meta) {
		return false, refused("signals count only for inferred lessons and rules; this is a %s with provenance %s, which needs no gate",
			orNone(meta.Type), orNone(meta.Provenance))
	}
	s.Session = strings.TrimSpace(s.Session)
	s.Evidence = strings.TrimSpace(s.Evidence)
	for _, old := range meta.Signals {
		if strings.TrimSpace(old.Session) == s.Session && normalizeEvidence(old.Evidence) == normalizeEvidence(s.Evidence) {
			return false, nil
		}
	}
	meta.Signals = append(meta.Signals, s)
	return true, nil
}

// Promote turns the lesson in doc into a rule at now: through the gate
// when it is inferred, at once when it is stated or observed (the gate
// guards against inferences only). Signals are kept and promoted_at is
// recorded. It returns the gate's verdict; errors are *RefusedError and say
// what is missing.
func Promote(doc *frontmatter.Document, now time.Time, cfg vault.GateConfig) (Verdict, error) {
	meta := &doc.Meta
	switch meta.Type {
	case frontmatter.TypeLesson:
	case frontmatter.TypeRule:
		return Verdict{}, refused("already a rule")
	default:
		return Verdict{}, refused("only a lesson can be promoted; this is a %s", orNone(meta.Type))
	}
	var v Verdict
	if NeedsGate(meta) {
		cfg = withDefaults(cfg)
		v = Evaluate(meta, now, cfg)
		if !v.Eligible {
			return v, refused("not eligible: weight %g of %g from %d of %d sessions; %s (add evidence with 'mem signal')",
				v.Weight, cfg.MinWeight, v.Sessions, cfg.MinSessions, v.Missing)
		}
	}
	meta.Type = frontmatter.TypeRule
	doc.SetKeptTime(promotedAtKey, frontmatter.NewTime(now))
	return v, nil
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
