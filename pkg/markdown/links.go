package markdown

import (
	"bytes"
	"regexp"
	"strings"
	"sync"

	"github.com/yuin/goldmark/ast"
)

// LinkKind tells a wikilink, an embed and a markdown link apart.
type LinkKind uint8

const (
	Wiki   LinkKind = iota // [[target]]
	Embed                  // ![[target]]
	Inline                 // [text](dest), ![alt](dest), or a reference link
)

// A Link is a link of a body to a file or a place in one.
type Link struct {
	Kind LinkKind
	// Target is a wikilink's name or path, trimmed, or a markdown link's
	// destination as written; Fragment is what followed it from its first
	// # (or a wikilink's ^): "#Heading", "#^block", "^block" or "".
	Target, Fragment, Alias string
	// Off is the byte offset in the source of a wikilink's "[[" or an
	// embed's "!", and of a markdown link's destination.
	Off int
	// span is the whole link as written, from its "[" (an embed's or an
	// image's "!") to after its "]]", ")" or closing "]"; text is a
	// markdown link's text, inside its brackets. A rewriter replaces span.
	// Both are zero when not known: a markdown link of a text read line by
	// line, or one whose destination is written with escapes.
	span, text Span
}

// A Footnote is a footnote reference [^label] or definition [^label]:.
type Footnote struct {
	Label string
	Off   int // of its "["
	def   bool
}

// Body is what Scan finds in a body, each list in source order.
type Body struct {
	Links     []Link
	Footnotes []Footnote
	// Comments are %% … %% and <!-- … --> (also inside an HTML block);
	// HTML is raw HTML, inline and blocks, comments included. A body read
	// by the line-based fallback (past Safe's limits) has neither.
	Comments, HTML []Span
}

// Scan reads src the way Obsidian does (CommonMark and the Obsidian
// extension) and lists its links, footnotes, comments and HTML, none from
// code: not from code spans, fenced blocks (whatever their fence: a ~~~~
// fence may hold ``` lines) or indented code. At most max links of each
// kind (wikilinks with embeds; markdown links) and max footnotes are kept.
//
// Most bodies hold nothing that could make a [[ mean anything else than a
// wikilink; they are read by a scanner that finds exactly what the parse
// would (FuzzScan checks it), in a fraction of its time. Texts past Safe's
// limits are read line by line (MaskFences), in linear time.
func Scan(s string, max int) Body {
	if !strings.ContainsAny(s, "[%<") {
		return Body{} // no link, comment or tag (most files): nothing to copy
	}
	src := []byte(s)
	if plain(src) {
		return scanPlain(src, src, max)
	}
	if !Safe(src) {
		return scanMasked(src, max)
	}
	return scanTree(src, max)
}

// plain reports a text in which a [[ can only be a wikilink and nothing
// else is a link, a comment or HTML: no code marker (a backtick, a ~~~
// fence, a tab or four spaces, which may indent code), no markdown link
// or definition ("](" , "]:"), footnote, %, <, backslash escape or CR.
func plain(src []byte) bool {
	return !bytes.ContainsAny(src, "`%<\\\t\r") && !bytes.Contains(src, []byte("~~~")) &&
		!bytes.Contains(src, []byte("    ")) && !bytes.Contains(src, []byte("](")) &&
		!bytes.Contains(src, []byte("]:")) && !bytes.Contains(src, []byte("[^"))
}

// scanPlain finds the wikilinks and embeds of masked (src, or src with its
// code blanked) and, when masked is not plain, its footnote references.
func scanPlain(src, masked []byte, max int) Body {
	var b Body
	links, notes := 0, 0
	for i := 0; i < len(masked); {
		j := bytes.IndexByte(masked[i:], '[')
		if j < 0 {
			break
		}
		at := i + j
		from := at
		if at > 0 && masked[at-1] == '!' && at-1 >= i {
			from = at - 1
		}
		if w, n := wiki(masked[from:]); n > 0 {
			if links < max {
				b.Links = append(b.Links, wikiLink(&w, Span{from, from + n}))
				links++
			}
			i = from + n
			continue
		}
		if label, n := footnoteLabel(masked[at:]); n > 0 {
			if notes < max {
				b.Footnotes = append(b.Footnotes, Footnote{Label: string(src[at+2 : at+2+len(label)]), Off: at})
				notes++
			}
			i = at + n
			continue
		}
		i = at + 1
	}
	return b
}

// wikiLink is the Link of w, written at span.
func wikiLink(w *WikiLink, span Span) Link {
	l := Link{Kind: Wiki, Target: string(w.target), Fragment: string(w.fragment), Alias: string(w.alias), Off: span.Start, span: span}
	if w.embed {
		l.Kind = Embed
	}
	return l
}

