package daemon

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
)

// segmentedDaemon is exampleDaemon with 1,000 generated files more and an
// index of several segments: a build, then updates in place, each adding
// one.
func segmentedDaemon(t *testing.T, idle time.Duration) *Daemon {
	t.Helper()
	d, _ := exampleDaemon(t)
	// It merges once quiet for idle, from 2 segments (bleve's own merges
	// leave a small index 3 or so).
	d.idle, d.minSegments = idle, 2
	v := d.vault()
	if _, err := benchgen.Generate(benchgen.Options{N: 1000, Seed: 1}, func(rel string, data []byte) error {
		p := filepath.Join(d.root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	}); err != nil {
		t.Fatal(err)
	}
	// bleve's own merges may join some: update until there are enough.
	for i := 0; ; i++ {
		note := fmt.Sprintf("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\n---\nThe okapi ledger %d closes on Fridays.\n", i)
		if err := os.WriteFile(filepath.Join(d.root, "memory", fmt.Sprintf("okapi-%d.md", i)), []byte(note), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := index.Update(v, index.Options{}); err != nil {
			t.Fatal(err)
		}
		r, err := index.OpenReader(v)
		if err != nil {
			t.Fatal(err)
		}
		n := r.Segments()
		r.Close()
		if n >= 3 {
			break
		}
		if i == 30 {
			t.Fatalf("%d segments after %d updates", n, i+1)
		}
	}
	return d
}

// heldSegments is how many segments the held index has, 0 when none.
func (d *Daemon) heldSegments() int {
	d.work.RLock()
	defer d.work.RUnlock()
	if d.held == nil {
		return 0
	}
	return d.held.Segments()
}

func (d *Daemon) answers(t *testing.T) [][]inspect.Hit {
	t.Helper()
	var out [][]inspect.Hit
	for _, q := range []string{"okapi", "checkout", "postgres", "deploy", "ledger fridays"} {
		r := d.searchFor(q)
		if r.Search == nil {
			t.Fatalf("%q: %+v", q, r)
		}
		for i := range r.Search.Hits {
			r.Search.Hits[i].File = nil
		}
		out = append(out, r.Search.Hits)
	}
	return out
}

// Once the vault is quiet, the daemon merges the index it holds into one
// segment, and searches answer from it exactly as before.
func TestIdleMerge(t *testing.T) {
	d := segmentedDaemon(t, 2*time.Second)
	start(t, d)
	if n := d.heldSegments(); n < d.minSegments {
		t.Fatalf("the held index has %d segments; the test wants %d or more", n, d.minSegments)
	}
	if st := d.Status().Merge; !strings.HasPrefix(st.Result, "due: ") {
		t.Errorf("before the merge: %+v", st)
	}
	before := d.answers(t)
	eventually(t, "the merge", func() bool { return !d.Status().Merge.At.IsZero() })
	if st := d.Status().Merge; !st.OK || !strings.Contains(st.Result, "merged into one") {
		t.Fatalf("merge: %+v", st)
	}
	if n := d.heldSegments(); n != 1 {
		t.Fatalf("after the merge the held index has %d segments", n)
	}
	warm := d.Status().Warm
	if after := d.answers(t); !reflect.DeepEqual(after, before) {
		t.Fatalf("answers changed:\nbefore %+v\nafter  %+v", before, after)
	}
	if d.Status().Warm != warm+5 {
		t.Error("the searches after the merge were not answered from the held index")
	}
	entries, _ := os.ReadDir(index.Dir(d.vault()))
	if len(entries) != 2 { // CURRENT and the merged generation
		t.Errorf(".mem/index holds %d entries", len(entries))
	}
}

// lockIndex takes the index lock as a mem rebuild-index in another process
// would, until the test ends or the returned func is called.
func lockIndex(t *testing.T, d *Daemon) (unlock func()) {
	t.Helper()
	u, err := d.vault().LockWait(context.Background(), "index", -1, nil)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	unlock = func() { once.Do(u) }
	t.Cleanup(unlock)
	return unlock
}

// A merge finding the index lock held (a mem rebuild-index in another
// process) gives up after a second; the held index answers on.
func TestMergeGivesWay(t *testing.T) {
	d := segmentedDaemon(t, time.Hour) // started by the test, once it holds the lock
	start(t, d)
	lockIndex(t, d)
	before := d.answers(t)
	_, ctx := d.running()
	d.startMerge(ctx)
	eventually(t, "a merge given up", func() bool {
		st := d.Status().Merge
		if !st.At.IsZero() && !strings.HasPrefix(st.Result, "not merged") {
			t.Fatalf("merge: %+v", st)
		}
		return !st.At.IsZero()
	})
	if n := d.heldSegments(); n < d.minSegments {
		t.Fatalf("the held index has %d segments", n)
	}
	warm := d.Status().Warm
	if after := d.answers(t); !reflect.DeepEqual(after, before) || d.Status().Warm != warm+5 {
		t.Fatalf("answers after the merge gave way: %v (warm %d, was %d)", after, d.Status().Warm, warm)
	}
}

// A merge under way when the daemon stops ends with it, and leaves the
// index as it was: readable, with nothing left beside it.
func TestMergeStoppedByShutdown(t *testing.T) {
	d := segmentedDaemon(t, time.Hour) // started by the test, once it holds the lock
	stop, done := start(t, d)
	unlock := lockIndex(t, d) // holds the merge at its start
	before := d.answers(t)
	_, ctx := d.running()
	d.startMerge(ctx)
	eventually(t, "a merge under way", func() bool { return strings.HasPrefix(d.Status().Merge.Result, "merging") })
	stop(errors.New("terminated"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return")
	}
	if st := d.Status().Merge; !strings.HasPrefix(st.Result, "stopped") {
		t.Errorf("merge: %+v", st)
	}
	unlock()
	v := d.vault()
	r, err := index.OpenReader(v)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if n := r.Segments(); n < d.minSegments {
		t.Errorf("the index has %d segments after a stopped merge", n)
	}
	res, err := index.Search(context.Background(), v, index.Query{Text: "okapi", Limit: 10, Now: testNow, NoRefresh: true})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, h := range res.Hits {
		got = append(got, h.Path)
	}
	for _, h := range before[0] {
		want = append(want, h.Path)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after the stop: %v, before %v", got, want)
	}
	if entries, _ := os.ReadDir(index.Dir(v)); len(entries) != 2 {
		t.Errorf(".mem/index holds %d entries after a stopped merge", len(entries))
	}
}
