package vault

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/secrets"
)

// Limits of a one-line memory (spec §4): longer text belongs in a note.
const (
	MaxMemoryLines = 2
	MaxMemoryChars = 280
)

// ErrTooLong is returned when a memory's text belongs in a note.
type ErrTooLong struct{ Lines, Chars int }

func (e ErrTooLong) Error() string {
	return fmt.Sprintf("text has %d lines and %d characters; a memory is at most %d lines and %d characters: write it with 'mem note --title T' (which also adds a one-line pointer memory)", e.Lines, e.Chars, MaxMemoryLines, MaxMemoryChars)
}

// CheckBoundary reports text that is too long to be a memory.
func CheckBoundary(text string) error {
	text = strings.TrimSpace(text)
	lines := strings.Count(text, "\n") + 1
	chars := utf8.RuneCountInString(text)
	if lines > MaxMemoryLines || chars > MaxMemoryChars {
		return ErrTooLong{lines, chars}
	}
	return nil
}

// ErrSecret is returned when a text to write holds a secret. The secret
// itself is never echoed: a memory is injected into model contexts and
// pushed to backups, so it must not be written at all.
type ErrSecret struct{ Finding secrets.Finding }

func (e ErrSecret) Error() string {
	return fmt.Sprintf("refused: the text holds %s (%s) at line %d, column %d; remove it (keep secrets in a secret manager) and try again", e.Finding.What, e.Finding.Rule, e.Finding.Line, e.Finding.Col)
}

// NewMemory describes one memory to write; empty fields take defaults.
type NewMemory struct {
	Text       string
	Type       string // default fact
	Provenance string // default stated
	Project    string // "auto" (default), "none", or a project id
	Cwd        string // for project auto-resolution
	Tags       []string
	Importance int
	Pinned     bool
	Section    string
	Key        string
	ValidAt    frontmatter.Time // default now
	StaleAfter frontmatter.Time
	Supersedes []string
	Session    string
	Source     string
	Sources    []frontmatter.Source
	Title      string
	Dir        string // default memory/
}

// BuildDocument validates n against the vault (project ids exist, enums,
// the boundary) and returns the document the writer will store.
func (v *Vault) BuildDocument(n NewMemory, projects []Project, now time.Time) (*frontmatter.Document, error) {
	n.Text = strings.TrimSpace(n.Text)
	if n.Text == "" {
		return nil, fmt.Errorf("empty text: say what to remember")
	}
	if n.Type == "" {
		n.Type = frontmatter.TypeFact
	}
	if n.Type != frontmatter.TypeNote {
		if err := CheckBoundary(n.Text); err != nil {
			return nil, err
		}
	}
	if found := secrets.Find(n.Text); len(found) > 0 {
		return nil, ErrSecret{found[0]}
	}
	if !frontmatter.IsMemoryType(n.Type) && n.Type != frontmatter.TypeNote {
		return nil, fmt.Errorf("--type %q: use one of identity, preference, decision, fact, lesson, rule, correction", n.Type)
	}
	if n.Provenance == "" {
		n.Provenance = frontmatter.Stated
	}
	if frontmatter.ProvenanceRank(n.Provenance) == 0 {
		return nil, fmt.Errorf("--provenance %q: use stated (the user said it), observed (verified with a tool) or inferred (a guess)", n.Provenance)
	}
	if n.Importance != 0 && (n.Importance < 1 || n.Importance > 10) {
		return nil, fmt.Errorf("--importance %d: use a whole number from 1 to 10", n.Importance)
	}
	project, err := resolveProjectFlag(n.Project, n.Cwd, projects)
	if err != nil {
		return nil, err
	}
	if n.ValidAt.IsZero() {
		n.ValidAt = frontmatter.NewTime(now)
	}
	if !n.StaleAfter.IsZero() && !n.StaleAfter.After(n.ValidAt.Time) {
		return nil, fmt.Errorf("stale_after %s is not after valid_at %s: give a later date or a positive --ttl", n.StaleAfter, n.ValidAt)
	}
	meta := frontmatter.Meta{
		Type: n.Type, Title: n.Title, Provenance: n.Provenance, Project: project,
		Pinned: n.Pinned, Section: n.Section, Importance: n.Importance, Key: n.Key,
		ValidAt: n.ValidAt, StaleAfter: n.StaleAfter, Supersedes: n.Supersedes,
		Tags: n.Tags, Session: n.Session, Source: n.Source, Sources: n.Sources,
	}
	if n.Type == frontmatter.TypeNote {
		meta.Provenance = "" // notes carry no claim of their own
	}
	return &frontmatter.Document{Meta: meta, Body: n.Text + "\n", HasFrontmatter: true}, nil
}

func resolveProjectFlag(flag, cwd string, projects []Project) (string, error) {
	switch flag {
	case "", "auto":
		if p := ResolveProject(projects, cwd); p != nil {
			return p.ID, nil
		}
		return "", nil
	case "none":
		return "", nil
	}
	if !ProjectIDPattern.MatchString(flag) {
		return "", fmt.Errorf("--project %q: a project id looks like proj_name (proj_ then a-z, 0-9, _ or -); or use auto or none", flag)
	}
	if FindProject(projects, flag) == nil {
		return "", fmt.Errorf("--project %s names no project note: create one with 'type: project' and 'id: %s', or use auto or none", flag, flag)
	}
	return flag, nil
}

var ttlPattern = regexp.MustCompile(`^(\d+)([dwmy])$`)

// ParseTTL reads a time-to-live like 30d, 2w, 6m or 1y and returns the date
// it ends, counted from now.
func ParseTTL(s string, now time.Time) (frontmatter.Time, error) {
	m := ttlPattern.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return frontmatter.Time{}, fmt.Errorf("--ttl %q: write a number and a unit, like 30d, 2w, 6m or 1y", s)
	}
	n, _ := strconv.Atoi(m[1])
	if n <= 0 {
		return frontmatter.Time{}, fmt.Errorf("--ttl %q: must be positive", s)
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
	return frontmatter.NewDate(now), nil
}

// PointerText is the one-line pointer memory for a long-form note: its title
// and a wikilink to its id. mem note and the importers write this shape.
func PointerText(title, noteID string) string {
	return fmt.Sprintf("%s: see [[%s]]", title, noteID)
}
