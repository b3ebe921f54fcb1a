package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/poison"
)

// importOne imports a MEMORY.md of one bullet and returns the result.
func importOne(t *testing.T, dir, name, bullet string) *Result {
	t.Helper()
	src := filepath.Join(dir, name+".md")
	if err := os.WriteFile(src, []byte("# Notes\n\n- "+bullet+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Run(newVault(t, nil), kindMemoryMD, src, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// Every injection payload, and every plain secret kind the scanner knows,
// is refused as an item: reported with where it is and why, never written.
func TestMemoryMDRefusesPoison(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, in := range poison.Injections {
		res := importOne(t, dir, in.Name, in.Line)
		if len(res.Refused) != 1 || len(res.Files) != 0 {
			t.Errorf("%s: %d refused, %d files written", in.Name, len(res.Refused), len(res.Files))
			continue
		}
		if r := res.Refused[0]; !strings.HasSuffix(r.Where, in.Name+".md:L3") || r.Rule == "" || r.Msg == "" {
			t.Errorf("%s: refusal %+v", in.Name, r)
		}
	}
	for _, s := range poison.Secrets {
		line := "The deploy key is " + s.Value
		res := importOne(t, dir, s.Rule, line)
		if len(res.Refused) != 1 || len(res.Files) != 0 || res.Refused[0].Rule != s.Rule {
			t.Errorf("%s: %+v, %d files written", s.Rule, res.Refused, len(res.Files))
		}
		if strings.Contains(res.Refused[0].String(), s.Value) {
			t.Errorf("%s: the report echoes the secret", s.Rule)
		}
	}
}

// A note whose pointer would be refused is not written either, and a
// refused item leaves the rest of the source imported.
func TestRefusedItemLeavesTheRest(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	items := []item{
		{locator: "a", Type: "fact", provenance: "stated", text: "The API lives at /v2"},
		{locator: "b", Type: "fact", provenance: "stated", text: "Deploy AKIAIOSFODNN7EXAMPLQ", title: "Deploy", note: "The deploy notes."},
		{locator: "c", Type: "rule", provenance: "inferred", text: "Deploys go out on Tuesdays"},
	}
	w := &writer{v: v, kind: kindMemoryMD, opts: Options{Now: testNow}, existing: map[string]string{}, res: &Result{}}
	for _, it := range items {
		if err := w.write(normalize(it)); err != nil {
			t.Fatal(err)
		}
	}
	if len(w.res.Files) != 1 || len(w.res.Refused) != 2 {
		t.Fatalf("files %+v refused %+v", w.res.Files, w.res.Refused)
	}
	if w.res.Refused[0].Rule != "secret-aws-access-token" || w.res.Refused[1].Rule != "gate-unearned" {
		t.Errorf("refused %+v", w.res.Refused)
	}
	if rels, _ := v.List(); len(rels) != 1 {
		t.Errorf("vault holds %v", rels)
	}
}
