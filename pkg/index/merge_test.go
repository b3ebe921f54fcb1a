package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/vault"
)

// mergeVault is a 1,000-file vault whose index has several segments: a
// full build, then three updates in place, each a segment of its own.
func mergeVault(t *testing.T) *vault.Vault {
	t.Helper()
	v := indexedBenchVault(t, 1000)
	// Each update adds a segment, but scorch may merge some while it
	// closes, more often on a busy machine: update until three are left.
	for i := 0; ; i++ {
		write(t, v, fmt.Sprintf("notes/merge-%d.md", i), "The kiln was fired at cone six, and the release checklist was signed.\n")
		if st, err := Update(v, Options{}); err != nil || st.Full {
			t.Fatalf("update %d: %+v, %v", i, st, err)
		}
		r, err := OpenReader(v)
		if err != nil {
			t.Fatal(err)
		}
		n := r.Segments()
		r.Close()
		if n >= 3 {
			return v
		}
		if i == 12 {
			t.Fatalf("%d segments after %d updates; the tests want several", n, i+1)
		}
	}
}

// mergeQueries are asked before and after a merge.
func mergeQueries() []Query {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	var qs []Query
	for _, text := range append(benchgen.Questions(20), append(benchgen.ServeQueries, "kiln", "release checklist")...) {
		qs = append(qs, Query{Text: text, Limit: 20, Now: now})
	}
	return append(qs, Query{Text: "postgres", Current: true, Limit: 25, Now: now})
}

// answers is every query's hits from r (File left out: the memo's
// pointer), checked against the same search of the files.
func answers(t *testing.T, v *vault.Vault, r *Reader) [][]Hit {
	t.Helper()
	var held, files [][]Hit
	for _, q := range mergeQueries() {
		for _, from := range []*Reader{nil, r} {
			if from != nil {
				q.Held = func(*vault.Vault) *Reader { return from }
			}
			res, err := Search(context.Background(), v, q)
			if err != nil {
				t.Fatal(err)
			}
			for i := range res.Hits {
				res.Hits[i].File = nil
			}
			if from == nil {
				files = append(files, res.Hits)
			} else {
				held = append(held, res.Hits)
			}
		}
	}
	sameAnswers(t, "held, against the files", held, files)
	return held
}

// sameAnswers fails at the first hit that differs.
func sameAnswers(t *testing.T, when string, got, want [][]Hit) {
	t.Helper()
	qs := mergeQueries()
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			for j := range max(len(got[i]), len(want[i])) {
				var g, w Hit
				if j < len(got[i]) {
					g = got[i][j]
				}
				if j < len(want[i]) {
					w = want[i][j]
				}
				if !reflect.DeepEqual(g, w) {
					var gp, wp []string
					for k := range got[i] {
						gp = append(gp, fmt.Sprintf("%s %v", got[i][k].Path, got[i][k].Score))
					}
					for k := range want[i] {
						wp = append(wp, fmt.Sprintf("%s %v", want[i][k].Path, want[i][k].Score))
					}
					t.Errorf("%s, %q hit %d:\n got  %+v\n want %+v\n%s\n%s", when, qs[i].Text, j, g, w, strings.Join(gp, "\n"), strings.Join(wp, "\n"))
					break
				}
			}
		}
	}
}

// generations lists .mem/index but CURRENT.
func generations(t *testing.T, v *vault.Vault) []string {
	t.Helper()
	entries, err := os.ReadDir(Dir(v))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if e.Name() != currentFile {
			out = append(out, e.Name())
		}
	}
	return out
}

// A merge leaves one segment, live, that answers every query as the
// index it was merged from did (scores too: ties are ordered by path), and
// that later updates write in place.
func TestMergeAnswersTheSame(t *testing.T) {
	t.Parallel()
	v := mergeVault(t)
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Segments(); n < 3 {
		t.Fatalf("the index has %d segments; the test wants several", n)
	}
	before := answers(t, v, r)
	m, err := r.Merge(context.Background())
	if err != nil || m == nil {
		t.Fatalf("Merge: %v, %v", m, err)
	}
	r, err = m.Publish()
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Segments(); n != 1 {
		t.Errorf("after the merge: %d segments", n)
	}
	if gens := generations(t, v); len(gens) != 1 || gens[0] != r.name {
		t.Errorf("generations after the merge: %v, live %s", gens, r.name)
	}
	sameAnswers(t, "after the merge", answers(t, v, r), before)
	if m, err := r.Merge(context.Background()); m != nil || err != nil {
		t.Errorf("merging one segment again: %v, %v", m, err)
	}
	r.Close()
	write(t, v, "notes/merge-later.md", "A kiln note written after the merge.\n")
	st, err := Update(v, Options{})
	if err != nil || st.Full || st.Indexed != 1 {
		t.Fatalf("update after the merge: %+v, %v", st, err)
	}
	res, err := Search(context.Background(), v, Query{Text: "kiln written after", Limit: 1, NoRefresh: true})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Path != "notes/merge-later.md" {
		t.Fatalf("search after the update: %+v, %v", res.Hits, err)
	}
}

// A merge stopped by its context (the daemon's shutdown, or a change to
// the files) leaves the live index as it was, answering, with no copy
// left behind and the lock free.
func TestMergeStopped(t *testing.T) {
	t.Parallel()
	v := mergeVault(t)
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	before := answers(t, v, r)
	live0 := generations(t, v)
	for _, wait := range []time.Duration{0, time.Millisecond, 20 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		if wait == 0 {
			cancel()
		} else {
			time.AfterFunc(wait, cancel)
		}
		m, err := r.Merge(ctx)
		cancel()
		if m != nil { // it finished first: not live until published
			m.Drop()
		} else if !errors.Is(err, ErrInterrupted) {
			t.Fatalf("stopped after %s: %v", wait, err)
		}
		if gens := generations(t, v); !reflect.DeepEqual(gens, live0) {
			t.Errorf("stopped after %s: generations %v, want %v", wait, gens, live0)
		}
		if !r.Live() {
			t.Errorf("stopped after %s: the held index is no longer live", wait)
		}
	}
	sameAnswers(t, "after a stopped merge", answers(t, v, r), before)
	r.Close()
	if _, err := Update(v, Options{Full: true}); err != nil {
		t.Fatalf("a rebuild after the stopped merges: %v", err)
	}
}

// A merge and a rebuild-index exclude each other through the index lock:
// a merge finding it held does nothing, and a rebuild started during a
// merge waits for it, then builds; either way the index stays readable.
func TestMergeAndRebuild(t *testing.T) {
	t.Parallel()
	v := mergeVault(t)
	r, err := OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	before := answers(t, v, r)

	unlock, _, err := lockIndex(context.Background(), v, -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if m, err := r.Merge(context.Background()); m != nil || err != nil {
		t.Errorf("merge while a rebuild holds the lock: %v, %v", m, err)
	}
	unlock()

	m, err := r.Merge(context.Background())
	if err != nil || m == nil {
		t.Fatalf("Merge: %v, %v", m, err)
	}
	rebuilt := make(chan error, 1)
	go func() {
		_, err := Update(v, Options{Full: true})
		rebuilt <- err
	}()
	select {
	case err := <-rebuilt:
		t.Fatalf("the rebuild did not wait for the merge: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	r, err = m.Publish()
	if err != nil {
		t.Fatal(err)
	}
	sameAnswers(t, "after the merge", answers(t, v, r), before)
	r.Close()
	if err := <-rebuilt; err != nil {
		t.Fatalf("the rebuild after the merge: %v", err)
	}
	r, err = OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	sameAnswers(t, "after the rebuild", answers(t, v, r), before)
}
