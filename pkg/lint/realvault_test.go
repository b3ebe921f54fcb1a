package lint

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// realVault copies a testdata tree into a temporary vault (with an empty
// mem.yaml, or cfg).
func realVault(t *testing.T, src, cfg string) *vault.Vault {
	t.Helper()
	root := t.TempDir()
	vaulttest.Copy(t, src, root)
	vaulttest.Write(t, root, "mem.yaml", cfg)
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// classes counts the problems by "severity rule".
func classes(rep *Report) map[string]int {
	out := map[string]int{}
	for _, p := range rep.Problems {
		out[string(p.Severity)+" "+p.Rule]++
	}
	return out
}

func sameClasses(t *testing.T, name string, rep *Report, want map[string]int) {
	t.Helper()
	got := classes(rep)
	if len(got) != len(want) {
		t.Errorf("%s: got %v, want %v", name, got, want)
	}
	for k, n := range want {
		if got[k] != n {
			t.Errorf("%s: %s ×%d, want ×%d (all: %v)", name, k, got[k], n, got)
		}
	}
	if t.Failed() {
		var lines []string
		for _, p := range rep.Problems {
			lines = append(lines, p.Path+": "+p.Rule+": "+p.Message)
		}
		sort.Strings(lines)
		t.Log(strings.Join(lines, "\n"))
	}
}

// The OKF reference bundles and the mdcode demo catalog as published in
// GoogleCloudPlatform/knowledge-catalog (Apache-2.0, testdata/okf/okf/LICENSE.md;
// testdata/okf/SOURCE names the commit) lint with no error. Each remaining
// warning is one a reader of okf/SPEC.md agrees with.
func TestOKFBundles(t *testing.T) {
	for dir, want := range map[string]map[string]int{
		"okf/bundles/acme_retail":    {},
		"okf/bundles/crypto_bitcoin": {},
		"okf/bundles/ga4":            {},
		// Eleven concepts list sources and cite [^1], which is no
		// sources[].id: OKF §5.1 makes the label the join key.
		"okf/bundles/stackoverflow": {"warning footnote-unmatched": 11},
		// mdcode's README and design docs have no frontmatter: OKF §11
		// wants one in every non-reserved file; for mem they are plain
		// notes. Three README.md files make [[README]] ambiguous.
		// concept.md writes <projectId> outside code: raw HTML to
		// a markdown reader, so hidden in the reading view.
		"toolbox/mdcode": {"warning frontmatter-missing": 8, "warning obsidian-duplicate-basename": 3, "warning injection-html": 1},
	} {
		rep, err := Run(realVault(t, filepath.Join("testdata/okf", dir), "okf: true\n"), Options{Now: testNow})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Files < 10 {
			t.Errorf("%s: only %d files linted", dir, rep.Files)
		}
		sameClasses(t, dir, rep, want)
	}
}

// A vault with the constructs of obsidianmd/obsidian-help's en/ folder
// (which has no licence file to copy it under): no false link-broken,
// hidden-comment or frontmatter-missing error.
func TestObsidianVault(t *testing.T) {
	rep, err := Run(realVault(t, "testdata/obsidian", ""), Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	sameClasses(t, "obsidian", rep, map[string]int{
		// README, Table view, Bases syntax and Embed files are plain notes:
		// searchable, never rendered (spec §2).
		"warning frontmatter-missing": 4,
		// Table view holds real %% comments, hidden in reading view.
		"warning hidden-comment": 1,
	})
	for _, p := range rep.Problems {
		if p.Rule == "hidden-comment" && p.Path != "Bases/Table view.md" {
			t.Errorf("hidden-comment in code: %+v", p)
		}
	}
	// A vault that wants every file typed says so.
	rep, err = Run(realVault(t, "testdata/obsidian", "lint:\n  require_frontmatter: true\n"), Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	// Views, Cards view, Callouts and Daily note have properties but no
	// type: notes, until the vault asks for a type in every file.
	if got := classes(rep); got["error frontmatter-missing"] != 4 || got["error type-missing"] != 4 {
		t.Errorf("require_frontmatter: %v", got)
	}
}

// A Claude Code auto-memory folder as Claude Code writes it (MEMORY.md and
// typed topic files, some with metadata.type) lints with no error; the one
// warning is the project memory that is not a project note.
func TestClaudeCodeMemoryFolder(t *testing.T) {
	rep, err := Run(realVault(t, "testdata/claude-memory/-home-alice-src-shop/memory", ""), Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	// The hand-kept MEMORY.md index is an ordinary file (spec §2): a plain
	// note, linted like any other.
	sameClasses(t, "claude-memory", rep, map[string]int{"warning project-memory": 1, "warning frontmatter-missing": 1})
}

// 42 SKILL.md files: each duplicate-basename message names three of the
// others and counts the rest, instead of all 41.
func TestDuplicateBasenameCapped(t *testing.T) {
	dir := t.TempDir()
	for i := range 42 {
		p := filepath.Join(dir, "skills", strconv.Itoa(i), "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: s\ndescription: d\n---\nA skill.\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := Run(realVault(t, dir, ""), Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, p := range rep.Problems {
		if p.Rule != "obsidian-duplicate-basename" {
			continue
		}
		n++
		if !strings.Contains(p.Message, "and 38 other file(s)") || strings.Count(p.Message, "SKILL.md") != 4 {
			t.Fatalf("message: %s", p.Message)
		}
	}
	if n != 42 {
		t.Errorf("%d duplicate-basename warnings, want 42", n)
	}
}
