package gate

import (
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Spec §6 thresholds, used where a GateConfig field is zero so that a
// caller holding an empty config can never open the gate wider than the
// spec allows. vault.LoadConfig fills the same values into v.Config.Gate.
const (
	defaultMinWeight   = 3
	defaultMinSessions = 2
	defaultHalfAfter   = 30
)

// Verdict is the gate's answer for one claim's signals.
type Verdict struct {
	// Weight is the sum over distinct counted signals: 1 each, 0.5 when
	// older than HalfAfter days.
	Weight float64
	// Sessions is the number of distinct sessions among counted signals.
	Sessions int
	// signals is the number of distinct signals that counted.
	signals int
	// Eligible is true when Weight ≥ MinWeight and Sessions ≥ MinSessions.
	Eligible bool
	// Missing says what would make the claim eligible, empty when it is,
	// e.g. "needs 1 more signal from another session".
	Missing string
}

// Evaluate runs the promotion gate (spec §6) over meta's signals at now.
// It is what `mem gate`, `mem promote` and lint's rule "an inferred rule
// whose signals do not pass the gate" all call. It only looks at signals:
// whether the gate applies at all (inferred lessons and rules) is the
// caller's question, see NeedsGate.
//
// Counting, as docs/gate.md explains: signals are distinct by session and
// evidence (case and runs of spaces ignored), a duplicate keeps its oldest
// `at` so re-recording cannot refresh an aged signal; a signal without a
// session or evidence, or dated after today, does not count; an undated
// signal counts half, as its age cannot be shown; age is counted in whole
// UTC calendar days, half weight when more than HalfAfter days old.
func Evaluate(meta *frontmatter.Meta, now time.Time, cfg vault.GateConfig) Verdict {
	cfg = withDefaults(cfg)
	type key struct{ session, evidence string }
	oldest := map[key]frontmatter.Time{}
	var order []key
	for _, s := range meta.Signals {
		k := key{strings.TrimSpace(s.Session), normalizeEvidence(s.Evidence)}
		if k.session == "" || k.evidence == "" {
			continue
		}
		if ageDays(s.At, now) < 0 {
			continue // dated in the future: it has not happened yet
		}
		prev, seen := oldest[k]
		switch {
		case !seen:
			order = append(order, k)
			oldest[k] = s.At
		case !prev.IsZero() && (s.At.IsZero() || s.At.Before(prev.Time)):
			oldest[k] = s.At // undated beats dated: it is the weaker claim
		}
	}
	var v Verdict
	sessions := map[string]bool{}
	for _, k := range order {
		at := oldest[k]
		if at.IsZero() || ageDays(at, now) > cfg.HalfAfter {
			v.Weight += 0.5
		} else {
			v.Weight++
		}
		v.signals++
		sessions[k.session] = true
	}
	v.Sessions = len(sessions)
	v.Eligible = v.Weight >= cfg.MinWeight && v.Sessions >= cfg.MinSessions
	if !v.Eligible {
		v.Missing = missing(int(math.Ceil(cfg.MinWeight-v.Weight)), cfg.MinSessions-v.Sessions, v.Sessions)
	}
	return v
}

// NeedsGate reports whether a claim must pass the gate to stand: an
// inferred lesson (to be promoted) or an inferred rule (to stay a rule).
// Stated and observed claims, corrections included, take effect at once.
func NeedsGate(meta *frontmatter.Meta) bool {
	if meta.Provenance != frontmatter.Inferred {
		return false
	}
	return meta.Type == frontmatter.TypeLesson || meta.Type == frontmatter.TypeRule
}

func withDefaults(cfg vault.GateConfig) vault.GateConfig {
	if cfg.MinWeight <= 0 {
		cfg.MinWeight = defaultMinWeight
	}
	if cfg.MinSessions <= 0 {
		cfg.MinSessions = defaultMinSessions
	}
	if cfg.HalfAfter <= 0 {
		cfg.HalfAfter = defaultHalfAfter
	}
	return cfg
}

// normalizeEvidence makes "Build  broke" and "build broke" one signal: an
// agent must not earn weight by rewording its whitespace or case.
func normalizeEvidence(s string) string {
	return strings.ToLower(strings.Join(strings.Fields(s), " "))
}

// ageDays is the number of UTC calendar days from at to now (negative when
// at is on a later day). Calendar days make a date-only signal and one with
// a clock age alike, and keep a verdict stable for a whole day.
func ageDays(at frontmatter.Time, now time.Time) int {
	if at.IsZero() {
		return 0
	}
	a, n := at.UTC(), now.UTC()
	da := time.Date(a.Year(), a.Month(), a.Day(), 0, 0, 0, 0, time.UTC)
	dn := time.Date(n.Year(), n.Month(), n.Day(), 0, 0, 0, 0, time.UTC)
	return int(dn.Sub(da).Hours() / 24)
}

// missing phrases what the gate still needs: signals short of the weight
// (counted as fresh signals) and sessions short of the minimum. One new
// signal from a new session serves both, so the total is the larger.
func missing(signals, sessions, have int) string {
	signals = max(signals, 0)
	sessions = max(sessions, 0)
	n := max(signals, sessions)
	if n == 0 {
		return ""
	}
	noun := "signal"
	if n > 1 {
		noun = "signals"
	}
	switch {
	case sessions == 0, have == 0 && sessions == 1:
		return fmt.Sprintf("needs %d more %s", n, noun)
	case have == 0 && n == sessions:
		return fmt.Sprintf("needs %d more %s from %d different sessions", n, noun, sessions)
	case have == 0:
		return fmt.Sprintf("needs %d more %s from at least %d different sessions", n, noun, sessions)
	case n == 1:
		return "needs 1 more signal from another session"
	case n == sessions:
		return fmt.Sprintf("needs %d more %s, each from another session", n, noun)
	}
	return fmt.Sprintf("needs %d more %s, at least %d from other sessions", n, noun, sessions)
}
