package vault

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// ErrNotFound is returned by FindMemory when no file matches.
var ErrNotFound = errors.New("no memory")

// FindMemory finds the one loaded memory named by ref: its id, or its path
// relative to the vault (with or without .md; an absolute path inside the
// vault works too). Matching only what the loader listed is what confines
// callers to the vault: a ref with "..", or a link leaving it, names nothing.
// Two files answering to one ref are an error naming both.
func (v *Vault) FindMemory(mems []*Memory, ref string) (*Memory, error) {
	ref = strings.TrimSpace(ref)
	if ref == "" {
		return nil, fmt.Errorf("%w: give an id or a path relative to the vault", ErrNotFound)
	}
	if filepath.IsAbs(ref) {
		if rel, err := filepath.Rel(v.Root, ref); err == nil {
			ref = filepath.ToSlash(rel)
		}
	}
	var found []*Memory
	for _, m := range mems {
		if m.ID == ref || m.Rel == ref || m.Rel == ref+".md" {
			found = append(found, m)
		}
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w has id or path %q: find it with 'mem search', or give its path relative to the vault", ErrNotFound, ref)
	case 1:
		return found[0], nil
	}
	paths := make([]string, len(found))
	for i, m := range found {
		paths[i] = m.Rel
	}
	return nil, fmt.Errorf("%q names %d files (%s): give each a unique id, or pass a path", ref, len(found), strings.Join(paths, ", "))
}
