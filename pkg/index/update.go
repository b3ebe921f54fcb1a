package index

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/vault"
)

// Options tunes Update.
type Options struct {
	// Full builds a complete new index beside the live one and swaps it in.
	Full bool
	// Notify receives the few messages a user should see on stderr: why a
	// full rebuild happens unasked, or that we wait for another process.
	Notify func(msg string)
	// Progress is called after each batch with files done and files to do.
	Progress func(done, total int)
	// Context, when done, stops the run between two batches: a full build
	// is dropped and the live index stays as it was; an update leaves the
	// manifest as it was, so the next run redoes only what changed. The
	// error then wraps ErrInterrupted. Nil never stops.
	Context context.Context
}

// ErrInterrupted is what a run stopped by its Context returns (wrapped).
var ErrInterrupted = errors.New("interrupted")

func (o *Options) interrupted() error {
	if o.Context != nil && o.Context.Err() != nil {
		return ErrInterrupted
	}
	return nil
}

func (o *Options) notify(format string, args ...any) {
	if o.Notify != nil {
		o.Notify(fmt.Sprintf(format, args...))
	}
}

// Stats is what one Update did.
type Stats struct {
	Full    bool   `json:"full"`             // a complete index was built and swapped in
	Reason  string `json:"reason,omitempty"` // why it was full when not asked for
	Indexed int    `json:"indexed"`          // files newly indexed (all of them on a full build)
	Updated int    `json:"updated"`          // files re-indexed because they changed
	Removed int    `json:"removed"`          // files deleted from the vault and the index
	// Changed counts the files that differed from the index before the run
	// (every file when a full build replaced a missing or damaged index).
	Changed int `json:"changed"`
	// Skipped files have nothing to index (binary, too large, a link leaving the vault).
	Skipped  int           `json:"skipped"`
	Files    int           `json:"files"` // files in the vault
	Duration time.Duration `json:"-"`
}

// batchSize bounds the documents in one bleve batch and batchBytes the
// text in it. bleve's memory while analysing a batch is a few hundred
// bytes per token (term frequencies and positions, the segment being built): at 50k
// generated files, batches of 400 long-form notes (1.6 MB of text) held
// over 100 MiB of live heap (schema 1, with _all). 384 KiB with a
// heapBase of 48 MiB took ~4% less CPU than 256 KiB with 40 MiB, at the
// same peak RSS (~140 MiB at 50k): fewer, larger segments to persist and
// merge.
const (
	batchSize  = 400
	batchBytes = 384 << 10
)

// loadChunk files are read and parsed at a time, one chunk ahead of the
// batch being filled: what is held ahead sits in the heap under the build's
// memory limit (limitHeap). Chunks of a whole batch (400 files) held ~8 MiB
// more live heap than these, so the GC ran more often; a 50k build took
// ~3% less time with 100.
const loadChunk = 100

// The Go runtime's soft memory limit while a run indexes is heapBase plus
// heapPerFile for each file of the vault. The live heap then is what one
// batch needs (the analysed batch, two chunks of loaded files, a merge:
// bounded by batchBytes, not by the vault) plus what grows with the vault
// (the file list and a full build's flat record, ~200 bytes a file):
// 20-45 MiB at 50k generated notes. Left to GOGC the heap grows to twice
// the live heap between collections, and that headroom was ~60 MiB of a
// full build's peak RSS. Near the limit the GC runs more often, which
// costs CPU (with 40 MiB, GC assists were a third of what the 50k build
// spent beyond the plain-bleve reference). A soft limit never fails an
// allocation: past it the runtime caps the GC at half the CPU and lets the
// heap grow, so a limit set too low slows a run down (3x at 45 MiB on the
// 50k vault) but never breaks it. 56 MiB, not 48, once merges held less
// of the index mapped (segmentsPerTier): ~3% off a 50k build for ~5 MiB
// more peak RSS (~140 MiB).
const (
	heapBase    = 56 << 20
	heapPerFile = 320
)

