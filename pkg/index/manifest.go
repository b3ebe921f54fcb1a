package index

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/mem-md/mem/pkg/vault"
)

// entry is what the manifest remembers of one file: enough to tell, from a
// stat alone, that it has not changed since it was indexed.
type entry struct {
	size  int64
	mTime int64  // unix nanoseconds
	hash  string // vault.Hash of the content; empty when the file could not be read
}

// manifest lists every file a generation of the index was built from.
type manifest struct {
	schema int
	// seq numbers the runs that wrote the index. The last batch of each run
	// stores it inside the index too (seqKey), so an index that a torn write
	// rolled back to an older snapshot is told apart from a current one.
	seq int64
	// scanned is when the scan that produced the manifest began; a file
	// modified within the vault's racy window of it may have changed again without its
	// mtime moving (coarse clocks), so its content hash is checked.
	scanned time.Time
	// order and entries are the files, sorted by path (a build records them
	// in its sorted listing's order, encode writes them so, decode
	// insists), so compare walks them beside the vault's listing.
	order   []string
	entries []entry
	// pending holds a run's changes to the lists (nil: removed) until
	// sorted merges them in: an update of a few files then neither builds
	// a map of every file nor sorts it, which was ~40 ms of every in-place
	// update at 50k.
	pending map[string]*entry
}

// set records e as what rel holds now.
func (m *manifest) set(rel string, e entry) {
	if m.pending == nil {
		m.pending = map[string]*entry{}
	}
	m.pending[rel] = &e
}

// drop forgets rel and reports whether the manifest held it.
func (m *manifest) drop(rel string) bool {
	was := false
	if e, changed := m.pending[rel]; changed {
		was = e != nil
	} else {
		_, was = slices.BinarySearch(m.order, rel)
	}
	if m.pending == nil {
		m.pending = map[string]*entry{}
	}
	m.pending[rel] = nil
	return was
}

// sorted is every file and its entry, sorted by path: the lists with the
// pending changes merged in.
func (m *manifest) sorted() ([]string, []entry) {
	if len(m.pending) == 0 {
		return m.order, m.entries
	}
	changed := slices.Sorted(maps.Keys(m.pending))
	order := make([]string, 0, len(m.order)+len(changed))
	entries := make([]entry, 0, len(m.order)+len(changed))
	i := 0
	for _, rel := range changed {
		for ; i < len(m.order) && m.order[i] < rel; i++ {
			order, entries = append(order, m.order[i]), append(entries, m.entries[i])
		}
		if i < len(m.order) && m.order[i] == rel {
			i++ // replaced or removed
		}
		if e := m.pending[rel]; e != nil {
			order, entries = append(order, rel), append(entries, *e)
		}
	}
	order, entries = append(order, m.order[i:]...), append(entries, m.entries[i:]...)
	return order, entries
}

const manifestMagic = "mem-index-manifest 1"

