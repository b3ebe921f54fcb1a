package render

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// TestRendererServesOnlyWhatARenderWouldProduce: whatever a renderer
// serves, kept or computed, is byte for byte what Render of a fresh load
// produces (time line aside, which both set to now); and it reuses a kept
// render exactly when nothing it depends on moved.
func TestRendererServesOnlyWhatARenderWouldProduce(t *testing.T) {
	t.Parallel()
	// A file written within the racy window never lets a render be kept:
	// the files written here count as settled, or no run would reuse one.
	root := t.TempDir()
	if _, err := vault.Init(root, nil); err != nil {
		t.Fatal(err)
	}
	fm := "---\ntype: fact\nprovenance: stated\nimportance: 8\nvalid_at: 2026-01-02\n"
	vaulttest.Write(t, root, "memory/a.md", fm+"---\nAlpha is the first.\n")
	vaulttest.Write(t, root, "memory/b.md", fm+"project: proj_web\n---\nBeta belongs to the web shop.\n")
	vaulttest.Write(t, root, "memory/c.md", fm+"stale_after: 2026-12-01\n---\nGamma goes stale in December.\n")
	vaulttest.Write(t, root, "memory/d.md", fm+"invalid_at: 2026-12-05T10:00:00Z\n---\nDelta stops being true on the fifth.\n")
	vaulttest.Write(t, root, "memory/e.md", "---\ntype: fact\nprovenance: stated\nimportance: 8\nvalid_at: 2026-12-03T00:00:00Z\n---\nEpsilon is dated ahead until the third.\n")
	vaulttest.Write(t, root, "projects/web.md", "---\ntype: project\nid: proj_web\ntitle: Web shop\nroots: [code/web]\n---\nThe shop.\n")

	day := func(d, h int) time.Time { return time.Date(2026, 11, d, h, 0, 0, 0, time.UTC) }
	run := func(name string, now time.Time, project string, budget int, full, wantKept bool) *Result {
		t.Helper()
		v, err := vault.Options{RacyWindow: vaulttest.NoRacyWindow}.Open(root)
		if err != nil {
			t.Fatal(err)
		}
		rd, err := newRenderer(v, now)
		if err != nil {
			t.Fatal(err)
		}
		p := vault.FindProject(rd.projects(), project)
		got, err := rd.Render(p, budget, full)
		if err != nil {
			t.Fatal(err)
		}
		if kept := rd.mems == nil; kept != wantKept {
			t.Errorf("%s: served from the kept render = %v, want %v", name, kept, wantKept)
		}
		rd.keep()
		mems, err := v.Load(vault.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want, err := Render(mems, OptionsFor(v, vault.FindProject(v.Projects(mems), project), budget, now))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Doc, want.Doc) || !slices.Equal(got.Warnings, want.Warnings) {
			t.Errorf("%s: served\n%s\nwant\n%s", name, got.Doc, want.Doc)
		}
		return got
	}

	run("first run", day(29, 12), "proj_web", 0, false, false)
	run("same files, later the same day", day(29, 18), "proj_web", 0, false, true)
	run("another project", day(29, 18), "", 0, false, false)
	run("another budget", day(29, 18), "proj_web", 4000, false, false)
	run("both kept now", day(29, 19), "", 0, false, true)
	if r := run("items asked for", day(29, 19), "proj_web", 0, true, false); len(r.Items) == 0 {
		t.Error("a full render has no items")
	}
	res := run("gamma goes stale", time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC), "proj_web", 0, false, false)
	if bytes.Contains(res.Doc, []byte("Gamma")) {
		t.Error("a stale memory rendered")
	}
	run("stale view kept", time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC), "proj_web", 0, false, true)
	if r := run("epsilon comes due", time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC), "proj_web", 0, false, false); !bytes.Contains(r.Doc, []byte("Epsilon")) {
		t.Error("a claim no longer dated ahead did not render")
	}
	run("delta retires", time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC), "proj_web", 0, false, false)
	run("back before the kept render", day(29, 12), "proj_web", 0, false, false)

	// Same size, new bytes: only the stamp tells. Its mtime is moved on a
	// second, as a clock would have by the time it counts as settled.
	vaulttest.Write(t, root, "memory/a.md", fm+"---\nAlpha is the fresh.\n")
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(filepath.Join(root, "memory", "a.md"), later, later); err != nil {
		t.Fatal(err)
	}
	if r := run("a file edited in place", day(29, 12), "proj_web", 0, false, false); !bytes.Contains(r.Doc, []byte("the fresh")) {
		t.Error("the edit did not show")
	}
	vaulttest.Write(t, root, vault.ConfigFile, "render:\n  min_global_importance: 9\n")
	run("mem.yaml changed", day(29, 12), "proj_web", 0, false, false)
	view := filepath.Join(root, ".mem", "cache", "views", keptView)
	data, err := os.ReadFile(view)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x20
	if err := os.WriteFile(view, data, 0o644); err != nil {
		t.Fatal(err)
	}
	run("kept view damaged", day(29, 12), "proj_web", 0, false, false)
	run("kept again", day(29, 13), "proj_web", 0, false, true)
}
