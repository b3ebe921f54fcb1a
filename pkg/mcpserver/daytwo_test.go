package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/inspect"
)

func TestDaytwoTools(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)

	// show takes a short id and returns the same data as structured content and as text.
	var d inspect.Detail
	text, isErr := call(t, cs, "show", map[string]any{"id": "memory/db"}, &d)
	if isErr || d.ID != "memory/db" || d.Status != "current" || d.Placement.Section != "Project: Shop" || d.Hash == "" {
		t.Fatalf("show = %+v (%s)", d, text)
	}
	if !strings.Contains(text, `"hash": "`+d.Hash) && !strings.Contains(text, `"hash":"`+d.Hash) {
		t.Errorf("show's text does not carry its structured output: %s", text)
	}
	if text, isErr := call(t, cs, "show", map[string]any{"id": "memory/"}, nil); !isErr || !strings.Contains(text, "names") {
		t.Errorf("ambiguous prefix: %v %s", isErr, text)
	}

	// An agent corrects an observed project fact: the correction keeps the project.
	var w Written
	if text, isErr := call(t, cs, "correct", map[string]any{"id": "memory/db", "text": "The shop database is Postgres 17.", "provenance": "observed", "evidence": "psql -c \"select version()\": 17.2"}, &w); isErr {
		t.Fatal(text)
	}
	data, _ := os.ReadFile(filepath.Join(root, filepath.FromSlash(w.Path)))
	if !strings.Contains(string(data), "project: proj_shop") || !strings.Contains(string(data), "type: correction") {
		t.Errorf("correction lost the project:\n%s", data)
	}
	// It is unreviewed (spec §5.2b): the person's claim stands until a
	// person accepts the correction, and every read says who wrote it.
	var l listOutput
	if _, isErr := call(t, cs, "list", map[string]any{"status": "superseded"}, &l); isErr || len(l.Memories) != 0 {
		t.Errorf("an agent's correction superseded a person's claim: list superseded = %+v", l)
	}
	if _, isErr := call(t, cs, "show", map[string]any{"id": w.ID}, &d); isErr || !d.Unreviewed || !strings.HasPrefix(d.WrittenBy, "process:") {
		t.Errorf("show of an agent's correction = %+v, want unreviewed, written by process:…", d)
	}

	// Writes that edit need the hash the caller read; a stale one is refused.
	var e edited
	if text, isErr := call(t, cs, "pin", map[string]any{"id": w.ID, "expected_hash": w.Hash, "pinned": true}, &e); isErr || !e.Changed {
		t.Fatalf("pin: %s", text)
	}
	if text, isErr := call(t, cs, "update", map[string]any{"id": w.ID, "expected_hash": w.Hash, "importance": 9}, nil); !isErr || !strings.Contains(text, "expected_hash") {
		t.Errorf("stale hash: %v %s", isErr, text)
	}
	if text, isErr := call(t, cs, "update", map[string]any{"id": w.ID, "expected_hash": e.Hash, "importance": 11}, nil); !isErr || !strings.Contains(text, "importance") {
		t.Errorf("bad importance: %v %s", isErr, text)
	}
	// An agent does not retire what a person stated.
	call(t, cs, "show", map[string]any{"id": "memory/dana"}, &d)
	if text, isErr := call(t, cs, "retire", map[string]any{"id": "memory/dana", "expected_hash": d.Hash}, nil); !isErr || !strings.Contains(text, "agent-supersedes-person") {
		t.Errorf("agent retired a stated claim: %v %s", isErr, text)
	}
	// Nor what a person wrote by hand, inferred as it is (spec §8).
	call(t, cs, "show", map[string]any{"id": "memory/retry"}, &d)
	if text, isErr := call(t, cs, "retire", map[string]any{"id": "memory/retry", "expected_hash": d.Hash}, nil); !isErr || !strings.Contains(text, "agent-supersedes-person") {
		t.Errorf("agent retired a person's hand-written claim: %v %s", isErr, text)
	}
	// Its own claim is its to retire.
	if text, isErr := call(t, cs, "retire", map[string]any{"id": w.ID, "expected_hash": e.Hash, "reason": "fixed upstream"}, &e); isErr || !e.Changed {
		t.Fatalf("retire: %s", text)
	}
	call(t, cs, "show", map[string]any{"id": w.ID}, &d)
	if d.Status != "retired" || d.Reason != "fixed upstream" || d.Placement.Rendered {
		t.Errorf("after retire: %+v", d)
	}
}
