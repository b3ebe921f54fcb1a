package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// contextFixture is the corpus vault plus a small web of files whose
// vault-wide answers change when files that are not linted change: a file
// with an id, a project, a link by name, a link by path, a superseded claim
// and a property type, each answered by another file.
func contextFixture(t testing.TB) *vault.Vault {
	t.Helper()
	v := corpusVault(t)
	vaulttest.Write(t, v.Root, "web/a.md", "---\nid: web-a\ntype: fact\nprovenance: observed\nevidence: read in the web log\nvalid_at: 2026-10-01\nproject: proj_web\nsupersedes: [web-old]\nrating: 5\n---\nSee [[b]] and [c](sub/c.md).\n")
	vaulttest.Write(t, v.Root, "web/b.md", "---\ntype: note\nrating: 4\n---\nB.\n")
	vaulttest.Write(t, v.Root, "web/sub/c.md", "---\ntype: note\nrating: 3\n---\nC.\n")
	vaulttest.Write(t, v.Root, "web/old.md", "---\nid: web-old\ntype: fact\nprovenance: observed\nvalid_at: 2026-09-01\n---\nThe old claim.\n")
	vaulttest.Write(t, v.Root, "projects/web.md", "---\nid: proj_web\ntype: project\nroots: [~/src/web]\n---\nWeb.\n")
	return v
}

func text(rep *Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "files %d skipped %q\n", rep.Files, rep.Skipped)
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "%s:%d:%d %s %s %s\n", p.Path, p.Line, p.Column, p.Severity, p.Rule, p.Message)
	}
	return b.String()
}

// reference lints paths the way Run did before the context cache: the
// whole vault loaded. It leaves the cache as it found it.
func reference(t *testing.T, v *vault.Vault, paths []string) string {
	t.Helper()
	kept, err := os.ReadFile(contextPath(v))
	snap, serr := v.Scan()
	if serr != nil {
		t.Fatal(serr)
	}
	rep := runLoaded(v, snap, context{}, nil, Options{Now: testNow, Paths: paths})
	if err == nil {
		err = os.WriteFile(contextPath(v), kept, 0o644)
	} else {
		err = os.Remove(contextPath(v))
	}
	if err != nil {
		t.Fatal(err)
	}
	return text(rep)
}

// cached lints paths from the context cache, failing when it cannot serve.
func cached(t *testing.T, v *vault.Vault, paths []string) string {
	t.Helper()
	snap, err := v.Scan()
	if err != nil {
		t.Fatal(err)
	}
	rep := runCached(v, snap, readContext(v), Options{Now: testNow, Paths: paths})
	if rep == nil {
		t.Fatalf("the context cache did not serve a run over %q", paths)
	}
	return text(rep)
}

