// Package markdown reads a note's body the way Obsidian does: goldmark
// (CommonMark) with an in-tree extension for wikilinks, embeds, %%
// comments and footnotes (obsidian.go). Scan walks the tree for links;
// the other readers mask or skip what a reader sees as code: code spans,
// fenced blocks (however long their fence: a ~~~~ fence may hold ```
// lines) and indented code. Regexps that pair fence lines cannot tell
// those apart.
package markdown

import (
	"bytes"
	"cmp"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// reader is goldmark's CommonMark block and inline parser with the
// Obsidian extension; it is safe for concurrent use (each Parse has its
// own context). Built on first use: most mem processes parse no markdown.
var reader = sync.OnceValue(func() parser.Parser { return goldmark.New(goldmark.WithExtensions(Obsidian)).Parser() })

// Parse reads src as CommonMark with Obsidian's additions. Every node's segments are byte offsets of
// src, so what a walk finds can be reported at its place in the file.
func Parse(src []byte) ast.Node { return reader().Parse(text.NewReader(src)) }

// LinesOf joins the source lines of a block node (a paragraph, a heading),
// each trimmed, with single spaces; "" for a node without lines.
func LinesOf(n ast.Node, src []byte) string {
	lines := n.Lines()
	parts := make([]string, 0, lines.Len())
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		if t := strings.TrimSpace(string(seg.Value(src))); t != "" {
			parts = append(parts, t)
		}
	}
	return strings.Join(parts, " ")
}

// mayHaveCode reports whether s may hold code a reader would see as code:
// a backtick, a ~~~ fence, or a line indented by a tab or four spaces. A
// body without any is returned as is by MaskCode, unparsed (most files).
func mayHaveCode(s string) bool {
	return strings.IndexByte(s, '`') >= 0 || strings.Contains(s, "~~~") ||
		strings.Contains(s, "\n    ") || strings.Contains(s, "\n\t") ||
		strings.HasPrefix(s, "    ") || strings.HasPrefix(s, "\t")
}

// Limits of what goldmark is given. Its inline and container parsing is
// quadratic in some constructs on one line (4,000 nested "[a](" take 70
// ms, 16,000 over a second), and a vault file may hold 1 MiB: past either
// limit the text is read by the line-based MaskFences instead.
const (
	maxParse     = 256 << 10
	maxParseLine = 4 << 10
)

// Safe reports whether s is within the limits goldmark is given.
func Safe(s []byte) bool {
	if len(s) > maxParse {
		return false
	}
	for len(s) > maxParseLine {
		i := bytes.IndexByte(s[:maxParseLine+1], '\n')
		if i < 0 {
			return false
		}
		s = s[i+1:]
	}
	return true
}

// MaskCode blanks the content of code spans and of fenced and indented
// code blocks, keeping every offset and newline in place, so offsets found
// in the result are offsets of s. A text past Safe's limits is masked by
// MaskFences.
func MaskCode(s string) string {
	if !mayHaveCode(s) {
		return s
	}
	if !Safe([]byte(s)) {
		return MaskFences(s)
	}
	m := &masker{s: s}
	_ = ast.Walk(Parse([]byte(s)), m.node)
	if m.b == nil {
		return s
	}
	return string(m.b)
}

// masker blanks the code of s, copying it on the first blank.
type masker struct {
	s string
	b []byte
}

// blank replaces s[from:to] by spaces, newlines kept.
func (m *masker) blank(from, to int) {
	if m.b == nil {
		m.b = []byte(m.s)
	}
	for i := from; i < to && i < len(m.b); i++ {
		if m.b[i] != '\n' {
			m.b[i] = ' '
		}
	}
}

// node blanks the content of a code block (and a fence's info string) or
// of a code span.
func (m *masker) node(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock:
		lines := n.Lines()
		for i := 0; i < lines.Len(); i++ {
			seg := lines.At(i)
			m.blank(seg.Start, seg.Stop)
		}
		if f, ok := n.(*ast.FencedCodeBlock); ok && f.Info != nil {
			m.blank(f.Info.Segment.Start, f.Info.Segment.Stop)
		}
		return ast.WalkSkipChildren, nil
	case *ast.CodeSpan:
		for c := n.FirstChild(); c != nil; c = c.NextSibling() {
			if t, ok := c.(*ast.Text); ok {
				m.blank(t.Segment.Start, t.Segment.Stop)
			}
		}
		return ast.WalkSkipChildren, nil
	}
	return ast.WalkContinue, nil
}

