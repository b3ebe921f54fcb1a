package vault

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// Limits of a one-line memory (spec §4): longer text belongs in a note.
const (
	maxMemoryLines = 2
	MaxMemoryChars = 280
)

// errTooLong is returned when a memory's text belongs in a note.
type errTooLong struct{ lines, chars int }

func (e errTooLong) Error() string {
	lines := "lines"
	if e.lines == 1 {
		lines = "line"
	}
	return fmt.Sprintf("text has %d %s and %d characters; a memory is at most %d lines and %d characters: write it with 'mem note --title T' (which also adds a one-line pointer memory)", e.lines, lines, e.chars, maxMemoryLines, MaxMemoryChars)
}

// CheckBoundary reports text that is too long to be a memory.
func CheckBoundary(text string) error {
	text = strings.TrimSpace(text)
	lines := strings.Count(text, "\n") + 1
	chars := utf8.RuneCountInString(text)
	if lines > maxMemoryLines || chars > MaxMemoryChars {
		return errTooLong{lines, chars}
	}
	return nil
}

// NewMemory describes one memory to write; empty fields take defaults.
type NewMemory struct {
	Text       string
	Type       string // default fact
	Provenance string // default stated
	Project    string // "auto" (default), "none", or a project id
	Cwd        string // for project auto-resolution
	Tags       []string
	Aliases    []string // other words a question may use for it; indexed, never rendered
	Importance int
	Pinned     bool
	Section    string
	Key        string
	ValidAt    frontmatter.Time // default now
	StaleAfter frontmatter.Time
	InvalidAt  frontmatter.Time // when the claim stopped being true (retired)
	Supersedes []string
	Session    string
	Evidence   string // what was checked, for an observed claim
	Source     string
	Sources    []frontmatter.Source
	Title      string
}

var ttlPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+)([dwmy])$`) })

// ParseTTL reads a time-to-live like 30d, 2w, 6m or 1y and returns the date
// it ends, counted from now.
func ParseTTL(s string, now time.Time) (frontmatter.Time, error) {
	m := ttlPattern().FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return frontmatter.Time{}, fmt.Errorf("--ttl %q: write a number and a unit, like 30d, 2w, 6m or 1y", s)
	}
	n, err := strconv.Atoi(m[1])
	if err != nil || n <= 0 {
		return frontmatter.Time{}, fmt.Errorf("--ttl %q: must be a positive number", s)
	}
	// Past ten thousand years the date cannot be written (and a larger
	// count overflows the clock): refuse before computing it.
	tooLong := fmt.Errorf("--ttl %q: ends after the year 9999: give a shorter ttl, or none for a claim that never goes stale", s)
	if n > 4_000_000 {
		return frontmatter.Time{}, tooLong
	}
	switch m[2] {
	case "d":
		now = now.AddDate(0, 0, n)
	case "w":
		now = now.AddDate(0, 0, 7*n)
	case "m":
		now = now.AddDate(0, n, 0)
	case "y":
		now = now.AddDate(n, 0, 0)
	}
	if !frontmatter.InRange(now) {
		return frontmatter.Time{}, tooLong
	}
	return frontmatter.StaleInstant(now), nil
}

// PointerText is the one-line pointer memory for a long-form note: its title
// and a wikilink to its id. mem note and the importers write this shape.
func PointerText(title, noteID string) string {
	return fmt.Sprintf("%s: see [[%s]]", title, noteID)
}
