package importer

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/vault"
)

// copyTree copies a testdata folder under dst, keeping its name (Claude
// Code's folder name is what matches transcripts' paths).
func copyTree(t *testing.T, src, dst string) string {
	t.Helper()
	out := filepath.Join(dst, filepath.Base(src))
	err := filepath.Walk(src, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(out, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(out, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// A Claude Code project folder as Claude Code writes it (a transcript and
// memory/ with MEMORY.md and typed topic files, two with metadata.type)
// imports with Claude Code's types mapped, the project of the transcript's
// cwd, the time the transcript wrote each file, and relative links that
// resolve in the vault; the vault lints with no error; a second import
// writes nothing.
func TestClaudeCodeMemoryFolderImport(t *testing.T) {
	t.Parallel()
	src := copyTree(t, "../lint/testdata/claude-memory/-home-alice-src-shop", t.TempDir())
	v := newVault(t, map[string]string{"projects/shop.md": "---\ntype: project\nid: proj_shop\ntitle: Shop\nroots: [/home/alice/src/shop]\n---\nThe web shop.\n"})
	_, warns := run(t, v, kindClaudeCode, src, false)
	if len(warns) != 0 {
		t.Errorf("warnings: %q", warns)
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ typ, project, validAt string }
	got := map[string]row{}
	var bodies []string
	for _, m := range mems {
		if m.Doc == nil || m.Meta().Source != "import:claude-code" {
			continue
		}
		bodies = append(bodies, m.Doc.Body)
		name := ""
		for _, s := range m.Meta().Sources {
			name = filepath.Base(s.Resource)
		}
		if strings.HasSuffix(name, ".jsonl") {
			continue // the transcript's note and pointer
		}
		if m.Meta().Type == "note" && m.Meta().Title != "" && name != "reference_linear.md" {
			continue // a long topic's note; its pointer carries the type
		}
		got[name] = row{m.Meta().Type, m.Meta().Project, m.Meta().ValidAt.String()}
	}
	want := map[string]row{
		"feedback_testing.md": {"preference", "proj_shop", "2026-03-02T09:14:40Z"},
		"user_role.md":        {"identity", "proj_shop", "2026-03-02T09:21:00Z"},
		"project_checkout.md": {"fact", "proj_shop", "2026-03-02T09:21:00Z"},
		"reference_linear.md": {"note", "proj_shop", "2026-03-03T16:02:30Z"},
		"MEMORY.md":           {"fact", "proj_shop", ""},
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: got %+v, want %+v", name, got[name], w)
		}
	}
	if len(got) != len(want) {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Errorf("imported %v", keys)
	}
	all := strings.Join(bodies, "\n")
	if strings.Contains(all, "](project_checkout.md)") || strings.Contains(all, "](reference_linear.md)") ||
		!strings.Contains(all, "|the checkout memory]]") || !strings.Contains(all, "|Linear]]") {
		t.Errorf("relative links kept:\n%s", all)
	}
	rep, err := lint.Run(v, lint.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range rep.Problems {
		if p.Severity == lint.Error || p.Rule == "link-broken" {
			t.Errorf("lint: %+v", p)
		}
	}
	again, _ := run(t, v, kindClaudeCode, src, false)
	if len(again.Files) != 0 || again.Existing == 0 {
		t.Errorf("re-import wrote %d files (%d existing)", len(again.Files), again.Existing)
	}
}

// A feedback memory that says what to do in place of what Claude did
// ("instead", in its rule or description) imports as a correction; a rule
// with a contrast ("not mocks"), an "instead" only under **Why:**, and a
// confirmation stay preferences (docs/import.md).
func TestClaudeCodeFeedbackCorrections(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	run(t, v, kindClaudeCode, "testdata/claude-feedback/-home-dev-web", false)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, m := range mems {
		for _, s := range m.Meta().Sources {
			if m.Meta().Type != "note" {
				got[filepath.Base(s.Resource)] = m.Meta().Type + "/" + m.Meta().Provenance
			}
		}
	}
	want := map[string]string{
		"feedback_pnpm.md":       "correction/inferred",
		"feedback_summaries.md":  "correction/inferred",
		"feedback_db.md":         "preference/inferred",
		"feedback_bundled_pr.md": "preference/inferred",
		"user_prefers.md":        "preference/inferred",
		"user_role.md":           "identity/inferred",
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: %s, want %s", name, got[name], w)
		}
	}
}

// Links of a Claude Code memory folder are read as markdown: a link to a
// #heading or a reference link is rewritten to the imported memory, one in
// a code span stays as written; a MEMORY.md bullet that only shows a link
// in code is a memory, not a pointer, and [[name\|alias]] is a pointer.
func TestClaudeCodeLinksAreReadAsMarkdown(t *testing.T) {
	t.Parallel()
	mem := filepath.Join(t.TempDir(), "-home-dev-links", "memory")
	for name, data := range map[string]string{
		"MEMORY.md": "- [Deploys](deploys.md) — when we deploy\n" +
			"- Docs write links as `[text](deploys.md)`, relative\n" +
			"- See [[deploys\\|the deploy memory]]\n",
		"deploys.md": "---\nname: Deploys\ntype: project\n---\nDeploys go out on Tuesdays.\n",
		"links.md": "---\nname: Links\ntype: reference\n---\n" +
			"See [the schedule](deploys.md#Schedule), [the ref][d] and `[code](deploys.md)`.\n\n[d]: deploys.md\n",
	} {
		if err := os.MkdirAll(mem, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(mem, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v := newVault(t, nil)
	run(t, v, kindClaudeCode, filepath.Dir(mem), false)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var deploys, links string
	var bullets []string
	for _, m := range mems {
		for _, s := range m.Meta().Sources {
			switch filepath.Base(s.Resource) {
			case "deploys.md":
				deploys = m.ID
			case "links.md":
				links = m.Doc.Body
			case "MEMORY.md":
				bullets = append(bullets, strings.TrimSpace(m.Doc.Body))
			}
		}
	}
	for _, want := range []string{"[[" + deploys + "#Schedule|the schedule]]", "[[" + deploys + "|the ref]]", "`[code](deploys.md)`"} {
		if deploys == "" || !strings.Contains(links, want) {
			t.Errorf("links.md imported as %q: want %q", links, want)
		}
	}
	if len(bullets) != 1 || !strings.Contains(bullets[0], "`[text](deploys.md)`") {
		t.Errorf("MEMORY.md bullets imported: %q, want only the one with a link in code", bullets)
	}
}
