package markdown

import (
	"bytes"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Obsidian is the goldmark extension for what Obsidian adds to CommonMark
// that changes what a body links to or hides from its reader: [[wikilinks]]
// and ![[embeds]], %% comments %% and footnotes. Each becomes a node of the
// tree, as zk's adapter/markdown/extensions does it, so a walk finds them
// where a reader sees them and never inside code. The ready-made wikilink
// module is not used: it is not served here, and it knows neither \| nor %%.
var Obsidian goldmark.Extender = obsidian{}

type obsidian struct{}

func (obsidian) Extend(m goldmark.Markdown) {
	m.Parser().AddOptions(
		parser.WithBlockParsers(
			util.Prioritized(commentBlockParser{}, 750),
			util.Prioritized(footnoteDefParser{}, 999), // before the paragraph's link definitions
		),
		// Before goldmark's link parser (200), which reads "[" and "!" too.
		parser.WithInlineParsers(
			util.Prioritized(bracketParser{}, 199),
			util.Prioritized(commentParser{}, 199),
		),
	)
}

// Node kinds of the extension.
var (
	kindWikiLink     = ast.NewNodeKind("WikiLink")
	kindComment      = ast.NewNodeKind("Comment")
	kindCommentBlock = ast.NewNodeKind("CommentBlock")
	kindFootnoteRef  = ast.NewNodeKind("FootnoteRef")
	kindFootnoteDef  = ast.NewNodeKind("FootnoteDef")
)

// WikiLink is [[target#fragment|alias]], or ![[…]] (an embed). Its
// fields are slices of the source.
type WikiLink struct {
	ast.BaseInline
	embed                   bool
	target, fragment, alias []byte
	span                    Span // from "[[" or "!" to after "]]"
}

func (n *WikiLink) Kind() ast.NodeKind { return kindWikiLink }
func (n *WikiLink) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Target": string(n.target), "Fragment": string(n.fragment), "Alias": string(n.alias)}, nil)
}

// comment is an Obsidian comment, %% … %%: inline (within a paragraph,
// which it may cross lines of) or a block from a line starting with %% to
// the line holding the next %% (to the end when none does, as Obsidian
// hides it).
type comment struct {
	ast.BaseInline
	span Span
}

func (n *comment) Kind() ast.NodeKind         { return kindComment }
func (n *comment) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }

// commentBlock is the block form of comment.
type commentBlock struct {
	ast.BaseBlock
	span Span
}

func (n *commentBlock) Kind() ast.NodeKind         { return kindCommentBlock }
func (n *commentBlock) Dump(src []byte, level int) { ast.DumpHelper(n, src, level, nil, nil) }
func (n *commentBlock) IsRaw() bool                { return true }

// footnoteRef is a footnote reference, [^label].
type footnoteRef struct {
	ast.BaseInline
	label []byte
	span  Span
}

func (n *footnoteRef) Kind() ast.NodeKind { return kindFootnoteRef }
func (n *footnoteRef) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Label": string(n.label)}, nil)
}

// footnoteDef is a footnote definition, "[^label]: text" at the start of a
// line, with its indented continuation lines as children. It stays where
// it is written (goldmark's footnote extension moves definitions to a list
// and drops unreferenced ones: it renders, this reads).
type footnoteDef struct {
	ast.BaseBlock
	label []byte
	off   int // of its "["
}

func (n *footnoteDef) Kind() ast.NodeKind { return kindFootnoteDef }
func (n *footnoteDef) Dump(src []byte, level int) {
	ast.DumpHelper(n, src, level, map[string]string{"Label": string(n.label)}, nil)
}

// wiki reads a wikilink at the start of s, "[[…]]" or "![[…]]", on one
// line with no bracket inside: n is its length, 0 when s starts with none.
// A pipe, or the \| Obsidian writes inside a table, starts the alias; the
// target ends at its first # (a heading) or ^ (a block), which Obsidian
// does not allow in a file's name. Both the goldmark parser and the
// scanner of plain bodies read wikilinks with it.
func wiki(s []byte) (w WikiLink, n int) {
	i := 0
	if len(s) > 0 && s[0] == '!' {
		w.embed, i = true, 1
	}
	if len(s) < i+4 || s[i] != '[' || s[i+1] != '[' {
		return w, 0
	}
	j := closingBrackets(s, i+2)
	if j < 0 {
		return w, 0
	}
	inner := s[i+2 : j]
	if len(bytes.TrimSpace(inner)) == 0 {
		return w, 0 // [[]] is text in Obsidian
	}
	w.target = inner
	if p := bytes.IndexByte(inner, '|'); p >= 0 {
		w.target, w.alias = inner[:p], inner[p+1:]
		w.target = bytes.TrimSuffix(w.target, []byte{'\\'})
	}
	if f := bytes.IndexAny(w.target, "#^"); f >= 0 {
		w.target, w.fragment = w.target[:f], w.target[f:]
	}
	w.target = bytes.TrimSpace(w.target)
	return w, j + 2
}

// closingBrackets is the offset of the "]]" that closes a wikilink whose
// text starts at from, or -1 when a bracket or a line end comes first.
func closingBrackets(s []byte, from int) int {
	for j := from; j+1 < len(s); j++ {
		switch s[j] {
		case '[', '\n', '\r':
			return -1
		case ']':
			if s[j+1] != ']' {
				return -1
			}
			return j
		}
	}
	return -1
}

