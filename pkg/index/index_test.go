package index

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// newVault makes an empty vault in a temp dir.
func newVault(t testing.TB) *vault.Vault {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, vault.ConfigFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// write puts a file in the vault and moves its mtime past the racy window
// unless fresh is set, so tests exercise the stat path, not only hashing.
func write(t testing.TB, v *vault.Vault, rel, content string) {
	t.Helper()
	p := filepath.Join(v.Root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func memory(typ, prov, validAt, body string, extra ...string) string {
	fm := []string{"type: " + typ}
	if prov != "" {
		fm = append(fm, "provenance: "+prov)
	}
	if validAt != "" {
		fm = append(fm, "valid_at: "+validAt)
	}
	fm = append(fm, extra...)
	return "---\n" + strings.Join(fm, "\n") + "\n---\n" + body + "\n"
}

// paths runs a search and returns the hit paths, sorted.
func paths(t testing.TB, v *vault.Vault, q Query) []string {
	t.Helper()
	res, err := Search(context.Background(), v, q)
	if err != nil {
		t.Fatalf("search %q: %v", q.Text, err)
	}
	var out []string
	for _, h := range res.Hits {
		out = append(out, h.Path)
	}
	slices.Sort(out)
	return out
}

func mustUpdate(t testing.TB, v *vault.Vault, opts Options) Stats {
	t.Helper()
	st, err := Update(v, opts)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestSearchFollowsAddChangeDeleteRename(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/a.md", memory("fact", "stated", "2026-01-02", "Deploys go through the CI pipeline"))
	write(t, v, "memory/b.md", memory("preference", "observed", "2026-03-04", "Prefers tabs over spaces"))
	write(t, v, "notes/c.md", memory("note", "", "", "Long notes about deploying on Fridays", "title: Friday deploys"))

	var msgs []string
	notify := func(m string) { msgs = append(msgs, m) }
	// No index yet: the first search builds one, saying so once.
	if got, want := paths(t, v, Query{Text: "deploy", Notify: notify}), []string{"memory/a.md", "notes/c.md"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("stemmed search: got %v, want %v", got, want)
	}
	if len(msgs) != 1 || !strings.Contains(msgs[0], "no index yet") {
		t.Fatalf("messages = %q, want one saying there was no index", msgs)
	}
	msgs = nil
	if got := paths(t, v, Query{Text: "tabs", Notify: notify}); !reflect.DeepEqual(got, []string{"memory/b.md"}) {
		t.Fatalf("got %v", got)
	}
	if len(msgs) != 0 {
		t.Fatalf("a fresh index should say nothing, said %q", msgs)
	}

	// Change: b no longer mentions tabs.
	write(t, v, "memory/b.md", memory("preference", "observed", "2026-03-04", "Prefers gofmt defaults"))
	// Add d, delete a, rename c.
	write(t, v, "memory/d.md", memory("fact", "inferred", "2026-05-06", "Tabs are used in Makefiles"))
	os.Remove(filepath.Join(v.Root, "memory/a.md"))
	os.Rename(filepath.Join(v.Root, "notes/c.md"), filepath.Join(v.Root, "notes/renamed.md"))

	// --no-refresh answers from the stale index and says how stale.
	res, err := Search(context.Background(), v, Query{Text: "tabs", NoRefresh: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Index.Fresh || res.Index.Changed != 5 {
		t.Fatalf("stale index status = %+v, want not fresh with 5 changed (b changed, d added, a removed, c renamed = removed + added)", res.Index)
	}
	if len(res.Hits) != 1 || res.Hits[0].Path != "memory/b.md" {
		t.Fatalf("--no-refresh should answer from the old index: %+v", res.Hits)
	}

	// Default: refresh first.
	res, err = Search(context.Background(), v, Query{Text: "tabs"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Index.Fresh || res.Index.Changed != 5 {
		t.Fatalf("refreshed status = %+v, want fresh, 5 changed", res.Index)
	}
	if len(res.Hits) != 1 || res.Hits[0].Path != "memory/d.md" {
		t.Fatalf("after change: %+v", res.Hits)
	}
	if got := paths(t, v, Query{Text: "deploy"}); !reflect.DeepEqual(got, []string{"notes/renamed.md"}) {
		t.Fatalf("after delete+rename: got %v", got)
	}
	if got := paths(t, v, Query{Text: "friday"}); !reflect.DeepEqual(got, []string{"notes/renamed.md"}) {
		t.Fatalf("title search: got %v", got)
	}
	st, err := Freshness(v)
	if err != nil || !st.Exists || st.Changed != 0 || st.Files != 3 {
		t.Fatalf("Freshness = %+v, %v; want existing, 0 changed, 3 files", st, err)
	}
}

func TestHitFieldsAndFilters(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "projects/web.md", memory("project", "", "", "The web app", "id: proj_web"))
	write(t, v, "memory/a.md", memory("fact", "stated", "2026-01-02", "The database is Postgres 16", "project: proj_web", "id: facts/db"))
	write(t, v, "memory/b.md", memory("fact", "inferred", "2025-06-01", "The database might be MySQL"))
	write(t, v, "memory/c.md", memory("decision", "stated", "2026-02-01T10:00:00Z", "Chose the Postgres database for jsonb", "tags: [storage]"))
	write(t, v, "memory/broken.md", "---\ntype: [oops\n---\nThe database body of a broken file\n")
	write(t, v, "notes/deploy.md", memory("note", "", "", "Run the migrations first.",
		"title: Deploy checklist", "description: How releases ship", "aliases: [rollout]", "importance: 8"))

	res, err := Search(context.Background(), v, Query{Text: "postgres"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 2 {
		t.Fatalf("hits = %+v", res.Hits)
	}
	var a Hit
	for _, h := range res.Hits {
		if h.Path == "memory/a.md" {
			a = h
		}
	}
	// The hit carries the file its status was read from, for its presenter.
	if a.File == nil || a.File.Rel != "memory/a.md" || !a.File.OK() {
		t.Fatalf("hit's File = %+v, want memory/a.md as read", a.File)
	}
	a.File = nil
	want := Hit{ID: "facts/db", Path: "memory/a.md", Type: "fact", Provenance: "stated", ValidAt: "2026-01-02", Score: a.Score, Snippet: "The database is **Postgres** 16", Status: vault.StatusCurrent}
	if !reflect.DeepEqual(a, want) || a.Score <= 0 {
		t.Fatalf("hit = %+v\nwant %+v", a, want)
	}

	cases := []struct {
		name string
		q    Query
		want []string
	}{
		{"project", Query{Text: "database", Project: "proj_web"}, []string{"memory/a.md"}},
		{"type", Query{Text: "database", Type: "decision"}, []string{"memory/c.md"}},
		{"provenance", Query{Text: "database", Provenance: "inferred"}, []string{"memory/b.md"}},
		{"since", Query{Text: "database", Since: time.Date(2026, 1, 15, 0, 0, 0, 0, time.UTC)}, []string{"memory/c.md"}},
		{"since is inclusive", Query{Text: "database", Since: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)}, []string{"memory/a.md", "memory/c.md"}},
		{"tag by bare word", Query{Text: "storage"}, []string{"memory/c.md"}},
		{"id is not a bare word", Query{Text: "facts"}, nil},
		{"id field", Query{Text: "id:facts/db"}, []string{"memory/a.md"}},
		{"field syntax", Query{Text: "tags:storage"}, []string{"memory/c.md"}},
		{"date range syntax", Query{Text: `+database +valid_at:<"2026-01-01"`, Syntax: true}, []string{"memory/b.md"}},
		{"must not", Query{Text: "+database -postgres"}, []string{"memory/b.md", "memory/broken.md"}},
		{"broken file still searchable", Query{Text: "broken"}, []string{"memory/broken.md"}},
		// Bare words search every prose field (there is no _all field).
		{"title word", Query{Text: "checklist"}, []string{"notes/deploy.md"}},
		{"description word", Query{Text: "releases"}, []string{"notes/deploy.md"}},
		{"alias word, stemmed", Query{Text: "rollouts"}, []string{"notes/deploy.md"}},
		{"phrase", Query{Text: `"database is postgres"`}, []string{"memory/a.md"}},
		{"phrase keeps word order", Query{Text: `"postgres database"`}, []string{"memory/c.md"}},
		{"phrase in a title", Query{Text: `"deploy checklist"`}, []string{"notes/deploy.md"}},
		{"stop word in a must clause is dropped", Query{Text: "+the +migrations"}, []string{"notes/deploy.md"}},
		{"wildcard", Query{Text: "postg*", Syntax: true}, []string{"memory/a.md", "memory/c.md"}},
		{"bare number", Query{Text: "16"}, []string{"memory/a.md"}},
		{"boosted word", Query{Text: "migrations^2", Syntax: true}, []string{"notes/deploy.md"}},
		{"importance range", Query{Text: "importance:>=7", Syntax: true}, []string{"notes/deploy.md"}},
		{"type field", Query{Text: "type:decision"}, []string{"memory/c.md"}},
		// Without Syntax, what is not syntax is text: the star, the caret
		// and a field this parser does not know are words.
		{"plain: a star is not a wildcard", Query{Text: "postg*"}, nil},
		{"plain: an unknown field is a word", Query{Text: "zebra:postgres"}, []string{"memory/a.md", "memory/c.md"}},
		{"plain: quoted exact value", Query{Text: `id:"facts/db"`}, []string{"memory/a.md"}},
		{"limit", Query{Text: "database", Limit: 1}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := paths(t, v, c.q)
			if c.q.Limit == 1 {
				if len(got) != 1 {
					t.Fatalf("limit 1 gave %v", got)
				}
				return
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
		})
	}

	if _, err := Search(context.Background(), v, Query{Text: `title:"unterminated`, Syntax: true}); err == nil {
		t.Fatal("a malformed query should fail")
	} else if _, ok := err.(*QueryError); !ok {
		t.Fatalf("want *QueryError, got %T %v", err, err)
	}
}

func TestNoOpUpdateDoesNotTouchTheIndex(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for i := range 30 {
		write(t, v, fmt.Sprintf("memory/m%02d.md", i), memory("fact", "stated", "2026-01-02", fmt.Sprintf("fact number %d", i)))
	}
	old := time.Now().Add(-time.Hour)
	for i := range 30 {
		os.Chtimes(filepath.Join(v.Root, fmt.Sprintf("memory/m%02d.md", i)), old, old)
	}
	st := mustUpdate(t, v, Options{})
	if !st.Full || st.Indexed != 30 {
		t.Fatalf("first run = %+v", st)
	}
	g, _ := live(v)
	before := snapshot(t, g.dir)
	st = mustUpdate(t, v, Options{})
	if st.Full || st.Indexed+st.Updated+st.Removed != 0 || st.Files != 30 {
		t.Fatalf("no-op run = %+v", st)
	}
	if after := snapshot(t, g.dir); !reflect.DeepEqual(before, after) {
		t.Fatalf("a no-op run changed the index directory:\nbefore %v\nafter  %v", before, after)
	}

	// A touch changes the stat, not the content: manifest only, index untouched.
	now := time.Now().Add(-time.Minute)
	os.Chtimes(filepath.Join(v.Root, "memory/m03.md"), now, now)
	st = mustUpdate(t, v, Options{})
	if st.Indexed+st.Updated+st.Removed != 0 {
		t.Fatalf("touch run = %+v", st)
	}
	after := snapshot(t, g.dir)
	delete(before, manifestFile)
	delete(after, manifestFile)
	if !reflect.DeepEqual(before, after) {
		t.Fatal("a touched file was re-indexed")
	}

	// A same-size edit within the racy window is caught by the hash.
	write(t, v, "memory/m04.md", memory("fact", "stated", "2026-01-02", "fact number X"))
	st = mustUpdate(t, v, Options{})
	if st.Updated != 1 {
		t.Fatalf("edit run = %+v", st)
	}
	write(t, v, "memory/m04.md", memory("fact", "stated", "2026-01-02", "fact number Y"))
	if got := paths(t, v, Query{Text: "Y"}); !reflect.DeepEqual(got, []string{"memory/m04.md"}) {
		t.Fatalf("same-size racy edit missed: %v", got)
	}
}

// snapshot maps every file under dir to its size and mtime.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			out[strings.TrimPrefix(p, dir+"/")] = fmt.Sprint(fi.Size(), fi.ModTime().UnixNano())
		}
		return nil
	})
	return out
}

// TestDamagedIndexIsRebuilt damages the index in each way a crash, a
// version change or a hand edit can, and checks that both rebuild-index
// and search notice, rebuild saying why once, and answer correctly.
func TestDamagedIndexIsRebuilt(t *testing.T) {
	t.Parallel()
	damage := []struct {
		name, want string
		do         func(t *testing.T, v *vault.Vault, g *generation)
	}{
		{"CURRENT garbage", "CURRENT is damaged", func(t *testing.T, v *vault.Vault, g *generation) {
			os.WriteFile(filepath.Join(Dir(v), currentFile), []byte("../../etc\n"), 0o644)
		}},
		{"generation missing", "incomplete", func(t *testing.T, v *vault.Vault, g *generation) {
			os.RemoveAll(g.dir)
		}},
		{"manifest truncated", "incomplete", func(t *testing.T, v *vault.Vault, g *generation) {
			p := filepath.Join(g.dir, manifestFile)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, data[:len(data)-40], 0o644)
		}},
		{"schema changed", fmt.Sprintf("built with schema 1 and this mem uses %d", schemaVersion), func(t *testing.T, v *vault.Vault, g *generation) {
			p := filepath.Join(g.dir, manifestFile)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(data), fmt.Sprintf("schema %d", schemaVersion), "schema 1", 1)), 0o644)
		}},
		{"root.bolt torn", "could not be opened", func(t *testing.T, v *vault.Vault, g *generation) {
			os.WriteFile(filepath.Join(g.blevePath(), "store", "root.bolt"), []byte("torn"), 0o600)
		}},
		{"segments missing", "could not be opened", func(t *testing.T, v *vault.Vault, g *generation) {
			segs, _ := filepath.Glob(filepath.Join(g.blevePath(), "store", "*.zap"))
			if len(segs) == 0 {
				t.Fatal("no segments to remove")
			}
			for _, s := range segs {
				os.Remove(s)
			}
		}},
		{"rolled back to an older snapshot", "lost writes", func(t *testing.T, v *vault.Vault, g *generation) {
			p := filepath.Join(g.dir, manifestFile)
			data, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(data), "\nseq 1\n", "\nseq 7\n", 1)), 0o644)
		}},
		{"index_meta.json missing", "could not be opened", func(t *testing.T, v *vault.Vault, g *generation) {
			os.Remove(filepath.Join(g.blevePath(), "index_meta.json"))
		}},
	}
	for _, d := range damage {
		for _, via := range []string{"update", "search", "no-refresh"} {
			t.Run(d.name+"/"+via, func(t *testing.T) {
				v := newVault(t)
				write(t, v, "memory/a.md", memory("fact", "stated", "", "The database is Postgres"))
				mustUpdate(t, v, Options{})
				g, _ := live(v)
				d.do(t, v, g)
				var msgs []string
				notify := func(m string) { msgs = append(msgs, m) }
				if via == "update" {
					st := mustUpdate(t, v, Options{Notify: notify})
					if !st.Full || !strings.Contains(st.Reason, d.want) {
						t.Fatalf("stats = %+v, want a full rebuild because %q", st, d.want)
					}
				}
				res, err := Search(context.Background(), v, Query{Text: "postgres", Notify: notify, NoRefresh: via == "no-refresh"})
				if err != nil || len(res.Hits) != 1 || res.Hits[0].Path != "memory/a.md" || !res.Index.Fresh {
					t.Fatalf("search after repair = %+v, %v", res, err)
				}
				if len(msgs) != 1 || !strings.Contains(msgs[0], d.want) || !strings.Contains(msgs[0], "rebuilding it from the files") {
					t.Fatalf("messages = %q, want one saying %q", msgs, d.want)
				}
				if entries, _ := os.ReadDir(Dir(v)); len(entries) != 2 {
					t.Fatalf("%d entries left in %s", len(entries), Dir(v))
				}
			})
		}
	}
}

