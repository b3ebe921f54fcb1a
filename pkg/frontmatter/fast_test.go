package frontmatter_test

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// traps are frontmatter blocks where YAML's rules are easy to get wrong:
// resolution (yes, on, ~, 0x10, dates), quoting, comments, indentation,
// characters YAML reads as breaks, and shapes the fast path must decline.
var traps = []string{
	"type: fact\npinned: yes", "pinned: on", "pinned: ~", "pinned:", "pinned: True", "pinned: 'true'",
	"importance: 0x10", "importance: 1e3", "importance: 07", "importance: +5", "importance: 5.0", "importance: 5",
	"id: ~", "id: null", "id: NULL", "id: nulL", "id: 'null'", "id: \"~\"", "id: ''", "id:", "id:   ",
	"title: a # b", "title: a#b", "title: a: b", "title: a:b", "title: a:", "title: 'it''s'", "title: ''''",
	"title: \"a\\tb\"", "title: 'a'  ", "title: trailing   ", "title: a  b", "title:  lead",
	"title: |\n  x", "title: >\n  x", "title: &a x\nid: *a", "title: !!str 5", "title: *a",
	"tags: [a, b,]", "tags: [a,b]", "tags: []", "tags: [ ]", "tags: [a, [b]]", "tags: [a: b]", "tags: [a:b]",
	"tags: [a, ~, null]", "tags: ['a', \"b\"]", "tags: [a b, c]", "tags: [a #b]", "tags: [a] x", "tags: [a, 'b' ]",
	"tags: [https://x]", "tags: [a:,b]", "tags: [?a]", "tags: [a?]", "tags: [-a]", "tags: ['a'b]",
	"tags:\n- a\n- b", "tags:\n  - a\n  - b\ntype: x", "tags:\n  - a\n   b", "tags:\n  -\n  - b", "tags:\n  - ",
	"tags:\n\n  - a\n\n  - b", "tags:\n  - a\n- b", "tags:\n  -  a", "tags:\n  - a: b", "tags:\n  - [a]",
	"tags:\n  - 'a'\n  - \"b\"", "tags:\n  - a # c", "tags: x\n  - a", "tags:\n  - - a", "tags: a\n- b",
	"generated: {by: x, at: 2026-01-01T12:00:00Z}", "generated: {by: x,at: y}", "generated: {by:x}",
	"generated: {}", "generated: {by: 'a b'}", "generated: {by: , at: x}", "generated: {by: x, by: y}",
	"generated:\n  by: x\n  at: 2026-01-01", "generated:\n  by:\n    x", "generated:\n  by:\n  at: 2026-01-01",
	"generated:\n  by: x\n    at: y", "generated:\n  by: x\n  - y", "generated:\n  other: x", "generated: x",
	"verified:\n  - by: a\n    at: 2026-01-01\n  - by: b", "verified: [{by: a}]", "verified:\n- by: a\n  at: 2026-01-01",
	"verified:\n  - by: a\n    at:\n  - by: b", "verified:\n  - by:\n  - by: b", "verified: {by: a, at: 2026-01-02}",
	"signals:\n- session: s\n  at: 2026-01-01\n  evidence: e", "sources:\n  - resource: r\n    id: 1\n    last_modified: 2026-01-01",
	"valid_at: 2026-01-01", "valid_at: '2026-01-01'", "valid_at: 2026-13-01", "valid_at:", "valid_at: null",
	"valid_at: 2026-01-01 12:00", "valid_at: 2026-01-01T12:00:00+02:00", "valid_at: ~",
	"evidence: go test ./... exited 0", "evidence: 'sha256: ab12'", "evidence: [a]",
	"roots: ~/src/x", "roots:\n  - ~/src/x", "roots: [~/a, ~]",
	"title: \u2028x", "title: caf\u00e9", "title: \U0001F600", "title: a\u0085b", "title: a\u00a0b", "title: \ufeffx", "title: a\x7fb",
	"id: x\nid: y", "  id: x", "id: x\n  more", "id: x\n\ttab: y", "title: x\t", "id : x", "id:x", "ID: x", "\"id\": x",
	"title: -x", "title: - x", "title: --- x", "title: ? x", "title: ?x", "title: @x", "title: `x`", "title: %x",
	"title: [a] b", "title: a]", "title: a, b", "title: {a}", "title: a}", "title: a{b", "title: ,a", "title: :a",
	"source: import:claude", "source: https://x.y/z", "description: \"a 'b' c\"", "description: 'a \"b\" c'",
	"title: \"a\" b", "title: 'a' # c", "title: \"unterminated", "title: 'unterminated", "title: 'a\n  b'",
	"custom: x", "tags: {a: 1}", "# comment\ntype: x", "type: x # c", "type: x\n# c", "type: fact\n\n", "\n\ntype: x",
	"", "\n", "- a", "type: x\n- a", "type: [a, b]", "type: {a: b}", "key: k", "status: draft\nsection: Notes",
}

// seeds are the example vault, 200 generated files and the traps, each
// in a file with a body.
func seeds(tb testing.TB) [][]byte {
	tb.Helper()
	var out [][]byte
	root := filepath.Join("..", "..", "examples", "vault")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		out = append(out, data)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := benchgen.Generate(benchgen.Options{N: 200, Seed: 1}, func(_ string, data []byte) error {
		out = append(out, data)
		return nil
	}); err != nil {
		tb.Fatal(err)
	}
	for _, t := range traps {
		out = append(out, []byte("---\n"+t+"\n---\nbody\n"))
	}
	return out
}