// limitHeap sets the soft memory limit for indexing a vault of files
// files and returns what restores the previous one. A limit already set,
// the user's GOMEMLIMIT, wins: the runtime reports it, so the environment
// is not read here (GOMEMLIMIT=off reads as no limit set).
func limitHeap(files int) (restore func()) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	prev := debug.SetMemoryLimit(heapBase + heapPerFile*int64(files))
	return func() { debug.SetMemoryLimit(prev) }
}

// When more than rebuildMin files and rebuildShare of all files changed, a
// fresh build beside the live index is as fast as updating it in place, and
// readers are not blocked by a long in-place write.
const (
	rebuildMin   = 1000
	rebuildShare = 0.5
)

// Update brings the index of v up to date with the files, waiting for any
// other writer first. With nothing to do it reads the manifest, stats the
// files and opens the index read-only to check it; it writes nothing.
func Update(v *vault.Vault, opts Options) (Stats, error) {
	start := clock.Now()
	unlock, _, err := lockIndex(opts.Context, v, -1, func(pid int) {
		who := "another rebuild"
		if pid > 0 {
			who += fmt.Sprintf(" (pid %d)", pid)
		}
		opts.notify("waiting for %s to finish updating the index (lock %s)", who, v.LockPath("index"))
	})
	if err != nil {
		return Stats{}, err
	}
	defer unlock()
	st, err := update(v, opts, true)
	st.Duration = time.Since(start)
	return st, err
}

// update does Update's work; the caller holds the index lock. With verify,
// a run with nothing to do still opens the index read-only, so a damaged
// index is found and rebuilt by rebuild-index rather than by a search.
func update(v *vault.Vault, opts Options, verify bool) (Stats, error) {
	var l *listing
	if !opts.Full { // a full build lists the vault itself; nothing to compare
		l = startListing(v)
	}
	g, reason := live(v)
	if g == nil {
		return rebuild(v, opts, reason)
	}
	if opts.Full {
		return build(v, opts, "")
	}
	d, err := compare(v, g.man, l)
	if err != nil {
		return Stats{}, err
	}
	st := Stats{Files: d.files}
	if d.changed() == 0 {
		if len(d.touched) > 0 {
			for rel, e := range d.touched {
				g.man.set(rel, e)
			}
			g.man.scanned = d.scanned
			if err := vault.WriteFileAtomic(filepath.Join(g.dir, manifestFile), g.man.encode(), vault.StateFileMode); err != nil {
				return st, err
			}
		}
		if verify {
			idx, err := open(g, true)
			if err != nil && !errors.Is(err, errBusy) {
				return rebuild(v, opts, fmt.Sprintf("the index could not be opened (%v)", err))
			}
			if err == nil {
				idx.Close()
			}
		}
		sweep(v, g.name)
		return st, nil
	}
	if d.changed() > rebuildMin && float64(d.changed()) > rebuildShare*float64(d.files) {
		st, err := build(v, opts, fmt.Sprintf("%d of %d files changed", d.changed(), d.files))
		st.Changed = d.changed()
		return st, err
	}
	idx, err := open(g, false)
	if errors.Is(err, errBusy) {
		reason := "the index is held open by another process"
		opts.notify("%s: building a fresh one beside it", reason)
		st, err := build(v, opts, reason)
		st.Changed = d.changed()
		return st, err
	}
	if err != nil {
		return rebuild(v, opts, fmt.Sprintf("the index could not be opened (%v)", err))
	}
	st, err = apply(v, idx, g, d, opts)
	if cerr := idx.Close(); err == nil {
		err = cerr
	}
	if errors.Is(err, ErrInterrupted) {
		// The manifest was not rewritten: the next run redoes the changed
		// files, and the batches sent meanwhile are overwritten then.
		return st, err
	}
	if err != nil {
		// The manifest was not rewritten, so nothing claims the failed
		// batch was indexed; still, a bleve error here means a damaged
		// index, and a rebuild is the cure.
		return rebuild(v, opts, fmt.Sprintf("updating the index failed (%v)", err))
	}
	sweep(v, g.name)
	return st, nil
}

