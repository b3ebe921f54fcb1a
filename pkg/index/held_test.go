package index

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// A search answered from a held index (the daemon's: candidates ranked
// without their stored fields, the files read kept in its memo) answers
// exactly what a search of the files does, asked once or again.
func TestHeldAnswersAsSearch(t *testing.T) {
	t.Parallel()
	v := indexedBenchVault(t, 1000)
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var qs []Query
	for _, text := range append(benchgen.Questions(40), benchgen.ServeQueries...) {
		qs = append(qs, Query{Text: text, Limit: 10, Now: now})
	}
	qs = append(qs,
		Query{Text: "deploy staging", Also: []string{"release to staging", "rollback"}, Limit: 10, Now: now},
		Query{Text: "postgres", Current: true, Limit: 25, Now: now},
		Query{Text: "cache", Limit: 3, Explain: true, Now: now},
		Query{Text: "type:decision database", Limit: 60, Now: now},
		Query{Text: "database +migration -docker", Limit: 10, Now: now},
		Query{Text: `"release checklist"`, Syntax: true, Limit: 10, Now: now},
	)
	strip := func(hs []Hit) []Hit {
		for i := range hs {
			if hs[i].File == nil {
				t.Fatalf("%s: no File", hs[i].Path)
			}
			hs[i].File = nil
		}
		return hs
	}
	held := func(*vault.Vault) *Reader { return r }
	found, beaten := 0, 0
	for round := range 2 { // the second round through the memo
		for _, q := range qs {
			want, err := Search(context.Background(), v, q)
			if err != nil {
				t.Fatal(err)
			}
			q.Held = held
			got, err := Search(context.Background(), v, q)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := strip(got.Hits), strip(want.Hits); !reflect.DeepEqual(g, w) {
				t.Fatalf("round %d, %q held:\n%+v\nfrom the files:\n%+v", round, q.Text, g, w)
			}
			found += len(want.Hits)
			for _, h := range want.Hits {
				if h.SupersededBy != "" {
					beaten++
				}
			}
		}
	}
	if found < 200 {
		t.Fatalf("only %d hits in all: the queries test little", found)
	}
	// The held index asks only for the claims it knows could beat a hit.
	if beaten == 0 {
		t.Fatal("no hit was superseded: the queries test no claim's status")
	}
}

// A held index knows when another process's full build swapped in a new
// generation (Live reads CURRENT only when its file changed), each time.
func TestHeldLive(t *testing.T) {
	t.Parallel()
	v := indexedBenchVault(t, 50)
	var held []*Reader
	for range 3 {
		r, err := OpenReader(v)
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		for range 2 { // the second time from the stat alone
			if !r.Live() {
				t.Fatal("a reader just opened is not live")
			}
		}
		held = append(held, r)
		if _, err := Update(v, Options{Full: true}); err != nil {
			t.Fatal(err)
		}
		for i, r := range held {
			if r.Live() {
				t.Errorf("reader %d is live after %d full builds since it opened", i, len(held)-i)
			}
		}
	}
}

// indexedBenchVault is a generated vault of n files (benchgen, seed 1),
// indexed by a first Update. The vault of 1,000 files, which four tests
// start from, is built once and copied (times kept: its index finds
// nothing to update). Its files were written a moment before their
// index, inside the racy window, so each search and update would read
// and hash all of them again (most of these tests' CPU): the vault
// trusts their stamps instead (NoRacyWindow). The tests only add files.
func indexedBenchVault(t *testing.T, n int) *vault.Vault {
	t.Helper()
	dir := t.TempDir()
	if n == sharedBenchFiles {
		src, err := sharedBenchVault()
		if err != nil {
			t.Fatal(err)
		}
		vaulttest.CopyBuilt(t, src, dir)
	} else if err := buildBenchVault(dir, n); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Options{RacyWindow: vaulttest.NoRacyWindow}.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

const sharedBenchFiles = 1000

var sharedBenchVault, removeSharedBenchVault = vaulttest.Once("mem-index-bench-", func(dir string) error {
	return buildBenchVault(dir, sharedBenchFiles)
})

func buildBenchVault(dir string, n int) error {
	if _, err := benchgen.Write(dir, benchgen.Options{N: n, Seed: 1}); err != nil {
		return err
	}
	v, err := vault.Open(dir)
	if err != nil {
		return err
	}
	_, err = Update(v, Options{})
	return err
}

// A held search ranks without term locations and reads them for the hits
// it answers (locate). Asked of a document through bleve's boolean
// searcher, an optional clause's places were lost when the searcher had
// already read past them: here every third decision holds the optional
// word, and a located hit came back without its highlight.
func TestHeldLocatesOptionalClauses(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	for i := range 30 {
		body := fmt.Sprintf("Decision %d: the team keeps the release notes short.", i)
		if i%3 == 2 {
			body = fmt.Sprintf("Decision %d: the database runs on postgres for the team.", i)
		}
		write(t, v, fmt.Sprintf("memory/d%02d.md", i), memory("decision", "stated", "2026-05-01", body))
	}
	if _, err := Update(v, Options{}); err != nil {
		t.Fatal(err)
	}
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	for _, text := range []string{"type:decision database", "team database", "+team database postgres -notes"} {
		q := Query{Text: text, Limit: 10, Now: time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC), Held: func(*vault.Vault) *Reader { return r }}
		res, err := Search(context.Background(), v, q)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Hits) != 10 {
			t.Fatalf("%q: %d hits, want the 10 that hold database", text, len(res.Hits))
		}
		for _, h := range res.Hits {
			if !strings.Contains(h.Snippet, "**database**") {
				t.Errorf("%q: %s: snippet %q has no highlighted database", text, h.Path, h.Snippet)
			}
		}
	}
}
