package vault

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/fail"
)

// scanBatch is how many listed files the walk hands to the stat workers at
// once: enough to make a channel send cheap next to the stats.
const scanBatch = 256

// Snapshot is one scan of the vault: its memory files, sorted by Rel, and
// the stamp (size, mtime, ctime, inode) each had when it was seen.
type Snapshot struct {
	Rels []string
	// stamps[i] is Rels[i]'s; zero when it cannot vouch for the content:
	// a symbolic link (its target can change under it) or a failed lstat.
	stamps  []fileStamp
	started time.Time
	window  time.Duration // the racy window of the vault scanned; zero for the default
	// Held are the files the scan left out of Rels because their path
	// holds a secret (Options.SecretInName), sorted by Rel: lint reports
	// them.
	Held []HeldName
}

// HeldName is a file left out of the vault because its path holds a
// secret of the rule named. Rel is the raw path: print it only through
// rules.RedactPath.
type HeldName struct{ Rel, Rule string }

// Scan walks the vault (spec §2's ignore rules, as List) and lstats every
// memory file. The stats run on every core while the walk is still reading
// the next folders: on a 50k-file vault the walk and the stats each take
// tens of milliseconds, and a freshness check is nothing but these two.
func (v *Vault) Scan() (*Snapshot, error) { return v.scanWith(context.Background()) }

// scanWith is Scan, stopped by ctx between two folders (a fail.Interrupted
// error, never a part of the vault).
func (v *Vault) scanWith(ctx context.Context) (*Snapshot, error) {
	scan := func() (*Snapshot, error) { return v.scan(ctx) }
	if v.HeldScan != nil {
		return v.HeldScan(v, scan)
	}
	return scan()
}

func (v *Vault) scan(ctx context.Context) (*Snapshot, error) {
	s := &Snapshot{started: clock.Now(), window: v.RacyWindow}
	var batches []*statBatch
	work := make(chan *statBatch, 64)
	names := v.openNames()
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for b := range work {
				b.check(v, names)
			}
		})
	}
	err := v.walk(ctx, func(rels []string) {
		b := &statBatch{rels: rels}
		batches = append(batches, b)
		work <- b
	})
	close(work)
	wg.Wait()
	if err != nil {
		return nil, err
	}
	rels, stamps := s.gather(batches)
	if slices.ContainsFunc(batches, func(b *statBatch) bool { return b.fresh }) {
		v.saveNames(cleanHashes(batches, len(rels)))
	}
	slices.SortFunc(s.Held, func(a, b HeldName) int { return strings.Compare(a.Rel, b.Rel) })
	// Sort an index rather than (path, stamp) pairs: moving 4 bytes per
	// swap instead of 48 (a sixth of a 50k scan's CPU went to sorting).
	order := make([]int32, len(rels))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int { return strings.Compare(rels[a], rels[b]) })
	s.Rels = make([]string, len(rels))
	s.stamps = make([]fileStamp, len(rels))
	for i, j := range order {
		s.Rels[i], s.stamps[i] = rels[j], stamps[j]
	}
	return s, nil
}

// statBatch is one batch of files the walk found, stat'ed and name-checked
// by a worker.
type statBatch struct {
	rels   []string
	stamps []fileStamp
	held   []string // the secret rule of each rel's name, "" for none
	hashes []uint64 // each rel's names-memo hash
	fresh  bool     // a name was checked that the memo did not know
}

// check stats the batch's files and checks their names, here on every
// core rather than in the walk.
func (b *statBatch) check(v *Vault, names namesMemo) {
	b.stamps = make([]fileStamp, len(b.rels))
	statFiles(v.Root, b.rels, b.stamps)
	b.held = make([]string, len(b.rels))
	b.hashes = make([]uint64, len(b.rels))
	for i, rel := range b.rels {
		var fresh bool
		b.held[i], b.hashes[i], fresh = v.heldName(names, rel)
		b.fresh = b.fresh || fresh
	}
}

// gather joins the batches in walk order: the files whose names hold a
// secret go to s.Held, the others are returned with their stamps.
func (s *Snapshot) gather(batches []*statBatch) (rels []string, stamps []fileStamp) {
	n := 0
	for _, b := range batches {
		n += len(b.rels)
	}
	rels, stamps = make([]string, 0, n), make([]fileStamp, 0, n)
	for _, b := range batches {
		for i, rel := range b.rels {
			if b.held[i] != "" {
				s.Held = append(s.Held, HeldName{Rel: rel, Rule: b.held[i]})
				continue
			}
			rels = append(rels, rel)
			stamps = append(stamps, b.stamps[i])
		}
	}
	return rels, stamps
}

// cleanHashes are the names-memo hashes of the files whose names hold no
// secret (n of them), what the memo keeps.
func cleanHashes(batches []*statBatch, n int) []uint64 {
	clean := make([]uint64, 0, n)
	for _, b := range batches {
		for i, h := range b.hashes {
			if b.held[i] == "" {
				clean = append(clean, h)
			}
		}
	}
	return clean
}