// apply indexes d's changes into idx in batches, then rewrites the manifest.
// bleve's Batch returns only once the batch is persisted (scorch without
// unsafe_batch), so a manifest on disk never names unindexed content; a
// crash before it is written only makes the next run redo the same work.
func apply(v *vault.Vault, idx bleve.Index, g *generation, d *diff, opts Options) (Stats, error) {
	defer limitHeap(d.files)()
	st := Stats{Files: d.files, Changed: d.changed()}
	for rel, e := range d.touched {
		g.man.set(rel, e)
	}
	b := idx.NewBatch()
	for _, rel := range d.removed {
		b.Delete(rel)
		g.man.drop(rel)
		st.Removed++
	}
	isNew := make(map[string]bool, len(d.added))
	for _, rel := range d.added {
		isNew[rel] = true
	}
	changed := append(append([]string{}, d.added...), d.modified...)
	if err := indexFiles(v, idx, b, changed, inManifest{g.man}, isNew, &st, opts.progress(len(d.removed), d.changed()), opts.interrupted); err != nil {
		return st, err
	}
	g.man.seq++
	g.man.scanned = d.scanned
	if err := finish(idx, b, g.man.seq); err != nil {
		return st, err
	}
	return st, vault.WriteFileAtomic(filepath.Join(g.dir, manifestFile), g.man.encode(), vault.StateFileMode)
}

// indexFiles loads rels in chunks and indexes them into idx, noting each
// file in rec. The next chunk is read and parsed while bleve indexes the
// current batch, so file I/O and parsing hide behind bleve's analysis and
// fsyncs. b may hold queued deletes; it is left empty.
// isNew nil means every file is new.
func indexFiles(v *vault.Vault, idx bleve.Index, b *bleve.Batch, rels []string, rec recorder, isNew map[string]bool, st *Stats, progress func(done int), stopped func() error) error {
	chunks := make(chan []*vault.Memory, 1)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		defer close(chunks)
		for start := 0; start < len(rels); start += loadChunk {
			select {
			case chunks <- v.LoadFiles(rels[start:min(start+loadChunk, len(rels))], vault.LoadOptions{Raw: true}):
			case <-stop:
				return
			}
		}
	}()
	done, pending := 0, int64(0)
	send := func() error {
		if b.Size() == 0 {
			return nil
		}
		if err := idx.Batch(b); err != nil {
			return err
		}
		b.Reset()
		pending = 0
		return nil
	}
	for mems := range chunks {
		if err := stopped(); err != nil {
			return err
		}
		for j, m := range mems {
			if m.ModTime.IsZero() { // gone since the walk
				if rec.drop(m.Rel) {
					b.Delete(m.Rel)
					st.Removed++
				}
				continue
			}
			rec.set(done+j, m)
			m.Raw = "" // hashed; the batch needs only the parsed document
			indexed, err := addDoc(b, m, st)
			switch {
			case err != nil:
				return err
			case indexed && (isNew == nil || isNew[m.Rel]):
				st.Indexed++
			case indexed:
				st.Updated++
			}
			if pending += m.Size; pending >= batchBytes || b.Size() >= batchSize {
				if err := send(); err != nil {
					return err
				}
			}
		}
		done += len(mems)
		progress(done)
	}
	return send()
}

// recorder is where a run notes the files it indexed: set records m, the
// i-th file of the run's list, as indexed from what was loaded; drop
// forgets rel, which vanished since the walk, and reports whether the
// index held it.
type recorder interface {
	set(i int, m *vault.Memory)
	drop(rel string) bool
}

// inManifest records straight into a live generation's manifest.
type inManifest struct{ man *manifest }

func (r inManifest) set(_ int, m *vault.Memory) { r.man.set(m.Rel, manifestEntry(m)) }

func (r inManifest) drop(rel string) bool { return r.man.drop(rel) }

