package wire

import "testing"

// What the Encoder writes the Decoder reads back; any cut of it fails
// (sticky) instead of reading garbage or panicking.
func TestRoundTripAndTruncation(t *testing.T) {
	var e Encoder
	e.Uvarint(300)
	e.Varint(-5)
	e.Byte(7)
	e.Str("päth")
	e.Bytes([]byte{1, 2})
	d := &Decoder{S: string(e.Buf)}
	if u, v, b, s, bs := d.Uvarint(), d.Varint(), d.Byte(), d.Str(), d.Str(); u != 300 || v != -5 || b != 7 || s != "päth" || bs != "\x01\x02" || d.Err != nil || d.Off != len(d.S) {
		t.Fatalf("read %d %d %d %q %q (err %v, at %d of %d)", u, v, b, s, bs, d.Err, d.Off, len(d.S))
	}
	for n := range len(e.Buf) {
		d := &Decoder{S: string(e.Buf[:n])}
		d.Uvarint()
		d.Varint()
		d.Byte()
		d.Str()
		if d.Str(); d.Err != errMalformed {
			t.Errorf("cut at %d of %d: err %v, want ErrMalformed", n, len(e.Buf), d.Err)
		}
	}
}