// TestContextCacheNeverChangesAResult: a named-file run from the context
// cache prints exactly what a run loading the whole vault prints, for
// every file, and after every kind of change to files that are not named.
func TestContextCacheNeverChangesAResult(t *testing.T) {
	t.Parallel()
	// Stamps of files written within the racy window never vouch for them:
	// the fixture counts as settled, so the cache serves it.
	v := contextFixture(t)
	v.RacyWindow = vaulttest.NoRacyWindow
	if _, err := Run(v, Options{Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(contextPath(v)); err != nil {
		t.Fatalf("a whole-vault run wrote no context cache: %v", err)
	}
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, rel := range rels {
		paths := []string{rel}
		if want, got := reference(t, v, paths), cached(t, v, paths); got != want {
			t.Errorf("lint %s:\ncached:\n%s\nwhole vault:\n%s", rel, got, want)
		}
	}
	all := append([]string{"nowhere.md", "bad/dup-id-a.md"}, rels...) // duplicates and a skipped path too
	if want, got := reference(t, v, all), cached(t, v, all); got != want {
		t.Errorf("lint of every file:\ncached:\n%s\nwhole vault:\n%s", got, want)
	}

	named := []string{"web/a.md", "web/b.md"}
	before := cached(t, v, named)
	if strings.Contains(before, "web/a.md") {
		t.Fatalf("the fixture's web/a.md should be clean:\n%s", before)
	}
	edits := []struct {
		name, rule string
		edit       func()
	}{
		{"a new file with a named file's id", "id-duplicate", func() { vaulttest.Write(t, v.Root, "web/dup.md", "---\nid: web-a\ntype: note\n---\nDup.\n") }},
		{"an edit that removes a link target (by path)", "link-broken", func() {
			if err := os.Rename(filepath.Join(v.Root, "web/sub/c.md"), filepath.Join(v.Root, "web/sub/c2.md")); err != nil {
				t.Fatal(err)
			}
		}},
		{"a deleted link target (by name)", "link-broken", func() {
			if err := os.Remove(filepath.Join(v.Root, "web/b.md")); err != nil {
				t.Fatal(err)
			}
			named = named[:1]
		}},
		{"the superseded claim edited to be newer", "supersedes-backwards", func() {
			vaulttest.Write(t, v.Root, "web/old.md", "---\nid: web-old\ntype: fact\nprovenance: observed\nvalid_at: 2026-11-01\n---\nThe old claim.\n")
		}},
		{"properties of other files changing type", "obsidian-property-type", func() {
			vaulttest.Write(t, v.Root, "web/sub/c2.md", "---\ntype: note\nrating: three\n---\nC.\n")
			vaulttest.Write(t, v.Root, "web/e.md", "---\ntype: note\nrating: two\n---\nE.\n")
		}},
		{"the project note deleted", "project-unknown", func() {
			if err := os.Remove(filepath.Join(v.Root, "projects/web.md")); err != nil {
				t.Fatal(err)
			}
		}},
	}
	for _, e := range edits {
		e.edit()
		want, got := reference(t, v, named), cached(t, v, named)
		if got != want {
			t.Errorf("after %s:\ncached:\n%s\nwhole vault:\n%s", e.name, got, want)
		}
		if !strings.Contains(got, " "+e.rule+" ") {
			t.Errorf("after %s: no %s reported:\n%s", e.name, e.rule, got)
		}
	}
	// Linting every file again checks every fact the cache now holds
	// against the files.
	rels, _ = v.List()
	rels = append([]string{"web/a.md"}, rels...) // named twice, before files that changed
	if want, got := reference(t, v, rels), cached(t, v, rels); got != want {
		t.Errorf("lint of every file after the edits:\ncached:\n%s\nwhole vault:\n%s", got, want)
	}
}

// TestContextCacheDoubt: whenever the cache cannot vouch for the vault,
// the run loads the whole vault (and rewrites the cache), with the same
// result.
func TestContextCacheDoubt(t *testing.T) {
	t.Parallel()
	v := contextFixture(t)
	v.RacyWindow = vaulttest.NoRacyWindow
	named := []string{"web/a.md", "bad/dup-id-a.md"}
	want := reference(t, v, named)
	run := func() string {
		t.Helper()
		rep, err := Run(v, Options{Now: testNow, Paths: named})
		if err != nil {
			t.Fatal(err)
		}
		return text(rep)
	}
	serves := func() bool {
		snap, err := v.Scan()
		if err != nil {
			t.Fatal(err)
		}
		return runCached(v, snap, readContext(v), Options{Now: testNow, Paths: named}) != nil
	}
	if serves() {
		t.Fatal("a run without a context cache was served from one")
	}
	if got := run(); got != want || !serves() {
		t.Fatalf("the first named run: served next time %v, output\n%s\nwant\n%s", serves(), got, want)
	}
	raw, err := os.ReadFile(contextPath(v))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		spoil func()
	}{
		{name: "a flipped byte", spoil: func() {
			bad := append([]byte(nil), raw...)
			bad[len(bad)/2] ^= 0x40
			vaulttest.Write(t, v.Root, ".mem/cache/lint", string(bad))
		}},
		{name: "a truncated file", spoil: func() { vaulttest.Write(t, v.Root, ".mem/cache/lint", string(raw[:len(raw)/3])) }},
		{name: "another lint.max_file_size", spoil: func() { v.Config.Lint.MaxFileSize++ }},
		{name: "more changed files than reading them one by one is worth", spoil: func() {
			for i := range maxStale(200) + 1 {
				vaulttest.Write(t, v.Root, fmt.Sprintf("many/n%03d.md", i), "---\ntype: note\n---\nN.\n")
			}
			want = reference(t, v, named)
		}},
	} {
		c.spoil()
		if serves() {
			t.Errorf("%s: the cache still served", c.name)
		}
		if got := run(); got != want {
			t.Errorf("%s: output\n%s\nwant\n%s", c.name, got, want)
		}
		if !serves() {
			t.Errorf("%s: the run did not rewrite the cache", c.name)
		}
		raw, _ = os.ReadFile(contextPath(v))
	}

	// A named rendered view is judged against the whole vault.
	vaulttest.Write(t, v.Root, "MEMORY.md", viewfmt.Header+"x -->\nedited\n")
	snap, _ := v.Scan()
	if runCached(v, snap, readContext(v), Options{Now: testNow, Paths: []string{"MEMORY.md"}}) != nil {
		t.Error("a run naming a rendered view was served from the cache")
	}
}

// FuzzDecodeContext: no cache file, however damaged, panics the decoder,
// and whatever decodes encodes back to the same facts. The fuzzer feeds the
// payload that vault.WriteCache frames, so it reaches the layout behind the
// checksum.
func FuzzDecodeContext(f *testing.F) {
	dir := f.TempDir()
	if _, err := vault.Init(dir, nil); err != nil {
		f.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	vaulttest.Write(f, v.Root, "a.md", "---\nid: x\ntype: project\nrating: 5\nwhen: 2026-01-02\n---\nA.\n")
	vaulttest.Write(f, v.Root, "B.md", "---\ntype: note\ntags_x: [a]\n---\nB.\n")
	vaulttest.Write(f, v.Root, "c/d.md", "no frontmatter\n")
	snap, err := v.Scan()
	if err != nil {
		f.Fatal(err)
	}
	_, facts := newFacts(v, v.LoadSnapshot(snap, vault.LoadOptions{}), testNow)
	good := encodeContext("key", snap, facts)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Fuzz(func(t *testing.T, body []byte) {
		snap, facts, err := decodeContext(body, "key")
		if err != nil {
			return
		}
		if len(facts) != len(snap.Rels) {
			t.Fatalf("%d facts for %d files", len(facts), len(snap.Rels))
		}
		_, again, err := decodeContext(encodeContext("key", snap, facts), "key")
		if err != nil || !reflect.DeepEqual(again, facts) {
			t.Fatalf("decoded facts do not survive re-encoding: %v", err)
		}
	})
}
