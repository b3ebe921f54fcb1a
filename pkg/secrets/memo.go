package secrets

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"sync"
	"sync/atomic"

	"github.com/mem-md/mem/internal/wire"
	"github.com/zricethezav/gitleaks/v8/config"
)

// Memo is Find with a memory of the texts it has scanned, by their
// SHA-256, for a caller that scans the same files again and again (lint of
// a whole vault keeps one under .mem/cache): a text it knows is hashed,
// not scanned. It holds, per text, only where the secrets are and which
// rule found them (rule numbers and byte offsets), never a secret or any
// other part of a text.
//
// A Memo belongs to one rule set (Fingerprint): decoding one written under
// another gives an empty Memo, so every text is scanned again.
type Memo struct {
	mu    sync.Mutex
	known map[[sha256.Size]byte][]hit // decoded: what earlier runs found
	used  map[[sha256.Size]byte][]hit // asked for in this run: what AppendBinary keeps
	// scans counts the texts Find scanned rather than recalled.
	scans atomic.Int64
}

// memoFormat is the version of Memo's encoding, in its fingerprint.
const memoFormat = "mem secrets memo 1\n"

// Fingerprint names the rule set Find applies: gitleaks' configuration and
// the engine's rules in its order (a finding's rule is a number into
// them). The code that applies them is the binary's; a cache of a Memo
// is tied to the binary that wrote it too (vault.WriteCache).
var Fingerprint = sync.OnceValue(func() string {
	h := sha256.New()
	write := func(s string) { h.Write([]byte(s)) }
	write(memoFormat)
	write(config.DefaultConfig)
	for _, kd := range rules().kinds {
		write("\n" + kd.id)
		if kd.mem != nil {
			write(" " + kd.mem.src)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
})

// NewMemo returns an empty Memo.
func NewMemo() *Memo {
	return &Memo{known: map[[sha256.Size]byte][]hit{}, used: map[[sha256.Size]byte][]hit{}}
}

// Find is Find(text), recalled when the Memo has seen text. Safe for
// concurrent use.
func (m *Memo) Find(text string) []Finding {
	sum := sum(text)
	m.mu.Lock()
	hits, ok := m.used[sum]
	if !ok {
		hits, ok = m.known[sum]
		if ok && fits(hits, len(text)) {
			m.used[sum] = hits
		} else {
			ok = false
		}
	}
	m.mu.Unlock()
	if !ok {
		m.scans.Add(1)
		hits = scanFile(text)
		m.mu.Lock()
		m.used[sum] = hits
		m.mu.Unlock()
	}
	return findings(text, hits)
}

// Scans is how many texts Find has scanned rather than recalled.
func (m *Memo) Scans() int { return int(m.scans.Load()) }

// Changed reports whether AppendBinary would write other than was decoded:
// a text scanned, or one decoded that no Find asked for (a file changed or
// gone), which AppendBinary leaves out.
func (m *Memo) Changed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.scans.Load() > 0 || len(m.used) != len(m.known)
}

// sum is the SHA-256 of text, without copying it whole.
func sum(text string) [sha256.Size]byte {
	var buf [4096]byte
	h := sha256.New()
	for len(text) > 0 {
		n := copy(buf[:], text)
		h.Write(buf[:n])
		text = text[n:]
	}
	var out [sha256.Size]byte
	h.Sum(out[:0])
	return out
}

// fits reports whether hits can be a text of n bytes' findings: in order,
// apart, within it, of rules the engine has. A Memo decoded from a damaged
// or foreign encoding is never trusted beyond that: such a text is scanned.
func fits(hits []hit, n int) bool {
	last := 0
	for _, h := range hits {
		if h.start < last || h.end <= h.start || h.end > n || h.rule < 0 || h.rule >= len(rules().kinds) {
			return false
		}
		last = h.end
	}
	return true
}

// AppendBinary appends the Memo's encoding to b: its fingerprint, then
// every text Find was asked about in this run (the hash and its findings'
// rule numbers and offsets).
func (m *Memo) AppendBinary(b []byte) ([]byte, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e := wire.Encoder{Buf: b}
	e.Str(Fingerprint())
	e.Uvarint(uint64(len(m.used)))
	for sum, hits := range m.used {
		e.Buf = append(e.Buf, sum[:]...)
		e.Uvarint(uint64(len(hits)))
		for _, h := range hits {
			e.Uvarint(uint64(h.rule))
			e.Uvarint(uint64(h.start))
			e.Uvarint(uint64(h.end - h.start))
		}
	}
	return e.Buf, nil
}

var errMemo = errors.New("secrets: malformed memo")

// DecodeMemo reads what AppendBinary wrote. A Memo of another rule set
// decodes as an empty one; a malformed encoding is an error (the caller
// starts afresh with NewMemo).
func DecodeMemo(b []byte) (*Memo, error) {
	m := NewMemo()
	d := &wire.Decoder{S: string(b)}
	if d.Str() != Fingerprint() || d.Err != nil {
		return m, nil
	}
	n := d.Uvarint()
	if n > uint64(len(d.S)-d.Off)/(sha256.Size+1) {
		return nil, errMemo
	}
	m.known = make(map[[sha256.Size]byte][]hit, n)
	for range n {
		if len(d.S)-d.Off < sha256.Size {
			return nil, errMemo
		}
		var sum [sha256.Size]byte
		copy(sum[:], d.S[d.Off:])
		d.Off += sha256.Size
		k := d.Uvarint()
		if k > uint64(len(d.S)-d.Off)/3 {
			return nil, errMemo
		}
		var hits []hit
		if k > 0 {
			hits = make([]hit, k)
		}
		for i := range hits {
			rule, start, length := d.Uvarint(), d.Uvarint(), d.Uvarint()
			if rule > 1<<16 || start > 1<<40 || length > 1<<40 {
				d.Fail()
			}
			hits[i] = hit{start: int(start), end: int(start + length), rule: int(rule)}
		}
		if d.Err != nil {
			return nil, errMemo
		}
		m.known[sum] = hits
	}
	if d.Off != len(d.S) {
		return nil, errMemo
	}
	return m, nil
}
