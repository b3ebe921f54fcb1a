package vault

import (
	"bytes"
	"encoding/binary"
	"errors"
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

	"github.com/mem-md/mem/pkg/frontmatter"
)

// The parse cache keeps every file's bytes and parsed frontmatter in one
// file, .mem/cache/parse, so a whole-vault load reads one file instead of
// tens of thousands and parses nothing that did not change. The files stay
// the truth: an entry is used only when the file's size, mtime, ctime and
// inode all match what was recorded, files changed within RacyWindow of
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

// RacyWindow: a file whose mtime or ctime is this close to the moment it
// was stat'ed may change again without its stamp changing (git's racy-clean
// problem; FAT's clock ticks in 2 s), so no cache or manifest vouches for it
// by its stamp. Every stamp-trusting view uses this one window. A variable
// so tests need not wait it out.
var RacyWindow = 2 * time.Second

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

// racy reports a stamp too close to now to be trusted later.
func (s fileStamp) racy(now time.Time) bool {
	limit := now.Add(-RacyWindow).UnixNano()
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
	d := &decoder{s: string(head[:n])}
	if d.header() != binaryStamp() {
		return 0
	}
	count := d.uvarint()
	if d.err != nil {
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
	d := &decoder{s: unsafe.String(unsafe.SliceData(body), len(body))}
	if d.header() != binaryStamp() || binaryStamp() == "" {
		return nil
	}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(body)) {
		return nil
	}
	c := &parseCache{data: d.s, entries: make(map[string]cacheEntry, n)}
	for range n {
		start := d.off
		size := d.uvarint()
		if d.err != nil || size > uint64(len(d.s)-d.off) {
			return nil
		}
		end := d.off + int(size)
		rel := d.str()
		e := cacheEntry{start: start, end: end, stamp: fileStamp{d.varint(), d.varint(), d.varint(), d.uvarint()}}
		e.body = d.off
		if d.err != nil || e.body > end {
			return nil
		}
		d.off = e.end
		c.entries[rel] = e
	}
	if d.off != len(d.s) {
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
	d := &decoder{s: c.data[:e.end], off: e.body}
	raw := d.str()
	bodyOff := int(d.uvarint())
	doc := &frontmatter.Document{HasFrontmatter: true, BodyLine: int(d.uvarint())}
	decodeMeta(d, &doc.Meta)
	nkeys := d.uvarint()
	if d.err != nil || bodyOff > len(raw) || nkeys > uint64(len(raw)) {
		return false
	}
	doc.Keys = make(map[string]frontmatter.Pos, nkeys)
	for range nkeys {
		k := d.str()
		doc.Keys[k] = frontmatter.Pos{Line: int(d.uvarint()), Col: int(d.uvarint())}
	}
	if d.err != nil || d.off != e.end {
		return false
	}
	doc.Body = raw[bodyOff:]
	m.Doc = doc
	if opts.Raw {
		m.Raw = []byte(raw)
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
	e := encoder{buf: make([]byte, 0, size)}
	e.header(binaryStamp())
	e.uvarint(uint64(len(hits) + len(news)))
	for _, rel := range hits {
		ent := old.entries[rel]
		e.buf = append(e.buf, old.data[ent.start:ent.end]...)
	}
	var entry encoder
	for _, f := range news {
		entry.buf = entry.buf[:0]
		entry.str(f.rel)
		entry.varint(f.stamp.size)
		entry.varint(f.stamp.mtime)
		entry.varint(f.stamp.ctime)
		entry.uvarint(f.stamp.ino)
		entry.bytes(f.data)
		entry.uvarint(uint64(len(f.data) - len(f.doc.Body)))
		entry.uvarint(uint64(f.doc.BodyLine))
		encodeMeta(&entry, &f.doc.Meta)
		entry.uvarint(uint64(len(f.doc.Keys)))
		for k, p := range f.doc.Keys {
			entry.str(k)
			entry.uvarint(uint64(p.Line))
			entry.uvarint(uint64(p.Col))
		}
		e.uvarint(uint64(len(entry.buf)))
		e.buf = append(e.buf, entry.buf...)
	}
	e.buf = binary.LittleEndian.AppendUint32(e.buf, crc32.Checksum(e.buf, crcTable))
	_ = writeCacheFile(v.cachePath(), e.buf)
}

// loadCached is LoadFiles for a whole-vault load: entries whose stamp
// matches come from the cache, the rest are read and parsed, and the cache
// is rewritten when enough of it was missing or stale.
// stamps, when not nil, are rels' stamps from a scan: no file is stat'ed
// again, and one whose stamp matches its entry is served without a system
// call.
func (v *Vault) loadCached(rels []string, stamps []fileStamp, opts LoadOptions, c *parseCache) []*Memory {
	start := time.Now()
	out := make([]*Memory, len(rels))
	hit := make([]bool, len(rels))
	var mu sync.Mutex
	var news []fresh
	v.parallel(len(rels), func(i int) {
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
		if data != nil && st != (fileStamp{}) && cacheable(m, data) && !st.racy(start) {
			mu.Lock()
			news = append(news, fresh{rel: m.Rel, stamp: st, data: data, doc: m.Doc})
			mu.Unlock()
		}
	})
	var hits []string
	for i, ok := range hit {
		if ok {
			hits = append(hits, rels[i])
		}
	}
	// Rewrite when there was no cache, or enough changed that re-parsing it
	// on every load would cost more than writing the cache once.
	if c == nil || len(news) >= max(16, len(rels)/50) || len(c.entries) > len(hits)+len(news)+len(rels)/50 {
		if c == nil && len(news) == 0 {
			return out
		}
		v.saveCache(c, hits, news)
	}
	return out
}

// errCache marks a malformed cache; any decoding problem makes it unusable.
var errCache = errors.New("malformed parse cache")

type decoder struct {
	s   string
	off int
	err error
}

func (d *decoder) fail() {
	if d.err == nil {
		d.err = errCache
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if d.off >= len(d.s) {
			d.fail()
			return 0
		}
		b := d.s[d.off]
		d.off++
		if b < 0x80 {
			return x | uint64(b)<<s
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	d.fail()
	return 0
}

func (d *decoder) varint() int64 {
	u := d.uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (d *decoder) str() string {
	n := d.uvarint()
	if d.err != nil || n > uint64(len(d.s)-d.off) {
		d.fail()
		return ""
	}
	s := d.s[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

func (d *decoder) header() string {
	if !strings.HasPrefix(d.s, cacheMagic) {
		d.fail()
		return ""
	}
	d.off = len(cacheMagic)
	return d.str()
}

// list reads a length-prefixed list where 0 means nil (so a nil slice and
// an empty one, which the parser both produces, come back as they were).
func decodeList[T any](d *decoder, one func(*T)) []T {
	n := d.uvarint()
	if n == 0 || d.err != nil {
		return nil
	}
	if n-1 > uint64(len(d.s)-d.off) {
		d.fail()
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
	kind := d.uvarint()
	if kind == timeZero {
		return frontmatter.Time{}
	}
	t := time.Unix(d.varint(), int64(d.uvarint()))
	switch kind {
	case timeDate:
		return frontmatter.Time{Time: t.UTC(), DateOnly: true}
	case timeUTC:
		return frontmatter.Time{Time: t.UTC()}
	case timeOffset:
		off := int(d.varint())
		if _, local := t.In(time.Local).Zone(); local == off {
			return frontmatter.Time{Time: t.In(time.Local)}
		}
		return frontmatter.Time{Time: t.In(time.FixedZone("", off))}
	}
	d.fail()
	return frontmatter.Time{}
}

// decodeMeta reads the fields encodeMeta wrote, walking the same table.
func decodeMeta(d *decoder, m *frontmatter.Meta) {
	for _, f := range frontmatter.Fields {
		switch p := f.Value(m).(type) {
		case *string:
			*p = d.str()
		case *bool:
			*p = d.uvarint() == 1
		case *int:
			*p = int(d.varint())
		case *frontmatter.Time:
			*p = d.time()
		case *[]string:
			*p = decodeList(d, func(s *string) { *s = d.str() })
		case **frontmatter.Actor:
			if d.uvarint() == 1 {
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
			*p = d.str()
		case *frontmatter.Time:
			*p = d.time()
		default:
			panic("vault: the parse cache cannot decode nested key " + f.Key)
		}
	}
}

type encoder struct{ buf []byte }

func (e *encoder) uvarint(x uint64) { e.buf = binary.AppendUvarint(e.buf, x) }
func (e *encoder) varint(x int64)   { e.buf = binary.AppendVarint(e.buf, x) }
func (e *encoder) str(s string)     { e.uvarint(uint64(len(s))); e.buf = append(e.buf, s...) }
func (e *encoder) bytes(b []byte)   { e.uvarint(uint64(len(b))); e.buf = append(e.buf, b...) }

func (e *encoder) header(stamp string) {
	e.buf = append(e.buf, cacheMagic...)
	e.str(stamp)
}

func encodeList[T any](e *encoder, items []T, one func(*T)) {
	if items == nil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(len(items)) + 1)
	for i := range items {
		one(&items[i])
	}
}

func (e *encoder) time(t frontmatter.Time) {
	switch {
	case t.IsZero():
		e.uvarint(timeZero)
		return
	case t.DateOnly:
		e.uvarint(timeDate)
	case t.Location() == time.UTC:
		e.uvarint(timeUTC)
	default:
		e.uvarint(timeOffset)
	}
	e.varint(t.Unix())
	e.uvarint(uint64(t.Nanosecond()))
	if !t.DateOnly && t.Location() != time.UTC {
		_, off := t.Zone()
		e.varint(int64(off))
	}
}

// encodeMeta writes every field of frontmatter.Fields, in its order, by
// its kind: the table is the one list of fields, so none is left out.
func encodeMeta(e *encoder, m *frontmatter.Meta) {
	for _, f := range frontmatter.Fields {
		switch p := f.Value(m).(type) {
		case *string:
			e.str(*p)
		case *bool:
			if *p {
				e.uvarint(1)
			} else {
				e.uvarint(0)
			}
		case *int:
			e.varint(int64(*p))
		case *frontmatter.Time:
			e.time(*p)
		case *[]string:
			encodeList(e, *p, func(s *string) { e.str(*s) })
		case **frontmatter.Actor:
			if *p == nil {
				e.uvarint(0)
				continue
			}
			e.uvarint(1)
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
			e.str(*p)
		case *frontmatter.Time:
			e.time(*p)
		default:
			panic("vault: the parse cache cannot encode nested key " + f.Key)
		}
	}
}
