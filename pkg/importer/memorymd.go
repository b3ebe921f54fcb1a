package importer

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/yuin/goldmark/ast"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/markdown"
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
	checkRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[[ xX]\]\s+`) })
	// A date stamp at the start ("[2024-03-01] ", "2024-03-01: ", "(2024-03-01) – ")
	// or the end (" (2024-03-01)") of a bullet. A date elsewhere is part of
	// the claim, not when it was made.
	leadDateRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:\*\*)?[\[(]?(\d{4}-\d{2}-\d{2})[\])]?(?:\*\*)?(?:\s*[:–—-])?\s+`)
	})
	trailDateRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\s+[\[(](\d{4}-\d{2}-\d{2})[\])]$`) })
	undatedRe   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\[undated\]\s+`) })
)

// parseBullets finds every bullet of a markdown file, nested ones too, with
// the headings and parent bullets around it. The file is read as markdown
// (goldmark, the parse lint uses), so code — fenced, however long the
// fence, or indented — holds no bullets, and a bullet's lazy continuation
// lines are part of it. Frontmatter is skipped.
func parseBullets(data []byte) []Bullet {
	// The fences are the parser's own: a line indented "  ---" inside the
	// frontmatter does not close it.
	body, bodyLine := frontmatter.BodyOf(strings.ReplaceAll(string(data), "\r\n", "\n"))
	src := []byte(body)
	if !markdown.Safe(src) {
		return nil // the callers refuse such a file first (errTooBig)
	}
	lineAt := func(off int) int { return bodyLine + bytes.Count(src[:off], []byte("\n")) }
	var (
		out      []Bullet
		headings []string
		levels   []int
		parents  []string
	)
	_ = ast.Walk(markdown.Parse(src), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		switch n := n.(type) {
		case *ast.Heading:
			if entering && n.Parent().Kind() != ast.KindListItem {
				for len(levels) > 0 && levels[len(levels)-1] >= n.Level {
					levels, headings = levels[:len(levels)-1], headings[:len(headings)-1]
				}
				levels, headings = append(levels, n.Level), append(headings, markdown.LinesOf(n, src))
			}
			return ast.WalkSkipChildren, nil
		case *ast.ListItem:
			if !entering {
				parents = parents[:len(parents)-1]
				return ast.WalkContinue, nil
			}
			b := Bullet{Headings: append([]string(nil), headings...), Parents: append([]string(nil), parents...)}
			itemText(&b, n, src, lineAt)
			parents = append(parents, b.Text)
			out = append(out, b)
		}
		return ast.WalkContinue, nil
	})
	sort.SliceStable(out, func(i, j int) bool { return out[i].Line < out[j].Line })
	return unstamped(out)
}

// itemText sets b's text to the list item n's own paragraphs (and a
// heading it holds), and b's line to where they start.
func itemText(b *Bullet, n ast.Node, src []byte, lineAt func(off int) int) {
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		text := markdown.LinesOf(c, src)
		switch h, ok := c.(*ast.Heading); {
		case ok:
			// "- ## Title" is a bullet whose text is a heading.
			text = strings.Repeat("#", h.Level) + " " + text
		case c.Kind() != ast.KindParagraph && c.Kind() != ast.KindTextBlock:
			continue
		}
		if b.Line == 0 && c.Lines().Len() > 0 {
			b.Line = lineAt(c.Lines().At(0).Start)
		}
		b.Text = strings.TrimSpace(b.Text + " " + text)
	}
	if b.Line == 0 {
		b.Line = lineAt(itemStart(n))
	}
}

// unstamped takes each bullet's checkbox and date stamp out of its text
// into its Date, and drops the bullets left empty.
func unstamped(out []Bullet) []Bullet {
	kept := out[:0]
	for _, b := range out {
		b.Text = checkRe().ReplaceAllString(b.Text, "")
		b.Text, b.Date = dateStamp(b.Text)
		if b.Date.IsZero() {
			b.Text, b.Date = inlineStamp(b.Text)
		}
		if b.Text != "" {
			kept = append(kept, b)
		}
	}
	return kept
}

// itemStart is the first source offset inside a list item, for one that
// holds no paragraph (an empty bullet, or one holding only code).
func itemStart(n ast.Node) int {
	for c := n.FirstChild(); c != nil; c = c.FirstChild() {
		if c.Lines().Len() > 0 {
			return c.Lines().At(0).Start
		}
	}
	return 0
}

