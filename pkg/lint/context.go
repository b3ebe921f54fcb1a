package lint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/vault"
)

// The context cache, .mem/cache/lint, keeps every file's fact (focus.go)
// with the vault snapshot they were computed from, so that linting a few
// named files (the pre-commit hook) scans the vault and re-reads only the
// files whose stamp changed, instead of loading all of them. The files
// stay the truth: a fact is used only when its file's stamp in this scan
// is the one recorded and could vouch for the content then
// (vault.Snapshot.Changed); the cache is checksummed and tied to the mem
// binary and the config that computed it; anything unexpected means it is
// ignored, the whole vault loaded, and the cache rewritten.
//
// Layout, inside vault.WriteCache's frame (magic, binary, checksum): key
// string, the snapshot (vault.Snapshot.AppendBinary), then per file in the
// snapshot's order: the fact's flags, its id (unless factIDIsPath), the
// number of properties and each property's key and kind.
const (
	contextMagic  = "mem lint context\n"
	contextFormat = 1
)

var contextRel = filepath.Join("cache", "lint")

// kinds are the property kinds, numbered for the cache.
var kinds = []string{"text", "list", "map", "number", "checkbox", "date"}

func contextPath(v *vault.Vault) string { return filepath.Join(v.StateDir(), contextRel) }

// contextKey is what the facts depend on besides the files and the mem
// binary (vault.WriteCache records that): lint.max_file_size (an oversized
// file has no document). The listing's own rules (ignore:, render outputs)
// show in the snapshot.
func contextKey(v *vault.Vault) string {
	return fmt.Sprintf("format %d max_file_size %d", contextFormat, v.Config.Lint.MaxFileSize)
}

// saveContext writes the cache for snap and facts (facts[i] is
// snap.Rels[i]'s). Failing to write is not an error of the run: the next
// one loads the vault.
func saveContext(v *vault.Vault, snap *vault.Snapshot, facts []fact) {
	_ = vault.WriteCache(contextPath(v), contextMagic, encodeContext(contextKey(v), snap, facts))
}

func encodeContext(key string, snap *vault.Snapshot, facts []fact) []byte {
	buf := make([]byte, 0, 64+len(key)+len(facts)*80)
	buf = appendString(buf, key)
	buf, _ = snap.AppendBinary(buf)
	for _, f := range facts {
		buf = append(buf, f.flags)
		if f.flags&factIDIsPath == 0 {
			buf = appendString(buf, f.id)
		}
		buf = binary.AppendUvarint(buf, uint64(len(f.props)))
		for _, p := range f.props {
			buf = appendString(buf, p.key)
			buf = append(buf, byte(kindIndex(p.kind)))
		}
	}
	return buf
}

func appendString(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

func kindIndex(kind string) int {
	for i, k := range kinds {
		if k == kind {
			return i
		}
	}
	panic("lint: unknown property kind " + kind) // propertyKind returns only kinds
}

// context is the cache as read: the snapshot the facts were computed from,
// and facts[i] for snap.Rels[i]. snap is nil when there is no usable cache.
type context struct {
	snap  *vault.Snapshot
	facts []fact
}

// readContext reads and verifies the cache.
func readContext(v *vault.Vault) context {
	payload, ok := vault.ReadCache(contextPath(v), contextMagic)
	if !ok {
		return context{}
	}
	snap, facts, err := decodeContext(payload, contextKey(v))
	if err != nil {
		return context{}
	}
	return context{snap, facts}
}

var errContext = errors.New("malformed lint context cache")

func decodeContext(body []byte, key string) (*vault.Snapshot, []fact, error) {
	d := &reader{b: body}
	if d.str() != key || d.err != nil {
		return nil, nil, errContext
	}
	snap, n, err := vault.DecodeSnapshot(body[d.off:])
	if err != nil {
		return nil, nil, errContext
	}
	d.off += n
	// The ids and property keys are substrings of one copy of the rest.
	d.s = string(body[d.off:])
	d.b, d.off = body[d.off:], 0
	if len(snap.Rels) > len(d.b) { // a fact takes at least two bytes
		return nil, nil, errContext
	}
	facts := make([]fact, len(snap.Rels))
	for i, rel := range snap.Rels {
		f := &facts[i]
		f.flags = d.byte()
		if f.flags&factIDIsPath != 0 {
			f.id = strings.TrimSuffix(rel, ".md")
		} else {
			f.id = d.str()
		}
		np := d.uvarint()
		if np > uint64(len(d.b)-d.off) {
			return nil, nil, errContext
		}
		if np > 0 {
			f.props = make([]prop, np)
			for j := range f.props {
				f.props[j].key = d.str()
				if k := int(d.byte()); k < len(kinds) {
					f.props[j].kind = kinds[k]
				} else {
					d.err = errContext
				}
			}
		}
		if d.err != nil {
			return nil, nil, errContext
		}
	}
	if d.off != len(d.b) {
		return nil, nil, errContext
	}
	return snap, facts, nil
}

// reader decodes the cache's bytes; the first error sticks.
type reader struct {
	b   []byte
	s   string // b as a string (or ""), for str to slice from
	off int
	err error
}

func (r *reader) byte() byte {
	if r.err != nil || r.off >= len(r.b) {
		r.err = errContext
		return 0
	}
	r.off++
	return r.b[r.off-1]
}

func (r *reader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.b[r.off:])
	if n <= 0 {
		r.err = errContext
		return 0
	}
	r.off += n
	return x
}

// str reads a length-prefixed string: a substring of r.s when it is set,
// else a copy.
func (r *reader) str() string {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)-r.off) {
		r.err = errContext
		return ""
	}
	start := r.off
	r.off += int(n)
	if r.s != "" {
		return r.s[start:r.off]
	}
	return string(r.b[start:r.off])
}
