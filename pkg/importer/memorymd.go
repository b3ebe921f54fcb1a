package importer

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Bullet is one list item of a hand-kept MEMORY.md or CLAUDE.md.
type Bullet struct {
	Line     int              // 1-based line of the bullet's marker
	Text     string           // continuation lines joined; a date stamp removed
	Date     frontmatter.Time // the bullet's own date stamp, if it has one
	Headings []string         // enclosing headings, outermost first
	Parents  []string         // enclosing bullets' text, outermost first
}

var (
	headingRe = regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`)
	bulletRe  = regexp.MustCompile(`^(\s*)(?:[-*+]|\d{1,9}[.)])(?:\s+(.*))?$`)
	fenceRe   = regexp.MustCompile("^\\s*(```|~~~)")
	checkRe   = regexp.MustCompile(`^\[[ xX]\]\s+`)
	// A date stamp at the start ("[2024-03-01] ", "2024-03-01: ", "(2024-03-01) – ")
	// or the end (" (2024-03-01)") of a bullet. A date elsewhere is part of
	// the claim, not when it was made.
	leadDateRe  = regexp.MustCompile(`^(?:\*\*)?[\[(]?(\d{4}-\d{2}-\d{2})[\])]?(?:\*\*)?(?:\s*[:–—-])?\s+`)
	trailDateRe = regexp.MustCompile(`\s+[\[(](\d{4}-\d{2}-\d{2})[\])]$`)
	undatedRe   = regexp.MustCompile(`^\[undated\]\s+`)
)

// ParseBullets finds every bullet of a markdown file, nested ones too, with
// the headings and parent bullets around it. Frontmatter and fenced code
// are skipped; indented lines that are not bullets continue the bullet
// above them.
func ParseBullets(data []byte) []Bullet {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	start := 0
	if len(lines) > 0 && strings.TrimSpace(strings.TrimPrefix(lines[0], "\uFEFF")) == "---" {
		for i := 1; i < len(lines); i++ {
			if t := strings.TrimSpace(lines[i]); t == "---" || t == "..." {
				start = i + 1
				break
			}
		}
	}
	type open struct {
		indent int
		idx    int // into out
	}
	var (
		out      []Bullet
		headings []string
		levels   []int
		stack    []open
		fence    string
		current  = -1 // bullet that continuation lines extend
	)
	for i := start; i < len(lines); i++ {
		line := lines[i]
		if m := fenceRe.FindStringSubmatch(line); m != nil {
			switch {
			case fence == "":
				fence, current = m[1], -1
			case m[1] == fence:
				fence = ""
			}
			continue
		}
		if fence != "" {
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if m := headingRe.FindStringSubmatch(line); m != nil {
			level := len(m[1])
			for len(levels) > 0 && levels[len(levels)-1] >= level {
				levels, headings = levels[:len(levels)-1], headings[:len(headings)-1]
			}
			levels, headings = append(levels, level), append(headings, m[2])
			stack, current = nil, -1
			continue
		}
		if m := bulletRe.FindStringSubmatch(line); m != nil {
			indent := width(m[1])
			for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
				stack = stack[:len(stack)-1]
			}
			b := Bullet{Line: i + 1, Text: strings.TrimSpace(m[2]), Headings: append([]string(nil), headings...)}
			for _, o := range stack {
				b.Parents = append(b.Parents, out[o.idx].Text)
			}
			out = append(out, b)
			current = len(out) - 1
			stack = append(stack, open{indent, current})
			continue
		}
		if current >= 0 && (line[0] == ' ' || line[0] == '\t') {
			out[current].Text = strings.TrimSpace(out[current].Text + " " + strings.TrimSpace(line))
			continue
		}
		// A paragraph at the left margin ends the list.
		stack, current = nil, -1
	}
	kept := out[:0]
	for _, b := range out {
		b.Text = checkRe.ReplaceAllString(b.Text, "")
		b.Text, b.Date = dateStamp(b.Text)
		if b.Text != "" {
			kept = append(kept, b)
		}
	}
	return kept
}

// width is the indentation of a bullet, a tab counting four columns.
func width(s string) int {
	n := 0
	for _, r := range s {
		if r == '\t' {
			n += 4 - n%4
		} else {
			n++
		}
	}
	return n
}

