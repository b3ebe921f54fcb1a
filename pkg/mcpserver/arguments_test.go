package mcpserver

import (
	"strings"
	"testing"
)

// A call with an argument of the wrong JSON type, or one the tool does not
// take, is refused naming the argument and what it wants, never with the
// schema validator's text.
func TestWrongArgumentsNameTheArgument(t *testing.T) {
	t.Parallel()
	cs, _ := newSession(t)
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"search", map[string]any{"query": "x", "limit": nil}, `argument "limit" is null; give an integer or leave it out`},
		{"search", map[string]any{"query": "x", "limit": "ten"}, `argument "limit" is a string; give an integer`},
		{"search", map[string]any{"query": "x", "limit": 2.5}, `argument "limit" is a number; give an integer`},
		{"search", map[string]any{"query": 5}, `argument "query" is an integer; give a string`},
		{"search", map[string]any{"query": "x", "bogus": 1}, `search takes no argument "bogus": it takes current, explain, limit, project, provenance, queries, query, `},
		{"remember", map[string]any{"text": "x", "tags": "a"}, `argument "tags" is a string; give an array`},
		{"audit", map[string]any{"verbose": true}, `audit takes no argument "verbose": it takes none`},
	} {
		text, isErr := call(t, cs, c.tool, c.args, nil)
		if !isErr || !strings.HasPrefix(text, c.want) {
			t.Errorf("%s %v: got error=%v %q, want %q", c.tool, c.args, isErr, text, c.want)
		}
		if strings.Contains(text, "reflect") || strings.Contains(text, "ten") {
			t.Errorf("%s %v: the message quotes the validator or the value: %q", c.tool, c.args, text)
		}
	}
	// Whole numbers written with a fraction are integers, as the schema counts.
	if text, isErr := call(t, cs, "search", map[string]any{"query": "x", "limit": 2.0}, nil); isErr {
		t.Errorf("limit 2.0 refused: %q", text)
	}
}