// encode writes the manifest as text: a header, then one line per file,
// sorted, "size mtime hash path". The path runs to the end of the line and
// is Go-quoted only when it could not be read back raw.
func (m *manifest) encode() []byte {
	rels, entries := m.sorted()
	var b bytes.Buffer
	b.Grow(64 + len(rels)*140)
	fmt.Fprintf(&b, "%s\nschema %d\nseq %d\nscanned %d\nfiles %d\n", manifestMagic, m.schema, m.seq, m.scanned.UnixNano(), len(rels))
	for i, rel := range rels {
		e := entries[i]
		hash := e.hash
		if hash == "" {
			hash = "-"
		}
		b.WriteString(strconv.FormatInt(e.size, 10))
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(e.mTime, 10))
		b.WriteByte(' ')
		b.WriteString(hash)
		b.WriteByte(' ')
		if rel == "" || rel[0] == '"' || strings.ContainsAny(rel, "\n\r") || !utf8.ValidString(rel) {
			rel = strconv.Quote(rel)
		}
		b.WriteString(rel)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// manifestHeader is what a manifest's first lines say.
type manifestHeader struct {
	schema, seq, scanned, files int64
}

// lineReader hands out a text's lines, counting them; every line ends in a
// newline, so a missing one is truncation.
type lineReader struct {
	rest string
	line int
}

func (r *lineReader) next() (string, bool) {
	i := strings.IndexByte(r.rest, '\n')
	if i < 0 {
		return "", false
	}
	r.line++
	l := r.rest[:i]
	r.rest = r.rest[i+1:]
	return l, true
}

// decodeHeader reads the header's lines from r, leaving r at the first
// file's line.
func decodeHeader(r *lineReader) (manifestHeader, error) {
	var h manifestHeader
	if s, ok := r.next(); !ok || s != manifestMagic {
		return h, fmt.Errorf("line 1: not a mem index manifest")
	}
	for _, f := range []struct {
		key string
		to  *int64
	}{{"schema", &h.schema}, {"seq", &h.seq}, {"scanned", &h.scanned}, {"files", &h.files}} {
		s, ok := r.next()
		v, found := strings.CutPrefix(s, f.key+" ")
		if !ok || !found {
			return h, fmt.Errorf("line %d: want %q", r.line+1, f.key)
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return h, err
		}
		*f.to = n
	}
	return h, nil
}

// decodeManifest parses what encode wrote. Any damage is an error: the
// caller then rebuilds the index rather than trusting part of a manifest.
// It runs on every search, so it slices data rather than copying lines.
func decodeManifest(data string) (*manifest, error) {
	r := &lineReader{rest: data}
	h, err := decodeHeader(r)
	if err != nil {
		return nil, err
	}
	n := h.files
	if n < 0 || n > int64(len(data)) {
		return nil, fmt.Errorf("line %d: bad file count %d", r.line, n)
	}
	m := &manifest{schema: int(h.schema), seq: h.seq, scanned: time.Unix(0, h.scanned), order: make([]string, 0, n), entries: make([]entry, 0, n)}
	for r.rest != "" {
		s, ok := r.next()
		if !ok {
			return nil, fmt.Errorf("line %d: truncated", r.line+1)
		}
		size, s, ok1 := strings.Cut(s, " ")
		mtime, s, ok2 := strings.Cut(s, " ")
		hash, rel, ok3 := strings.Cut(s, " ")
		var e entry
		var err1, err2, err3 error
		e.size, err1 = strconv.ParseInt(size, 10, 64)
		e.mTime, err2 = strconv.ParseInt(mtime, 10, 64)
		if strings.HasPrefix(rel, `"`) {
			rel, err3 = strconv.Unquote(rel)
		}
		if !ok1 || !ok2 || !ok3 || err1 != nil || err2 != nil || err3 != nil || rel == "" {
			return nil, fmt.Errorf("line %d: want size mtime hash path", r.line)
		}
		if hash != "-" {
			e.hash = hash
		}
		if k := len(m.order); k > 0 && m.order[k-1] >= rel {
			return nil, fmt.Errorf("line %d: paths out of order or repeated", r.line)
		}
		m.order = append(m.order, rel)
		m.entries = append(m.entries, e)
	}
	if int64(len(m.order)) != n {
		return nil, fmt.Errorf("header says %d files, found %d", n, len(m.order))
	}
	return m, nil
}

// readHeader reads the manifest's header alone, not its list of files: a
// search opens the index right after comparing the whole manifest with the
// vault (at 50,000 files a 7 MB read and parse), and the open needs only
// the schema and seq.
func readHeader(path string) (*manifest, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, 256) // the header is under 120 bytes
	n, err := io.ReadFull(f, buf)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
		return nil, err
	}
	h, err := decodeHeader(&lineReader{rest: string(buf[:n])})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &manifest{schema: int(h.schema), seq: h.seq, scanned: time.Unix(0, h.scanned)}, nil
}

// readManifest reads the file and parses it in place: at 50,000 files a
// 7 MB read, which a string copy of the bytes would fault in twice. The
// bytes are never written after the read, as a string needs.
func readManifest(path string) (*manifest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := decodeManifest(unsafe.String(unsafe.SliceData(data), len(data)))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// diff is how the vault differs from a manifest.
type diff struct {
	added    []string // new paths
	modified []string // content (or readability) changed
	removed  []string // in the manifest, gone from the vault
	// touched files changed stat but not content (a checkout, a touch):
	// only their manifest entries need updating, not the index.
	touched map[string]entry
	files   int // files in the vault now
	// scanned is when the comparison began: every file it trusted or read
	// was looked at after it, so it can stand as the new manifest's scanned.
	scanned time.Time
}

// changed counts the files whose index entry is out of date.
func (d *diff) changed() int { return len(d.added) + len(d.modified) + len(d.removed) }

// statFile stats rel the way the loader does: a symlink inside the vault
// counts with its target's size and mtime.
func statFile(v *vault.Vault, rel string) (fs.FileInfo, error) {
	p := filepath.Join(v.Root, filepath.FromSlash(rel))
	fi, err := os.Lstat(p)
	if err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return os.Stat(p)
	}
	return fi, err
}

