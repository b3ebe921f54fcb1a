package frontmatter

import (
	"strings"
	"testing"
	"time"
)

// OKF §5.1 fields mem does not model (usage_count, a per-entry
// usage_window) are kept and never a problem; the typed fields still read.
func TestSourcesUnknownKeysKept(t *testing.T) {
	t.Parallel()
	in := "---\ntype: BigQuery Table\nsources:\n- id: warehouse-schema\n  resource: https://example.com/s\n  usage_count: 5000\n  usage_window: {from: 2026-06-01T00:00:00Z, to: 2026-06-30T00:00:00Z}\ngenerated: {by: reference_agent/x, at: 2026-06-20T22:53:05Z, model: big}\n---\nBody.[^warehouse-schema]\n"
	doc, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Problems) != 0 {
		t.Fatalf("problems: %+v", doc.Problems)
	}
	if len(doc.Meta.Sources) != 1 || doc.Meta.Sources[0].ID != "warehouse-schema" || doc.Meta.Sources[0].Resource == "" {
		t.Fatalf("sources not typed: %+v", doc.Meta.Sources)
	}
	if doc.Meta.Generated == nil || doc.Meta.Generated.By != "reference_agent/x" {
		t.Fatalf("generated not typed: %+v", doc.Meta.Generated)
	}
	out := string(doc.Marshal())
	for _, want := range []string{"usage_count: 5000", "usage_window:", "model: big"} {
		if !strings.Contains(out, want) {
			t.Errorf("rewrite lost %q:\n%s", want, out)
		}
	}
	again, err := Parse([]byte(out))
	if err != nil || len(again.Meta.Sources) != 1 || strings.Count(out, "sources:") != 1 {
		t.Fatalf("rewrite does not read back once: %v\n%s", err, out)
	}
	// A writer that replaces generated wins over the kept value.
	doc.Meta.Generated = &Actor{By: "mem/1", At: NewTime(time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC))}
	out = string(doc.Marshal())
	if !strings.Contains(out, "mem/1") || strings.Contains(out, "model: big") || strings.Count(out, "generated:") != 1 {
		t.Fatalf("edited generated not written:\n%s", out)
	}
	// mem's own signals stay strict: an unknown key there is a typo.
	doc, _ = Parse([]byte("---\ntype: lesson\nsignals:\n- {session: s1, at: 2026-01-01, evidnce: x}\n---\nx\n"))
	if len(doc.Problems) != 1 {
		t.Fatalf("signals unknown key not reported: %+v", doc.Problems)
	}
}

// yaml.v3 counts a parser error's line from 0 and a scanner error's from
// 1; both must name the file line holding the fault.
func TestYAMLErrorLine(t *testing.T) {
	t.Parallel()
	for in, line := range map[string]int{
		"---\ntype: note\ntags: [a\n---\n":    3,
		"---\ntype: note\n- x\n---\n":         3,
		"---\na:\n  b: 1\n c: 2\n---\n":       4,
		"---\ntype: note\ntitle: a: b\n---\n": 3,
		"---\ntype: note\n\tbad: x\n---\n":    3,
	} {
		_, err := Parse([]byte(in))
		fe, ok := err.(*Error)
		if !ok || fe.Line != line {
			t.Errorf("%q: got %v, want line %d", in, err, line)
		}
	}
}

func TestStaleInstant(t *testing.T) {
	t.Parallel()
	got := StaleInstant(time.Date(2026, 12, 31, 15, 4, 0, 0, time.FixedZone("x", 3600)))
	if got.DateOnly || got.String() != "2026-12-31T00:00:00Z" {
		t.Fatalf("got %s (date only %v)", got, got.DateOnly)
	}
}

// Claude Code nests the type as metadata: {type: ...}; mem reads it and a
// rewrite keeps it where it was.
func TestMetadataType(t *testing.T) {
	t.Parallel()
	in := "---\nname: testing policy\ndescription: how we test\nmetadata:\n  type: feedback\n---\nIntegration tests hit a real database.\n"
	doc, err := Parse([]byte(in))
	if err != nil || doc.Meta.Type != "feedback" {
		t.Fatalf("type %q, err %v", doc.Meta.Type, err)
	}
	if out := string(doc.Marshal()); strings.Contains(out, "\ntype:") || !strings.Contains(out, "  type: feedback") {
		t.Fatalf("rewrite moved the type:\n%s", out)
	}
	doc, _ = Parse([]byte("---\ntype: note\nmetadata: {type: project}\n---\nx\n"))
	if doc.Meta.Type != "note" {
		t.Fatalf("a top-level type wins, got %q", doc.Meta.Type)
	}
}
