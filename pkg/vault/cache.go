package vault

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unsafe"

	"github.com/mem-md/mem/internal/wire"
	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// The parse cache keeps every file's bytes and parsed frontmatter in one
// file, .mem/cache/parse, so a whole-vault load reads one file instead of
// tens of thousands and parses nothing that did not change. The files stay
// the truth: an entry is used only when the file's size, mtime, ctime and
// inode all match what was recorded, files changed within the racy window of
// being read are never recorded (a same-size write in the same clock tick
// would be invisible to the stat), the whole cache is checksummed and tied
// to the exact mem binary that wrote it, and anything unexpected means the
// cache is ignored and rebuilt. Only clean parses are cached (no error, no
// field problem, no kept unknown key, no CR or BOM), so a cached document is
// rebuilt exactly: Body is a suffix of the file's bytes.

const (
	cacheMagic = "mem parse cache\n"
	// cacheFormat changes whenever the encoding or the parser's output does.
	cacheFormat = 3
	// cacheMinFiles: smaller loads read their files directly, faster than
	// reading the cache.
	cacheMinFiles = 256
)

// defaultRacyWindow is Options.RacyWindow's default: a file whose mtime or
// ctime is this close to the moment it was stat'ed may change again
// without its stamp changing (git's racy-clean problem; FAT's clock ticks
// in 2 s), so no cache or manifest vouches for it by its stamp. Every
// stamp-trusting view uses the vault's one window.
const defaultRacyWindow = 2 * time.Second

// racyWindow is the window d sets, defaultRacyWindow for zero.
func racyWindow(d time.Duration) time.Duration {
	if d == 0 {
		return defaultRacyWindow
	}
	return d
}

// cacheRel is where the cache lives, under the git-ignored state directory.
var cacheRel = filepath.Join("cache", "parse")

// fileStamp identifies one version of a file.
type fileStamp struct {
	size, mtime, ctime int64
	ino                uint64
}

func stampOf(fi fs.FileInfo) fileStamp {
	ctime, ino := statExtra(fi)
	return fileStamp{size: fi.Size(), mtime: fi.ModTime().UnixNano(), ctime: ctime, ino: ino}
}

// racy reports a stamp within window of now, too close to be trusted later.
func (s fileStamp) racy(now time.Time, window time.Duration) bool {
	limit := now.Add(-window).UnixNano()
	return s.mtime >= limit || s.ctime >= limit
}

// parseCache is an opened cache: the whole file as one string (entries'
// strings are substrings of it, so decoding copies nothing) and where each
// entry starts.
type parseCache struct {
	data    string
	entries map[string]cacheEntry
}

type cacheEntry struct {
	stamp      fileStamp
	start, end int // the encoded entry with its length, copied verbatim when rewriting
	body       int // where the entry's fields after the stamp start
}

// binaryStamp ties the cache to the mem binary that wrote it, so a parser
// change in a rebuilt binary never serves documents parsed by the old one.
var binaryStamp = sync.OnceValue(func() string {
	stamp := fmt.Sprintf("format %d mem %s", cacheFormat, Version)
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	fi, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return fmt.Sprintf("%s exe %s %d %d", stamp, exe, fi.Size(), fi.ModTime().UnixNano())
})

func (v *Vault) cachePath() string { return filepath.Join(v.StateDir(), cacheRel) }

// cacheCount reads only the header of the cache and returns how many
// entries it holds (0 when there is no usable cache).
func (v *Vault) cacheCount() int {
	f, err := os.Open(v.cachePath())
	if err != nil {
		return 0
	}
	defer f.Close()
	head := make([]byte, 4096) // magic, binary stamp and count
	n, _ := io.ReadFull(f, head)
	d := &decoder{wire.Decoder{S: string(head[:n])}}
	if d.header() != binaryStamp() {
		return 0
	}
	count := d.Uvarint()
	if d.Err != nil {
		return 0
	}
	return int(count)
}

// openCache reads and verifies the cache; nil when absent or unusable.
func (v *Vault) openCache() *parseCache {
	raw, err := os.ReadFile(v.cachePath())
	if err != nil {
		return nil
	}
	return decodeCache(raw)
}

