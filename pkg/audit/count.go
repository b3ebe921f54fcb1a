package audit

import (
	"slices"
	"strconv"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Counts is the one count of a vault's files that audit, doctor and commit
// all report, so the three never disagree about the same vault.
type Counts struct {
	// Memories are one-line claims: every memory type (spec §3).
	Memories int `json:"memories"`
	// Notes are long-form notes, files of another tool's type
	// (otherType), plain markdown without frontmatter (IsPlainNote), and
	// OKF's index.md and log.md.
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
		case isOther(m):
			c.Notes++
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

// otherType is the type as written of a file another tool wrote: OKF's
// Metric, Claude Code's feedback, "" for one with properties but no type,
// and project for Claude Code's memory about a project
// (vault.IsProjectMemory). mem keeps such a file as written and treats it
// as a note; other is false for mem's own types and for a file that does
// not parse.
func otherType(m *vault.Memory) (typ string, other bool) {
	if !m.OK() || vault.IsReserved(m.Rel) {
		return "", false
	}
	meta := m.Meta()
	switch {
	case vault.IsProjectMemory(m):
		return meta.Type, true
	case meta.Type == "":
		return "", true
	}
	return meta.Type, !slices.Contains(frontmatter.Types, meta.Type)
}

func isOther(m *vault.Memory) bool {
	_, other := otherType(m)
	return other
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
