package gitfmt

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// EncodeTree sorts ents the way git does (a folder as if its name ended in
// "/") and returns the tree object's content: "<octal mode> <name>\0<hash>"
// per entry. go-git's encoder formats every entry with fmt, several times
// slower.
func EncodeTree(ents []object.TreeEntry) []byte {
	// A comparison that builds no "name/" strings: sorting the 38k entries
	// of the generated vault's memory folder took 0.26 s of CPU over 8
	// commits with one, 0.11 s without.
	slices.SortFunc(ents, TreeOrder)
	n := 0
	for _, e := range ents {
		n += len(e.Name) + 28
	}
	b := make([]byte, 0, n)
	for _, e := range ents {
		b = strconv.AppendUint(b, uint64(e.Mode), 8)
		b = append(b, ' ')
		b = append(b, e.Name...)
		b = append(b, 0)
		b = append(b, e.Hash[:]...)
	}
	return b
}

// TreeOrder is git's order of tree entries: by name, a folder's name as if
// it ended in "/" (the order a tree is written in, and two are merged in).
func TreeOrder(a, b object.TreeEntry) int {
	n := min(len(a.Name), len(b.Name))
	if c := strings.Compare(a.Name[:n], b.Name[:n]); c != 0 {
		return c
	}
	return cmp.Compare(treeByte(a, n), treeByte(b, n))
}

// treeByte is the byte of e's sort key at i: its name's, then "/" for a
// folder, then -1 (before every byte) once the key has ended.
func treeByte(e object.TreeEntry, i int) int {
	switch {
	case i < len(e.Name):
		return int(e.Name[i])
	case i == len(e.Name) && e.Mode == filemode.Dir:
		return '/'
	}
	return -1
}
