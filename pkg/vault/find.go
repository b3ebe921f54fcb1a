package vault

import (
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/fail"
)

// ErrNotFound is returned by FindMemory when no file matches: the id on
// the command line names nothing (exit 2).
var ErrNotFound error = fail.As(fail.Usage, errors.New("no memory"))

// ErrAmbiguous is returned by FindMemory when a short ref matches more
// than one file; the error lists them.
var ErrAmbiguous error = fail.As(fail.Usage, errors.New("ambiguous"))

// maxCandidates bounds the files an ambiguous ref's error lists.
const maxCandidates = 10

// FindMemory finds the one loaded memory named by ref, as git takes a
// short hash: its id, or its path relative to the vault (with or without
// .md; an absolute path inside the vault works too), else a unique prefix
// of its id, of its file's base name, or of the random suffix mem puts at
// the end of the names it writes ("2a3ee3" for memory/db-port-2a3ee3.md).
// An exact id or path wins over an exact base name, which wins over
// prefixes: a name is never ambiguous because it also begins another
// (memory/x-d4e8c0 next to memory/x-d4e8c0-merged-6f2396a). Matching only what the loader listed
// is what confines callers to the vault: a ref with "..", or a link
// leaving it, names nothing. Two files answering to one ref are an error
// (ErrAmbiguous) naming them.
func (v *Vault) FindMemory(mems []*Memory, ref string) (*Memory, error) {
	ref = strings.TrimSpace(ref)
	asked := ref // quoted back as given: '/etc/passwd', not its path from the vault
	if ref == "" {
		return nil, fmt.Errorf("%w: give an id, a path relative to the vault, or a unique prefix of either", ErrNotFound)
	}
	if filepath.IsAbs(ref) {
		if rel, err := filepath.Rel(v.Root, ref); err == nil {
			ref = filepath.ToSlash(rel)
		}
	}
	exact, named, prefix := matches(mems, ref)
	found := exact
	if len(found) == 0 {
		found = named
	}
	if len(found) == 0 {
		found = prefix
	}
	switch len(found) {
	case 0:
		return nil, fmt.Errorf("%w has id or path %q, nor an id or name starting with it: find it with 'mem list' or 'mem search', or give its path relative to the vault", ErrNotFound, asked)
	case 1:
		return found[0], nil
	}
	what := "give more of the id, or the path"
	if len(exact) > 1 || len(exact) == 0 && len(named) > 1 {
		what = "give each a unique id, or pass a path"
	}
	return nil, fmt.Errorf("%w: %q names %d files (%s): %s", ErrAmbiguous, ref, len(found), candidates(found), what)
}

// matches are the memories ref names exactly (an id or a path), by their
// base name, and by a prefix.
func matches(mems []*Memory, ref string) (exact, named, prefix []*Memory) {
	for _, m := range mems {
		switch base := path.Base(m.Rel); {
		case m.ID == ref || m.Rel == ref || m.Rel == ref+".md":
			exact = append(exact, m)
		case base == ref || base == ref+".md":
			named = append(named, m)
		case isPrefixOf(m, ref):
			prefix = append(prefix, m)
		}
	}
	return exact, named, prefix
}

// candidates lists the paths of an ambiguous ref's files, the first
// maxCandidates of them.
func candidates(found []*Memory) string {
	paths := make([]string, 0, maxCandidates)
	for _, m := range found[:min(len(found), maxCandidates)] {
		paths = append(paths, m.Rel)
	}
	list := strings.Join(paths, ", ")
	if len(found) > maxCandidates {
		list += fmt.Sprintf(" and %d more", len(found)-maxCandidates)
	}
	return list
}

// isPrefixOf reports whether ref is a prefix of m's id, of its file's
// base name, or of the suffix after the base name's last dash.
func isPrefixOf(m *Memory, ref string) bool {
	base := strings.TrimSuffix(path.Base(m.Rel), ".md")
	suffix := base[strings.LastIndexByte(base, '-')+1:]
	return strings.HasPrefix(m.ID, ref) || strings.HasPrefix(base, ref) || strings.HasPrefix(suffix, ref)
}