// mdDest is an inline link's destination in a text read line by line,
// with the link's text when it holds no bracket.
var mdDest = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?:\[([^\[\]\n]*))?\]\(\s*<?([^()\s<>]+)>?(?:\s+"[^"]*")?\s*\)`)
})

// scanMasked reads a text past Safe's limits with its code blanked by
// MaskFences: the wikilinks, footnote references and inline links the
// regexps of lines find. Footnote definitions are references here.
func scanMasked(src []byte, max int) Body {
	masked := []byte(MaskFences(string(src)))
	b := scanPlain(src, masked, max)
	for _, m := range mdDest().FindAllSubmatchIndex(masked, max) {
		l := inline(src[m[4]:m[5]], m[4])
		if m[2] >= 0 {
			l.span, l.text = Span{m[0], m[1]}, Span{m[2], m[3]}
		}
		b.Links = append(b.Links, l)
	}
	return b
}

// inline is the Link of a markdown link's destination dest at off.
func inline(dest []byte, off int) Link {
	l := Link{Kind: Inline, Target: string(dest), Off: off}
	if f := bytes.IndexByte(dest, '#'); f >= 0 {
		l.Target, l.Fragment = string(dest[:f]), string(dest[f:])
	}
	return l
}

// scanTree parses src with goldmark and walks the tree.
func scanTree(src []byte, max int) Body {
	t := &treeScan{src: src, max: max}
	_ = ast.Walk(Parse(src), t.node)
	return t.b
}

// treeScan is one walk of scanTree: what it found so far, at most max
// links of each kind and max footnotes.
type treeScan struct {
	src            []byte
	max            int
	b              Body
	wikis, inlines int
}

func (t *treeScan) node(n ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	switch n := n.(type) {
	case *ast.FencedCodeBlock, *ast.CodeBlock, *ast.CodeSpan:
		return ast.WalkSkipChildren, nil
	case *WikiLink:
		if t.wikis < t.max {
			t.b.Links = append(t.b.Links, wikiLink(n, n.span))
			t.wikis++
		}
	case *ast.Link:
		t.addInline(n.Pos(), n.Destination, n.Reference, false)
	case *ast.Image:
		t.addInline(n.Pos(), n.Destination, n.Reference, true)
	case *footnoteRef:
		t.addFootnote(Footnote{Label: string(n.label), Off: n.span.Start})
	case *footnoteDef:
		t.addFootnote(Footnote{Label: string(n.label), Off: n.off, def: true})
	case *comment:
		t.b.Comments = append(t.b.Comments, n.span)
	case *commentBlock:
		t.b.Comments = append(t.b.Comments, n.span)
		return ast.WalkSkipChildren, nil
	case *ast.RawHTML:
		if s := n.Segments; s.Len() > 0 {
			t.b.addHTML(t.src, Span{s.At(0).Start, s.At(s.Len() - 1).Stop})
		}
	case *ast.HTMLBlock:
		t.addHTMLBlock(n)
		return ast.WalkSkipChildren, nil
	}
	return ast.WalkContinue, nil
}

func (t *treeScan) addInline(pos int, dest []byte, ref *ast.ReferenceLink, image bool) {
	if t.inlines < t.max {
		off := destOff(t.src, pos, dest, ref != nil)
		l := inline(dest, off)
		l.span, l.text = linkSpan(t.src, pos, off, dest, ref, image)
		t.b.Links = append(t.b.Links, l)
		t.inlines++
	}
}

func (t *treeScan) addFootnote(f Footnote) {
	if len(t.b.Footnotes) < t.max {
		t.b.Footnotes = append(t.b.Footnotes, f)
	}
}

// addHTMLBlock lists an HTML block's lines, to its closing line, as HTML.
func (t *treeScan) addHTMLBlock(n *ast.HTMLBlock) {
	l := n.Lines()
	if l.Len() == 0 {
		return
	}
	end := l.At(l.Len() - 1).Stop
	if n.HasClosure() {
		end = n.ClosureLine.Stop
	}
	end = l.At(0).Start + len(bytes.TrimRight(t.src[l.At(0).Start:end], "\r\n"))
	t.b.addHTML(t.src, Span{l.At(0).Start, end})
}

// addHTML lists s as HTML, and each <!-- … --> in it as a comment: an
// HTML block may hold comments after a tag (<div>, then <!-- x -->),
// which a reader does not see either.
func (b *Body) addHTML(src []byte, s Span) {
	b.HTML = append(b.HTML, s)
	for i := s.Start; i < s.End; {
		j := bytes.Index(src[i:s.End], []byte("<!--"))
		if j < 0 {
			break
		}
		c := Span{i + j, s.End}
		if k := bytes.Index(src[c.Start+4:s.End], []byte("-->")); k >= 0 {
			c.End = c.Start + 4 + k + 3
		}
		b.Comments = append(b.Comments, c)
		i = c.End
	}
}

