package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// TestConsolidatePairs measures conflict detection through 'mem
// consolidate --json' on the pair sets of pkg/claimtext/testdata (issue
// 42: precision ≥ 0.95, recall ≥ 0.8): each pair in a project of its own,
// so only its two claims can meet; a pair is found when a conflict
// proposal names one of its claims.
func TestConsolidatePairs(t *testing.T) {
	t.Parallel()
	for _, set := range []string{"pairs.txt", "heldout.txt"} {
		t.Run(set, func(t *testing.T) {
			measurePairs(t, filepath.Join("..", "..", "pkg", "claimtext", "testdata", set))
		})
	}
}

func measurePairs(t *testing.T, path string) {
	t.Helper()
	dir := t.TempDir()
	if _, err := vault.Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	write := func(rel, text string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	conflict := map[string]bool{} // pair name → labelled a conflict
	for _, p := range vaulttest.ReadPairs(t, path) {
		name := fmt.Sprintf("p%03d", p.Line)
		conflict[name] = p.Conflict
		write("projects/"+name+".md", fmt.Sprintf("---\ntype: project\nid: proj_%s\nroots: [/nowhere/%s]\n---\nPair %d.\n", name, name, p.Line))
		for i, text := range []string{p.A, p.B} {
			write(fmt.Sprintf("memory/%s-%c.md", name, 'a'+i), fmt.Sprintf("---\ntype: fact\nprovenance: stated\nproject: proj_%s\nvalid_at: 2026-03-0%dT00:00:00Z\n---\n%s\n", name, i+1, text))
		}
	}
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"mem", "--vault", dir, "--json", "consolidate"}, &out, &errOut); code != 0 {
		t.Fatalf("mem consolidate --json exited %d: %s", code, errOut.String())
	}
	var r struct {
		Proposals []struct {
			Kind string   `json:"kind"`
			IDs  []string `json:"ids"`
		} `json:"proposals"`
	}
	if err := json.Unmarshal(out.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	found := map[string]bool{}
	for _, p := range r.Proposals {
		if p.Kind == "conflict" {
			for _, id := range p.IDs {
				found[strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(id, "memory/"), "-a"), "-b")] = true
			}
		}
	}
	var tp, fp, fn int
	for name, want := range conflict {
		switch {
		case found[name] && want:
			tp++
		case found[name]:
			fp++
			t.Logf("%s: a false conflict", name)
		case want:
			fn++
			t.Logf("%s: a missed conflict", name)
		}
	}
	precision, recall := float64(tp)/float64(max(1, tp+fp)), float64(tp)/float64(max(1, tp+fn))
	t.Logf("%s: %d pairs, precision %.3f, recall %.3f (tp %d, fp %d, fn %d)", path, len(conflict), precision, recall, tp, fp, fn)
	if precision < 0.95 || recall < 0.8 {
		t.Errorf("precision %.3f (want ≥ 0.95), recall %.3f (want ≥ 0.8)", precision, recall)
	}
}
