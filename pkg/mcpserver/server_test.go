package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// files of the test vault; a project root under the vault's parent.
var testFiles = map[string]string{
	"mem.yaml":         "durable_tags: [durable]\n",
	"projects/shop.md": "---\nid: proj_shop\ntype: project\ntitle: Shop\nroots: [../code/shop]\n---\nThe shop.\n",
	"memory/dana.md":   "---\ntype: identity\nprovenance: stated\npinned: true\nvalid_at: 2026-01-02\n---\nThe user is Dana.\n",
	"memory/db.md":     "---\ntype: fact\nprovenance: observed\nproject: proj_shop\nvalid_at: 2026-03-04\n---\nThe shop database is Postgres 16.\n",
	"memory/retry.md":  "---\ntype: lesson\nprovenance: inferred\nvalid_at: 2026-05-06\n---\nWhen the deploy timed out, a retry after 30s worked.\n",
	"memory/stale.md":  "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-01\nstale_after: 2026-02-01\n---\nCI is red on main.\n",
	"memory/orphan.md": "---\ntype: fact\nprovenance: stated\nproject: proj_gone\n---\nA claim about a project with no note.\n",
	"memory/broken.md": "---\ntype: [fact\n---\nbroken\n",
}

// newSession starts a server on a fresh copy of the test vault and returns
// a connected client session and the vault root.
func newSession(t *testing.T) (*mcp.ClientSession, string) {
	t.Helper()
	return newSessionWith(t, func(*Options) {})
}

// newSessionWith is newSession with the server's options changed by set.
func newSessionWith(t *testing.T, set func(*Options)) (*mcp.ClientSession, string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "v")
	for rel, data := range testFiles {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(base, "code", "shop", "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	opts := Options{Vault: v, Now: func() time.Time { return testNow }, Cwd: base,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	set(&opts)
	srv := New(opts)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	return cs, v.Root
}

// call calls a tool and decodes its structured output into out (when not
// nil). It returns the text of the result and whether it is a tool error.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if res.StructuredContent != nil && !res.IsError {
		fitsOutputSchema(t, cs, name, res.StructuredContent)
	}
	if out != nil && !res.IsError {
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: structured output %s: %v", name, data, err)
		}
	}
	return text.String(), res.IsError
}

// fitsOutputSchema fails t unless out, a tool's structured output, fits
// the output schema tools/list gives for it: the SDK checks that for a
// typed tool, and search's handler is not one (addSearch).
func fitsOutputSchema(t *testing.T, cs *mcp.ClientSession, tool string, out any) {
	t.Helper()
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range list.Tools {
		if tl.Name != tool || tl.OutputSchema == nil {
			continue
		}
		data, _ := json.Marshal(tl.OutputSchema)
		var schema jsonschema.Schema
		if err := json.Unmarshal(data, &schema); err != nil {
			t.Fatal(err)
		}
		resolved, err := schema.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := resolved.Validate(out); err != nil {
			t.Errorf("%s: structured output does not fit its output schema: %v", tool, err)
		}
	}
}

func TestToolsList(t *testing.T) {
	t.Parallel()
	cs, _ := newSession(t)
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	slices.Sort(names)
	want := []string{"audit", "consolidate", "correct", "get", "list", "note", "pin", "recall", "remember", "retire", "search", "show", "signal", "update"}
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
	for _, tool := range res.Tools {
		// Type lists like ["null","array"] break one-type schema dialects.
		for _, schema := range []any{tool.InputSchema, tool.OutputSchema} {
			if schema == nil {
				continue // audit publishes none
			}
			if data, _ := json.Marshal(schema); strings.Contains(string(data), `"null"`) || !strings.Contains(string(data), `"type":"object"`) {
				t.Errorf("%s: schema is not portable: %s", tool.Name, data)
			}
		}
		if tool.Name == "remember" {
			schema, _ := json.Marshal(tool.InputSchema)
			for _, s := range []string{`"required":["text","provenance"]`, `"enum":["stated","observed","inferred"]`} {
				if !strings.Contains(string(schema), s) {
					t.Errorf("remember schema lacks %s: %s", s, schema)
				}
			}
		}
	}
}

