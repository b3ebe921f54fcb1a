package audit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

var now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// put writes a file of the vault: frontmatter lines (without fences, none
// when fm is empty) and a body.
func put(t *testing.T, root, rel, fm, body string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	data := body + "\n"
	if fm != "" {
		data = "---\n" + strings.TrimSpace(fm) + "\n---\n" + data
	}
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fact is the frontmatter of a stated fact, plus extra lines.
func fact(extra ...string) string {
	return "type: fact\nprovenance: stated\n" + strings.Join(extra, "\n")
}

func newVault(t *testing.T, config string) *vault.Vault {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, vault.ConfigFile), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// seed fills a vault with each problem in known numbers; the comments
// give the counts TestSeededCounts expects.
func seed(t *testing.T, root string) {
	t.Helper()
	// Not memories: a project note, a reserved pointer file, a broken file.
	put(t, root, "projects/app.md", "type: project\nid: proj_app\ntitle: App\nroots: [code/app]", "The app.")
	put(t, root, "index.md", "", "* [Alpha](memory/d1.md) - a fact")
	put(t, root, "memory/broken.md", "type: [fact", "Broken.")

	// A: 3 native memories without valid_at.
	for i := 1; i <= 3; i++ {
		put(t, root, fmt.Sprintf("memory/undated-%d.md", i), fact(), fmt.Sprintf("Undated claim number %d.", i))
	}
	// B: 12 imports from one MEMORY.md, all stamped with the import day
	// as their valid_at (a collapse). Undated imports are none: audit
	// does not date them itself (C's two undated ones).
	for i := 1; i <= 12; i++ {
		put(t, root, fmt.Sprintf("imports/md/i%02d.md", i),
			"type: preference\nprovenance: stated\nsource: import:memory-md\nvalid_at: 2026-11-29\ngenerated:\n  by: mem/0.1.0\n  at: 2026-11-29T12:00:00Z",
			fmt.Sprintf("Imported preference %d.", i))
	}
	// C: 8 ChatGPT imports over three years, 2 of them undated and
	// generated on the import day: busiest days hold 2 each.
	for i, day := range []string{"2023-02-11", "2023-02-11T08:00:00Z", "2024-06-20", "2025-10-05", "2025-03-01", "2024-01-09", "", ""} {
		fm := "type: fact\nprovenance: inferred\nsource: import:chatgpt\ngenerated:\n  by: mem/0.1.0\n  at: 2026-11-29T12:00:00Z"
		if day != "" {
			fm += "\nvalid_at: " + day
		}
		put(t, root, fmt.Sprintf("imports/chatgpt/c%d.md", i+1), fm, fmt.Sprintf("ChatGPT fact %d.", i+1))
	}
	// D: 6 memories carry a project; 4 of them name no project note, one
	// with the wrong shape.
	for i := 1; i <= 3; i++ {
		put(t, root, fmt.Sprintf("memory/o%d.md", i), fact("valid_at: 2026-01-01", "project: proj_gone"), fmt.Sprintf("Gone project fact %d.", i))
	}
	put(t, root, "memory/o4.md", fact("valid_at: 2026-01-01", "project: Webshop"), "Badly scoped fact.")
	put(t, root, "memory/p1.md", fact("valid_at: 2026-01-01", "project: proj_app"), "App fact one.")
	put(t, root, "memory/p2.md", fact("valid_at: 2026-01-01", "project: proj_app"), "App fact two.")
	// E: 2 stale claims in force; a stale deprecated one and a stale one
	// superseded by s5 are not reported.
	put(t, root, "memory/s1.md", fact("valid_at: 2025-01-01", "stale_after: 2026-01-01"), "Stale since January.")
	put(t, root, "memory/s2.md", fact("valid_at: 2025-01-01", "stale_after: 2025-06-01"), "Stale since June last year.")
	put(t, root, "memory/s3.md", fact("valid_at: 2024-01-01", "stale_after: 2025-01-01", "status: deprecated"), "Deprecated and stale.")
	put(t, root, "memory/s4.md", fact("valid_at: 2023-01-01", "stale_after: 2024-01-01"), "Old version of a claim.")
	put(t, root, "memory/s5.md", fact("valid_at: 2026-02-01", "supersedes: [memory/s4]"), "New version of a claim.")
	// F: 2 observed facts with no expiry.
	put(t, root, "memory/e1.md", "type: fact\nprovenance: observed\nvalid_at: 2026-03-01", "The API listens on port 8080.")
	put(t, root, "memory/e2.md", "type: fact\nprovenance: observed\nvalid_at: 2025-03-01", "Node is at version 20.")
	// G: a tie on one key and a provenance win on another.
	put(t, root, "memory/k1.md", fact("valid_at: 2026-02-01", "key: db-port"), "The database port is 5432.")
	put(t, root, "memory/k2.md", fact("valid_at: 2026-02-01", "key: db-port"), "The database port is 5433.")
	put(t, root, "memory/k3.md", fact("valid_at: 2026-01-01", "key: editor"), "The editor is Helix.")
	put(t, root, "memory/k4.md", "type: fact\nprovenance: inferred\nvalid_at: 2026-05-01\nkey: editor", "The editor is Vim.")
	// H: one text in 3 files, another in 2 (and a retired third copy).
	put(t, root, "memory/d1.md", fact("valid_at: 2026-01-01"), "Uses Go for services.")
	put(t, root, "memory/d2.md", fact("valid_at: 2026-01-02"), "uses  go for SERVICES")
	put(t, root, "memory/d3.md", fact("valid_at: 2026-01-03"), "Uses Go\nfor services")
	put(t, root, "memory/d4.md", fact("valid_at: 2026-01-01"), "Coffee at nine.")
	put(t, root, "memory/d5.md", fact("valid_at: 2026-01-02"), "Coffee at nine.")
	put(t, root, "memory/d6.md", fact("valid_at: 2025-01-01", "invalid_at: 2026-01-01"), "Coffee at nine.")
}

func TestSeededCounts(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	seed(t, v.Root)
	r, err := Run(v, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, got, want any) {
		t.Helper()
		g, _ := json.Marshal(got)
		w, _ := json.Marshal(want)
		if !bytes.Equal(g, w) {
			t.Errorf("%s:\n got %s\nwant %s", what, g, w)
		}
	}
	check("files", r.Files, 49)
	check("memories", r.Memories, 46)
	check("broken", r.Broken, []string{"memory/broken.md"})
	check("valid_at", r.ValidAt, Coverage{Total: 45, Missing: 5, BySource: map[string]*SourceSums{
		"native": {25, 3}, "import:memory-md": {12, 0}, "import:chatgpt": {8, 2},
	}})
	check("import_clusters", r.ImportClusters, []Cluster{
		{"import:memory-md", "2026-11-29", "2026-11-29", 12, 1},
		{"import:chatgpt", "2026-11-29", "2023-02-11", 2, 0.3333},
	})
	check("project_share", r.ProjectShare, 0.1304)
	check("orphan_projects", r.OrphanProjects, []Orphan{
		{"proj_gone", 3, []string{"memory/o1.md", "memory/o2.md", "memory/o3.md"}},
		{"Webshop", 1, []string{"memory/o4.md"}},
	})
	check("stale", r.Stale, []Stale{
		{"memory/s2", "memory/s2.md", "2025-06-01"},
		{"memory/s1", "memory/s1.md", "2026-01-01"},
	})
	check("no_expiry", r.NoExpiry, []NoExpiry{
		{"memory/e2", "memory/e2.md", "2025-03-01"},
		{"memory/e1", "memory/e1.md", "2026-03-01"},
	})
	var reasons []string
	for _, c := range r.Conflicts {
		reasons = append(reasons, c.Reason+" "+c.Winner.ID+">"+c.Losers[0].ID)
	}
	check("conflicts", reasons, []string{
		"tie memory/k1>memory/k2", "provenance memory/k3>memory/k4", "supersedes memory/s5>memory/s4",
	})
	if !strings.Contains(r.Conflicts[0].Detail, "memory/k1") {
		t.Errorf("conflict detail %q does not name the winner", r.Conflicts[0].Detail)
	}
	check("duplicates", r.Duplicates, []Duplicate{
		{"uses go for services", []string{"memory/d1.md", "memory/d2.md", "memory/d3.md"}},
		{"coffee at nine", []string{"memory/d4.md", "memory/d5.md"}},
	})
	var checks []string
	for _, f := range r.Findings {
		checks = append(checks, f.Check)
	}
	check("findings", checks, []string{
		"max_missing_valid_at_share", "max_import_cluster_share", "max_orphan_projects", "max_stale",
		"max_conflicts", "max_duplicates", "max_commit_age_hours", "max_backup_age_hours",
	})
	check("healthy", r.Healthy, false)
}

// The thresholds come from mem.yaml: raised or turned off, the same vault
// passes; an explicit 0 is zero tolerance, not the default.
func TestThresholds(t *testing.T) {
	lenient := `audit:
  max_missing_valid_at_share: 0.5
  max_import_cluster_share: -1
  max_orphan_projects: 4
  max_stale: 2
  max_conflicts: 1
  max_duplicates: 2
  max_commit_age_hours: -1
  max_backup_age_hours: -1
`
	v := newVault(t, lenient)
	seed(t, v.Root)
	r, err := Run(v, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Healthy || len(r.Findings) != 0 {
		t.Fatalf("lenient thresholds: healthy=%v findings=%+v", r.Healthy, r.Findings)
	}

	// A bigger collapse threshold count lets the 12-day cluster pass; an
	// index limit of 0 fails on a vault that has no index (every file
	// changed since a build that never was, as index.Freshness says).
	v = newVault(t, "audit:\n  min_import_cluster: 13\n  max_index_changed: 0\n")
	seed(t, v.Root)
	r, err = Run(v, Options{Now: now, State: State{Index: Index{Changed: 49, Files: 49, Problem: "no index"}}})
	if err != nil {
		t.Fatal(err)
	}
	var checks []string
	for _, f := range r.Findings {
		checks = append(checks, f.Check)
	}
	if slices.Contains(checks, "max_import_cluster_share") || !slices.Contains(checks, "max_index_changed") {
		t.Errorf("findings = %v", checks)
	}
}

// The rendered views: their fossils and growth, judged beside a state
// that fails nothing (cmd/mem's audit_state script reads a real one).
func TestViews(t *testing.T) {
	const config = `render:
  outputs:
    - path: MEMORY.md
    - path: AGENTS.md
      splice: true
      project: proj_app
      budget: 400
`
	v := newVault(t, config)
	put(t, v.Root, "projects/app.md", "type: project\nid: proj_app\ntitle: App\nroots: [code/app]", "The app.")
	put(t, v.Root, "memory/a.md", fact("valid_at: 2026-01-01", "importance: 8"), "Alpha is global.")
	for i := 1; i <= 12; i++ {
		put(t, v.Root, fmt.Sprintf("memory/app-%02d.md", i), fact(fmt.Sprintf("valid_at: 2026-01-%02d", i), "project: proj_app"), fmt.Sprintf("App fact number %d with some words.", i))
	}
	// The views as render writes them, 40 days ago.
	old := now.Add(-40 * 24 * time.Hour)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	projects := v.Projects(mems)
	renderAt := func(p *vault.Project, budget int, at time.Time) []byte {
		t.Helper()
		res, err := render.Render(mems, render.Options{Vault: v.Root, Project: p, Budget: budget, Now: at,
			Sections: v.Config.Render.Sections, DurableTags: v.Config.DurableTags, MinGlobalImportance: v.Config.Render.MinGlobalImportance})
		if err != nil {
			t.Fatal(err)
		}
		return res.Doc
	}
	if _, err := render.WriteFile(filepath.Join(v.Root, "MEMORY.md"), renderAt(nil, 8192, old)); err != nil {
		t.Fatal(err)
	}
	put(t, v.Root, "AGENTS.md", "", "# Agents\n\nHand-written text.")
	if _, err := render.SpliceFile(filepath.Join(v.Root, "AGENTS.md"), renderAt(vault.FindProject(projects, "proj_app"), 400, old)); err != nil {
		t.Fatal(err)
	}
	// A memory renders, a day before now; the views are not rendered again.
	put(t, v.Root, "memory/b.md", fact("valid_at: 2026-11-28", "tags: [durable]", "generated:\n  by: human:me\n  at: 2026-11-28T12:00:00Z"), "Beta is durable.")
	mtime := now.Add(-24 * time.Hour)
	if err := os.Chtimes(filepath.Join(v.Root, "memory/b.md"), mtime, mtime); err != nil {
		t.Fatal(err)
	}
	put(t, v.Root, "memory/c.md", fact("valid_at: 2026-11-29"), "Gamma, not yet indexed.")

	views, err := render.Outputs(v)
	if err != nil {
		t.Fatal(err)
	}
	state := State{Index: Index{Exists: true}, Commit: Commit{Committed: true, AgeHours: 2}, Backup: Backup{Verified: true, AgeHours: 3}}
	r, err := Run(v, Options{Now: now, Views: views, State: state})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Views) != 2 {
		t.Fatalf("views = %+v", r.Views)
	}
	mv, av := r.Views[0], r.Views[1]
	if mv.Path != "MEMORY.md" || !mv.Exists || !mv.Fossil || mv.Added != 1 || mv.Removed != 0 || mv.Newest == nil || mv.Newest.ID != "memory/b" {
		t.Errorf("MEMORY.md: %+v (newest %+v)", mv, mv.Newest)
	}
	// Beta is global, not in the project view: the splice zone is current,
	// and its budget is full.
	if av.Path != "AGENTS.md" || av.Project != "proj_app" || av.Fossil || av.OverBudget == 0 || av.Bytes > 400 {
		t.Errorf("AGENTS.md: %+v", av)
	}
	// 30 days ago, by its generated.at, b was not written: the view grew
	// by b's line under the Global heading a already opened.
	if len(r.Growth) != 2 || r.Growth[0].Bytes != mv.Bytes || r.Growth[0].Bytes-r.Growth[0].Before != len("- [2026-11-28] Beta is durable. (stated)\n") {
		t.Errorf("growth = %+v", r.Growth)
	}
	var checks []string
	for _, f := range r.Findings {
		checks = append(checks, f.Check)
	}
	if !slices.Equal(checks, []string{"max_fossils"}) {
		t.Errorf("findings = %v", checks)
	}

	// Rendered again, both views are current: healthy.
	mems, _ = v.Load(vault.LoadOptions{})
	if _, err := render.WriteFile(filepath.Join(v.Root, "MEMORY.md"), renderAt(nil, 8192, now)); err != nil {
		t.Fatal(err)
	}
	r, err = Run(v, Options{Now: now, Views: views, State: state})
	if err != nil {
		t.Fatal(err)
	}
	if !r.Healthy || r.Views[0].Fossil {
		t.Errorf("after render: healthy=%v findings=%+v view=%+v", r.Healthy, r.Findings, r.Views[0])
	}

	// A hand edit inside the zone makes the spliced view a fossil; a
	// missing view is one too.
	agents := filepath.Join(v.Root, "AGENTS.md")
	data, _ := os.ReadFile(agents)
	if err := os.WriteFile(agents, bytes.Replace(data, []byte("App fact number 12"), []byte("App fact number twelve"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(v.Root, "MEMORY.md"))
	r, err = Run(v, Options{Now: now, Views: views, State: state})
	if err != nil {
		t.Fatal(err)
	}
	if mv, av := r.Views[0], r.Views[1]; mv.Exists || !mv.Fossil || !av.Fossil || av.Added != 1 || av.Removed != 1 {
		t.Errorf("after edit: MEMORY.md %+v, AGENTS.md %+v", mv, av)
	}
}

// The text report puts the verdict and counts first and caps path lists.
func TestWriteText(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	seed(t, v.Root)
	for i := 1; i <= 7; i++ {
		put(t, v.Root, fmt.Sprintf("memory/z%d.md", i), fact("valid_at: 2025-01-01", "stale_after: 2025-02-01"), fmt.Sprintf("Stale extra %d.", i))
	}
	r, err := Run(v, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	out := text(t, r)
	for _, want := range []string{
		"mem audit: 8 checks past their thresholds; 53 memories, 1 note, 1 project, 1 unreadable file\n",
		"  FAIL max_stale (9 > 0): 9 claim(s) past stale_after",
		"valid_at: 5 of 52 memories missing (9.6%)\n  native: 3 of 32 missing\n  import:chatgpt: 2 of 8 missing\n",
		"import:memory-md imported 2026-11-29: 12 on 2026-11-29 (100% of that import)",
		"proj_gone (3): memory/o1.md, memory/o2.md, memory/o3.md",
		"stale: 9 past stale_after\n",
		"  … and 4 more\n",
		"duplicates: 2 texts stored in 5 files\n",
		"conflicts: 3, 1 left open by the files (two claims correcting one, a tie, or a refused supersedes)\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text report lacks %q:\n%s", want, out)
		}
	}
	if strings.Index(out, "FAIL") > strings.Index(out, "valid_at:") {
		t.Errorf("findings are not first:\n%s", out)
	}
}

// Other tools' files are kept as written (spec §3): the audit counts them
// by their own type and never as memories missing valid_at or as an
// import's collapse; Claude Code's type: project memory is no project.
func TestOtherTypes(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for i := 1; i <= 3; i++ {
		put(t, v.Root, fmt.Sprintf("metrics/m%d.md", i), "type: Metric\ntitle: M", fmt.Sprintf("Metric %d.", i))
	}
	put(t, v.Root, "tables/orders.md", "type: BigQuery Table\nsource: import:bq\ngenerated:\n  by: okf/1\n  at: 2026-11-29T12:00:00Z", "Orders.")
	put(t, v.Root, "memory/feedback_tests.md", "name: Tests\ntype: feedback", "Integration tests hit a real database.")
	put(t, v.Root, "memory/project_freeze.md", "name: Freeze\nmetadata:\n  type: project", "Merges freeze on Friday.")
	put(t, v.Root, "Daily note.md", "tags: [daily]", "Today.")
	put(t, v.Root, "memory/f1.md", fact("valid_at: 2026-01-01"), "A dated fact.")
	r, err := Run(v, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Metric": 3, "BigQuery Table": 1, "feedback": 1, "project": 1}
	if fmt.Sprint(r.OtherTypes) != fmt.Sprint(want) || r.Untyped != 1 {
		t.Errorf("other types %v, untyped %d; want %v, 1", r.OtherTypes, r.Untyped, want)
	}
	if r.Counts != (Counts{Memories: 1, Notes: 7}) {
		t.Errorf("counts %+v", r.Counts)
	}
	if r.ValidAt.Total != 1 || r.ValidAt.Missing != 0 || len(r.ImportClusters) != 0 {
		t.Errorf("valid_at %+v, clusters %+v", r.ValidAt, r.ImportClusters)
	}
	for _, f := range r.Findings {
		if f.Check == "max_missing_valid_at_share" {
			t.Errorf("finding: %s", f.Message)
		}
	}
	if out := text(t, r); !strings.Contains(out, "other types: 7 files kept as written and treated as notes, not counted as memories\n  Metric: 3\n  BigQuery Table: 1\n  feedback: 1\n  project: 1\n  with no type: 1\n") {
		t.Errorf("text report:\n%s", out)
	}
}

// valid_at coverage counts notes too; its words say so, so they never
// contradict the count line ("1 memory, 1 note" then "1 of 2 memories").
func TestCoverageNamesNotes(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	put(t, v.Root, "memory/f1.md", fact("valid_at: 2026-01-01"), "A dated fact.")
	put(t, v.Root, "notes/n.md", "type: note\ntitle: N", "A long note, undated.")
	r, err := Run(v, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	out := text(t, r)
	for _, want := range []string{
		"1 memory, 1 note, 0 projects",
		"FAIL max_missing_valid_at_share (0.5 > 0.05): 1 of 2 memories and notes have no valid_at",
		"valid_at: 1 of 2 memories and notes missing (50.0%)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

// text is r as WriteText writes it.
func text(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteText(&b, r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}