// decodeCache verifies a cache file's bytes and indexes its entries; nil
// when anything is wrong with them. raw must not be changed afterwards: the
// documents' strings share its memory (copying tens of megabytes into a
// string would cost more than the rest of a warm load).
func decodeCache(raw []byte) *parseCache {

	if len(raw) < len(cacheMagic)+4 {
		return nil
	}
	body, sum := raw[:len(raw)-4], binary.LittleEndian.Uint32(raw[len(raw)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil
	}
	d := &decoder{wire.Decoder{S: unsafe.String(unsafe.SliceData(body), len(body))}}
	if d.header() != binaryStamp() || binaryStamp() == "" {
		return nil
	}
	n := d.Uvarint()
	if d.Err != nil || n > uint64(len(body)) {
		return nil
	}
	c := &parseCache{data: d.S, entries: make(map[string]cacheEntry, n)}
	for range n {
		start := d.Off
		size := d.Uvarint()
		if d.Err != nil || size > uint64(len(d.S)-d.Off) {
			return nil
		}
		end := d.Off + int(size)
		rel := d.Str()
		e := cacheEntry{start: start, end: end, stamp: fileStamp{d.Varint(), d.Varint(), d.Varint(), d.Uvarint()}}
		e.body = d.Off
		if d.Err != nil || e.body > end {
			return nil
		}
		d.Off = e.end
		c.entries[rel] = e
	}
	if d.Off != len(d.S) {
		return nil
	}
	return c
}

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// lookup returns the cached memory for rel when its stamp still matches.
func (c *parseCache) lookup(m *Memory, stamp fileStamp, opts LoadOptions) bool {
	e, ok := c.entries[m.Rel]
	if !ok || e.stamp != stamp {
		return false
	}
	d := &decoder{wire.Decoder{S: c.data[:e.end], Off: e.body}}
	raw := d.Str()
	bodyOff := int(d.Uvarint())
	doc := &frontmatter.Document{HasFrontmatter: true, BodyLine: int(d.Uvarint())}
	decodeMeta(d, &doc.Meta)
	nkeys := d.Uvarint()
	if d.Err != nil || bodyOff > len(raw) || nkeys > uint64(len(raw)) {
		return false
	}
	doc.Keys = make(map[string]frontmatter.Pos, nkeys)
	for range nkeys {
		k := d.Str()
		doc.Keys[k] = frontmatter.Pos{Line: int(d.Uvarint()), Col: int(d.Uvarint())}
	}
	if d.Err != nil || d.Off != e.end {
		return false
	}
	doc.Body = raw[bodyOff:]
	m.Doc = doc
	if opts.Raw {
		m.Raw = raw
	}
	if doc.Meta.ID != "" {
		m.ID = doc.Meta.ID
	}
	return true
}

// cacheable reports whether a freshly parsed file can be rebuilt exactly
// from an entry.
func cacheable(m *Memory, data []byte) bool {
	d := m.Doc
	return m.Err == nil && d != nil && d.HasFrontmatter && len(d.Extra) == 0 && len(d.Problems) == 0 &&
		!bytes.HasPrefix(data, []byte("\xEF\xBB\xBF")) && bytes.IndexByte(data, '\r') < 0 &&
		len(d.Body) <= len(data) && string(data[len(data)-len(d.Body):]) == d.Body
}

// fresh is a file read and parsed in this load, to be recorded.
type fresh struct {
	rel   string
	stamp fileStamp
	data  []byte
	doc   *frontmatter.Document
}

// saveCache writes the cache for this load: entries still valid are copied
// from the old cache, fresh ones encoded. Files not loaded this time are
// dropped (the load covered the vault). A failure to write is not an error
// of the load: the next load just parses again.
func (v *Vault) saveCache(old *parseCache, hits []string, news []fresh) {
	size := 64 // header
	for _, rel := range hits {
		ent := old.entries[rel]
		size += ent.end - ent.start
	}
	for _, f := range news {
		size += len(f.data) + len(f.rel) + 512 // the metadata is small next to the text
	}
	e := encoder{wire.Encoder{Buf: make([]byte, 0, size)}}
	e.header(binaryStamp())
	e.Uvarint(uint64(len(hits) + len(news)))
	for _, rel := range hits {
		ent := old.entries[rel]
		e.Buf = append(e.Buf, old.data[ent.start:ent.end]...)
	}
	var entry encoder
	for _, f := range news {
		entry.Buf = entry.Buf[:0]
		entry.Str(f.rel)
		entry.Varint(f.stamp.size)
		entry.Varint(f.stamp.mtime)
		entry.Varint(f.stamp.ctime)
		entry.Uvarint(f.stamp.ino)
		entry.Bytes(f.data)
		entry.Uvarint(uint64(len(f.data) - len(f.doc.Body)))
		entry.Uvarint(uint64(f.doc.BodyLine))
		encodeMeta(&entry, &f.doc.Meta)
		entry.Uvarint(uint64(len(f.doc.Keys)))
		for k, p := range f.doc.Keys {
			entry.Str(k)
			entry.Uvarint(uint64(p.Line))
			entry.Uvarint(uint64(p.Col))
		}
		e.Uvarint(uint64(len(entry.Buf)))
		e.Buf = append(e.Buf, entry.Buf...)
	}
	e.Buf = binary.LittleEndian.AppendUint32(e.Buf, crc32.Checksum(e.Buf, crcTable))
	_ = writeCacheFile(v.cachePath(), e.Buf)
}

// Uncache drops rels from the parse cache, which holds each file's bytes:
// lint calls it with the files it found a secret in, so that the cache
// does not keep a key the file's owner is told to remove (and, once
// removed from the file, to rotate). Nothing is written when none of them
// is cached.
func (v *Vault) Uncache(rels []string) {
	c := v.openCache()
	if c == nil {
		return
	}
	drop := make(map[string]bool, len(rels))
	for _, rel := range rels {
		if _, ok := c.entries[rel]; ok {
			drop[rel] = true
		}
	}
	if len(drop) == 0 {
		return
	}
	keep := make([]string, 0, len(c.entries))
	for rel := range c.entries {
		if !drop[rel] {
			keep = append(keep, rel)
		}
	}
	v.saveCache(c, keep, nil)
}

// loadCached is LoadFiles for a whole-vault load: entries whose stamp
// matches come from the cache, the rest are read and parsed, and the cache
// is rewritten when enough of it was missing or stale.
// stamps, when not nil, are rels' stamps from a scan: no file is stat'ed
// again, and one whose stamp matches its entry is served without a system
// call.
func (v *Vault) loadCached(ctx context.Context, rels []string, stamps []fileStamp, opts LoadOptions, c *parseCache) []*Memory {
	start := clock.Now()
	out := make([]*Memory, len(rels))
	hit := make([]bool, len(rels))
	var mu sync.Mutex
	var news []fresh
	v.parallel(ctx, len(rels), func(i int) {
		var known fileStamp
		if stamps != nil {
			known = stamps[i]
		}
		m, st, data := v.readOne(rels[i], opts, known, func(m *Memory, st fileStamp) bool {
			if c != nil && c.lookup(m, st, opts) {
				hit[i] = true
				return true
			}
			return false
		})
		out[i] = m
		if data != nil && st != (fileStamp{}) && cacheable(m, data) && !st.racy(start, v.Racy()) {
			mu.Lock()
			news = append(news, fresh{rel: m.Rel, stamp: st, data: data, doc: m.Doc})
			mu.Unlock()
		}
	})
	if ctx.Err() == nil { // a part read leaves the cache as it was
		v.refreshCache(c, rels, hit, news)
	}
	return out
}

// refreshCache rewrites the parse cache c after a whole-vault load of rels
// (hit: served from c; news: read and cacheable) when there was none, or
// enough changed that re-parsing it on every load would cost more than
// writing the cache once.
func (v *Vault) refreshCache(c *parseCache, rels []string, hit []bool, news []fresh) {
	if c == nil && len(news) == 0 {
		return
	}
	var hits []string
	for i, ok := range hit {
		if ok {
			hits = append(hits, rels[i])
		}
	}
	if c == nil || len(news) >= max(16, len(rels)/50) || len(c.entries) > len(hits)+len(news)+len(rels)/50 {
		v.saveCache(c, hits, news)
	}
}

// decoder and encoder are the shared wire encoding with the parse cache's
// own pieces (its header, times).
type decoder struct{ wire.Decoder }

func (d *decoder) header() string {
	if !strings.HasPrefix(d.S, cacheMagic) {
		d.Fail()
		return ""
	}
	d.Off = len(cacheMagic)
	return d.Str()
}

// list reads a length-prefixed list where 0 means nil (so a nil slice and
// an empty one, which the parser both produces, come back as they were).
func decodeList[T any](d *decoder, one func(*T)) []T {
	n := d.Uvarint()
	if n == 0 || d.Err != nil {
		return nil
	}
	if n-1 > uint64(len(d.S)-d.Off) {
		d.Fail()
		return nil
	}
	out := make([]T, n-1)
	for i := range out {
		one(&out[i])
	}
	return out
}

// Times keep their location the way time.Parse chose it: UTC, or the
// local zone when the offset matches it, else a fixed offset.
const (
	timeZero = iota
	timeDate
	timeUTC
	timeOffset
)

func (d *decoder) time() frontmatter.Time {
	kind := d.Uvarint()
	if kind == timeZero {
		return frontmatter.Time{}
	}
	t := time.Unix(d.Varint(), int64(d.Uvarint()))
	switch kind {
	case timeDate:
		return frontmatter.Time{Time: t.UTC(), DateOnly: true}
	case timeUTC:
		return frontmatter.Time{Time: t.UTC()}
	case timeOffset:
		off := int(d.Varint())
		if _, local := t.In(time.Local).Zone(); local == off {
			return frontmatter.Time{Time: t.In(time.Local)}
		}
		return frontmatter.Time{Time: t.In(time.FixedZone("", off))}
	}
	d.Fail()
	return frontmatter.Time{}
}

// decodeMeta reads the fields encodeMeta wrote, walking the same table.
func decodeMeta(d *decoder, m *frontmatter.Meta) {
	for _, f := range frontmatter.Fields {
		switch p := f.Value(m).(type) {
		case *string:
			*p = d.Str()
		case *bool:
			*p = d.Uvarint() == 1
		case *int:
			*p = int(d.Varint())
		case *frontmatter.Time:
			*p = d.time()
		case *[]string:
			*p = decodeList(d, func(s *string) { *s = d.Str() })
		case **frontmatter.Actor:
			if d.Uvarint() == 1 {
				*p = new(frontmatter.Actor)
				decodeRecord(d, frontmatter.ActorFields, *p)
			}
		case *[]frontmatter.Actor:
			*p = decodeList(d, func(a *frontmatter.Actor) { decodeRecord(d, frontmatter.ActorFields, a) })
		case *[]frontmatter.Source:
			*p = decodeList(d, func(s *frontmatter.Source) { decodeRecord(d, frontmatter.SourceFields, s) })
		case *[]frontmatter.Signal:
			*p = decodeList(d, func(s *frontmatter.Signal) { decodeRecord(d, frontmatter.SignalFields, s) })
		default:
			panic("vault: the parse cache cannot decode field " + f.Key)
		}
	}
}

// decodeRecord fills r in place: a value built here and returned would
// escape through the table's accessors, one allocation a record.
func decodeRecord[T any](d *decoder, table []frontmatter.SubField[T], r *T) {
	for _, f := range table {
		switch p := f.Value(r).(type) {
		case *string:
			*p = d.Str()
		case *frontmatter.Time:
			*p = d.time()
		default:
			panic("vault: the parse cache cannot decode nested key " + f.Key)
		}
	}
}

type encoder struct{ wire.Encoder }

func (e *encoder) header(stamp string) {
	e.Buf = append(e.Buf, cacheMagic...)
	e.Str(stamp)
}

func encodeList[T any](e *encoder, items []T, one func(*T)) {
	if items == nil {
		e.Uvarint(0)
		return
	}
	e.Uvarint(uint64(len(items)) + 1)
	for i := range items {
		one(&items[i])
	}
}

func (e *encoder) time(t frontmatter.Time) {
	switch {
	case t.IsZero():
		e.Uvarint(timeZero)
		return
	case t.DateOnly:
		e.Uvarint(timeDate)
	case t.Location() == time.UTC:
		e.Uvarint(timeUTC)
	default:
		e.Uvarint(timeOffset)
	}
	e.Varint(t.Unix())
	e.Uvarint(uint64(t.Nanosecond()))
	if !t.DateOnly && t.Location() != time.UTC {
		_, off := t.Zone()
		e.Varint(int64(off))
	}
}

// encodeMeta writes every field of frontmatter.Fields, in its order, by
// its kind: the table is the one list of fields, so none is left out.
func encodeMeta(e *encoder, m *frontmatter.Meta) {
	for _, f := range frontmatter.Fields {
		switch p := f.Value(m).(type) {
		case *string:
			e.Str(*p)
		case *bool:
			if *p {
				e.Uvarint(1)
			} else {
				e.Uvarint(0)
			}
		case *int:
			e.Varint(int64(*p))
		case *frontmatter.Time:
			e.time(*p)
		case *[]string:
			encodeList(e, *p, func(s *string) { e.Str(*s) })
		case **frontmatter.Actor:
			if *p == nil {
				e.Uvarint(0)
				continue
			}
			e.Uvarint(1)
			encodeRecord(e, frontmatter.ActorFields, *p)
		case *[]frontmatter.Actor:
			encodeList(e, *p, func(a *frontmatter.Actor) { encodeRecord(e, frontmatter.ActorFields, a) })
		case *[]frontmatter.Source:
			encodeList(e, *p, func(s *frontmatter.Source) { encodeRecord(e, frontmatter.SourceFields, s) })
		case *[]frontmatter.Signal:
			encodeList(e, *p, func(s *frontmatter.Signal) { encodeRecord(e, frontmatter.SignalFields, s) })
		default:
			panic("vault: the parse cache cannot encode field " + f.Key)
		}
	}
}

func encodeRecord[T any](e *encoder, table []frontmatter.SubField[T], r *T) {
	for _, f := range table {
		switch p := f.Value(r).(type) {
		case *string:
			e.Str(*p)
		case *frontmatter.Time:
			e.time(*p)
		default:
			panic("vault: the parse cache cannot encode nested key " + f.Key)
		}
	}
}
