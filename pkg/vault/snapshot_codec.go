package vault

import (
	"encoding/binary"
	"errors"
	"time"

	"github.com/mem-md/mem/internal/wire"
)

// A snapshot is stored by caches of views derived from the vault's files
// (lint's context cache): the next run scans again and asks Changed which
// files it must re-read. The encoding is
//
//	uvarint format, varint started (Unix ns), uvarint n,
//	uvarint length of the paths block, then n length-prefixed paths,
//	then n stamps (varint size, mtime, ctime; uvarint inode).
//
// It carries no checksum and no binary stamp: the cache that embeds it
// checks both for the whole file.
const snapshotFormat = 1

// errSnapshot marks a malformed encoding.
var errSnapshot = errors.New("malformed snapshot encoding")

// AppendBinary appends the snapshot's encoding to b (encoding.BinaryAppender).
func (s *Snapshot) AppendBinary(b []byte) ([]byte, error) {
	e := encoder{wire.Encoder{Buf: b}}
	e.Uvarint(snapshotFormat)
	e.Varint(s.started.UnixNano())
	e.Uvarint(uint64(len(s.Rels)))
	size := 0
	for _, rel := range s.Rels {
		size += uvarintLen(uint64(len(rel))) + len(rel)
	}
	e.Uvarint(uint64(size))
	for _, rel := range s.Rels {
		e.Str(rel)
	}
	for _, st := range s.stamps {
		e.Varint(st.size)
		e.Varint(st.mtime)
		e.Varint(st.ctime)
		e.Uvarint(st.ino)
	}
	return e.Buf, nil
}

func uvarintLen(x uint64) int {
	var tmp [binary.MaxVarintLen64]byte
	return binary.PutUvarint(tmp[:], x)
}

// DecodeSnapshot reads a snapshot written by AppendBinary at the start of
// data and returns it with the number of bytes it took. The snapshot does
// not share data's memory (its paths are copied in one piece).
func DecodeSnapshot(data []byte) (*Snapshot, int, error) {
	d := &decoder{wire.Decoder{S: string(data[:min(len(data), 4*binary.MaxVarintLen64)])}}
	if d.Uvarint() != snapshotFormat {
		return nil, 0, errSnapshot
	}
	s := &Snapshot{started: time.Unix(0, d.Varint())}
	n := d.Uvarint()
	size := d.Uvarint()
	rest := uint64(len(data) - d.Off)
	// Each path takes at least its length byte, each stamp at least four.
	if d.Err != nil || n > size || size > rest || n > (rest-size)/4 {
		return nil, 0, errSnapshot
	}
	// One copy of the paths and stamps (a stamp takes at most 40 bytes):
	// the paths are substrings of it.
	end := uint64(d.Off) + size + min(40*n, rest-size)
	d = &decoder{wire.Decoder{S: string(data[:end]), Off: d.Off}}
	paths := &decoder{wire.Decoder{S: d.S[:d.Off+int(size)], Off: d.Off}}
	d.Off += int(size)
	s.Rels = make([]string, n)
	for i := range s.Rels {
		s.Rels[i] = paths.Str()
		if i > 0 && s.Rels[i] <= s.Rels[i-1] {
			paths.Fail() // Changed relies on the order
		}
	}
	if paths.Err != nil || paths.Off != len(paths.S) {
		return nil, 0, errSnapshot
	}
	s.stamps = make([]fileStamp, n)
	for i := range s.stamps {
		s.stamps[i] = fileStamp{size: d.Varint(), mtime: d.Varint(), ctime: d.Varint(), ino: d.Uvarint()}
	}
	if d.Err != nil {
		return nil, 0, errSnapshot
	}
	return s, d.Off, nil
}

// Changed compares s with an older snapshot old and returns, sorted, the
// files of s that a view computed from old cannot vouch for — new files,
// files whose stamp differs, and files whose stamp in either scan cannot
// vouch for the content (a link, a failed lstat, or a change within
// s's racy window of old's scan, which a same-size write in the same clock
// tick could hide) — and the files of old that are gone.
func (s *Snapshot) Changed(old *Snapshot) (changed, removed []string) {
	i, j := 0, 0
	for i < len(s.Rels) || j < len(old.Rels) {
		switch {
		case j == len(old.Rels) || i < len(s.Rels) && s.Rels[i] < old.Rels[j]:
			changed = append(changed, s.Rels[i])
			i++
		case i == len(s.Rels) || old.Rels[j] < s.Rels[i]:
			removed = append(removed, old.Rels[j])
			j++
		default:
			st, was := s.stamps[i], old.stamps[j]
			if st != was || was == (fileStamp{}) || was.racy(old.started, racyWindow(s.window)) {
				changed = append(changed, s.Rels[i])
			}
			i++
			j++
		}
	}
	return changed, removed
}