// listing is a scan of the vault (vault.Scan: the walk and a stat of every
// file, on every core) started before the manifest is read, so that the
// two overlap.
type listing struct {
	done chan struct{}
	snap *vault.Snapshot
	err  error
}

func startListing(v *vault.Vault) *listing {
	l := &listing{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.snap, l.err = v.Scan()
	}()
	return l
}

// wait returns the scan, its files sorted the way the manifest is.
func (l *listing) wait() (*vault.Snapshot, error) {
	<-l.done
	return l.snap, l.err
}

// compare sets the scan of the vault against m. Files whose stat matches
// are trusted without reading, except racy ones; files whose stat moved
// are read and hashed, so a touch is not a change. Both lists are sorted:
// they are walked side by side.
func compare(v *vault.Vault, m *manifest, l *listing) (*diff, error) {
	order, entries := m.sorted()
	snap, err := l.wait()
	if err != nil {
		return nil, err
	}
	d := &diff{touched: map[string]entry{}, files: len(snap.Rels), scanned: snap.Started()}
	racyBefore := m.scanned.Add(-v.Racy()).UnixNano()
	var moved []int // positions in snap of files to look at closer
	var olds []entry
	i := 0
	for j, rel := range snap.Rels {
		for i < len(order) && order[i] < rel {
			d.removed = append(d.removed, order[i])
			i++
		}
		if i == len(order) || order[i] != rel {
			d.added = append(d.added, rel)
			continue
		}
		old := entries[i]
		i++
		if size, mtime, ok := snap.Stat(j); ok && size == old.size && mtime == old.mTime && mtime < racyBefore {
			continue
		}
		moved, olds = append(moved, j), append(olds, old)
	}
	d.removed = append(d.removed, order[i:]...)

	// A file whose stat moved (or a link, which the scan does not follow)
	// is read: the same bytes are a touch, not a change.
	kind := make([]uint8, len(moved))
	fresh := make([]entry, len(moved))
	const (
		modified = iota
		same
		touched
	)
	parallel(len(moved), func(k int) {
		rel, old := snap.Rels[moved[k]], olds[k]
		fi, err := statFile(v, rel)
		if err != nil {
			return // vanished or unreadable: let the loader decide
		}
		now := entry{size: fi.Size(), mTime: fi.ModTime().UnixNano()}
		switch {
		case now.size == old.size && now.mTime == old.mTime && now.mTime < racyBefore:
			kind[k] = same // a link whose target did not move
		case old.hash == "" || fi.Mode()&fs.ModeSymlink != 0:
		default:
			// Hash only regular files: reading through a link could leave the vault.
			p := filepath.Join(v.Root, filepath.FromSlash(rel))
			if lfi, err := os.Lstat(p); err == nil && lfi.Mode().IsRegular() {
				if data, err := os.ReadFile(p); err == nil && vault.Hash(data) == old.hash {
					now.hash = old.hash
					if now != old {
						kind[k], fresh[k] = touched, now
					} else {
						kind[k] = same
					}
				}
			}
		}
	})
	for k, j := range moved {
		switch kind[k] {
		case modified:
			d.modified = append(d.modified, snap.Rels[j])
		case touched:
			d.touched[snap.Rels[j]] = fresh[k]
		}
	}
	return d, nil
}

// parallel runs f(0..n-1) on a few workers per core: stat and read wait
// on the disk when the cache is cold.
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(2*runtime.GOMAXPROCS(0), n) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := int(next.Add(1)) - 1; j < n; j = int(next.Add(1)) - 1 {
				f(j)
			}
		}()
	}
	wg.Wait()
}
