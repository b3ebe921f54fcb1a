package gate

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

var defaultCfg = vault.GateConfig{MinWeight: 3, MinSessions: 2, HalfAfter: 30}

func lesson(typ, prov string, signals ...frontmatter.Signal) *frontmatter.Document {
	return &frontmatter.Document{HasFrontmatter: true, Body: "When the cache was cold, the build took 10 minutes\n",
		Meta: frontmatter.Meta{Type: typ, Provenance: prov, Signals: signals}}
}

func TestPromote(t *testing.T) {
	t.Parallel()
	three := []frontmatter.Signal{sig("s1", 1, "a"), sig("s1", 2, "b"), sig("s2", 3, "c")}
	tests := []struct {
		name    string
		doc     *frontmatter.Document
		refused string // substring of the refusal, "" when promoted
	}{
		{"eligible inferred lesson", lesson("lesson", "inferred", three...), ""},
		{"one session short", lesson("lesson", "inferred", sig("s1", 1, "a"), sig("s1", 2, "b"), sig("s1", 3, "c")),
			"weight 3 of 3 from 1 of 2 sessions; needs 1 more signal from another session"},
		{"aged signals", lesson("lesson", "inferred", sig("s1", 40, "a"), sig("s2", 40, "b"), sig("s2", 40, "c")),
			"weight 1.5 of 3"},
		{"stated lesson needs no gate", lesson("lesson", "stated"), ""},
		{"observed lesson needs no gate", lesson("lesson", "observed"), ""},
		{"already a rule", lesson("rule", "inferred", three...), "already a rule"},
		{"a fact is not a lesson", lesson("fact", "inferred", three...), "only a lesson"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(tt.doc.Meta.Signals)
			_, err := Promote(tt.doc, testNow, defaultCfg)
			var re *RefusedError
			if tt.refused != "" {
				if !errors.As(err, &re) || !strings.Contains(err.Error(), tt.refused) {
					t.Fatalf("err %v, want a refusal containing %q", err, tt.refused)
				}
				if _, ok := promotedAt(tt.doc); ok {
					t.Error("refused promotion still recorded promoted_at")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tt.doc.Meta.Type != frontmatter.TypeRule || len(tt.doc.Meta.Signals) != before {
				t.Errorf("type %s with %d signals, want rule keeping %d", tt.doc.Meta.Type, len(tt.doc.Meta.Signals), before)
			}
			if at, ok := promotedAt(tt.doc); !ok || at != "2026-11-29T12:00:00Z" {
				t.Errorf("promoted_at %q, want 2026-11-29T12:00:00Z", at)
			}
			// The promoted file still parses, with promoted_at kept and signals intact.
			back, err := frontmatter.Parse(tt.doc.Marshal())
			if err != nil {
				t.Fatal(err)
			}
			if at, ok := promotedAt(back); !ok || at != "2026-11-29T12:00:00Z" || len(back.Meta.Signals) != before || back.Meta.Type != "rule" {
				t.Errorf("round trip lost the promotion: %+v", back.Meta)
			}
			for k := range back.Keys {
				if !slices.Contains(frontmatter.KnownKeys, k) {
					t.Errorf("promote wrote %q, which is not in frontmatter.KnownKeys", k)
				}
			}
		})
	}
}

func promotedAt(d *frontmatter.Document) (string, bool) {
	for _, kv := range d.Extra {
		if kv.Key == promotedAtKey {
			return kv.Value.Text(), true
		}
	}
	return "", false
}

func TestAddSignal(t *testing.T) {
	t.Parallel()
	doc := lesson("lesson", "inferred", sig("s1", 1, "Build broke"))
	if added, err := AddSignal(doc, sig("s1", 0, "  build   BROKE ")); err != nil || added {
		t.Errorf("duplicate: added %v err %v, want not added", added, err)
	}
	if added, err := AddSignal(doc, sig(" s2 ", 0, " build broke ")); err != nil || !added {
		t.Errorf("same evidence from another session: added %v err %v, want added", added, err)
	}
	if got := doc.Meta.Signals[1]; got.Session != "s2" || got.Evidence != "build broke" {
		t.Errorf("signal not trimmed: %+v", got)
	}
	var re *RefusedError
	if _, err := AddSignal(lesson("fact", "stated"), sig("s1", 0, "x")); !errors.As(err, &re) || !strings.Contains(err.Error(), "needs no gate") {
		t.Errorf("signal on a stated fact: %v, want a refusal", err)
	}
}

func TestCheckSignal(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    frontmatter.Signal
		want string
	}{
		{sig("s1", 0, "ok"), ""},
		{sig("s1", 400, "old is fine"), ""},
		{frontmatter.Signal{Session: "s1", Evidence: "undated is fine"}, ""},
		{sig(" ", 0, "x"), "--session"},
		{sig("s1", 0, " "), "--evidence"},
		{sig("s1", 0, "one\ntwo"), "one line"},
		{sig("s1", 0, strings.Repeat("x", maxEvidence+1)), "at most 280"},
		{sig("s1", -1, "tomorrow"), "after today"},
	}
	for _, tt := range tests {
		err := CheckSignal(tt.s, testNow)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("CheckSignal(%+v) = %v, want %q", tt.s, err, tt.want)
		}
	}
}

func TestBuildReport(t *testing.T) {
	t.Parallel()
	three := []frontmatter.Signal{sig("s1", 1, "a"), sig("s1", 2, "b"), sig("s2", 3, "c")}
	mem := func(id string, d *frontmatter.Document) *vault.Memory {
		return &vault.Memory{ID: id, Rel: id + ".md", Doc: d}
	}
	deprecated := lesson("lesson", "inferred")
	deprecated.Meta.Status = frontmatter.StatusDeprecated
	retired := lesson("lesson", "inferred")
	retired.Meta.InvalidAt = daysAgo(1)
	r := BuildReport([]*vault.Memory{
		mem("ready", lesson("lesson", "inferred", three...)),
		mem("young", lesson("lesson", "inferred", sig("s1", 1, "a"))),
		mem("good-rule", lesson("rule", "inferred", three...)),
		mem("aged-rule", lesson("rule", "inferred", sig("s1", 40, "a"), sig("s1", 40, "b"), sig("s2", 40, "c"))),
		mem("stated-rule", lesson("rule", "stated")),
		mem("stated-lesson", lesson("lesson", "stated")),
		mem("gone", deprecated),
		mem("retired", retired),
		{ID: "broken", Rel: "broken.md", Err: errors.New("bad")},
	}, testNow, defaultCfg)
	ids := func(es []Entry) string {
		var s []string
		for _, e := range es {
			s = append(s, e.ID)
		}
		return strings.Join(s, " ")
	}
	if got := ids(r.Lessons); got != "ready young" {
		t.Errorf("lessons %q, want ready young", got)
	}
	if got := ids(r.Rules); got != "aged-rule" {
		t.Errorf("rules %q, want aged-rule", got)
	}
	if e := r.Lessons[1]; e.Weight != 1 || e.Sessions != 1 || e.Eligible || e.Missing == "" || e.Path != "young.md" {
		t.Errorf("young: %+v", e)
	}
	if e := r.Rules[0]; e.Weight != 1.5 || e.Eligible {
		t.Errorf("aged-rule: %+v", e)
	}
}