// destOff is the offset of a markdown link's destination: after the first
// "](" from its start at pos that is followed by it (the text of a link
// may hold an image, whose "](" comes first). A reference link's
// destination is in its definition: it is reported at the link.
func destOff(src []byte, pos int, dest []byte, ref bool) int {
	if ref || pos < 0 {
		return max(pos, 0)
	}
	for i := pos; i < len(src); {
		j := bytes.Index(src[i:], []byte("]("))
		if j < 0 {
			break
		}
		k := i + j + 2
		for k < len(src) && (src[k] == ' ' || src[k] == '\t' || src[k] == '\n') {
			k++
		}
		if k < len(src) && src[k] == '<' {
			k++
		}
		if bytes.HasPrefix(src[k:], dest) {
			return k
		}
		i = i + j + 2
	}
	return pos
}

// linkSpan finds where the markdown link at pos (its "[", an image's "!")
// ends and where its text is: goldmark keeps neither. off is the
// destination's offset (destOff) of an inline link; a reference link,
// [text][ref], [text][] or [text], ends with its label. Zero spans when
// the source does not read as expected (escapes in a destination).
func linkSpan(src []byte, pos, off int, dest []byte, ref *ast.ReferenceLink, image bool) (whole, text Span) {
	open := pos + 1
	if image {
		open++
	}
	if pos < 0 || open > len(src) || src[open-1] != '[' {
		return Span{}, Span{}
	}
	if ref != nil {
		return refSpan(src, pos, open, ref)
	}
	return inlineSpan(src, pos, open, off, dest)
}

// refSpan is linkSpan of a reference link whose text opens at open: it
// ends with its label, [text][ref], [text][] or [text].
func refSpan(src []byte, pos, open int, ref *ast.ReferenceLink) (whole, text Span) {
	label := ref.Value
	switch ref.Type {
	case ast.ReferenceLinkFull:
		i := bytes.Index(src[open:], append(append([]byte("]["), label...), ']'))
		if i < 0 {
			return Span{}, Span{}
		}
		return Span{pos, open + i + len(label) + 3}, Span{open, open + i}
	case ast.ReferenceLinkCollapsed, ast.ReferenceLinkShortcut:
		end := open + len(label)
		if !bytes.HasPrefix(src[open:], label) || end >= len(src) || src[end] != ']' {
			return Span{}, Span{}
		}
		whole = Span{pos, end + 1}
		if ref.Type == ast.ReferenceLinkCollapsed {
			if !bytes.HasPrefix(src[end+1:], []byte("[]")) {
				return Span{}, Span{}
			}
			whole.End += 2
		}
		return whole, Span{open, end}
	}
	return Span{}, Span{}
}

// inlineSpan is linkSpan of an inline link whose text opens at open and
// whose destination dest is at off: it ends with the ")" after the
// destination and its title, if any.
func inlineSpan(src []byte, pos, open, off int, dest []byte) (whole, text Span) {
	if off < open || off > len(src) || !bytes.HasPrefix(src[off:], dest) {
		return Span{}, Span{}
	}
	mid := bytes.LastIndex(src[open:off], []byte("]("))
	if mid < 0 {
		return Span{}, Span{}
	}
	i := off + len(dest)
	if src[off-1] == '<' {
		if i >= len(src) || src[i] != '>' {
			return Span{}, Span{}
		}
		i++
	}
	i = skipTitle(src, skipSpace(src, i))
	if i >= len(src) || src[i] != ')' {
		return Span{}, Span{}
	}
	return Span{pos, i + 1}, Span{open, open + mid}
}

// skipTitle skips a link's title at i ("…", '…' or (…), backslash
// escapes kept inside) and the space after it; i itself when none starts
// there.
func skipTitle(src []byte, i int) int {
	if i >= len(src) || src[i] != '"' && src[i] != '\'' && src[i] != '(' {
		return i
	}
	end := src[i]
	if end == '(' {
		end = ')'
	}
	for i++; i < len(src) && src[i] != end; i++ {
		if src[i] == '\\' {
			i++
		}
	}
	return skipSpace(src, i+1)
}

// skipSpace skips the spaces, tabs and line ends a link may hold between
// its destination, title and ")".
func skipSpace(src []byte, i int) int {
	for i < len(src) && (src[i] == ' ' || src[i] == '\t' || src[i] == '\n') {
		i++
	}
	return i
}