// RewriteLinks rewrites the links of s whose target to knows, as Scan
// reads them, so none in code: markdown links (inline and reference
// links, not images) and wikilinks (not embeds) to [[id#fragment|text]]
// when to gives an id, to the bare text when it gives "" (a link that
// would not resolve); a reference definition's destination to /id.md, from
// the vault's root. to is asked a link's Target (a markdown link's
// destination up to any #, a wikilink's name). Other links, and markdown
// links whose text holds a bracket or a line end (no wikilink alias can),
// stay as they are.
func RewriteLinks(s string, to func(target string) (id string, ok bool)) string {
	if !strings.Contains(s, "](") && !strings.Contains(s, "]:") && !strings.Contains(s, "[[") {
		return s // no inline link or wikilink, and no definition
	}
	var b strings.Builder
	last := 0
	for _, l := range Scan(s, len(s)).Links {
		w := l.span
		if w.Start < last {
			continue
		}
		text, ok := rewritable(s, l)
		if !ok {
			continue
		}
		id, ok := to(l.Target)
		if !ok {
			continue
		}
		b.WriteString(s[last:w.Start])
		if id == "" {
			b.WriteString(text)
		} else {
			b.WriteString("[[" + id + l.Fragment + "|" + text + "]]")
		}
		last = w.End
	}
	if last > 0 {
		b.WriteString(s[last:])
		s = b.String()
	}
	return rewriteDefinitions(s, to)
}

// rewritable is the text a rewritten link l of s shows; ok is false for
// an embed, an image, a link not read in full, or a markdown link whose
// text no wikilink alias can hold (a bracket, a line end).
func rewritable(s string, l Link) (text string, ok bool) {
	w := l.span
	if l.Kind == Embed || w.End == 0 || s[w.Start] == '!' || w.Start > 0 && s[w.Start-1] == '!' {
		return "", false
	}
	if l.Kind == Wiki {
		return cmp.Or(l.Alias, l.Target), true
	}
	text = s[l.text.Start:l.text.End]
	return text, !strings.ContainsAny(text, "[]\n")
}

// refDefinition is a reference definition's line start: up to three
// spaces, [label]:, the destination.
var refDefinition = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^ {0,3}\[[^\]\n]+\]:[ \t]*(<[^>\n]*>|\S+)`)
})

// rewriteDefinitions points the reference definitions of s (outside code)
// whose destination to knows at /id.md.
func rewriteDefinitions(s string, to func(string) (string, bool)) string {
	if !strings.Contains(s, "]:") {
		return s
	}
	masked := MaskCode(s)
	var b strings.Builder
	last := 0
	for _, m := range refDefinition().FindAllStringSubmatchIndex(masked, -1) {
		dest := strings.Trim(s[m[2]:m[3]], "<>")
		target, _, _ := strings.Cut(dest, "#")
		id, ok := to(target)
		if !ok || id == "" {
			continue
		}
		b.WriteString(s[last:m[2]])
		b.WriteString("</" + id + ".md" + strings.TrimPrefix(dest, target) + ">")
		last = m[3]
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// Span is a byte range [Start, End) of a source.
type Span struct{ Start, End int }

// linkTail is what a mark must not split outside the text of a link: a
// link's or image's (destination), and a footnote reference [^label].
var linkTail = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\]\([^()\n]*\)|\[\^[^\]\s]+\]`) })

