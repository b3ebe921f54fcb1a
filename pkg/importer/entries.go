package importer

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/yuin/goldmark/ast"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/vault"
)

// A markdown store kept by hand or by an agent (a MEMORY.md, an OpenClaw
// daily file, a Codex decision log) holds two shapes of item: bullets, one
// claim each, and structured entries — a heading whose blocks are fields
// ("Context: …", "- **Decision**: …", "**背景：** …"). An entry is one
// memory (a note and its pointer when long), never one per field.

// mdFile is one markdown file of such a store.
type mdFile struct {
	data       []byte
	abs        string // the file's absolute path: sources.resource
	locator    string // its stable name in import keys, the same on every machine
	legacy     string // the locator an earlier mem used, or ""
	provenance string
	project    string
	mod        frontmatter.Time // the file's mtime: sources.last_modified only
	day        frontmatter.Time // the file's own date (a daily file's name), or zero
}

var (
	// A stamp the line carries anywhere, set off as code or bold: the
	// OpenClaw form `2026-02-19 22:13` and **2026-02-08 03:19**. A bare date
	// inside a sentence stays text (dateStamp's rule).
	inlineStampRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile("(?:`|\\*\\*)(\\d{4}-\\d{2}-\\d{2}(?:[ T]\\d{2}:\\d{2}(?::\\d{2})?)?)(?:`|\\*\\*)")
	})
	// A date (and time) anywhere in a heading: "## 2026-02-07",
	// "### 2026-02-19 22:13 deploy".
	headingDateRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?`)
	})
	// A time of day alone in a heading of a dated file: "## 凌晨 00:07 - Heartbeat".
	headingTimeRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|[^\d:])(\d{1,2}):(\d{2})(?:[^\d:]|$)`) })
	// A field label at the start of a block: "Context:", "**Decision:**",
	// "**断开**：", "- key: value". Emphasis is removed before matching.
	labelRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(?:[-*+]\s+|\d+[.)]\s+)?([^\s:：/][^:：\n/]{0,38}?)\s*(?:：|:(?:\s|$))`)
	})
	// Template placeholders: <…>, {{…}}, [Name] (not a link), TBD, TODO, N/A.
	placeholderRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<[^<>\n]*>|\{\{[^}\n]*\}\}|\[[^\]\n]*\](?:[^(\[]|$)|\b(?:tbd|todo|n/a|tk)\b|\.\.\.|…`)
	})
)

// inlineStamp removes the first code or bold date stamp from text and
// returns it; a stamp without a zone is read as UTC, as frontmatter reads
// one (docs/import.md).
func inlineStamp(text string) (string, frontmatter.Time) {
	m := inlineStampRe().FindStringSubmatchIndex(text)
	if m == nil {
		return text, frontmatter.Time{}
	}
	t, err := frontmatter.ParseTime(text[m[2]:m[3]])
	if err != nil {
		return text, frontmatter.Time{}
	}
	rest := strings.TrimSpace(text[:m[0]] + " " + text[m[1]:])
	rest = strings.TrimSpace(strings.Trim(rest, "—–-: "))
	if rest == "" {
		return text, frontmatter.Time{} // a bare stamp is the text, not its date
	}
	return rest, t
}

// headingStamp is the date (and time) the innermost heading that carries
// one gives; a time of day alone counts in a dated file (day).
func headingStamp(headings []string, day frontmatter.Time) frontmatter.Time {
	for i := len(headings) - 1; i >= 0; i-- {
		h := headings[i]
		if m := headingDateRe().FindStringSubmatch(h); m != nil {
			s := m[1]
			if m[2] != "" {
				s += " " + m[2]
			}
			if t, err := frontmatter.ParseTime(s); err == nil {
				return t
			}
		}
		if !day.IsZero() {
			if m := headingTimeRe().FindStringSubmatch(h); m != nil && len(m[1]) <= 2 {
				if t, err := frontmatter.ParseTime(fmt.Sprintf("%s %02s:%s", day.Day(), m[1], m[2])); err == nil {
					return t
				}
			}
		}
	}
	return day
}

// labelOf is a block's field label, or "".
func labelOf(line string) string {
	line = strings.NewReplacer("**", "", "__", "").Replace(strings.TrimSpace(line))
	m := labelRe().FindStringSubmatch(line)
	if m == nil || !strings.ContainsFunc(m[1], unicode.IsLetter) || len(strings.Fields(m[1])) > 5 {
		return ""
	}
	return m[1]
}

