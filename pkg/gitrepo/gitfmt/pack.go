package gitfmt

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
)

// Pack stores many new objects in one pack (objects/pack/pack-<sum>
// .pack and .idx, undeltified, like git fast-import) instead of one loose
// file each: a first commit of 50,000 files would otherwise create 50,000
// files and spend more on that than on reading and compressing them.
//
// Crash safety is git's: the pack is written under a temp name, its header
// and checksum filled in, the .pack renamed into place and then the .idx
// (git ignores a pack without an index); both are made durable with the
// loose objects before any ref names them (Objects.Sync).
type Pack struct {
	w    *Objects
	tmp  string
	f    *os.File
	buf  *bufio.Writer
	mu   sync.Mutex // guards what follows and the file
	off  int64
	n    uint32
	seen map[plumbing.Hash]bool
	idx  idxfile.Writer
	done bool
}

const packHeaderLen = 12

// NewPack starts a pack in the repository; Finish publishes it, Abort
// (deferred: a no-op once published) removes an unfinished one.
func (w *Objects) NewPack() (*Pack, error) {
	dir := filepath.Join(w.dir, "pack")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	f, err := os.CreateTemp(dir, "tmp_pack_")
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	p := &Pack{w: w, tmp: f.Name(), f: f, buf: bufio.NewWriterSize(f, 1<<20), seen: map[plumbing.Hash]bool{}}
	// The object count is patched in by Finish.
	p.buf.Write([]byte{'P', 'A', 'C', 'K', 0, 0, 0, 2, 0, 0, 0, 0})
	p.off = packHeaderLen
	return p, nil
}

var packBufs = sync.Pool{New: func() any { return new(packEntryBuf) }}

type packEntryBuf struct {
	b bytes.Buffer
	z *zlib.Writer
}

// Write adds an object unless the pack or the repository already has it.
// Safe for concurrent use: compression runs outside the lock.
func (p *Pack) Write(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := hashObject(t, data)
	p.mu.Lock()
	dup := p.seen[h]
	p.mu.Unlock()
	if dup || p.w.has(h) {
		return h, nil
	}
	e := packBufs.Get().(*packEntryBuf)
	defer packBufs.Put(e)
	e.b.Reset()
	// Entry header: type and size, 4 bits of size then 7 per byte.
	size := uint64(len(data))
	c := byte(t)<<4 | byte(size&0x0f)
	for size >>= 4; size != 0; size >>= 7 {
		e.b.WriteByte(c | 0x80)
		c = byte(size & 0x7f)
	}
	e.b.WriteByte(c)
	if e.z == nil {
		e.z, _ = zlib.NewWriterLevel(&e.b, zlib.BestSpeed)
	} else {
		e.z.Reset(&e.b)
	}
	if _, err := e.z.Write(data); err != nil {
		return h, err
	}
	if err := e.z.Close(); err != nil {
		return h, err
	}
	crc := crc32.ChecksumIEEE(e.b.Bytes())

	p.mu.Lock()
	defer p.mu.Unlock()
	if p.seen[h] {
		return h, nil
	}
	if _, err := p.buf.Write(e.b.Bytes()); err != nil {
		return h, fmt.Errorf("%s: %w", p.tmp, err)
	}
	p.seen[h] = true
	p.idx.Add(h, uint64(p.off), crc)
	p.off += int64(e.b.Len())
	p.n++
	return h, nil
}

// Finish fills in the header and the checksum and publishes the pack and
// its index. An empty pack is removed instead.
func (p *Pack) Finish() error {
	if p.n == 0 {
		p.Abort()
		return nil
	}
	err := p.buf.Flush()
	var count [4]byte
	binary.BigEndian.PutUint32(count[:], p.n)
	if err == nil {
		_, err = p.f.WriteAt(count[:], 8)
	}
	// The trailing checksum covers everything before it, header included,
	// so it is computed by reading the finished body back (page cache).
	sum := sha1.New()
	if err == nil {
		_, err = io.Copy(sum, io.NewSectionReader(p.f, 0, p.off))
	}
	var name plumbing.Hash
	sum.Sum(name[:0])
	if err == nil {
		_, err = p.f.WriteAt(name[:], p.off)
	}
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		p.Abort()
		return fmt.Errorf("%s: write pack: %w", p.tmp, err)
	}
	if err := p.idx.OnFooter(name); err != nil {
		p.Abort()
		return err
	}
	idx, err := p.idx.Index()
	if err != nil {
		p.Abort()
		return err
	}
	dir := filepath.Dir(p.tmp)
	base := filepath.Join(dir, "pack-"+name.String())
	idxTmp := p.tmp + ".idx"
	err = writeFile(idxTmp, func(w io.Writer) error {
		_, err := idxfile.NewEncoder(w).Encode(idx)
		return err
	})
	if err == nil {
		err = os.Chmod(p.tmp, 0o444)
	}
	if err == nil {
		err = os.Rename(p.tmp, base+".pack")
	}
	if err == nil {
		err = os.Rename(idxTmp, base+".idx")
	}
	if err != nil {
		os.Remove(idxTmp)
		p.Abort()
		return fmt.Errorf("%s: publish pack: %w", dir, err)
	}
	p.done = true
	p.w.mu.Lock()
	p.w.packs++
	p.w.mu.Unlock()
	return nil
}

// Abort removes an unfinished pack (a no-op once published).
func (p *Pack) Abort() {
	if !p.done {
		p.done = true
		p.f.Close()
		os.Remove(p.tmp)
	}
}

// writeFile creates p read-only (as git makes pack files) and fills it.
func writeFile(p string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o444)
	if err != nil {
		return err
	}
	b := bufio.NewWriterSize(f, 1<<16)
	err = fill(b)
	if err == nil {
		err = b.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(p)
	}
	return err
}