// TestCompareInWalkOrder: the walk lists "a/x.md" before "a-b.md" (the
// directory "a" sorts before the name "a-b.md") while the manifest is in
// string order ("a-b.md" first); compare must line the two up, or a
// no-op run would see changes and a delete would go unnoticed.
func TestCompareInWalkOrder(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for _, rel := range []string{"a/x.md", "a-b.md", "a.md", "a/y.md", "b.md"} {
		write(t, v, rel, memory("fact", "stated", "2026-01-02", "walkorder "+rel))
	}
	mustUpdate(t, v, Options{})
	if st := mustUpdate(t, v, Options{}); st.Changed != 0 || st.Files != 5 {
		t.Fatalf("no-op run: %+v", st)
	}
	if err := os.Remove(filepath.Join(v.Root, "a-b.md")); err != nil {
		t.Fatal(err)
	}
	write(t, v, "a/z.md", memory("fact", "stated", "2026-01-02", "walkorder new"))
	st := mustUpdate(t, v, Options{})
	if st.Removed != 1 || st.Indexed != 1 || st.Changed != 2 || st.Files != 5 {
		t.Fatalf("after a delete and an add: %+v", st)
	}
	want := []string{"a.md", "a/x.md", "a/y.md", "a/z.md", "b.md"}
	if got := paths(t, v, Query{Text: "walkorder", Limit: 10}); !slices.Equal(got, want) {
		t.Fatalf("search: got %v, want %v", got, want)
	}
}
