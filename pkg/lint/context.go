package lint

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/internal/wire"
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
	e := wire.Encoder{Buf: make([]byte, 0, 64+len(key)+len(facts)*80)}
	e.Str(key)
	e.Buf, _ = snap.AppendBinary(e.Buf)
	for _, f := range facts {
		e.Byte(f.flags)
		if f.flags&factIDIsPath == 0 {
			e.Str(f.id)
		}
		e.Uvarint(uint64(len(f.props)))
		for _, p := range f.props {
			e.Str(p.key)
			e.Byte(byte(kindIndex(p.kind)))
		}
	}
	return e.Buf
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
	// The key is read from a copy of its bytes alone, the facts from one
	// copy of theirs (ids and property keys are substrings of it); the
	// snapshot between them copies its own.
	d := &wire.Decoder{S: string(body[:min(len(body), binary.MaxVarintLen64+len(key))])}
	if d.Str() != key || d.Err != nil {
		return nil, nil, errContext
	}
	snap, n, err := vault.DecodeSnapshot(body[d.Off:])
	if err != nil {
		return nil, nil, errContext
	}
	d = &wire.Decoder{S: string(body[d.Off+n:])}
	if len(snap.Rels) > len(d.S) { // a fact takes at least two bytes
		return nil, nil, errContext
	}
	facts := make([]fact, len(snap.Rels))
	for i, rel := range snap.Rels {
		f := &facts[i]
		f.flags = d.Byte()
		if f.flags&factIDIsPath != 0 {
			f.id = strings.TrimSuffix(rel, ".md")
		} else {
			f.id = d.Str()
		}
		np := d.Uvarint()
		if np > uint64(len(d.S)-d.Off) {
			return nil, nil, errContext
		}
		if np > 0 {
			f.props = make([]prop, np)
			for j := range f.props {
				f.props[j].key = d.Str()
				if k := int(d.Byte()); k < len(kinds) {
					f.props[j].kind = kinds[k]
				} else {
					d.Fail()
				}
			}
		}
		if d.Err != nil {
			return nil, nil, errContext
		}
	}
	if d.Off != len(d.S) {
		return nil, nil, errContext
	}
	return snap, facts, nil
}
