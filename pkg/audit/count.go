package audit

import (
	"strconv"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Counts is the one count of a vault's files that audit, doctor and commit
// all report, so the three never disagree about the same vault.
type Counts struct {
	// Memories are one-line claims: every memory type (spec §3).
	Memories int `json:"memories"`
	// Notes are long-form notes, files of another type, plain markdown
	// without frontmatter (IsPlainNote), and OKF's index.md and log.md.
	Notes int `json:"notes"`
	// Projects are project notes.
	Projects int `json:"projects"`
	// Unreadable files do not parse ('mem lint' explains each).
	Unreadable int `json:"unreadable"`
}

// Count sorts every loaded file into exactly one of the counts.
func Count(mems []*vault.Memory) Counts {
	var c Counts
	for _, m := range mems {
		switch {
		case vault.IsReserved(m.Rel) || IsPlainNote(m):
			c.Notes++
		case !m.OK():
			c.Unreadable++
		case m.Meta().Type == frontmatter.TypeProject:
			c.Projects++
		case frontmatter.IsMemoryType(m.Meta().Type):
			c.Memories++
		default:
			c.Notes++
		}
	}
	return c
}

// IsPlainNote reports a markdown file without frontmatter: a plain note
// (spec §2: searchable, never rendered, at most a lint warning), not a
// broken file.
func IsPlainNote(m *vault.Memory) bool {
	fe, ok := m.Err.(*frontmatter.Error)
	return ok && fe.Rule == "frontmatter-missing"
}

// String is the count as every report prints it:
// "40 memories, 2 notes, 1 project, 0 unreadable files".
func (c Counts) String() string {
	return Quantity(c.Memories, "memory", "memories") + ", " + Quantity(c.Notes, "note", "notes") + ", " +
		Quantity(c.Projects, "project", "projects") + ", " + Quantity(c.Unreadable, "unreadable file", "unreadable files")
}

// Quantity is n with its noun: "1 file", "3 files".
func Quantity(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}