// Stat is Rels[i]'s size and mtime (Unix nanoseconds) as the scan saw
// them; ok is false for a symbolic link or a file whose lstat failed.
func (s *Snapshot) Stat(i int) (size, mtime int64, ok bool) {
	st := s.stamps[i]
	return st.size, st.mtime, st != (fileStamp{})
}

// Started is when the scan began: every stamp was taken after it.
func (s *Snapshot) Started() time.Time { return s.started }

// Key identifies the vault's memory files as this scan saw them: two scans
// with the same key saw the same files with the same stamps, so a view
// computed from one holds for the other. ok is false when a stamp cannot
// vouch for its file's content — a link, an unreadable file, or a change
// within the vault's racy window of the scan (the same rule as the parse cache's) — and
// then no view may be reused.
func (s *Snapshot) Key() (key string, ok bool) {
	h := sha256.New()
	var buf []byte
	for i, rel := range s.Rels {
		st := s.stamps[i]
		if st == (fileStamp{}) || st.racy(s.started, racyWindow(s.window)) {
			return "", false
		}
		buf = append(buf[:0], rel...)
		buf = append(buf, 0)
		buf = binary.LittleEndian.AppendUint64(buf, uint64(st.size))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(st.mtime))
		buf = binary.LittleEndian.AppendUint64(buf, uint64(st.ctime))
		buf = binary.LittleEndian.AppendUint64(buf, st.ino)
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil)), true
}

// walk lists the vault's memory files, handing them to emit in batches of at
// most scanBatch (emit owns each batch), in no particular order. Folders are
// read in chunks, so the first files of a big folder reach emit before the
// folder is read to its end. Only a failure to read the root is an error;
// an unreadable subfolder is skipped. Once ctx is done it reads no other
// folder and returns a fail.Interrupted error.
func (v *Vault) walk(ctx context.Context, emit func(rels []string)) error {
	w := &walker{v: v, ctx: ctx, emit: emit, pending: make([]string, 0, scanBatch)}
	if err := w.dir(""); err != nil {
		if err := fail.Stopped(ctx, readingVault); err != nil {
			return err
		}
		return fmt.Errorf("%s: cannot read the vault: %w", v.Root, err)
	}
	if len(w.pending) > 0 {
		emit(w.pending)
	}
	return nil
}

// walker is one walk of a vault: the files it found and has not yet
// handed to emit.
type walker struct {
	v       *Vault
	ctx     context.Context
	emit    func(rels []string)
	pending []string
}

// dir lists the folder rel (a slash path from the root; "" is the root)
// in chunks, then each subfolder the loader reads. An unreadable subfolder
// is skipped; the error is the folder's own, or ctx's once it is done.
func (w *walker) dir(rel string) error {
	if err := w.ctx.Err(); err != nil {
		return err
	}
	abs := w.v.Root
	if rel != "" {
		abs += string(filepath.Separator) + filepath.FromSlash(rel)
	}
	f, err := os.Open(abs)
	if err != nil {
		return err
	}
	var subdirs []string
	for {
		entries, err := f.ReadDir(1024)
		for _, d := range entries {
			if sub := w.entry(abs, rel, d); sub != "" {
				subdirs = append(subdirs, sub)
			}
		}
		if err != nil {
			break // io.EOF, or a folder that stopped reading: keep what was read
		}
	}
	f.Close()
	for _, sub := range subdirs {
		if err := w.dir(sub); err != nil && w.ctx.Err() != nil {
			return err
		}
	}
	return nil
}

// entry takes d, of the folder abs (rel from the root): a memory file is
// listed, and a folder the loader reads is returned (from the root) to be
// read after this one; "" for anything else.
func (w *walker) entry(abs, rel string, d fs.DirEntry) (subdir string) {
	r := d.Name()
	if rel != "" {
		r = rel + "/" + r
	}
	switch {
	case d.IsDir():
		if !SkipDir(r) && !IsOwn(d.Name()) && !w.v.Config.Ignores(r, true) {
			return r
		}
	case w.v.memoryEntry(abs, r, d):
		w.add(r)
	}
	return ""
}

// add lists the file rel, handing a full batch to emit.
func (w *walker) add(rel string) {
	w.pending = append(w.pending, rel)
	if len(w.pending) == scanBatch {
		w.emit(w.pending)
		w.pending = make([]string, 0, scanBatch)
	}
}

// memoryEntry reports whether the file d of the folder abs (rel from the
// root) is one the loader reads: a .md file, not mem's own, not ignored,
// not a view; a regular file, or a link to one.
func (v *Vault) memoryEntry(abs, rel string, d fs.DirEntry) bool {
	name := d.Name()
	if !strings.HasSuffix(name, ".md") || IsOwn(name) || v.Config.Ignores(rel, false) || v.IsRenderedOutput(rel) {
		return false
	}
	if d.Type()&fs.ModeSymlink != 0 {
		// Symlinked files are listed; LoadFiles refuses those leaving the vault.
		fi, err := os.Stat(abs + string(filepath.Separator) + name)
		return err == nil && !fi.IsDir()
	}
	return d.Type().IsRegular()
}