// dateStamp removes a leading or trailing date stamp and returns it. mem's
// own rendered line ("[2024-03-01] text (stated)") reads back the same way.
func dateStamp(text string) (string, frontmatter.Time) {
	text = undatedRe.ReplaceAllString(text, "")
	for _, re := range []*regexp.Regexp{leadDateRe, trailDateRe} {
		m := re.FindStringSubmatchIndex(text)
		if m == nil {
			continue
		}
		t, err := time.Parse("2006-01-02", text[m[2]:m[3]])
		if err != nil {
			continue
		}
		rest := strings.TrimSpace(text[:m[0]] + " " + text[m[1]:])
		if rest == "" {
			continue // a bare date is the bullet's text, not its stamp
		}
		return rest, frontmatter.NewDate(t)
	}
	return text, frontmatter.Time{}
}

// headingTypes maps words starting a word of a heading ("Preferences",
// "Lessons learned") to a mem type; the innermost heading naming one decides.
var headingTypes = []struct {
	typ string
	re  *regexp.Regexp
}{
	{frontmatter.TypeIdentity, regexp.MustCompile(`(?i)\b(identity|about me|who i am|about the user|profile)`)},
	{frontmatter.TypePreference, regexp.MustCompile(`(?i)\b(preference|prefer|style|likes)`)},
	{frontmatter.TypeDecision, regexp.MustCompile(`(?i)\b(decision|decided)`)},
	{frontmatter.TypeLesson, regexp.MustCompile(`(?i)\b(lesson|learned|learnt|gotcha|pitfall)`)},
	{frontmatter.TypeCorrection, regexp.MustCompile(`(?i)\bcorrection`)},
	{frontmatter.TypeRule, regexp.MustCompile(`(?i)\b(rule|convention|guideline|instruction)`)},
}

// typeForHeadings picks the type a bullet's headings give it (fact when none does).
func typeForHeadings(headings []string) string {
	for i := len(headings) - 1; i >= 0; i-- {
		for _, ht := range headingTypes {
			if ht.re.MatchString(headings[i]) {
				return ht.typ
			}
		}
	}
	return frontmatter.TypeFact
}

// sectionForHeadings keeps a heading that is one of the pinned sections
// (Identity, Preferences, Decisions, Notes), so pinning the memory later
// puts it where the file had it.
func sectionForHeadings(headings []string) string {
	for i := len(headings) - 1; i >= 0; i-- {
		for _, s := range frontmatter.Sections {
			if strings.EqualFold(strings.TrimSpace(headings[i]), s) {
				return s
			}
		}
	}
	return ""
}

// collectMemoryMD imports each bullet of a hand-kept file as a stated
// memory, stamped with the project whose root holds the file (if any).
func collectMemoryMD(src string, e env) ([]Item, error) {
	data, err := os.ReadFile(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (give the path of a MEMORY.md or CLAUDE.md)", src, err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	// The path is part of every bullet's key: the same file reached through
	// a symlink must give the same keys.
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	var mod frontmatter.Time
	if fi, err := os.Stat(src); err == nil {
		mod = frontmatter.NewTime(fi.ModTime())
	}
	return bulletItems(ParseBullets(data), abs, abs, frontmatter.Stated, e.project(filepath.Dir(abs)), mod), nil
}

// bulletItems turns bullets into memories. A bullet's identity is its text
// (and which occurrence of that text it is), not its line, so editing the
// file above it and importing again adds only what is new.
func bulletItems(bullets []Bullet, resource, locator, provenance, project string, mod frontmatter.Time) []Item {
	name := filepath.Base(resource)
	seen := map[string]int{}
	items := make([]Item, 0, len(bullets))
	for _, b := range bullets {
		seen[b.Text]++
		text := b.Text
		if len(b.Parents) > 0 {
			// A nested bullet often only makes sense under its parent: keep
			// the parent as a second line when it fits a memory.
			under := text + "\nUnder: " + firstLine(b.Parents[len(b.Parents)-1], 120)
			if vault.CheckBoundary(under) == nil {
				text = under
			}
		}
		title := strings.Join(append(append([]string{name}, b.Headings...), b.Parents...), " › ")
		items = append(items, Item{
			Locator:    fmt.Sprintf("%s\x00%s\x00%d", locator, b.Text, seen[b.Text]),
			Type:       typeForHeadings(b.Headings),
			Section:    sectionForHeadings(b.Headings),
			Provenance: provenance, Text: text, ValidAt: b.Date, Project: project,
			Source: frontmatter.Source{Resource: resource, ID: fmt.Sprintf("L%d", b.Line), Title: firstLine(title, 200), LastModified: mod},
		})
	}
	return items
}