func TestRecall(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	shop := filepath.Join(filepath.Dir(root), "code", "shop", "sub")
	var out recallOutput
	text, isErr := call(t, cs, "recall", map[string]any{"cwd": shop}, &out)
	if isErr {
		t.Fatal(text)
	}
	for _, s := range []string{"<!-- generated by mem render from " + root, "## Identity\n", "- [2026-01-02] The user is Dana. (stated)",
		"## Project: Shop\n", "The shop database is Postgres 16."} {
		if !strings.Contains(text, s) {
			t.Errorf("recall lacks %q:\n%s", s, text)
		}
	}
	if out.Project != "proj_shop" || out.Bytes != len(text) || out.Budget != vault.DefaultBudget {
		t.Errorf("output = %+v (text %d bytes)", out, len(text))
	}
	if len(out.Warnings) != 1 || !strings.HasPrefix(out.Warnings[0], "memory/broken.md") {
		t.Errorf("warnings = %q, want the broken file", out.Warnings)
	}

	// The server's own directory holds no project: no project tier.
	text, _ = call(t, cs, "recall", nil, nil)
	if strings.Contains(text, "## Project") {
		t.Errorf("recall without cwd rendered a project:\n%s", text)
	}
	text, _ = call(t, cs, "recall", map[string]any{"project": "proj_shop"}, nil)
	if !strings.Contains(text, "## Project: Shop") {
		t.Errorf("recall by project:\n%s", text)
	}
	for _, args := range []map[string]any{{"project": "proj_nope"}, {"cwd": "relative/dir"}, {"budget": 10}} {
		if text, isErr := call(t, cs, "recall", args, nil); !isErr {
			t.Errorf("recall %v: no error: %s", args, text)
		}
	}
}

func TestGet(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	data, _ := os.ReadFile(filepath.Join(root, "memory", "db.md"))
	for _, ref := range []string{"memory/db", "memory/db.md", filepath.Join(root, "memory", "db.md")} {
		var out getOutput
		if text, isErr := call(t, cs, "get", map[string]any{"id": ref}, &out); isErr {
			t.Fatalf("get %s: %s", ref, text)
		}
		if out.ID != "memory/db" || out.Path != "memory/db.md" || out.Content != string(data) || out.Hash != vault.Hash(data) {
			t.Errorf("get %s = %+v", ref, out)
		}
	}
	// A file that does not parse comes back with its problem, to be fixed.
	var out getOutput
	call(t, cs, "get", map[string]any{"id": "memory/broken"}, &out)
	if !strings.HasPrefix(out.Problem, "memory/broken.md:") || out.Content != testFiles["memory/broken.md"] {
		t.Errorf("get broken = %+v", out)
	}
	// Nothing outside the vault's listing can be read.
	outside := filepath.Join(filepath.Dir(root), "secret.md")
	os.WriteFile(outside, []byte("---\ntype: fact\n---\nouter\n"), 0o644)
	os.Symlink(outside, filepath.Join(root, "memory", "link.md"))
	for _, ref := range []string{"../secret", "../secret.md", outside, "mem.yaml", "memory/nope", "memory/link"} {
		if text, isErr := call(t, cs, "get", map[string]any{"id": ref}, nil); !isErr || strings.Contains(text, "outer") {
			t.Errorf("get %s: want an error, got %s", ref, text)
		}
	}
}