// flatTable is a full build's record: one row per file of the listing,
// free of pointers, turned into the manifest's lists once at the end. The
// garbage collector runs often under the build's memory limit (limitHeap),
// and a map of every file with its hash string was ~2 s of its work in a
// 15 s build of 50,000 files.
type flatTable struct {
	rels []string
	rows []flatRow
}

type flatRow struct {
	size, mtime int64
	hash        [64]byte // vault.Hash (hex SHA-256), hashLen bytes of it
	hashLen     uint8
	set         bool
}

func newFlatTable(rels []string) *flatTable {
	return &flatTable{rels: rels, rows: make([]flatRow, len(rels))}
}

func (t *flatTable) set(i int, m *vault.Memory) {
	e := manifestEntry(m)
	r := flatRow{size: e.size, mtime: e.mTime, set: true}
	r.hashLen = uint8(copy(r.hash[:], e.hash))
	t.rows[i] = r
}

// drop: nothing was indexed before a fresh build.
func (t *flatTable) drop(string) bool { return false }

// sorted is what was recorded, in the listing's order (vault.List sorts
// it), as the manifest keeps it.
func (t *flatTable) sorted() ([]string, []entry) {
	rels, entries := make([]string, 0, len(t.rows)), make([]entry, 0, len(t.rows))
	for i, r := range t.rows {
		if r.set {
			rels = append(rels, t.rels[i])
			entries = append(entries, entry{size: r.size, mTime: r.mtime, hash: string(r.hash[:r.hashLen])})
		}
	}
	return rels, entries
}

// finish sends the run's last batch: what is left in b, and the run's
// sequence number, which marks the index as holding everything before it.
func finish(idx bleve.Index, b *bleve.Batch, seq int64) error {
	b.SetInternal(seqKey, []byte(strconv.FormatInt(seq, 10)))
	return idx.Batch(b)
}

// freshConfig is the kvconfig of a fresh build: bleve's merge planner told
// how large a segment one batch makes, and unsafe_batch, so a batch
// returns once it is searchable and the next is analysed while scorch
// persists the last (~3% of a 50k build). A fresh generation is not live
// until publish, and a crash before it only leaves a directory sweep
// removes, so nothing waits on each fsync; build waits once, for the last
// batch. bleve keeps this config in the index's index_meta.json and
// applies it to every later open, so openBleve turns unsafe_batch off
// again: with it left on, an in-place update returned before it was
// persisted and was lost when the process exited.
// (Two Batch calls in flight analysed the next batch while the last was
// made a segment, but held twice the analysed text, and took 40% more CPU
// under the memory limit.)
// It is a new map each time because bleve.NewUsing writes the store's path
// into the map it is given: one shared map let two builds in one process
// (parallel tests) open each other's store.
func freshConfig() map[string]any {
	return map[string]any{
		"unsafe_batch": true,
		"scorchMergePlanOptions": map[string]any{
			"FloorSegmentSize": mergeFloor, "MaxSegmentsPerTier": segmentsPerTier, "SegmentsPerMergeTask": segmentsPerTier,
		},
	}
}

// mergeFloor is the documents in one batch, at most. bleve's default
// floor, 2000, counts each of mem's batches as 2000 documents, so its
// tiered planner finds far too many segments and merges the same documents
// again and again: at 50,000 files the merges wrote 271 MB for a 91 MB
// index, 127 MB with a floor of one batch, and the build took ~20% less
// CPU. The planner then leaves ~20 segments where it left ~11; a search
// took the same time on both.
const mergeFloor = batchSize

// segmentsPerTier is how many segments of a size bleve's planner lets
// stand before it merges them into one (its default is 10). With 15, each
// document of a 50,000-file build is rewritten by merges less often: the
// build took ~4% less time and its peak RSS fell from ~144 to ~135 MiB
// (a merge maps every segment it reads); the index has ~25 segments where
// it had ~18, and a search took 1-5 ms more of ~100.
const segmentsPerTier = 15

func (o *Options) progress(base, total int) func(done int) {
	return func(done int) {
		if o.Progress != nil {
			o.Progress(base+done, total)
		}
	}
}

