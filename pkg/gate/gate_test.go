package gate

import (
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// daysAgo is a date-only signal time n calendar days before testNow.
func daysAgo(n int) frontmatter.Time { return frontmatter.NewDate(testNow.AddDate(0, 0, -n)) }

func sig(session string, age int, evidence string) frontmatter.Signal {
	return frontmatter.Signal{Session: session, At: daysAgo(age), Evidence: evidence}
}

func TestEvaluate(t *testing.T) {
	t.Parallel()
	cfg := vault.GateConfig{MinWeight: 3, MinSessions: 2, HalfAfter: 30}
	tests := []struct {
		name     string
		signals  []frontmatter.Signal
		weight   float64
		sessions int
		eligible bool
		missing  string
	}{
		{"none", nil, 0, 0, false, "needs 3 more signals from at least 2 different sessions"},
		{"three fresh, two sessions", []frontmatter.Signal{sig("s1", 1, "a"), sig("s1", 2, "b"), sig("s2", 3, "c")}, 3, 2, true, ""},
		{"weight 2.5 is short", []frontmatter.Signal{sig("s1", 1, "a"), sig("s2", 2, "b"), sig("s2", 40, "c")}, 2.5, 2, false, "needs 1 more signal"},
		{"weight 3 from halves passes", []frontmatter.Signal{sig("s1", 1, "a"), sig("s2", 2, "b"), sig("s2", 40, "c"), sig("s3", 50, "d")}, 3, 3, true, ""},
		{"one session is short", []frontmatter.Signal{sig("s1", 1, "a"), sig("s1", 2, "b"), sig("s1", 3, "c")}, 3, 1, false, "needs 1 more signal from another session"},
		{"30 days counts whole", []frontmatter.Signal{sig("s1", 30, "a"), sig("s2", 30, "b"), sig("s2", 30, "c")}, 3, 2, true, ""},
		{"31 days counts half", []frontmatter.Signal{sig("s1", 31, "a"), sig("s2", 30, "b"), sig("s2", 30, "c")}, 2.5, 2, false, "needs 1 more signal"},
		{"duplicated signal counts once", []frontmatter.Signal{sig("s1", 1, "a"), sig("s1", 1, "a"), sig("s2", 2, "b")}, 2, 2, false, "needs 1 more signal"},
		{"duplicate differing in case and spaces", []frontmatter.Signal{sig("s1", 1, "Build  broke"), sig("s1", 1, "build broke "), sig("s2", 2, "b")}, 2, 2, false, "needs 1 more signal"},
		{"duplicate keeps its oldest at", []frontmatter.Signal{sig("s1", 40, "a"), sig("s1", 1, "a"), sig("s2", 2, "b"), sig("s2", 3, "c")}, 2.5, 2, false, "needs 1 more signal"},
		{"same evidence, two sessions, counts twice", []frontmatter.Signal{sig("s1", 1, "a"), sig("s2", 1, "a"), sig("s3", 1, "a")}, 3, 3, true, ""},
		{"no session does not count", []frontmatter.Signal{sig("", 1, "a"), sig("s1", 1, "b"), sig("s2", 1, "c")}, 2, 2, false, "needs 1 more signal"},
		{"no evidence does not count", []frontmatter.Signal{sig("s1", 1, " "), sig("s1", 1, "b"), sig("s2", 1, "c")}, 2, 2, false, "needs 1 more signal"},
		{"future signal does not count", []frontmatter.Signal{sig("s1", -1, "a"), sig("s1", 1, "b"), sig("s2", 1, "c")}, 2, 2, false, "needs 1 more signal"},
		{"today counts", []frontmatter.Signal{sig("s1", 0, "a"), sig("s1", 0, "b"), sig("s2", 0, "c")}, 3, 2, true, ""},
		{"undated counts half", []frontmatter.Signal{{Session: "s1", Evidence: "a"}, sig("s1", 1, "b"), sig("s2", 1, "c")}, 2.5, 2, false, "needs 1 more signal"},
		{"short of both", []frontmatter.Signal{sig("s1", 1, "a")}, 1, 1, false, "needs 2 more signals, at least 1 from other sessions"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := Evaluate(&frontmatter.Meta{Signals: tt.signals}, testNow, cfg)
			if v.Weight != tt.weight || v.Sessions != tt.sessions || v.Eligible != tt.eligible || v.Missing != tt.missing {
				t.Errorf("got weight %v sessions %d eligible %v missing %q; want %v %d %v %q",
					v.Weight, v.Sessions, v.Eligible, v.Missing, tt.weight, tt.sessions, tt.eligible, tt.missing)
			}
		})
	}
}

