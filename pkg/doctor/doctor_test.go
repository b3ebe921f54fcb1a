package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

func testVault(t *testing.T) *vault.Vault {
	t.Helper()
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "memory"), 0o755)
	os.WriteFile(filepath.Join(root, vault.ConfigFile), nil, 0o644)
	os.WriteFile(filepath.Join(root, "memory", "a.md"), []byte("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\nimportance: 8\n---\nThe build uses Go 1.26.\n"), 0o644)
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func check(t *testing.T, r *Report, name string) Check {
	t.Helper()
	for _, c := range r.Checks {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no check %s in %+v", name, r.Checks)
	return Check{}
}

// A spliced view: the zone is checked and rewritten, the human text around
// it kept; a new time alone is not a problem.
func TestSplicedView(t *testing.T) {
	t.Parallel()
	v := testVault(t)
	agents := filepath.Join(v.Root, "AGENTS.md")
	human := "# Agents\n\nHand-written rules stay.\n"
	os.WriteFile(agents, []byte(human), 0o644)
	v.Config.Render.Outputs = []vault.RenderOutput{{Path: "AGENTS.md", Splice: true}}
	views, err := render.Outputs(v)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

	r, err := Run(context.Background(), v, Options{Now: now, Views: views})
	if err != nil {
		t.Fatal(err)
	}
	if c := check(t, r, "views"); c.Status != Fail || !strings.Contains(c.Problems[0], "AGENTS.md: its mem zone is out of date or missing") {
		t.Fatalf("views before fix: %+v", c)
	}
	if r, _ = Run(context.Background(), v, Options{Now: now, Views: views, Fix: true}); len(check(t, r, "views").Fixed) != 1 {
		t.Fatalf("views with --fix: %+v", check(t, r, "views"))
	}
	data, _ := os.ReadFile(agents)
	if !strings.HasPrefix(string(data), human) || !strings.Contains(string(data), "The build uses Go 1.26.") {
		t.Fatalf("AGENTS.md after fix:\n%s", data)
	}
	r, _ = Run(context.Background(), v, Options{Now: now.Add(time.Hour), Views: views, Fix: true}) // builds the index
	if c := check(t, r, "views"); len(c.Fixed) != 0 {
		t.Fatalf("an hour later, only the time line differs, yet --fix rewrote it: %+v", c)
	}
	r, _ = Run(context.Background(), v, Options{Now: now.Add(time.Hour), Views: views})
	if c := check(t, r, "views"); c.Status != OK {
		t.Fatalf("an hour later, only the time line differs: %+v", c)
	}
	if r.Healthy != true {
		t.Fatalf("not healthy: %+v", r.Checks)
	}
}

// --fix never touches a memory file, whatever else it repairs.
func TestFixLeavesMemoryFiles(t *testing.T) {
	t.Parallel()
	v := testVault(t)
	broken := filepath.Join(v.Root, "memory", "broken.md")
	data := []byte("---\ntype: [fact\n---\nbroken\n")
	os.WriteFile(broken, data, 0o644)
	old := time.Now().Add(-time.Hour)
	os.Chtimes(broken, old, old)
	r, err := Run(context.Background(), v, Options{Fix: true, Now: time.Now(), Views: []render.Target{{Output: filepath.Join(v.Root, "MEMORY.md"), Cwd: v.Root}}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Healthy || check(t, r, "files").Status != Fail {
		t.Fatalf("a broken memory must fail the report: %+v", r.Checks)
	}
	got, _ := os.ReadFile(broken)
	fi, _ := os.Stat(broken)
	if string(got) != string(data) || !fi.ModTime().Equal(old) {
		t.Fatalf("--fix touched %s", broken)
	}
}

func TestPidAlive(t *testing.T) {
	t.Parallel()
	if !pidAlive(os.Getpid()) {
		t.Error("this process is not alive")
	}
}