// sameAsYAML fails t when the fast path accepts data but reads it
// differently from yaml.v3, and reports whether it accepted.
func sameAsYAML(t *testing.T, data []byte) bool {
	t.Helper()
	fast, accepted, slow, err := frontmatter.ParseBoth(data)
	if !accepted {
		return false
	}
	if err != nil {
		t.Fatalf("fast path accepted what yaml.v3 refuses (%v):\n%s", err, data)
	}
	if !reflect.DeepEqual(fast, slow) {
		t.Fatalf("fast path and yaml.v3 differ on\n%s\nfast: %+v\nyaml: %+v", data, fast, slow)
	}
	return true
}

func TestFastPathMatchesYAML(t *testing.T) {
	t.Parallel()
	for _, data := range seeds(t) {
		sameAsYAML(t, data)
	}
}

// TestFastPathTakesCommonFiles: what mem writes, and the usual hand-written
// forms, never pay for yaml.v3.
func TestFastPathTakesCommonFiles(t *testing.T) {
	t.Parallel()
	var files, declined int
	if _, err := benchgen.Generate(benchgen.Options{N: 500, Seed: 2}, func(rel string, data []byte) error {
		doc, err := frontmatter.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		if len(doc.Extra) > 0 {
			return nil // an unknown key: kept as a yaml.v3 node
		}
		files++
		for _, in := range [][]byte{data, doc.Marshal()} {
			if !sameAsYAML(t, in) {
				declined++
				t.Errorf("%s: the fast path declined\n%s", rel, in)
			}
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if files < 400 {
		t.Fatalf("only %d of 500 generated files have known keys only", files)
	}
	for _, fm := range []string{
		"type: fact\ntags: [go, 'c++', \"rust\"]\nverified: {by: human:dana, at: 2026-01-02}",
		"title: 'Deploy: the ''blue'' way'\ntags:\n- a\n- b\n\nvalid_at: 2026-01-02   \nroots: [~/src/app]",
		"type: lesson\nsignals:\n  - session: s1\n    at: 2026-01-02T10:00:00Z\n    evidence: \"retried, it worked\"",
		"type: note\ntitle: café ☕ notes\ndescription: a, b and [c]\nsource: https://example.com/x?y=1",
	} {
		if !sameAsYAML(t, []byte("---\n"+fm+"\n---\nbody\n")) {
			t.Errorf("the fast path declined\n%s", fm)
		}
	}
}

// FuzzFastPathMatchesYAML: whatever the fast path accepts, it reads exactly
// as yaml.v3 does (Meta, Keys, Problems, Body, BodyLine).
func FuzzFastPathMatchesYAML(f *testing.F) {
	for _, data := range seeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsYAML(t, data)
	})
}

// Fragments FuzzFastPathLines assembles frontmatter from: byte mutation
// rarely builds whole YAML lines, so this target picks them.
var (
	fuzzKeys   = []string{"id", "type", "title", "tags", "pinned", "importance", "valid_at", "generated", "verified", "signals", "by", "at", "session", "custom", "Tags", "-", "- by", "#", ""}
	fuzzSeps   = []string{": ", ":", ":  ", " : ", ":\t", ""}
	fuzzValues = []string{"", "x", "a b", "~", "null", "Null", "yes", "on", "true", "0x10", "1e3", "7", "07", "2026-01-02", "2026-01-02T10:00:00Z",
		"human:dana", "https://x.y", "'a''b'", "'a'", "\"a\"", "\"a\\\"b\"", "'", "\"", "[a, b]", "[a,b]", "[]", "[a, [b]]", "[a", "{by: x, at: 2026-01-02}",
		"{by: x}", "{}", "{a: 1}", "a #c", "a#c", "a: b", "a:", "- a", "-a", "|", ">", "&a x", "*a", "!!str x", "@x", "%x", "`x`", "a ", "é", "\u2028", "\u0085", "\ufeff", "\x01", "[~, 'x y']", "?x"}
	fuzzIndents = []string{"", " ", "  ", "   ", "    ", "\t"}
)

// FuzzFastPathLines: frontmatter built line by line from YAML's tricky
// fragments reads the same on both paths whenever the fast path takes it.
func FuzzFastPathLines(f *testing.F) {
	f.Add([]byte{0, 0, 1, 0, 0, 3, 2, 0, 9, 1, 7, 0, 0, 1, 0, 0, 0, 8, 0, 2, 0, 3})
	f.Add([]byte{2, 0, 0, 12, 0, 7, 0, 0, 2, 5, 17, 5, 0, 3, 2, 18, 0})
	f.Fuzz(func(t *testing.T, choices []byte) {
		pick := func(list []string) string {
			if len(choices) == 0 {
				return ""
			}
			c := choices[0]
			choices = choices[1:]
			return list[int(c)%len(list)]
		}
		var b strings.Builder
		b.WriteString("---\n")
		for len(choices) > 0 {
			b.WriteString(pick(fuzzIndents) + pick(fuzzKeys) + pick(fuzzSeps) + pick(fuzzValues) + "\n")
		}
		b.WriteString("---\nbody\n")
		sameAsYAML(t, []byte(b.String()))
	})
}
