package vault

import (
	"encoding/binary"
	"hash/fnv"
	"path/filepath"
)

// A names memo remembers which vault paths Options.SecretInName found
// clean, so that a scan asks it only of paths it has not seen. The check
// is gitleaks' rules over the path (~10 µs each): half a second of every
// command on a 50,000-file vault, for names that almost never change.
// The memo holds 64-bit hashes of clean paths only, never a path: a name
// that holds a key is checked again on every scan, and its hash is not
// kept. It is tied to the binary (WriteCache), whose rules decided.

const namesMagic = "mem clean names\n"

type namesMemo map[uint64]struct{}

func (v *Vault) namesPath() string { return filepath.Join(v.StateDir(), "cache", "names") }

// openNames reads the memo; empty when there is none or it is unusable,
// nil when the vault has no name check.
func (v *Vault) openNames() namesMemo {
	if v.SecretInName == nil {
		return nil
	}
	raw, ok := ReadCache(v.namesPath(), namesMagic)
	m := make(namesMemo, len(raw)/8)
	if !ok {
		return m
	}
	for i := 0; i+8 <= len(raw); i += 8 {
		m[binary.LittleEndian.Uint64(raw[i:])] = struct{}{}
	}
	return m
}

func nameHash(rel string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(rel))
	return h.Sum64()
}

// heldName is the secret rule rel's name holds, "" for none, asking the
// check only when the memo does not know rel clean; fresh reports that
// the check ran (the memo should be saved). The memo is only read here,
// so scan workers may share it.
func (v *Vault) heldName(m namesMemo, rel string) (rule string, hash uint64, fresh bool) {
	if v.SecretInName == nil {
		return "", 0, false
	}
	hash = nameHash(rel)
	if _, ok := m[hash]; ok {
		return "", hash, false
	}
	return v.SecretInName(rel), hash, true
}

// saveNames replaces the memo with the hashes of the clean paths of one
// whole walk (so removed paths leave it). A failure only costs the next
// scan the checks again.
func (v *Vault) saveNames(clean []uint64) {
	buf := make([]byte, 0, 8*len(clean))
	for _, h := range clean {
		buf = binary.LittleEndian.AppendUint64(buf, h)
	}
	_ = WriteCache(v.namesPath(), namesMagic, buf)
}
