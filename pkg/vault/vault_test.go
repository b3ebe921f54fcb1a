package vault

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/viewfmt"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func newVault(t *testing.T, files map[string]string) *Vault {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestFind(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"mem.yaml": "", "a/b/c/.keep": ""})
	deep := filepath.Join(v.Root, "a", "b", "c")
	if got, err := Find("", "", deep); err != nil || got != v.Root {
		t.Errorf("ancestor search: %q, %v", got, err)
	}
	if _, err := Find(filepath.Join(v.Root, "a"), "", deep); err == nil || !strings.Contains(err.Error(), "--vault") {
		t.Errorf("--vault without mem.yaml: %v", err)
	}
	if _, err := Find("", filepath.Join(v.Root, "a"), t.TempDir()); err == nil || !strings.Contains(err.Error(), "$MEM_VAULT") {
		t.Errorf("$MEM_VAULT without mem.yaml: %v", err)
	}
	_, err := Find("", "", t.TempDir())
	if !errors.Is(err, ErrNoVault) {
		t.Fatalf("no vault: %v", err)
	}
	for _, want := range []string{"--vault", "$MEM_VAULT", "mem.yaml"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("no-vault error does not name %s: %v", want, err)
		}
	}
}

const fact = "---\ntype: fact\nprovenance: stated\n---\nA fact.\n"

func TestLoadIgnoresAndSkips(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"mem.yaml":               "ignore: [drafts/, '*.tmp.md']\n",
		"memory/a.md":            fact,
		"memory/b.md":            "no frontmatter\n",
		"drafts/x.md":            fact,
		"x.tmp.md":               fact,
		".obsidian/y.md":         fact,
		".trash/z.md":            fact,
		".mem/cache.md":          fact,
		"node_modules/p/r.md":    fact,
		"MEMORY.md":              viewfmt.Header + "v; do not edit -->\n",
		"notes/readme.txt":       "not markdown",
		"memory/.mem-tmp-123456": fact,
	})
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte(fact), 0o644)
	os.Symlink(outside, filepath.Join(v.Root, "memory", "link.md"))
	os.Symlink(filepath.Join(v.Root, "memory", "a.md"), filepath.Join(v.Root, "memory", "inside.md"))

	mems, err := v.Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range mems {
		rule := ""
		if fe, ok := m.Err.(*frontmatter.Error); ok {
			rule = fe.Rule
		}
		got[m.Rel] = rule
	}
	want := map[string]string{
		"memory/a.md":      "",
		"memory/b.md":      "frontmatter-missing",
		"memory/link.md":   "link-outside-vault",
		"memory/inside.md": "",
	}
	if len(got) != len(want) {
		t.Fatalf("loaded %v, want %v", got, want)
	}
	for rel, rule := range want {
		if r, ok := got[rel]; !ok || r != rule {
			t.Errorf("%s: rule %q (present %v), want %q", rel, r, ok, rule)
		}
	}
}

func TestLoadBadFiles(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"mem.yaml":    "lint: {max_file_size: 100}\n",
		"nul.md":      "---\ntype: fact\n---\n" + strings.Repeat("\x00a", 20),
		"stray.md":    "---\ntype: fact\n---\nA stray\x00 NUL in valid UTF-8.\n",
		"latin1.md":   "---\ntype: fact\n---\nline\ncaf\xe9\n",
		"big.md":      "---\ntype: fact\n---\n" + strings.Repeat("x", 200),
		"withid.md":   "---\nid: custom/id\ntype: fact\n---\nx\n",
		"noid.md":     fact,
		"sub/deep.md": fact,
	})
	mems, _ := v.Load(LoadOptions{})
	rules := map[string]string{}
	for _, m := range mems {
		if fe, ok := m.Err.(*frontmatter.Error); ok {
			rules[m.Rel] = fe.Rule
			if m.Rel == "latin1.md" && fe.Line != 5 {
				t.Errorf("invalid UTF-8 reported at line %d, want 5", fe.Line)
			}
		}
		switch m.Rel {
		case "withid.md":
			if m.ID != "custom/id" {
				t.Errorf("id = %q", m.ID)
			}
		case "sub/deep.md":
			if m.ID != "sub/deep" {
				t.Errorf("default id = %q, want the path without .md", m.ID)
			}
		}
	}
	// A stray NUL in valid UTF-8 leaves the file readable (lint warns:
	// file-nul); NULs in bulk are binary.
	for rel, rule := range map[string]string{"nul.md": "file-binary", "latin1.md": "file-encoding", "big.md": "file-too-large", "stray.md": ""} {
		if rules[rel] != rule {
			t.Errorf("%s: %q, want %q", rel, rules[rel], rule)
		}
	}
}

