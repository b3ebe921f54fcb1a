package daemon

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/index"
)

// mergeRun is an idle merge in flight.
type mergeRun struct {
	cancel context.CancelFunc
	done   chan struct{}
}

// lockWork takes work to write, once an idle merge in flight has stopped:
// the merge holds the index lock, which the work may need, and takes work
// to publish.
func (d *Daemon) lockWork() {
	d.stopMerge()
	d.work.Lock()
}

// stopMerge stops the idle merge in flight, if any, and waits for it: its
// copy is removed and the held index stays as it was.
func (d *Daemon) stopMerge() {
	d.mergeMu.Lock()
	m := d.merging
	d.merging = nil
	d.mergeMu.Unlock()
	if m != nil {
		m.cancel()
		<-m.done
	}
}

// startMerge merges the held index into one segment, off the request path,
// when it is fresh and has minSegments or more: searches go on from
// the held index meanwhile, and the merged one replaces it under work. A
// cycle, a commit, a sync, a reload or a search that finds the index
// stale stops it (lockWork), and so does ctx (the daemon's end). The
// index lock is held throughout, so a rebuild-index in another process
// waits for it, naming this one.
func (d *Daemon) startMerge(ctx context.Context) {
	d.work.RLock()
	held := d.held
	n := 0
	if held != nil && d.fresh() {
		n = held.Segments()
	}
	d.work.RUnlock()
	if n < d.minSegments {
		return
	}
	mctx, cancel := context.WithTimeout(ctx, mergeMax)
	m := &mergeRun{cancel: cancel, done: make(chan struct{})}
	d.mergeMu.Lock()
	d.merging = m
	d.mergeMu.Unlock()
	d.mu.Lock()
	d.st.Merge = Event{Result: fmt.Sprintf("merging the index's %d segments into one", n)}
	d.mu.Unlock()
	go func() {
		defer close(m.done)
		defer cancel()
		defer d.worked() // its garbage goes back to the system soon after
		// The merge maps the whole index a second time: the searches'
		// garbage goes back first (peak RSS at 50k: 220 MiB with, idle).
		debug.FreeOSMemory()
		d.merge(mctx, held, n)
	}()
}

// merge is startMerge's work.
func (d *Daemon) merge(ctx context.Context, held *index.Reader, n int) {
	start := clock.Now()
	merged, err := held.Merge(ctx)
	if merged == nil || err != nil {
		switch {
		case errors.Is(err, index.ErrInterrupted):
			d.record(&d.st.Merge, true, "stopped before the end (a change, or the daemon's end); the index keeps its segments")
		case err != nil:
			d.record(&d.st.Merge, false, err.Error())
			d.logf("index: merging: %v", err)
		default:
			d.record(&d.st.Merge, true, "not merged: another process holds the index lock, or replaced the index")
		}
		return
	}
	d.work.Lock()
	defer d.work.Unlock()
	if d.held != held || ctx.Err() != nil {
		merged.Drop()
		d.record(&d.st.Merge, true, "stopped before the end (a change, or the daemon's end); the index keeps its segments")
		return
	}
	// Publish closes held; the merged index answers as it did, for the
	// files as they were at heldGen.
	r, err := merged.Publish()
	d.held = r
	if err != nil {
		select { // a cycle opens the live index again
		case d.again <- struct{}{}:
		default:
		}
		d.record(&d.st.Merge, false, err.Error())
		d.logf("index: merging: %v", err)
		return
	}
	d.record(&d.st.Merge, true, fmt.Sprintf("%d segments merged into one in %s", n, time.Since(start).Round(100*time.Millisecond)))
}