func TestRememberWritesThroughTheVault(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	var w Written
	text, isErr := call(t, cs, "remember", map[string]any{
		"text": "The staging host is stg-3.", "provenance": "observed", "evidence": "ssh stg-3 hostname: stg-3", "cwd": filepath.Join(filepath.Dir(root), "code", "shop"),
		"tags": []string{"infra"}, "ttl": "30d", "session": "s1",
	}, &w)
	if isErr {
		t.Fatal(text)
	}
	if !strings.HasPrefix(w.Path, "memory/the-staging-host-is-stg-3-") || w.ID+".md" != w.Path {
		t.Fatalf("written = %+v", w)
	}
	data, err := os.ReadFile(filepath.Join(root, w.Path))
	if err != nil {
		t.Fatal(err)
	}
	if w.Hash != vault.Hash(data) {
		t.Errorf("hash %s is not the file's", w.Hash)
	}
	for _, s := range []string{"type: fact\n", "provenance: observed\n", "project: proj_shop\n", "valid_at: 2026-11-29T12:00:00Z\n",
		"stale_after: 2026-12-29T00:00:00Z\n", "session: s1\n", "\nThe staging host is stg-3.\n"} {
		if !strings.Contains(string(data), s) {
			t.Errorf("file lacks %q:\n%s", s, data)
		}
	}
}

func TestRememberRefusals(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	before, _ := vault.Open(root)
	list := func() []string { l, _ := before.List(); return l }
	n := len(list())
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"no provenance", map[string]any{"text": "x"}, "provenance"},
		{"bad provenance", map[string]any{"text": "x", "provenance": "rumour"}, "provenance"},
		{"note type", map[string]any{"text": "x", "provenance": "stated", "type": "note"}, "type"},
		{"too long", map[string]any{"text": strings.Repeat("word ", 60), "provenance": "stated"}, "mem note"},
		{"three lines", map[string]any{"text": "a\nb\nc", "provenance": "stated"}, "at most 2 lines"},
		{"secret", map[string]any{"text": "the deploy key is AKIAIOSFODNN7EXAMPLQ", "provenance": "stated"}, "refused: text: secret-aws-access-token"},
		{"unknown project", map[string]any{"text": "x", "provenance": "stated", "project": "proj_nope"}, "names no project note"},
		{"bad ttl", map[string]any{"text": "x", "provenance": "stated", "ttl": "soon"}, "ttl"},
		{"both stale", map[string]any{"text": "x", "provenance": "stated", "ttl": "3d", "stale_after": "2027-01-01"}, "not both"},
		{"supersedes nothing", map[string]any{"text": "x", "provenance": "stated", "supersedes": []string{"memory/nope"}}, "no memory has id or path"},
		{"weaker supersedes", map[string]any{"text": "The shop database is MySQL.", "provenance": "inferred", "supersedes": []string{"memory/db"}}, "refused"},
	}
	for _, c := range cases {
		text, isErr := call(t, cs, "remember", c.args, nil)
		if !isErr || !strings.Contains(text, c.want) {
			t.Errorf("%s: isError=%v text=%q, want an error with %q", c.name, isErr, text, c.want)
		}
		if strings.Contains(text, "AKIAIOSFODNN7EXAMPLQ") {
			t.Errorf("%s: the error echoes the secret", c.name)
		}
	}
	if got := len(list()); got != n {
		t.Errorf("refused writes left files: %d before, %d after", n, got)
	}
	// A valid supersedes is stored as the id even when given as a path
	// (of a person's claim, an agent writes a correction: spec §8).
	var w Written
	if text, isErr := call(t, cs, "remember", map[string]any{"text": "The shop database is Postgres 17.", "provenance": "stated", "type": "correction",
		"project": "proj_shop", "supersedes": []string{"memory/db.md"}}, &w); isErr {
		t.Fatal(text)
	}
	data, _ := os.ReadFile(filepath.Join(root, w.Path))
	if !strings.Contains(string(data), "supersedes:\n  - memory/db\n") {
		t.Errorf("supersedes not stored as the id:\n%s", data)
	}
}

