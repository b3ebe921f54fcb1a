package index

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/index/scorch/mergeplan"

	"github.com/mem-md/mem/pkg/vault"
)

// Segments is how many segments r's index holds on disk: a full build
// leaves ~25 at 50,000 files, and a search looks up each of its terms in
// every one (about a third of a held search's CPU on 25).
func (r *Reader) Segments() int {
	s, ok := r.idx.Advanced()
	if sc, isScorch := s.(*scorch.Scorch); ok == nil && isScorch {
		n, _ := sc.StatsMap()["num_root_filesegments"].(uint64)
		return int(n)
	}
	return 0
}

// Merged is a one-segment copy of a held index, built by Reader.Merge and
// not yet live. Its holder holds the index lock until Publish or Drop.
type Merged struct {
	r      *Reader
	g      *generation
	unlock func()
}

// Merge writes r's index, merged into one segment, as a new generation
// beside it, holding the index lock from the copy to Publish or Drop, so
// no writer changes the live generation meanwhile (a rebuild-index waits,
// naming this process). Search keeps answering from r: the copy links the
// immutable segment files and copies the rest, and bleve merges in the copy.
// It returns nil, nil when there is nothing to do: another process holds
// the lock, r is no longer the live generation, or it has one segment.
// A done ctx stops the merge (bleve checks it between the merge's steps)
// and removes the copy. It costs one rewrite of the index, and while it
// runs the segments are mapped twice (by r and by the merge).
func (r *Reader) Merge(ctx context.Context) (*Merged, error) {
	unlock, ok, err := lockIndex(ctx, r.v, time.Second, nil)
	if err != nil || !ok {
		return nil, err
	}
	m, err := r.merge(ctx)
	if m == nil || err != nil {
		unlock()
		return nil, err
	}
	m.unlock = unlock
	return m, nil
}

// merge is Merge's work under the index lock.
func (r *Reader) merge(ctx context.Context) (*Merged, error) {
	g, _ := live(r.v)
	if g == nil || g.name != r.name || r.Segments() <= 1 {
		return nil, nil
	}
	// bleve's merge holds its new dictionaries and postings in the heap:
	// under the build's soft limit, not GOGC's twice the live heap.
	defer limitHeap(len(g.man.order))()
	ng := newGeneration(r.v)
	ng.man = g.man
	fail := func(err error) (*Merged, error) {
		os.RemoveAll(ng.dir)
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%w: %w", ErrInterrupted, context.Cause(ctx))
		}
		return nil, fmt.Errorf("merging the index into %s: %w", ng.dir, err)
	}
	if err := copyIndex(g.blevePath(), ng.blevePath()); err != nil {
		return fail(err)
	}
	if err := copyFile(filepath.Join(g.dir, manifestFile), filepath.Join(ng.dir, manifestFile)); err != nil {
		return fail(err)
	}
	idx, err := openBleve(ng.blevePath(), false)
	if err != nil {
		return fail(err)
	}
	adv, err := idx.Advanced()
	sc, ok := adv.(*scorch.Scorch)
	if err != nil || !ok {
		idx.Close()
		return fail(fmt.Errorf("not a scorch index (%v)", err))
	}
	// bleve merges at most SegmentsPerMergeTask segments in one task, so
	// 25 segments take two rounds; a round that leaves as many as it found
	// failed (bleve only logs why).
	for n := segments(sc); n > 1; {
		if err := sc.ForceMerge(ctx, &mergeplan.SingleSegmentMergePlanOptions); err != nil || ctx.Err() != nil {
			idx.Close()
			return fail(err)
		}
		after := segments(sc)
		if after >= n {
			idx.Close()
			return fail(fmt.Errorf("bleve left %d segments of %d", after, n))
		}
		n = after
	}
	// A batch waits until its snapshot, which holds the merged segment, is
	// persisted; it records the same update as the manifest copied.
	if err := finish(idx, idx.NewBatch(), g.man.seq); err != nil {
		idx.Close()
		return fail(err)
	}
	if err := idx.Close(); err != nil {
		return fail(err)
	}
	return &Merged{r: r, g: ng}, nil
}

func segments(sc *scorch.Scorch) int {
	n, _ := sc.StatsMap()["num_root_filesegments"].(uint64)
	return int(n)
}

// Publish closes the Reader the merge was made from (the caller makes
// sure no search is using it), makes the merged generation live, and
// returns a Reader of it, which answers every search as the old one did.
// The old generation is removed, and the index lock released.
func (m *Merged) Publish() (*Reader, error) {
	defer m.unlock()
	m.r.Close()
	if err := publish(m.r.v, m.g); err != nil {
		os.RemoveAll(m.g.dir)
		return nil, err
	}
	sweep(m.r.v, m.g.name)
	return OpenReader(m.r.v)
}

// Drop removes the merged generation unused and releases the index lock.
func (m *Merged) Drop() {
	defer m.unlock()
	os.RemoveAll(m.g.dir)
}

// copyIndex copies the scorch index in from to to: a segment file (.zap,
// never written again once made) as a hard link where the file system
// allows one, everything else (bolt's root, bleve's metadata) byte by byte.
func copyIndex(from, to string) error {
	return filepath.WalkDir(from, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		dst := filepath.Join(to, rel)
		switch {
		case e.IsDir():
			return os.MkdirAll(dst, 0o700)
		case strings.HasSuffix(e.Name(), ".zap") && os.Link(path, dst) == nil:
			return nil
		}
		return copyFile(path, dst)
	})
}

func copyFile(from, to string) (err error) {
	in, err := os.Open(from)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(to, os.O_CREATE|os.O_EXCL|os.O_WRONLY, vault.StateFileMode)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := out.Close(); err == nil {
			err = cerr
		}
	}()
	_, err = io.Copy(out, in)
	return err
}
