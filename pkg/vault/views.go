package vault

import (
	"encoding/binary"
	"hash/crc32"
	"os"
	"path/filepath"
)

// A kept view is the output of a view (a render, a lint context) saved under
// .mem/cache/views with the key of the scan it was computed from. The files
// stay the truth: a view is served again only to a scan that saw exactly
// the same files with the same stamps, by the same mem binary, and anything
// unexpected in the kept file means computing the view afresh.

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
	raw, err := os.ReadFile(v.viewPath(name))
	if err != nil || len(raw) < len(viewMagic)+4 {
		return nil, false
	}
	body, sum := raw[:len(raw)-4], binary.LittleEndian.Uint32(raw[len(raw)-4:])
	if crc32.Checksum(body, crcTable) != sum {
		return nil, false
	}
	if string(body[:len(viewMagic)]) != viewMagic {
		return nil, false
	}
	d := &decoder{s: string(body), off: len(viewMagic)}
	stamp := d.str()
	kept := d.str()
	payload := d.s[d.off:]
	if d.err != nil || stamp != binaryStamp() || stamp == "" || kept != key {
		return nil, false
	}
	return []byte(payload), true
}

// WriteView keeps payload under name for the files snap saw. It does
// nothing when snap has no key; a failure to write is not an error of the
// view, whose next run just computes it again.
func (v *Vault) WriteView(name string, snap *Snapshot, payload []byte) {
	key, ok := snap.Key()
	if !ok || binaryStamp() == "" {
		return
	}
	e := encoder{buf: make([]byte, 0, len(viewMagic)+len(key)+len(payload)+256)}
	e.buf = append(e.buf, viewMagic...)
	e.str(binaryStamp())
	e.str(key)
	e.buf = append(e.buf, payload...)
	e.buf = binary.LittleEndian.AppendUint32(e.buf, crc32.Checksum(e.buf, crcTable))
	_ = WriteCacheFile(v.viewPath(name), e.buf)
}
