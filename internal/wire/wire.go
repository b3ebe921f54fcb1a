// Package wire is the encoding mem's binary caches share (the parse cache,
// snapshots, kept views, lint's context): uvarints, zig-zag varints and
// length-prefixed strings, appended to a buffer and read back with an error
// that sticks, so a decoder checks once at the end.
package wire

import (
	"encoding/binary"
	"errors"
)

// errMalformed is a Decoder's error: the bytes end early or do not decode.
var errMalformed = errors.New("malformed binary encoding")

// Encoder appends to Buf.
type Encoder struct{ Buf []byte }

func (e *Encoder) Uvarint(x uint64) { e.Buf = binary.AppendUvarint(e.Buf, x) }
func (e *Encoder) Varint(x int64)   { e.Buf = binary.AppendVarint(e.Buf, x) }
func (e *Encoder) Byte(b byte)      { e.Buf = append(e.Buf, b) }
func (e *Encoder) Str(s string)     { e.Uvarint(uint64(len(s))); e.Buf = append(e.Buf, s...) }
func (e *Encoder) Bytes(b []byte)   { e.Uvarint(uint64(len(b))); e.Buf = append(e.Buf, b...) }

// Decoder reads S from Off. The strings it returns are substrings of S, so
// decoding copies nothing. After the first failure Err is set and every
// read returns zero.
type Decoder struct {
	S   string
	Off int
	Err error
}

// Fail marks the input malformed.
func (d *Decoder) Fail() {
	if d.Err == nil {
		d.Err = errMalformed
	}
}

func (d *Decoder) Uvarint() uint64 {
	if d.Err != nil {
		return 0
	}
	var x uint64
	var s uint
	for i := 0; i < binary.MaxVarintLen64; i++ {
		if d.Off >= len(d.S) {
			d.Fail()
			return 0
		}
		b := d.S[d.Off]
		d.Off++
		if b < 0x80 {
			return x | uint64(b)<<s
		}
		x |= uint64(b&0x7f) << s
		s += 7
	}
	d.Fail()
	return 0
}

func (d *Decoder) Varint() int64 {
	u := d.Uvarint()
	x := int64(u >> 1)
	if u&1 != 0 {
		x = ^x
	}
	return x
}

func (d *Decoder) Byte() byte {
	if d.Err != nil || d.Off >= len(d.S) {
		d.Fail()
		return 0
	}
	d.Off++
	return d.S[d.Off-1]
}

func (d *Decoder) Str() string {
	n := d.Uvarint()
	if d.Err != nil || n > uint64(len(d.S)-d.Off) {
		d.Fail()
		return ""
	}
	s := d.S[d.Off : d.Off+int(n)]
	d.Off += int(n)
	return s
}