func TestNote(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	var out noteOutput
	text, isErr := call(t, cs, "note", map[string]any{"title": "Deploy runbook", "body": "# Steps\n\n1. Build.\n2. Ship.\n",
		"provenance": "stated", "project": "none"}, &out)
	if isErr {
		t.Fatal(text)
	}
	if !strings.HasPrefix(out.Path, "notes/deploy-runbook-") || !strings.HasPrefix(out.Pointer.Path, "memory/deploy-runbook-see-") {
		t.Fatalf("note = %+v", out)
	}
	note, _ := os.ReadFile(filepath.Join(root, out.Path))
	pointer, _ := os.ReadFile(filepath.Join(root, out.Pointer.Path))
	if !strings.Contains(string(note), "type: note\n") || !strings.Contains(string(note), "title: Deploy runbook\n") || strings.Contains(string(note), "provenance") {
		t.Errorf("note file:\n%s", note)
	}
	if !strings.Contains(string(pointer), "Deploy runbook: see [["+out.ID+"]]\n") || vault.Hash(pointer) != out.Pointer.Hash {
		t.Errorf("pointer file:\n%s", pointer)
	}
	// A pointer that cannot be written is refused before the note is.
	n := len(mustList(t, root))
	for _, args := range []map[string]any{
		{"title": "X", "body": "text", "provenance": "stated", "project": "proj_nope"},
		{"title": "X", "body": "token ghp_0123456789abcdefghijABCDEFGHIJ012345", "provenance": "stated"},
		{"title": "two\nlines", "body": "text", "provenance": "stated"},
		{"title": strings.Repeat("long title ", 30), "body": "text", "provenance": "stated"},
	} {
		if text, isErr := call(t, cs, "note", args, nil); !isErr {
			t.Errorf("note %v: no error: %s", args["title"], text)
		}
	}
	if got := len(mustList(t, root)); got != n {
		t.Errorf("refused notes left files: %d before, %d after", n, got)
	}
}

func mustList(t *testing.T, root string) []string {
	t.Helper()
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	l, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestSignalCompareAndSwap(t *testing.T) {
	t.Parallel()
	cs, root := newSession(t)
	var got getOutput
	call(t, cs, "get", map[string]any{"id": "memory/retry"}, &got)
	args := map[string]any{"id": "memory/retry", "expected_hash": got.Hash, "session": "s1", "evidence": "retry fixed the deploy on Monday"}
	var out signalOutput
	if text, isErr := call(t, cs, "signal", args, &out); isErr {
		t.Fatal(text)
	}
	data, _ := os.ReadFile(filepath.Join(root, "memory", "retry.md"))
	if !out.Added || out.Weight != 1 || out.Sessions != 1 || out.Eligible || out.Hash != vault.Hash(data) {
		t.Errorf("signal = %+v", out)
	}
	if !strings.Contains(string(data), "evidence: retry fixed the deploy on Monday") {
		t.Errorf("file:\n%s", data)
	}

	// The old hash no longer matches: a second agent that read the file
	// before the first wrote is refused, and the file is untouched.
	args["session"], args["evidence"] = "s2", "retry fixed it again"
	text, isErr := call(t, cs, "signal", args, nil)
	if !isErr || !strings.Contains(text, "file changed since it was read") || !strings.Contains(text, "call get") {
		t.Errorf("stale hash: isError=%v %s", isErr, text)
	}
	if after, _ := os.ReadFile(filepath.Join(root, "memory", "retry.md")); string(after) != string(data) {
		t.Errorf("a refused signal changed the file")
	}

	// With the fresh hash it goes through; the same evidence again is a no-op.
	args["expected_hash"] = out.Hash
	if text, isErr := call(t, cs, "signal", args, &out); isErr || !out.Added || out.Sessions != 2 {
		t.Fatalf("signal with fresh hash: %+v %s", out, text)
	}
	args["expected_hash"] = out.Hash
	if text, isErr := call(t, cs, "signal", args, &out); isErr || out.Added {
		t.Errorf("repeat signal: %+v %s", out, text)
	}

	var db getOutput
	call(t, cs, "get", map[string]any{"id": "memory/db"}, &db)
	for _, c := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"id": "memory/db", "expected_hash": db.Hash, "session": "s", "evidence": "e"}, "refused: signals count only for inferred lessons"},
		{map[string]any{"id": "memory/retry", "expected_hash": "", "session": "s", "evidence": "e"}, "expected_hash is empty"},
		{map[string]any{"id": "memory/retry", "expected_hash": "x", "session": "", "evidence": "e"}, "needs the session"},
		{map[string]any{"id": "memory/retry", "expected_hash": "x", "session": "s", "evidence": "e", "at": "2027-01-01"}, "after today"},
		{map[string]any{"id": "../v/memory/retry", "expected_hash": "x", "session": "s", "evidence": "e"}, "no memory has id or path"},
	} {
		if text, isErr := call(t, cs, "signal", c.args, nil); !isErr || !strings.Contains(text, c.want) {
			t.Errorf("signal %v: isError=%v %q, want %q", c.args, isErr, text, c.want)
		}
	}
}