func TestEvaluateDatetimeAge(t *testing.T) {
	t.Parallel()
	// Age is in UTC calendar days: a signal late on the 31st day before now
	// is 31 days old even though less than 31×24 hours have passed.
	cfg := vault.GateConfig{MinWeight: 1, MinSessions: 1, HalfAfter: 30}
	at := frontmatter.NewTime(time.Date(2026, 10, 29, 23, 0, 0, 0, time.UTC))
	v := Evaluate(&frontmatter.Meta{Signals: []frontmatter.Signal{{Session: "s", At: at, Evidence: "e"}}}, testNow, cfg)
	if v.Weight != 0.5 {
		t.Errorf("weight %v, want 0.5", v.Weight)
	}
	// A zone offset is read in UTC: 2026-10-31T01:00+02:00 is the 30th in UTC.
	at = frontmatter.NewTime(time.Date(2026, 10, 31, 1, 0, 0, 0, time.FixedZone("x", 2*3600)))
	v = Evaluate(&frontmatter.Meta{Signals: []frontmatter.Signal{{Session: "s", At: at, Evidence: "e"}}}, testNow, cfg)
	if v.Weight != 1 {
		t.Errorf("weight %v, want 1", v.Weight)
	}
}

func TestEvaluateConfig(t *testing.T) {
	t.Parallel()
	signals := []frontmatter.Signal{sig("s1", 10, "a"), sig("s2", 10, "b")}
	if v := Evaluate(&frontmatter.Meta{Signals: signals}, testNow, vault.GateConfig{MinWeight: 2, MinSessions: 2, HalfAfter: 30}); !v.Eligible {
		t.Errorf("min_weight 2: not eligible: %+v", v)
	}
	if v := Evaluate(&frontmatter.Meta{Signals: signals}, testNow, vault.GateConfig{MinWeight: 2, MinSessions: 2, HalfAfter: 7}); v.Eligible || v.Weight != 1 {
		t.Errorf("half_after_days 7: want weight 1 and not eligible: %+v", v)
	}
	// A zero config must not open the gate: it falls back to the spec's 3 and 2.
	if v := Evaluate(&frontmatter.Meta{Signals: signals}, testNow, vault.GateConfig{}); v.Eligible {
		t.Errorf("zero config opened the gate: %+v", v)
	}
}

func TestMissing(t *testing.T) {
	t.Parallel()
	tests := []struct {
		signals, sessions, have int
		want                    string
	}{
		{0, 0, 2, ""},
		{-1, -1, 3, ""},
		{1, 0, 2, "needs 1 more signal"},
		{2, 0, 2, "needs 2 more signals"},
		{0, 1, 1, "needs 1 more signal from another session"},
		{1, 1, 1, "needs 1 more signal from another session"},
		{2, 2, 1, "needs 2 more signals, each from another session"},
		{3, 1, 1, "needs 3 more signals, at least 1 from other sessions"},
		{3, 2, 0, "needs 3 more signals from at least 2 different sessions"},
		{2, 2, 0, "needs 2 more signals from 2 different sessions"},
		{1, 1, 0, "needs 1 more signal"},
	}
	for _, tt := range tests {
		if got := missing(tt.signals, tt.sessions, tt.have); got != tt.want {
			t.Errorf("missing(%d, %d, %d) = %q, want %q", tt.signals, tt.sessions, tt.have, got, tt.want)
		}
	}
}

func TestNeedsGate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		typ, prov string
		want      bool
	}{
		{frontmatter.TypeLesson, frontmatter.Inferred, true},
		{frontmatter.TypeRule, frontmatter.Inferred, true},
		{frontmatter.TypeRule, frontmatter.Stated, false},
		{frontmatter.TypeCorrection, frontmatter.Stated, false},
		{frontmatter.TypeCorrection, frontmatter.Inferred, false},
		{frontmatter.TypeFact, frontmatter.Inferred, false},
		{frontmatter.TypeLesson, frontmatter.Observed, false},
	}
	for _, tt := range tests {
		if got := NeedsGate(&frontmatter.Meta{Type: tt.typ, Provenance: tt.prov}); got != tt.want {
			t.Errorf("NeedsGate(%s, %s) = %v, want %v", tt.typ, tt.prov, got, tt.want)
		}
	}
}
