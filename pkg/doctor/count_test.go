package doctor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/index"
)

// Doctor counts the vault as audit does, and judges the index by audit's
// threshold: behind by one file is a note, not a failure, unless mem.yaml
// sets audit.max_index_changed below it. --quiet prints no ok lines.
func TestDoctorCountsAndIndexLagAsAudit(t *testing.T) {
	t.Parallel()
	v := testVault(t)
	os.WriteFile(filepath.Join(v.Root, "notes.md"), []byte("A plain note without frontmatter.\n"), 0o644)
	os.WriteFile(filepath.Join(v.Root, "memory", "broken.md"), []byte("---\ntype: [fact\n---\nbroken\n"), 0o644)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if _, err := index.Update(v, index.Options{}); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(v.Root, "memory", "b.md"), []byte("---\ntype: fact\nprovenance: stated\n---\nOne more.\n"), 0o644)

	r, err := Run(context.Background(), v, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	a, err := audit.Run(v, audit.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if r.Counts != a.Counts || r.Counts != (audit.Counts{Memories: 2, Notes: 1, Unreadable: 1}) {
		t.Fatalf("doctor counts %+v, audit %+v", r.Counts, a.Counts)
	}
	if c := check(t, r, "files"); c.Note != "2 memories, 1 note, 0 projects, 1 unreadable file" {
		t.Fatalf("files: %+v", c)
	}
	if c := check(t, r, "index"); c.Status != OK || !strings.HasPrefix(c.Note, "1 file changed since the index was built") {
		t.Fatalf("index behind by one file: %+v", c)
	}

	var quiet bytes.Buffer
	if err := WriteProblems(&quiet, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(quiet.String(), "ok ") || !strings.Contains(quiet.String(), "fail  files") {
		t.Fatalf("quiet report:\n%s", quiet.String())
	}

	zero := 0
	v.Config.Audit.MaxIndexChanged = &zero
	if r, _ = Run(context.Background(), v, Options{Now: now}); check(t, r, "index").Status != Fail {
		t.Fatalf("past audit.max_index_changed: %+v", check(t, r, "index"))
	}
}

// A doctor whose context is done (Ctrl-C) stops with an interruption, not
// a report whose cut-short checks read as failures; an audit likewise.
func TestDoctorStops(t *testing.T) {
	t.Parallel()
	v := testVault(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	if r, err := Run(ctx, v, Options{Now: now, Fix: true}); fail.Of(err) != fail.Interrupted || r != nil {
		t.Fatalf("doctor with a done context: %v, %v (want no report, interrupted)", r, err)
	}
	if r, err := audit.Run(v, audit.Options{Now: now, Context: ctx}); fail.Of(err) != fail.Interrupted || r != nil {
		t.Fatalf("audit with a done context: %v, %v (want no report, interrupted)", r, err)
	}
}