func TestSearch(t *testing.T) {
	t.Parallel()
	cs, _ := newSession(t)
	var w Written
	call(t, cs, "remember", map[string]any{"text": "The invoice service retries webhooks three times.", "provenance": "stated", "project": "none"}, &w)
	var res struct {
		Index struct{ Fresh bool }
		Hits  []struct{ ID, Path, Type, Provenance, Snippet string }
	}
	text, isErr := call(t, cs, "search", map[string]any{"query": "webhooks"}, &res)
	if isErr {
		t.Fatal(text)
	}
	if len(res.Hits) != 1 || res.Hits[0].ID != w.ID || res.Hits[0].Provenance != "stated" || !strings.Contains(res.Hits[0].Snippet, "**webhooks**") {
		t.Fatalf("search = %+v", res)
	}
	if !strings.HasPrefix(text, w.Path+"  fact, stated, 2026-11-29") || !res.Index.Fresh {
		t.Errorf("search text = %q", text)
	}
	call(t, cs, "search", map[string]any{"query": "postgres", "project": "proj_shop"}, &res)
	if len(res.Hits) != 1 || res.Hits[0].ID != "memory/db" {
		t.Errorf("search in project = %+v", res)
	}
	text, _ = call(t, cs, "search", map[string]any{"query": "nothing-matches-this"}, &res)
	if len(res.Hits) != 0 || !strings.Contains(text, "no matches") {
		t.Errorf("no-match search = %q %+v", text, res)
	}
	for _, args := range []map[string]any{{"query": " "}, {"query": "x", "project": "shop"}, {"query": "x", "since": "soon"}} {
		if text, isErr := call(t, cs, "search", args, nil); !isErr {
			t.Errorf("search %v: no error: %s", args, text)
		}
	}
}

func TestAudit(t *testing.T) {
	t.Parallel()
	cs, _ := newSession(t)
	var r struct {
		Memories int
		Broken   []string
		ValidAt  struct{ Total, Missing int } `json:"valid_at"`
		Stale    []struct{ Path string }
		Orphans  []struct {
			Project string
			Paths   []string
		} `json:"orphan_projects"`
	}
	text, isErr := call(t, cs, "audit", nil, &r)
	if isErr {
		t.Fatal(text)
	}
	if r.Memories != 5 || len(r.Broken) != 1 || r.Broken[0] != "memory/broken.md" || r.ValidAt.Total != 5 || r.ValidAt.Missing != 1 {
		t.Errorf("counts = %+v", r)
	}
	if len(r.Stale) != 1 || r.Stale[0].Path != "memory/stale.md" || len(r.Orphans) != 1 || r.Orphans[0].Project != "proj_gone" {
		t.Errorf("findings = %+v", r)
	}
	if !strings.HasPrefix(text, "mem audit: ") || !strings.Contains(text, "memory/stale.md") {
		t.Errorf("text = %s", text)
	}
}