// placeholder says why a text is no claim once its labels and template
// placeholders are taken out, or "": "- Decision: <what was decided>",
// "[Name] — [Role]", "Status: TBD" hold only placeholders. A bare label
// ("- Toolchain:") is not one: its value is in the bullets under it.
func placeholder(text string) string {
	var rest, bare strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if l := labelOf(line); l != "" {
			line = strings.NewReplacer("**", "", "__", "").Replace(strings.TrimSpace(line))
			line = line[labelRe().FindStringIndex(line)[1]:]
		}
		bare.WriteString(line)
		rest.WriteString(placeholderRe().ReplaceAllString(line, " "))
		rest.WriteByte('\n')
	}
	says := func(s string) bool {
		return strings.ContainsFunc(s, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
	}
	if says(bare.String()) && !says(rest.String()) {
		return "a template placeholder (<…>, {{…}}, [Name], TBD), not a claim: nothing to import"
	}
	return ""
}

// section is a heading and the blocks up to the next heading.
type section struct {
	headings   []string // enclosing headings, outermost first, this one last
	level      int      // the heading's level
	line       int      // the heading's line
	hstart     int      // byte offset of the heading's line
	start, end int      // byte offsets of the body in the file's body
	blocks     int      // top-level blocks (a list counts each item, a paragraph each line)
	labelled   int      // those starting with a field label
}

// structured reports a section whose blocks are mostly fields: an entry.
func (s *section) structured() bool { return s.labelled >= 2 && 2*s.labelled >= s.blocks }

// sections reads the top-level headings of body and counts the labelled
// blocks under each.
func sections(src []byte, lineAt func(int) int) []*section {
	var (
		out      []*section
		cur      *section
		headings []string
		levels   []int
	)
	lineStart := func(off int) int { return bytes.LastIndexByte(src[:off], '\n') + 1 }
	count := func(n ast.Node, lines int) {
		if cur == nil {
			return
		}
		// A paragraph of "**Logged**: …" / "**Status**: …" lines is as
		// many fields as lines.
		for i := 0; i < min(lines, n.Lines().Len()); i++ {
			cur.blocks++
			if labelOf(string(src[n.Lines().At(i).Start:n.Lines().At(i).Stop])) != "" {
				cur.labelled++
			}
		}
	}
	doc := markdown.Parse(src)
	for n := doc.FirstChild(); n != nil; n = n.NextSibling() {
		switch n := n.(type) {
		case *ast.Heading:
			if n.Lines().Len() == 0 {
				continue
			}
			for len(levels) > 0 && levels[len(levels)-1] >= n.Level {
				levels, headings = levels[:len(levels)-1], headings[:len(headings)-1]
			}
			levels, headings = append(levels, n.Level), append(headings, markdown.LinesOf(n, src))
			at := n.Lines().At(0)
			if cur != nil {
				cur.end = lineStart(at.Start)
			}
			bodyStart := len(src)
			if i := bytes.IndexByte(src[at.Stop:], '\n'); i >= 0 {
				bodyStart = at.Stop + i + 1
			}
			cur = &section{headings: append([]string(nil), headings...), level: n.Level, line: lineAt(at.Start),
				hstart: lineStart(at.Start), start: bodyStart, end: len(src)}
			out = append(out, cur)
		case *ast.List:
			for c := n.FirstChild(); c != nil; c = c.NextSibling() {
				if p := c.FirstChild(); p != nil {
					count(p, 1)
				}
			}
		case *ast.Paragraph:
			count(n, n.Lines().Len())
		default:
			count(n, 1)
		}
	}
	return out
}

