package mcpserver

import (
	"strings"
	"testing"
)

// search takes a question in plain language, more phrasings in queries
// (at most 8), and bleve's syntax only when asked.
func TestSearchPhrasingsAndSyntax(t *testing.T) {
	t.Parallel()
	cs, _ := newSession(t)
	type hits struct{ Hits []struct{ Path string } }
	paths := func(r hits) []string {
		var out []string
		for _, h := range r.Hits {
			out = append(out, h.Path)
		}
		return out
	}
	var r hits
	if text, isErr := call(t, cs, "search", map[string]any{"query": "Which database: Postgres or MySQL?"}, &r); isErr || len(r.Hits) == 0 || r.Hits[0].Path != "memory/db.md" {
		t.Fatalf("a question: %v %q", paths(r), text)
	}
	r = hits{}
	if text, isErr := call(t, cs, "search", map[string]any{"query": "zebra", "queries": []string{"deploy retry"}}, &r); isErr || len(r.Hits) != 1 || r.Hits[0].Path != "memory/retry.md" {
		t.Fatalf("queries: %v %q", paths(r), text)
	}
	r = hits{}
	if text, isErr := call(t, cs, "search", map[string]any{"queries": []string{"postgres"}}, &r); isErr || len(r.Hits) != 1 {
		t.Fatalf("queries alone: %v %q", paths(r), text)
	}
	nine := []string{"a", "b", "c", "d", "e", "f", "g", "h", "i"}
	if text, isErr := call(t, cs, "search", map[string]any{"query": "x", "queries": nine}, nil); !isErr || !strings.Contains(text, "at most 8") {
		t.Fatalf("nine phrasings: %q", text)
	}
	r = hits{}
	if call(t, cs, "search", map[string]any{"query": "postg*"}, &r); len(r.Hits) != 0 {
		t.Fatalf("a star is text without syntax: %v", paths(r))
	}
	if text, isErr := call(t, cs, "search", map[string]any{"query": "postg*", "syntax": true}, &r); isErr || len(r.Hits) != 1 {
		t.Fatalf("syntax: %v %q", paths(r), text)
	}
}

// remember.aliases are stored and searched; recall with a query returns
// the view and the best hits, each labelled by its store.
func TestAliasesAndRecallQuery(t *testing.T) {
	t.Parallel()
	cs, _ := newSession(t)
	var w struct{ Path string }
	if text, isErr := call(t, cs, "remember", map[string]any{"text": "Orla fires her pots in the shed", "provenance": "stated",
		"project": "none", "aliases": []string{"kiln"}}, &w); isErr {
		t.Fatal(text)
	}
	if text, isErr := call(t, cs, "note", map[string]any{"title": "Kiln schedule", "body": "Firing on Fridays, glazing on Mondays.",
		"provenance": "stated", "project": "none"}, nil); isErr {
		t.Fatal(text)
	}
	var out struct {
		View string
		Hits []struct{ Store, Path string }
	}
	text, isErr := call(t, cs, "recall", map[string]any{"query": "kiln"}, &out)
	if isErr {
		t.Fatal(text)
	}
	stores := map[string]string{}
	for _, h := range out.Hits {
		stores[h.Path] = h.Store
	}
	if stores[w.Path] != "memory" || len(out.Hits) != 3 || !strings.Contains(out.View, "The user is Dana") {
		t.Fatalf("recall kiln: %+v", out)
	}
	var note, pointer int
	for p, s := range stores {
		switch {
		case strings.HasPrefix(p, "notes/") && s == "note":
			note++
		case strings.HasPrefix(p, "memory/") && s == "pointer":
			pointer++
		}
	}
	if note != 1 || pointer != 1 || !strings.Contains(text, "- pointer: memory/") || !strings.Contains(text, "- note: notes/") {
		t.Fatalf("stores %v; text:\n%s", stores, text)
	}
	if text, _ := call(t, cs, "recall", map[string]any{}, &out); strings.Contains(text, "Found for") {
		t.Fatalf("recall without a query searched: %q", text)
	}
}
