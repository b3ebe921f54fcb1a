package vault

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"

	"github.com/mem-md/mem/internal/wire"
)

// WriteCache replaces the cache file at path with payload, framed so that
// ReadCache gives it back whole and only to this mem binary (whose parser
// and checks computed it): magic, the binary's stamp, the payload, a
// CRC-32C of all of it. Written by rename without fsync (writeCacheFile).
func WriteCache(path, magic string, payload []byte) error {
	stamp := binaryStamp()
	if stamp == "" {
		return nil // a cache no later run could trust
	}
	e := encoder{wire.Encoder{Buf: make([]byte, 0, len(magic)+len(stamp)+len(payload)+16)}}
	e.Buf = append(e.Buf, magic...)
	e.Str(stamp)
	e.Buf = append(e.Buf, payload...)
	e.Buf = binary.LittleEndian.AppendUint32(e.Buf, crc32.Checksum(e.Buf, crcTable))
	return writeCacheFile(path, e.Buf)
}

// ReadCache returns the payload WriteCache stored at path under magic;
// false when there is none, or it is torn, damaged or another binary's.
func ReadCache(path, magic string) ([]byte, bool) {
	raw, err := os.ReadFile(path)
	if err != nil || len(raw) < len(magic)+4 {
		return nil, false
	}
	body, sum := raw[:len(raw)-4], binary.LittleEndian.Uint32(raw[len(raw)-4:])
	if crc32.Checksum(body, crcTable) != sum || string(body[:len(magic)]) != magic {
		return nil, false
	}
	d := &decoder{wire.Decoder{S: string(body), Off: len(magic)}}
	if stamp := d.Str(); d.Err != nil || stamp == "" || stamp != binaryStamp() {
		return nil, false
	}
	return body[d.Off:], true
}

// A kept view is the output of a view (a render) saved under
// .mem/cache/views with the key of the scan it was computed from. The files
// stay the truth: a view is served again only to a scan that saw exactly
// the same files with the same stamps, by the same mem binary.

const viewMagic = "mem kept view\n"

func (v *Vault) viewPath(name string) string {
	return filepath.Join(v.StateDir(), "cache", "views", name)
}

// ReadView returns the payload kept under name when it was kept for the
// same files as snap saw; false when there is none, snap has no key (a file
// changed within the racy window), or anything about it does not match.
func (v *Vault) ReadView(name string, snap *Snapshot) ([]byte, bool) {
	key, ok := snap.Key()
	if !ok {
		return nil, false
	}
	b, ok := ReadCache(v.viewPath(name), viewMagic)
	if !ok {
		return nil, false
	}
	d := &decoder{wire.Decoder{S: string(b)}}
	if kept := d.Str(); d.Err != nil || kept != key {
		return nil, false
	}
	return b[d.Off:], true
}

// WriteView keeps payload under name for the files snap saw. It does
// nothing when snap has no key; a failure to write is not an error of the
// view, whose next run just computes it again.
func (v *Vault) WriteView(name string, snap *Snapshot, payload []byte) {
	key, ok := snap.Key()
	if !ok {
		return
	}
	var e encoder
	e.Str(key)
	e.Buf = append(e.Buf, payload...)
	_ = WriteCache(v.viewPath(name), viewMagic, e.Buf)
}