// fileItems turns a store's file into items: each structured section one
// entry, every other bullet one memory. Dates come from the item's own
// stamp, else its innermost dated heading, else the file's own day; none
// is ever made up. Placeholders are skipped with a reason.
func fileItems(f mdFile) []item {
	body, bodyLine := frontmatter.BodyOf(strings.ReplaceAll(string(f.data), "\r\n", "\n"))
	src := []byte(body)
	if !markdown.Safe(src) {
		return nil // the callers refuse such a file first (tooBig)
	}
	lineAt := func(off int) int { return bodyLine + bytes.Count(src[:off], []byte("\n")) }
	var items []item
	var entries []*section
	seen := map[string]int{}
	all := sections(src, lineAt)
	for i, s := range all {
		if !s.structured() || slices.ContainsFunc(entries, func(e *section) bool { return s.line > e.line && s.start <= e.end }) {
			continue
		}
		// An entry runs over its subsections ("### Summary", "### Details"
		// under "## [LRN-…]"), up to the next heading of its level or above.
		s.end = len(src)
		for _, next := range all[i+1:] {
			if next.level <= s.level {
				s.end = next.hstart
				break
			}
		}
		entries = append(entries, s)
		items = append(items, entryItem(f, s, src, seen))
	}
	var bullets []Bullet
	for _, b := range parseBullets(f.data) {
		inEntry := slices.ContainsFunc(entries, func(s *section) bool {
			return b.Line > s.line && (s.end == len(src) || b.Line < lineAt(s.end))
		})
		if !inEntry {
			bullets = append(bullets, b)
		}
	}
	return append(items, bulletItems(bullets, f)...)
}

// entryItem is the item of one structured section s of f's body src: its
// heading the title, dated by its own date field or its headings; a
// template's placeholder is skipped. seen counts the entries of each
// heading so far, which tells two of the same heading apart.
func entryItem(f mdFile, s *section, src []byte, seen map[string]int) item {
	heading := s.headings[len(s.headings)-1]
	text := strings.TrimSpace(string(src[s.start:s.end]))
	where := fmt.Sprintf("%s:%d", f.abs, s.line)
	seen["\x00entry\x00"+heading]++
	loc := fmt.Sprintf("%s\x00entry\x00%s\x00%d", f.locator, heading, seen["\x00entry\x00"+heading])
	if why := placeholder(text); why != "" {
		return item{locator: loc, skipped: &Refused{Where: where, Rule: "template-placeholder", Msg: why}}
	}
	title := strings.TrimSpace(strings.TrimLeft(heading, "#"))
	at := headingStamp(s.headings, f.day)
	if own := fieldDate(text); !own.IsZero() {
		at = own
	}
	it := item{
		locator: loc, Type: typeForHeadings(s.headings), section: sectionForHeadings(s.headings[:len(s.headings)-1]),
		provenance: f.provenance, text: title + "\n\n" + text, validAt: at, project: f.project,
		source: frontmatter.Source{Resource: f.abs, ID: fmt.Sprintf("L%d", s.line),
			Title: firstLine(strings.Join(append([]string{filepath.Base(f.abs)}, s.headings...), " › "), 200), LastModified: f.mod},
	}
	if vault.CheckBoundary(it.text) != nil {
		it.title, it.note, it.text = firstLine(title, 120), it.text, firstLine(title, 120)
	}
	if f.legacy != "" {
		it.legacy = fmt.Sprintf("%s\x00entry\x00%s\x00%d", f.legacy, heading, seen["\x00entry\x00"+heading])
	}
	return it
}

// dateLabels are the field labels whose value is the entry's date.
var dateLabels = map[string]bool{"date": true, "when": true, "日期": true, "时间": true, "date decided": true, "decided": true,
	"logged": true, "created": true, "created at": true, "date added": true}

// fieldDate is the date a "Date: 2026-01-10" field of an entry gives.
func fieldDate(text string) frontmatter.Time {
	for _, line := range strings.Split(text, "\n") {
		l := labelOf(line)
		if l == "" || !dateLabels[strings.ToLower(l)] {
			continue
		}
		plain := strings.NewReplacer("**", "", "__", "").Replace(strings.TrimSpace(line))
		value := strings.Trim(strings.TrimSpace(plain[labelRe().FindStringIndex(plain)[1]:]), "`")
		if t, err := frontmatter.ParseTime(value); err == nil {
			if !t.DateOnly {
				t = frontmatter.NewTime(t.Time) // an offset kept as the instant it names
			}
			return t
		}
		if m := headingDateRe().FindStringSubmatch(line); m != nil {
			s := m[1]
			if m[2] != "" {
				s += " " + m[2]
			}
			if t, err := frontmatter.ParseTime(s); err == nil {
				return t
			}
		}
	}
	return frontmatter.Time{}
}
