package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// obsidianRules are the lint rules that decide whether a vault opens
// cleanly in Obsidian (docs/obsidian.md): one type per property name
// (key-type fixes mem's own keys, obsidian-property-type the rest), quoted
// links in properties, unambiguous names, and links that resolve.
var obsidianRules = map[string]bool{
	"key-type": true, "key-duplicate": true, "obsidian-property-type": true,
	"obsidian-link-unquoted": true, "obsidian-duplicate-basename": true, "link-broken": true,
	"frontmatter-yaml": true, "frontmatter-unterminated": true,
}

func obsidianProblems(t *testing.T, root string) []lint.Problem {
	t.Helper()
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := lint.Run(v, lint.Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	var out []lint.Problem
	for _, p := range rep.Problems {
		if obsidianRules[p.Rule] {
			out = append(out, p)
		}
	}
	if rep.Files == 0 {
		t.Fatalf("%s: no files linted", root)
	}
	return out
}

// TestExampleVaultOpensInObsidian: examples/vault has no property type
// conflicts and every [[link]] resolves.
func TestExampleVaultOpensInObsidian(t *testing.T) {
	t.Parallel()
	for _, p := range obsidianProblems(t, filepath.Join("..", "..", "examples", "vault")) {
		t.Errorf("%s:%d:%d: %s: %s", p.Path, p.Line, p.Column, p.Rule, p.Message)
	}
}

// copyExampleVault copies examples/vault to a temp dir and returns it.
func copyExampleVault(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	src := filepath.Join("..", "..", "examples", "vault")
	vaulttest.Copy(t, src, root)
	return root
}

// TestObsidianCheckBites shows the check above can fail: a copy of the
// example vault with a property of two types and a dangling link.
func TestObsidianCheckBites(t *testing.T) {
	t.Parallel()
	root := copyExampleVault(t)
	write := func(rel, data string) {
		if err := os.WriteFile(filepath.Join(root, rel), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("memory/a.md", "---\ntype: fact\nprovenance: stated\nreviewed: true\n---\nA. See [[notes/no-such-note]].\n")
	write("memory/b.md", "---\ntype: fact\nprovenance: stated\nreviewed: true\n---\nB.\n")
	write("memory/c.md", "---\ntype: fact\nprovenance: stated\nreviewed: last week\n---\nC.\n")
	got := map[string]string{}
	for _, p := range obsidianProblems(t, root) {
		got[p.Rule] = p.Path
	}
	if !strings.HasSuffix(got["obsidian-property-type"], "memory/c.md") || !strings.HasSuffix(got["link-broken"], "memory/a.md") {
		t.Errorf("problems = %v, want a property type conflict in memory/c.md and a broken link in memory/a.md", got)
	}
}

// TestObsidianHandCorrection writes the hand correction of docs/obsidian.md,
// as the doc gives it, into the example vault: the claim it supersedes
// leaves the webshop's view.
func TestObsidianHandCorrection(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "obsidian.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(doc), "```markdown\n---\nid: memory/correction-staging-db\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/obsidian.md has no correction example")
	}
	root := copyExampleVault(t)
	// The example vault corrects the same claim through a shared key;
	// drop the key from the old claim so only the doc's supersedes acts.
	old := filepath.Join(root, "memory", "staging-db-copy.md")
	data, _ := os.ReadFile(old)
	os.WriteFile(old, []byte(strings.Replace(string(data), "key: staging-database\n", "", 1)), 0o644)
	os.WriteFile(filepath.Join(root, "memory", "correction-staging-db.md"), []byte("---\nid: memory/correction-staging-db\n"+block), 0o644)

	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := render.Render(mems, render.Options{Vault: v.Root, Project: vault.FindProject(v.Projects(mems), "proj_webshop"),
		Budget: vault.DefaultBudget, Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) > 0 {
		t.Fatalf("warnings: %v", res.Warnings)
	}
	var reason string
	for _, d := range res.Dropped {
		if d.ID == "memory/staging-db-copy" {
			reason = d.Reason
		}
	}
	if reason != "superseded by memory/correction-staging-db" || !strings.Contains(string(res.Doc), "Correction: staging uses its own database") {
		t.Errorf("staging-db-copy: %q\n%s", reason, res.Doc)
	}
}