// manifestEntry is what the manifest records for a loaded file that
// still exists (a non-zero ModTime).
func manifestEntry(m *vault.Memory) entry {
	e := entry{size: m.Size, mTime: m.ModTime.UnixNano()}
	if m.Raw != "" || m.Size == 0 {
		e.hash = vault.Hash(m.Raw)
	}
	return e
}

// addDoc queues m in b: indexed when it has content, deleted otherwise (a
// file that became unreadable must stop answering searches).
func addDoc(b *bleve.Batch, m *vault.Memory, st *Stats) (indexed bool, err error) {
	doc := document(m)
	if doc == nil || m.View { // a view mem rendered is not searched
		st.Skipped++
		b.Delete(m.Rel)
		return false, nil
	}
	if err := b.Index(m.Rel, doc); err != nil {
		return false, fmt.Errorf("%s: %w", m.Rel, err)
	}
	return true, nil
}

// rebuild says once why the index is being rebuilt, then builds it.
func rebuild(v *vault.Vault, opts Options, reason string) (Stats, error) {
	if reason == noIndex {
		opts.notify("%s: building one from the files", reason)
	} else {
		opts.notify("%s: rebuilding it from the files", reason)
	}
	return build(v, opts, reason)
}

// build indexes every file into a new generation and swaps it in. The live
// index keeps answering searches until the swap; a crash before it leaves
// the live index as it was and a leftover directory the next writer sweeps.
func build(v *vault.Vault, opts Options, reason string) (Stats, error) {
	st := Stats{Full: true, Reason: reason}
	scanned := clock.Now()
	rels, err := v.List()
	if err != nil {
		return st, err
	}
	st.Files, st.Changed = len(rels), len(rels)
	defer limitHeap(len(rels))()
	if err := os.MkdirAll(Dir(v), 0o700); err != nil {
		return st, err
	}
	g := newGeneration(v)
	g.man = &manifest{schema: schemaVersion, seq: 1, scanned: scanned}
	table := newFlatTable(rels)
	idx, err := bleve.NewUsing(g.blevePath(), newMapping(), bleve.Config.DefaultIndexType, bleve.Config.DefaultKVStore, freshConfig())
	if err != nil {
		os.RemoveAll(g.dir)
		return st, fmt.Errorf("%s: %w", g.dir, err)
	}
	fail := func(err error) (Stats, error) {
		idx.Close()
		os.RemoveAll(g.dir)
		return st, err
	}
	// bleve writes its index_meta.json 0666 less the umask; every file
	// under .mem is 0600 (vault.StateFileMode).
	if err := os.Chmod(filepath.Join(g.blevePath(), "index_meta.json"), vault.StateFileMode); err != nil {
		return fail(err)
	}
	b := idx.NewBatch()
	if err := indexFiles(v, idx, b, rels, table, nil, &st, opts.progress(0, len(rels)), opts.interrupted); err != nil {
		return fail(fmt.Errorf("%s: %w", g.dir, err))
	}
	persisted := make(chan error, 1)
	b.SetPersistedCallback(func(err error) { persisted <- err })
	if err := finish(idx, b, g.man.seq); err != nil {
		return fail(fmt.Errorf("%s: %w", g.dir, err))
	}
	// Persisting the last batch persists the snapshot holding every batch.
	if err := <-persisted; err != nil {
		return fail(fmt.Errorf("%s: %w", g.dir, err))
	}
	if err := idx.Close(); err != nil {
		os.RemoveAll(g.dir)
		return st, fmt.Errorf("%s: %w", g.dir, err)
	}
	g.man.order, g.man.entries = table.sorted()
	if err := vault.WriteFileAtomic(filepath.Join(g.dir, manifestFile), g.man.encode(), vault.StateFileMode); err != nil {
		os.RemoveAll(g.dir)
		return st, err
	}
	if err := publish(v, g); err != nil {
		os.RemoveAll(g.dir)
		return st, err
	}
	sweep(v, g.name)
	return st, nil
}
