package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
)

// TestInterruptedFullBuildKeepsTheLiveIndex: a --full build stopped at its
// first batch (Ctrl-C, issue 42) returns ErrInterrupted, drops what it
// built and leaves the live index as it was; the next run is incremental
// from it, re-reading only the files changed since, not every file.
func TestInterruptedFullBuildKeepsTheLiveIndex(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	const n = 1200 // three batches of batchSize
	for i := range n {
		write(t, v, fmt.Sprintf("memory/m%04d.md", i), memory("fact", "stated", "2026-01-01", fmt.Sprintf("Claim number %d about widgets.", i)))
	}
	mustUpdate(t, v, Options{})
	before, _ := live(v)
	write(t, v, "memory/m0001.md", memory("fact", "stated", "2026-01-01", "Claim number one, changed."))

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	progressed := 0
	_, err := Update(v, Options{Full: true, Context: ctx, Progress: func(done, total int) {
		progressed = done
		cancel() // the user presses Ctrl-C after the first batch
	}})
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("interrupted full build: err = %v, want ErrInterrupted", err)
	}
	if progressed == 0 || progressed >= n {
		t.Fatalf("stopped after %d of %d files, want in between", progressed, n)
	}
	after, _ := live(v)
	if after == nil || after.name != before.name {
		t.Fatalf("the live index changed: %v, want %s", after, before.name)
	}
	ents, err := os.ReadDir(Dir(v))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() && e.Name() != before.name {
			t.Errorf("the dropped build left %s", e.Name())
		}
	}
	st := mustUpdate(t, v, Options{})
	if st.Full || st.Updated != 1 || st.Indexed != 0 {
		t.Fatalf("the run after the interrupt: %+v, want an incremental update of the one changed file", st)
	}
	if hits := paths(t, v, Query{Text: "widgets", Limit: 5}); len(hits) == 0 {
		t.Fatal("the kept index answers nothing")
	}
}
