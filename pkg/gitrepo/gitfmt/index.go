package gitfmt

import (
	"bufio"
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// git's index file (Documentation/gitformat-index.txt), versions 2 and 3,
// read and written by hand: go-git's codec goes through reflection field
// by field (~50 ms to read, ~30 ms to write 20,000 entries) and cannot
// write the cached-tree extension, which lets the next commit skip re-hashing
// unchanged folders and reading HEAD's trees (see CachedTrees).

const (
	indexEntryFixed = 62 // stat data, hash and flags before the name
	flagExtended    = 0x4000
	flagNameMask    = 0xfff
	extSkipWorktree = 1 << 14
	extIntentToAdd  = 1 << 13
)

// ErrIndexFormat is an index this codec does not read (version 4, a
// required extension such as the split or sparse index); go-git's decoder
// may.
var ErrIndexFormat = errors.New("unsupported index format")

// DecodeIndex reads an index of version 2 or 3 with its TREE extension;
// other optional extensions are skipped. Version 4 and required extensions
// (split index, sparse index) return ErrIndexFormat so the caller can fall
// back to go-git's decoder.
func DecodeIndex(data []byte) (*index.Index, error) {
	if len(data) < 12+20 || string(data[:4]) != "DIRC" {
		return nil, fmt.Errorf("%w: not an index file", ErrIndexFormat)
	}
	body, sum := data[:len(data)-20], data[len(data)-20:]
	if h := sha1.Sum(body); !bytes.Equal(h[:], sum) {
		return nil, errors.New("index checksum mismatch")
	}
	be := binary.BigEndian
	idx := &index.Index{Version: be.Uint32(data[4:])}
	if idx.Version != 2 && idx.Version != 3 {
		return nil, fmt.Errorf("%w: version %d", ErrIndexFormat, idx.Version)
	}
	n := int(be.Uint32(data[8:]))
	if n > (len(body)-12)/(indexEntryFixed+2) { // each entry takes at least that
		return nil, fmt.Errorf("index claims %d entries in %d bytes: %w", n, len(data), io.ErrUnexpectedEOF)
	}
	idx.Entries = make([]*index.Entry, 0, n)
	ents := make([]index.Entry, n)
	off := 12
	for i := range n {
		if off+indexEntryFixed > len(body) {
			return nil, io.ErrUnexpectedEOF
		}
		b := body[off:]
		e := &ents[i]
		if s, ns := be.Uint32(b[0:]), be.Uint32(b[4:]); s != 0 || ns != 0 {
			e.CreatedAt = time.Unix(int64(s), int64(ns))
		}
		if s, ns := be.Uint32(b[8:]), be.Uint32(b[12:]); s != 0 || ns != 0 {
			e.ModifiedAt = time.Unix(int64(s), int64(ns))
		}
		e.Dev, e.Inode = be.Uint32(b[16:]), be.Uint32(b[20:])
		e.Mode = filemode.FileMode(be.Uint32(b[24:]))
		e.UID, e.GID, e.Size = be.Uint32(b[28:]), be.Uint32(b[32:]), be.Uint32(b[36:])
		copy(e.Hash[:], b[40:60])
		flags := be.Uint16(b[60:])
		e.Stage = index.Stage(flags>>12) & 0x3
		fixed := indexEntryFixed
		if flags&flagExtended != 0 {
			if idx.Version < 3 || len(b) < fixed+2 {
				return nil, fmt.Errorf("%w: extended flags in version %d", ErrIndexFormat, idx.Version)
			}
			ext := be.Uint16(b[fixed:])
			e.SkipWorktree, e.IntentToAdd = ext&extSkipWorktree != 0, ext&extIntentToAdd != 0
			fixed += 2
		}
		end := bytes.IndexByte(b[fixed:], 0)
		if end < 0 {
			return nil, io.ErrUnexpectedEOF
		}
		e.Name = string(b[fixed : fixed+end])
		off += (fixed + end + 8) &^ 7 // NUL padding to a multiple of 8
		idx.Entries = append(idx.Entries, e)
	}
	for off+8 <= len(body) {
		sig, size := string(body[off:off+4]), int(be.Uint32(body[off+4:]))
		off += 8
		if size < 0 || off+size > len(body) {
			return nil, io.ErrUnexpectedEOF
		}
		switch {
		case sig == "TREE":
			t, err := decodeCacheTree(body[off : off+size])
			if err != nil {
				return nil, fmt.Errorf("TREE extension: %w", err)
			}
			idx.Cache = t
		case sig[0] < 'A' || sig[0] > 'Z':
			return nil, fmt.Errorf("%w: required extension %q", ErrIndexFormat, sig)
		}
		off += size
	}
	return idx, nil
}

func decodeCacheTree(b []byte) (*index.Tree, error) {
	t := &index.Tree{}
	for len(b) > 0 {
		// "<path>\0<entries> <subtrees>\n": the path may hold any byte but
		// NUL (a folder named "Obsidian Sync" holds a space), so the two
		// numbers are looked for only after the NUL that ends it.
		nul := bytes.IndexByte(b, 0)
		if nul < 0 {
			return nil, io.ErrUnexpectedEOF
		}
		counts := b[nul+1:]
		nl := bytes.IndexByte(counts, '\n')
		if nl < 0 {
			return nil, io.ErrUnexpectedEOF
		}
		ents, subs, ok := bytes.Cut(counts[:nl], []byte{' '})
		if !ok {
			return nil, fmt.Errorf("cached tree %q: no subtree count", b[:nul])
		}
		var e index.TreeEntry
		var err1, err2 error
		e.Path = string(b[:nul])
		e.Entries, err1 = strconv.Atoi(string(ents))
		e.Trees, err2 = strconv.Atoi(string(subs))
		if err := errors.Join(err1, err2); err != nil {
			return nil, fmt.Errorf("cached tree %q: %w", e.Path, err)
		}
		if e.Trees < 0 {
			return nil, fmt.Errorf("cached tree %q: %d subtrees", e.Path, e.Trees)
		}
		b = counts[nl+1:]
		if e.Entries >= 0 {
			if len(b) < 20 {
				return nil, io.ErrUnexpectedEOF
			}
			copy(e.Hash[:], b[:20])
			b = b[20:]
		}
		t.Entries = append(t.Entries, e)
	}
	return t, nil
}

// CachedTrees flattens the index's cached-tree extension into the valid
// folders' tree hashes by repository path ("" is the root). git keeps an
// entry valid only while no index entry under it changed, so a valid
// folder's hash is the tree of exactly the index's entries below it.
func CachedTrees(t *index.Tree) map[string]plumbing.Hash {
	if t == nil || len(t.Entries) == 0 {
		return nil
	}
	out := map[string]plumbing.Hash{}
	i := 0
	var walk func(dir string) bool
	walk = func(dir string) bool {
		if i >= len(t.Entries) {
			return false
		}
		e := t.Entries[i]
		i++
		p := e.Path
		if dir != "" {
			p = dir + "/" + e.Path
		}
		if e.Entries >= 0 {
			out[p] = e.Hash
		}
		for range e.Trees {
			if !walk(p) {
				return false
			}
		}
		return true
	}
	if !walk("") {
		return nil // malformed: trust none of it
	}
	return out
}

// CacheTree is one folder of the cached-tree extension being written: its
// name (the root's is ""), how many index entries lie below it, its tree
// and its sub-folders (EncodeIndex sorts them as git does).
type CacheTree struct {
	Name    string
	Entries int
	Hash    plumbing.Hash
	Subs    []*CacheTree
}

// EncodeIndex writes entries (sorted by name) as version 2, or 3 when an
// entry needs extended flags, with an optional cached-tree extension.
func EncodeIndex(w io.Writer, entries []*index.Entry, tree *CacheTree) error {
	version := uint32(2)
	for _, e := range entries {
		if e.SkipWorktree || e.IntentToAdd {
			version = 3
			break
		}
	}
	h := sha1.New()
	bw := bufio.NewWriterSize(io.MultiWriter(w, h), 1<<16)
	be := binary.BigEndian
	var b []byte
	b = append(b, "DIRC"...)
	b = be.AppendUint32(b, version)
	b = be.AppendUint32(b, uint32(len(entries)))
	bw.Write(b)
	for _, e := range entries {
		b = b[:0]
		for _, t := range []time.Time{e.CreatedAt, e.ModifiedAt} {
			if t.IsZero() {
				b = be.AppendUint64(b, 0)
			} else {
				b = be.AppendUint32(b, uint32(t.Unix()))
				b = be.AppendUint32(b, uint32(t.Nanosecond()))
			}
		}
		for _, v := range []uint32{e.Dev, e.Inode, uint32(e.Mode), e.UID, e.GID, e.Size} {
			b = be.AppendUint32(b, v)
		}
		b = append(b, e.Hash[:]...)
		flags := uint16(e.Stage&0x3) << 12
		flags |= uint16(min(len(e.Name), flagNameMask))
		var ext uint16
		if e.SkipWorktree {
			ext |= extSkipWorktree
		}
		if e.IntentToAdd {
			ext |= extIntentToAdd
		}
		if ext != 0 {
			b = be.AppendUint16(b, flags|flagExtended)
			b = be.AppendUint16(b, ext)
		} else {
			b = be.AppendUint16(b, flags)
		}
		b = append(b, e.Name...)
		pad := 8 - len(b)%8 // at least one NUL ends the name
		b = append(b, make([]byte, pad)...)
		bw.Write(b)
	}
	if tree != nil {
		var t []byte
		t = appendCacheTree(t, tree)
		b = append(b[:0], "TREE"...)
		b = be.AppendUint32(b, uint32(len(t)))
		bw.Write(b)
		bw.Write(t)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(h.Sum(nil))
	return err
}

func appendCacheTree(b []byte, n *CacheTree) []byte {
	b = append(b, n.Name...)
	b = append(b, 0)
	b = strconv.AppendInt(b, int64(n.Entries), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(len(n.Subs)), 10)
	b = append(b, '\n')
	b = append(b, n.Hash[:]...)
	// git keeps sub-trees ordered by name length, then bytes.
	sort.Slice(n.Subs, func(i, j int) bool {
		a, c := n.Subs[i].Name, n.Subs[j].Name
		return len(a) < len(c) || len(a) == len(c) && a < c
	})
	for _, s := range n.Subs {
		b = appendCacheTree(b, s)
	}
	return b
}