// Unmarkable returns the ranges of src where a highlight's ** must not go:
// the note's own strong emphasis (marks there would nest: **JSON **Canvas****),
// code (shown literally), wikilinks, link destinations and footnote
// references (a mark inside [[…]], (url) or [^id] breaks it), as the one
// parse Scan makes reads them. Ranges are sorted by start and may overlap.
func Unmarkable(src []byte) []Span {
	if !Safe(src) {
		return linkSpans(src, MaskFences(string(src)), nil)
	}
	var out []Span
	_ = ast.Walk(Parse(src), func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch n := n.(type) {
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			if l := n.Lines(); l.Len() > 0 {
				out = append(out, Span{l.At(0).Start, l.At(l.Len() - 1).Stop})
			}
			return ast.WalkSkipChildren, nil
		case *WikiLink:
			out = append(out, n.span)
		case *footnoteRef:
			out = append(out, n.span)
		case *footnoteDef:
			out = append(out, Span{n.off, n.off + len(n.label) + 3}) // [^label]
		case *ast.Link:
			out = destSpan(src, n.Pos(), n.Destination, n.Reference != nil, out)
		case *ast.Image:
			out = destSpan(src, n.Pos(), n.Destination, n.Reference != nil, out)
		case *ast.CodeSpan, *ast.Emphasis:
			return markedSpan(src, n, &out), nil
		}
		return ast.WalkContinue, nil
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}

// destSpan adds to out the "](destination)" of a link or image at pos
// with destination d, when it is written inline where it was read.
func destSpan(src []byte, pos int, d []byte, ref bool, out []Span) []Span {
	if ref {
		return out // [text][ref]: no destination here
	}
	pos = max(pos, 0)
	off := destOff(src, pos, d, false)
	start := bytes.LastIndex(src[pos:off], []byte("]("))
	if start < 0 || off+len(d) > len(src) {
		return out // not found where it was written
	}
	if i := bytes.IndexByte(src[off+len(d):], ')'); i >= 0 {
		out = append(out, Span{pos + start, off + len(d) + i + 1})
	}
	return out
}

// markedSpan adds to out a code span or a strong emphasis, with its
// backticks or asterisks; an emphasis of one mark is walked into instead.
func markedSpan(src []byte, n ast.Node, out *[]Span) ast.WalkStatus {
	pad := 1 // a code span's backtick
	if e, ok := n.(*ast.Emphasis); ok {
		if e.Level < 2 {
			return ast.WalkContinue
		}
		pad = e.Level
	}
	if s, ok := textSpan(n); ok {
		*out = append(*out, Span{max(s.Start-pad, 0), min(s.End+pad, len(src))})
	}
	return ast.WalkSkipChildren
}

// linkSpans adds the wikilinks, link destinations and footnote references
// of masked (src with its code blanked) to out: Unmarkable's line-based
// reading of a text past Safe's limits.
func linkSpans(src []byte, masked string, out []Span) []Span {
	for _, loc := range linkTail().FindAllStringIndex(masked, -1) {
		out = append(out, Span{loc[0], loc[1]})
	}
	for i := 0; ; {
		j := strings.Index(masked[i:], "[[")
		if j < 0 {
			break
		}
		start := i + j
		k := strings.Index(masked[start:], "]]")
		if k < 0 || strings.IndexByte(masked[start:start+k], '\n') >= 0 {
			i = start + 2
			continue
		}
		out = append(out, Span{start, start + k + 2})
		i = start + k + 2
	}
	return out
}

// textSpan is the range covered by the text under n.
func textSpan(n ast.Node) (Span, bool) {
	s, found := Span{}, false
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if t, ok := c.(*ast.Text); ok && entering {
			if !found || t.Segment.Start < s.Start {
				s.Start = t.Segment.Start
			}
			if !found || t.Segment.Stop > s.End {
				s.End = t.Segment.Stop
			}
			found = true
		}
		return ast.WalkContinue, nil
	})
	return s, found
}

// Heading is one ATX or setext heading of a body.
type Heading struct {
	Level int
	Text  string
	Off   int // byte offset of its text in the source
	// Code: the next block is a fenced or indented code block.
	Code bool
}

// Headings lists the top-level headings of src, in order; none for a
// text past Safe's limits.
func Headings(src []byte) []Heading {
	var out []Heading
	if !Safe(src) {
		return nil
	}
	for n := Parse(src).FirstChild(); n != nil; n = n.NextSibling() {
		h, ok := n.(*ast.Heading)
		if !ok || h.Lines().Len() == 0 {
			continue
		}
		next := h.NextSibling()
		code := next != nil && (next.Kind() == ast.KindFencedCodeBlock || next.Kind() == ast.KindCodeBlock)
		out = append(out, Heading{Level: h.Level, Text: LinesOf(h, src), Off: h.Lines().At(0).Start, Code: code})
	}
	return out
}

var (
	fenceLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("(?m)^[ \t]{0,3}(```|~~~)") })
	inlineCode = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("`[^`\n]+`") })
)

// MaskFences is the line-based approximation of MaskCode: fence lines
// paired in order and one-line code spans, no indented code. It is linear,
// for texts too large to parse.
func MaskFences(s string) string {
	if strings.IndexByte(s, '`') < 0 && !strings.Contains(s, "~~~") {
		return s // no fence, no span: nothing to blank (most files)
	}
	b := []byte(s)
	blank := func(from, to int) {
		for i := from; i < to; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	fences := fenceLine().FindAllStringIndex(s, -1)
	for i := 0; i < len(fences); i += 2 {
		end := len(s)
		if i+1 < len(fences) {
			end = fences[i+1][1]
		}
		blank(fences[i][0], end)
	}
	for _, loc := range inlineCode().FindAllIndex(b, -1) {
		blank(loc[0], loc[1])
	}
	return string(b)
}