// footnoteLabel reads "[^label]" at the start of s: the label holds no
// space or bracket. n is the length, 0 when s starts with none.
func footnoteLabel(s []byte) (label []byte, n int) {
	if len(s) < 4 || s[0] != '[' || s[1] != '^' {
		return nil, 0
	}
	for j := 2; j < len(s) && j < 1000; j++ {
		switch c := s[j]; {
		case c == ']':
			if j == 2 {
				return nil, 0
			}
			return s[2:j], j + 1
		case c == '[' || c == ' ' || c == '\t' || c == '\n' || c == '\r':
			return nil, 0
		}
	}
	return nil, 0
}

// bracketParser reads wikilinks, embeds and footnote references.
type bracketParser struct{}

func (bracketParser) Trigger() []byte { return []byte{'[', '!'} }

func (bracketParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	if w, n := wiki(line); n > 0 {
		w.span = Span{seg.Start, seg.Start + n}
		block.Advance(n)
		return &w
	}
	if label, n := footnoteLabel(line); n > 0 {
		block.Advance(n)
		return &footnoteRef{label: label, span: Span{seg.Start, seg.Start + n}}
	}
	return nil
}

// commentParser reads an inline %% comment %%, which may cross the lines
// of its paragraph (an opener without a closer is text), and an HTML
// comment opener, <!--, that no --> closes in its paragraph: CommonMark
// calls it text, but marked (a comment is <!-- up to --> or the end)
// hides the rest of the paragraph, and a hidden-comment check must not
// miss it. A closed <!-- … --> is left to goldmark's raw HTML.
type commentParser struct{}

func (commentParser) Trigger() []byte { return []byte{'%', '<'} }

func (commentParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, seg := block.PeekLine()
	opener, closer, skip := []byte("%%"), []byte("%%"), 2
	if line[0] == '<' {
		// Search from the opener's "--": <!--> and <!---> are closed.
		opener, closer = []byte("<!--"), []byte("-->")
	}
	if !bytes.HasPrefix(line, opener) {
		return nil
	}
	l, pos := block.Position()
	start, end := seg.Start, seg.Start
	for {
		line, seg := block.PeekLine()
		if line == nil {
			break
		}
		if i := bytes.Index(line[skip:], closer); i >= 0 {
			if opener[0] == '<' {
				block.SetPosition(l, pos)
				return nil
			}
			block.Advance(skip + i + 2)
			return &comment{span: Span{start, seg.Start + skip + i + 2}}
		}
		end = seg.Start + len(bytes.TrimRight(line, "\r\n"))
		block.AdvanceLine()
		skip = 0
	}
	if opener[0] == '<' {
		return &comment{span: Span{start, end}}
	}
	block.SetPosition(l, pos)
	return nil
}

// commentBlockParser reads a %% comment that starts a line and does not
// close on it: it runs to the line holding the next %%.
type commentBlockParser struct{}

func (commentBlockParser) Trigger() []byte { return []byte{'%'} }

func (commentBlockParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 || !bytes.HasPrefix(line[pos:], []byte("%%")) || bytes.Contains(line[pos+2:], []byte("%%")) {
		return nil, parser.NoChildren
	}
	start := seg.Start - seg.Padding + pos
	n := &commentBlock{span: Span{start, seg.Stop}}
	reader.AdvanceToEOL()
	return n, parser.NoChildren
}

func (commentBlockParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, seg := reader.PeekLine()
	n := node.(*commentBlock)
	if i := bytes.Index(line, []byte("%%")); i >= 0 {
		n.span.End = seg.Start + i + 2
		reader.AdvanceToEOL()
		return parser.Close
	}
	n.span.End = seg.Stop
	reader.AdvanceToEOL()
	return parser.Continue | parser.NoChildren
}

func (commentBlockParser) Close(ast.Node, text.Reader, parser.Context) {}
func (commentBlockParser) CanInterruptParagraph() bool                 { return true }
func (commentBlockParser) CanAcceptIndentedLine() bool                 { return false }

// footnoteDefParser reads "[^label]: text" and its indented continuation,
// as goldmark's footnote extension does.
type footnoteDefParser struct{}

func (footnoteDefParser) Trigger() []byte { return []byte{'['} }

func (footnoteDefParser) Open(parent ast.Node, reader text.Reader, pc parser.Context) (ast.Node, parser.State) {
	line, seg := reader.PeekLine()
	pos := pc.BlockOffset()
	if pos < 0 {
		return nil, parser.NoChildren
	}
	label, n := footnoteLabel(line[pos:])
	if n == 0 || pos+n >= len(line) || line[pos+n] != ':' {
		return nil, parser.NoChildren
	}
	def := &footnoteDef{label: label, off: seg.Start - seg.Padding + pos}
	next := pos + n + 1 - seg.Padding
	if next >= len(line) {
		reader.Advance(next)
		return def, parser.NoChildren
	}
	reader.AdvanceAndSetPadding(next, seg.Padding)
	return def, parser.HasChildren
}

func (footnoteDefParser) Continue(node ast.Node, reader text.Reader, pc parser.Context) parser.State {
	line, _ := reader.PeekLine()
	if util.IsBlank(line) {
		return parser.Continue | parser.HasChildren
	}
	pos, padding := util.IndentPosition(line, reader.LineOffset(), 4)
	if pos < 0 {
		return parser.Close
	}
	reader.AdvanceAndSetPadding(pos, padding)
	return parser.Continue | parser.HasChildren
}

func (footnoteDefParser) Close(ast.Node, text.Reader, parser.Context) {}
func (footnoteDefParser) CanInterruptParagraph() bool                 { return true }
func (footnoteDefParser) CanAcceptIndentedLine() bool                 { return false }