func TestBadConfigNamesFile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, ConfigFile), []byte("render: [unclosed\n"), 0o644)
	_, err := Open(root)
	if err == nil || !strings.Contains(err.Error(), "mem.yaml") {
		t.Fatalf("garbage mem.yaml: %v", err)
	}
	os.WriteFile(filepath.Join(root, ConfigFile), []byte("rendr: {}\n"), 0o644)
	if _, err := Open(root); err == nil || !strings.Contains(err.Error(), "rendr") {
		t.Fatalf("unknown key in mem.yaml: %v", err)
	}
}

func TestResolveProject(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	for _, d := range []string{"code/app/inner/deep", "code/apple", "real"} {
		os.MkdirAll(filepath.Join(base, d), 0o755)
	}
	os.Symlink(filepath.Join(base, "code", "app"), filepath.Join(base, "link"))
	projects := []Project{
		{ID: "proj_app", Roots: []string{canonical(filepath.Join(base, "code/app"))}},
		{ID: "proj_inner", Roots: []string{canonical(filepath.Join(base, "code/app/inner"))}},
	}
	for _, tc := range []struct{ dir, want string }{
		{"code/app", "proj_app"},
		{"code/app/inner", "proj_inner"},
		{"code/app/inner/deep", "proj_inner"},
		{"code/apple", ""},
		{"code", ""},
		{"link/inner/deep", "proj_inner"}, // symlinks are resolved
	} {
		got := ""
		if p := ResolveProject(projects, filepath.Join(base, tc.dir)); p != nil {
			got = p.ID
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.dir, got, tc.want)
		}
	}
}

func TestProjectRootsRelativeAndHome(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"projects/p.md": "---\nid: proj_p\ntype: project\nroots: [code/p, ~/src/p]\n---\nP\n",
	})
	home := t.TempDir()
	v.Home = home
	ps := v.Projects(mustLoad(t, v))
	if len(ps) != 1 || ps[0].Roots[0] != filepath.Join(v.Root, "code/p") || ps[0].Roots[1] != filepath.Join(home, "src/p") {
		t.Fatalf("projects = %+v", ps)
	}
	if ps[0].Name != "p" {
		t.Errorf("name falls back to the file name, got %q", ps[0].Name)
	}
}

func mustLoad(t *testing.T, v *Vault) []*Memory {
	t.Helper()
	mems, err := v.Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return mems
}

func TestCreateNeverOverwritesAndIsParallelSafe(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	var wg sync.WaitGroup
	ids := make(chan string, 100)
	for range 100 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			doc := &frontmatter.Document{Meta: frontmatter.Meta{Type: "fact", Provenance: "stated"}, Body: "same text\n"}
			m, err := v.Create("memory", "same text", doc, testNow)
			if err != nil {
				t.Error(err)
				return
			}
			ids <- m.ID
		}()
	}
	wg.Wait()
	close(ids)
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	mems := mustLoad(t, v)
	if len(seen) != 100 || len(mems) != 100 {
		t.Fatalf("%d distinct ids, %d files; want 100 and 100", len(seen), len(mems))
	}
	for _, m := range mems {
		if !m.OK() || !seen[m.ID] || m.Meta().Generated == nil || m.Meta().Generated.By != Producer() {
			t.Fatalf("%s: ok=%v id=%q generated=%v", m.Rel, m.OK(), m.ID, m.Meta().Generated)
		}
	}
	leftovers, _ := filepath.Glob(filepath.Join(v.Root, "memory", TempPrefix+"*"))
	if len(leftovers) != 0 {
		t.Errorf("temp files left behind: %v", leftovers)
	}
}