// dateStamp removes a leading or trailing date stamp and returns it. mem's
// own rendered line ("[2024-03-01] text (stated)") reads back the same way.
func dateStamp(text string) (string, frontmatter.Time) {
	text = undatedRe().ReplaceAllString(text, "")
	for _, re := range []*regexp.Regexp{leadDateRe(), trailDateRe()} {
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

// headingType is a mem type and the words of a heading that give it.
type headingType struct {
	typ string
	re  *regexp.Regexp
}

// headingTypes maps words starting a word of a heading ("Preferences",
// "Lessons learned") to a mem type; the innermost heading naming one decides.
var headingTypes = sync.OnceValue(func() []headingType {
	return []headingType{
		{frontmatter.TypeIdentity, regexp.MustCompile(`(?i)\b(identity|about me|who i am|about the user|profile)`)},
		{frontmatter.TypePreference, regexp.MustCompile(`(?i)\b(preference|prefer|style|likes)`)},
		{frontmatter.TypeDecision, regexp.MustCompile(`(?i)\b(decision|decided)`)},
		{frontmatter.TypeLesson, regexp.MustCompile(`(?i)\b(lesson|learned|learnt|gotcha|pitfall)`)},
		{frontmatter.TypeCorrection, regexp.MustCompile(`(?i)\bcorrection`)},
		{frontmatter.TypeRule, regexp.MustCompile(`(?i)\b(rule|convention|guideline|instruction)`)},
	}
})

// typeForHeadings picks the type a bullet's headings give it (fact when none does).
func typeForHeadings(headings []string) string {
	for i := len(headings) - 1; i >= 0; i-- {
		for _, ht := range headingTypes() {
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

// maxMemoryMD caps the hand-kept file read whole: each of its bullets is a
// memory of at most 280 characters, so a larger one is not a MEMORY.md.
const maxMemoryMD = 16 << 20

// collectMemoryMD imports each bullet of a hand-kept file as a stated
// memory, stamped with the project whose root holds the file (if any).
func collectMemoryMD(src string, e env) ([]item, error) {
	data, err := vault.ReadInput(src, maxMemoryMD)
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
	if !markdown.Safe(data) {
		return nil, tooBig(src)
	}
	var mod frontmatter.Time
	if fi, err := os.Stat(src); err == nil {
		mod = frontmatter.NewTime(fi.ModTime())
	}
	return fileItems(mdFile{data: data, abs: abs, locator: e.sourceName(abs), legacy: abs,
		provenance: frontmatter.Stated, project: e.project(filepath.Dir(abs)), mod: mod, day: dailyDate(abs)}), nil
}

// tooBig refuses a bullet file past what the markdown reader takes.
func tooBig(path string) error {
	return fmt.Errorf("%s: over 256 KiB, or a line over 4 KiB: too large for a hand-kept memory file; split it", path)
}

// bulletItems turns bullets into memories. A bullet's identity is its text
// (and which occurrence of that text it is), not its line, so editing the
// file above it and importing again adds only what is new. A bullet with
// no stamp of its own takes its innermost dated heading's, else the file's
// day, else none.
func bulletItems(bullets []Bullet, f mdFile) []item {
	name := filepath.Base(f.abs)
	seen := map[string]int{}
	items := make([]item, 0, len(bullets))
	for _, b := range bullets {
		seen[b.Text]++
		loc := fmt.Sprintf("%s\x00%s\x00%d", f.locator, b.Text, seen[b.Text])
		if why := placeholder(b.Text); why != "" {
			items = append(items, item{locator: loc, skipped: &Refused{Where: fmt.Sprintf("%s:%d", f.abs, b.Line), Rule: "template-placeholder", Msg: why}})
			continue
		}
		text := b.Text
		if len(b.Parents) > 0 {
			// A nested bullet often only makes sense under its parent: keep
			// the parent as a second line when it fits a memory.
			under := text + "\nUnder: " + firstLine(b.Parents[len(b.Parents)-1], 120)
			if vault.CheckBoundary(under) == nil {
				text = under
			}
		}
		at := b.Date
		if at.IsZero() {
			at = headingStamp(b.Headings, f.day)
		}
		title := strings.Join(append(append([]string{name}, b.Headings...), b.Parents...), " › ")
		it := item{
			locator:    loc,
			Type:       typeForHeadings(b.Headings),
			section:    sectionForHeadings(b.Headings),
			provenance: f.provenance, text: text, validAt: at, project: f.project,
			source: frontmatter.Source{Resource: f.abs, ID: fmt.Sprintf("L%d", b.Line), Title: firstLine(title, 200), LastModified: f.mod},
		}
		if f.legacy != "" {
			it.legacy = fmt.Sprintf("%s\x00%s\x00%d", f.legacy, b.Text, seen[b.Text])
		}
		items = append(items, it)
	}
	return items
}