func TestUpdateCompareAndSwap(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"memory/a.md": fact})
	data, _ := os.ReadFile(filepath.Join(v.Root, "memory/a.md"))
	stale := Hash(data)
	err := v.Update("memory/a.md", stale, testNow, func(d *frontmatter.Document) error {
		d.Meta.Tags = append(d.Meta.Tags, "one")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = v.Update("memory/a.md", stale, testNow, func(d *frontmatter.Document) error { return nil })
	if !errors.Is(err, ErrConflict) {
		t.Fatalf("second update with the old hash: %v, want ErrConflict", err)
	}
	// Concurrent updaters without a hash serialise: no tag is lost. The
	// last of 20 waits for 19 writes, each with its fsync: on a busy
	// machine (load 19) that passed the default 5 s bound, which is not
	// what this proves. A minute still fails a lock never released.
	v.LockTimeout = time.Minute
	var wg sync.WaitGroup
	for i := range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := v.Update("memory/a.md", "", testNow, func(d *frontmatter.Document) error {
				d.Meta.Tags = append(d.Meta.Tags, string(rune('a'+i)))
				return nil
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	m := mustLoad(t, v)[0]
	if len(m.Meta().Tags) != 21 {
		t.Fatalf("tags after 21 updates: %v", m.Meta().Tags)
	}
	if err := v.Update("../escape.md", "", testNow, func(*frontmatter.Document) error { return nil }); err == nil {
		t.Error("update outside the vault was allowed")
	}
}

// A write that fails keeps what was there and leaves no temp file: here
// the rename fails, as path is a folder holding a file (a real failure,
// not one injected through a package variable).
func TestWriteFileAtomicFailureKeepsOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "MEMORY.md")
	os.MkdirAll(path, 0o755)
	os.WriteFile(filepath.Join(path, "kept"), []byte("old"), 0o644)
	if err := WriteFileAtomic(path, []byte("new"), 0o644); err == nil {
		t.Fatal("write succeeded over a folder")
	}
	if data, _ := os.ReadFile(filepath.Join(path, "kept")); string(data) != "old" {
		t.Fatalf("old file changed to %q", data)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, TempPrefix+"*")); len(left) > 0 {
		t.Fatalf("temp files left behind: %v", left)
	}
}

func TestSlug(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"The user prefers tabs!": "the-user-prefers-tabs",
		"  ---  ":                "memory",
		"Ünïcode only ☃":         "unicode-only",
		// Latin letters transliterated (issue 42), other scripts kept.
		"Café au lait à Lisboa":     "cafe-au-lait-a-lisboa",
		"Straße nach Øresund, Łódź": "strasse-nach-oresund-lodz",
		"Привет, мир":               "привет-мир",
		"مرحبا بالعالم":             "مرحبا-بالعالم",
		"咖啡 笔记":                     "咖啡-笔记",
		// Mostly non-Latin: the title's own letters, never a '/' or a
		// control character, never half a character at the cut.
		"테스트 작성 규칙":                 "테스트-작성-규칙",
		"API 설계/결정\x00 메모":          "api-설계-결정-메모",
		strings.Repeat("가", 30):     strings.Repeat("가", 16),
		strings.Repeat("word ", 30): "word-word-word-word-word-word-word-word-word", // cut at a dash under 48
	} {
		if got := Slug(in, 48); got != want {
			t.Errorf("Slug(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestInitIsIdempotent(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules"), 0o644)
	first, err := Init(dir, nil)
	if err != nil || len(first.Created) != 5 || len(first.Appended) != 3 {
		t.Fatalf("first init: %v %v", first, err)
	}
	second, err := Init(dir, nil)
	if err != nil || len(second.Created)+len(second.Appended) != 0 {
		t.Fatalf("second init created %v, %v", second, err)
	}
	// git never transforms a memory, whoever clones the vault.
	if data, _ := os.ReadFile(filepath.Join(dir, ".gitattributes")); string(data) != NoTransform+"\n" {
		t.Fatalf(".gitattributes = %q", data)
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".gitignore"))
	// The view's line is anchored: a hand-kept agents/b/memory/MEMORY.md stays tracked.
	if string(data) != "node_modules\n.mem/\n.mem-tmp-*\n/MEMORY.md\n" {
		t.Fatalf(".gitignore = %q", data)
	}
}

func TestParseTTL(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"30d": "2026-12-29T00:00:00Z", "2w": "2026-12-13T00:00:00Z", "6m": "2027-05-29T00:00:00Z", "1y": "2027-11-29T00:00:00Z"} {
		got, err := ParseTTL(in, testNow)
		if err != nil || got.String() != want {
			t.Errorf("ParseTTL(%q) = %v, %v; want %s", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "0d", "30", "d", "3h"} {
		if _, err := ParseTTL(bad, testNow); err == nil {
			t.Errorf("ParseTTL(%q) accepted", bad)
		}
	}
}

func TestFindMemory(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"memory/a.md": "---\nid: shared\ntype: fact\n---\nA\n",
		"memory/b.md": "---\nid: shared\ntype: fact\n---\nB\n",
		"memory/c.md": fact,
	})
	mems := mustLoad(t, v)
	for _, ref := range []string{"memory/c", "memory/c.md", filepath.Join(v.Root, "memory/c.md"), " memory/c "} {
		if m, err := v.FindMemory(mems, ref); err != nil || m.Rel != "memory/c.md" {
			t.Errorf("FindMemory(%q) = %v, %v", ref, m, err)
		}
	}
	if _, err := v.FindMemory(mems, "shared"); err == nil || !strings.Contains(err.Error(), "memory/a.md, memory/b.md") {
		t.Errorf("ambiguous id: %v", err)
	}
	for _, ref := range []string{"", "nope", "../memory/c", filepath.Join(t.TempDir(), "x.md")} {
		if _, err := v.FindMemory(mems, ref); !errors.Is(err, ErrNotFound) {
			t.Errorf("FindMemory(%q) = %v, want ErrNotFound", ref, err)
		}
	}
}

func TestPath(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	if got, want := v.Path("~/x"), filepath.Join(v.Root, "~/x"); got != want {
		t.Errorf("with no home, Path(~/x) = %q, want %q: ~ taken as written", got, want)
	}
	home := t.TempDir()
	v.Home = home
	for in, want := range map[string]string{
		"":               "",
		"MEMORY.md":      filepath.Join(v.Root, "MEMORY.md"),
		"~":              home,
		"~/x/CLAUDE.md":  filepath.Join(home, "x/CLAUDE.md"),
		"/abs/AGENTS.md": "/abs/AGENTS.md",
	} {
		if got := v.Path(in); got != want {
			t.Errorf("Path(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsRenderedOutput(t *testing.T) {
	t.Parallel()
	// The views inside the vault, each once.
	vr := newVault(t, map[string]string{"mem.yaml": "render:\n  outputs:\n    - {path: views/CLAUDE.md}\n    - {path: ../outside.md}\n    - {path: MEMORY.md}\n"})
	if got := vr.ViewRels(); !slices.Equal(got, []string{"MEMORY.md", "views/CLAUDE.md"}) {
		t.Errorf("ViewRels = %q", got)
	}
	v := newVault(t, map[string]string{"mem.yaml": "render:\n  outputs:\n    - {path: views/CLAUDE.md}\n    - {path: ~/elsewhere.md}\n"})
	for rel, want := range map[string]bool{"MEMORY.md": true, "views/CLAUDE.md": true, "sub/MEMORY.md": false, "elsewhere.md": false} {
		if got := v.IsRenderedOutput(rel); got != want {
			t.Errorf("IsRenderedOutput(%q) = %v, want %v", rel, got, want)
		}
	}
	// A root MEMORY.md mem did not render is the user's: an ordinary file.
	// Absent, empty or torn inside mem's header, it is the view's.
	for content, want := range map[string]bool{"# My index\n- a thing\n": false, "": true, viewfmt.Header[:10]: true, viewfmt.Header + "v -->\n": true} {
		if err := os.WriteFile(filepath.Join(v.Root, "MEMORY.md"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := v.IsRenderedOutput("MEMORY.md"); got != want {
			t.Errorf("MEMORY.md holding %q: IsRenderedOutput = %v, want %v", content, got, want)
		}
	}
}

// Other tools' trash, backups and archives are never read (docs/obsidian.md).
func TestSkipDir(t *testing.T) {
	t.Parallel()
	for rel, want := range map[string]bool{
		".trash": true, "notes/.trash": true, ".archive": true, "memory/.archive": true, ".obsidian": true,
		"logseq/.recycle": true, "logseq/bak": true, "logseq/version-files": true, "graph/logseq/bak": true,
		"bak": false, "pages/bak": false, "logseq": false, "logseq/pages": false, "archive": false, "memory": false,
	} {
		if got := SkipDir(rel); got != want {
			t.Errorf("SkipDir(%q) = %v, want %v", rel, got, want)
		}
	}
}
