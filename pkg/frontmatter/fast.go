package frontmatter

import (
	"strings"
	"sync"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// The fast path. yaml.v3 costs ~20 µs a file, most of a cold load of a large
// vault, yet nearly every file holds the frontmatter mem's own writer
// produces: a block mapping of known keys whose values are single-line
// scalars, lists of them, or small maps of them. fastParser reads exactly
// that subset into the node shapes yaml.v3 would build (a scalar's Value, and
// the tag only where it matters: !!null), so decodeMapping types both alike.
// Anything it does not fully understand — comments, anchors, aliases, tags,
// block or multi-line scalars, escapes, deeper nesting, unknown keys, odd
// indentation or characters — returns nil and the file goes through yaml.v3.
// FuzzFastPathMatchesYAML holds the two paths to the same Document.

// parseFast decodes text into doc when the fast path is sure of it, and
// reports whether it was. On false doc's frontmatter fields are as they
// were (empty).
func parseFast(doc *Document, text string) bool {
	p := parsers.Get().(*fastParser)
	defer p.release()
	m := p.mapping(text)
	if m == nil {
		return false
	}
	// Decoded in place: a Document of its own would escape through the
	// field table's accessors, one allocation a file.
	doc.Keys = make(map[string]Pos, len(m.Content)/2)
	decodeMapping(doc, m)
	if len(doc.Extra) > 0 || len(doc.Problems) > 0 {
		// Kept values must be yaml.v3's own nodes; problems name its positions.
		doc.Meta, doc.Keys, doc.Extra, doc.Problems = Meta{}, map[string]Pos{}, nil, nil
		return false
	}
	return true
}

type fastParser struct {
	text string
	pos  int // offset of the next unread line
	line int // line number (in text, 1-based) of the last line read
	// Nodes are reused from file to file: nothing keeps them once a file
	// is decoded (Meta holds only strings, slices of the file's text).
	chunks [][]yaml.Node
	used   int
}

const nodeChunk = 64

var parsers = sync.Pool{New: func() any { return new(fastParser) }}

// release returns p to the pool, unless a huge file made it hold too much.
func (p *fastParser) release() {
	if len(p.chunks) <= 4 {
		p.text, p.pos, p.line, p.used = "", 0, 0, 0
		parsers.Put(p)
	}
}

// mapping returns the top-level mapping of text, or nil when text is not
// in the subset.
func (p *fastParser) mapping(text string) *yaml.Node {
	if !plainChars(text) {
		return nil
	}
	p.text = text
	root := p.node(yaml.MappingNode, "")
	for {
		l, ok := p.next()
		if !ok {
			break
		}
		key, rest, ok := splitKey(l)
		if !ok || fieldByKey[key] == nil {
			return nil
		}
		k := p.node(yaml.ScalarNode, key)
		k.Line, k.Column = p.line, 1
		v := p.topValue(rest)
		if v == nil {
			return nil
		}
		root.Content = append(root.Content, k, v)
	}
	if len(root.Content) == 0 {
		return nil
	}
	return root
}

// plainChars reports whether text holds only characters whose meaning is
// plain: printable ASCII, newlines and printable non-ASCII that YAML does not
// read as a line break or a byte order mark. Tabs fall back too.
func plainChars(text string) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if c < utf8.RuneSelf {
			if c != '\n' && (c < 0x20 || c > 0x7E) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(text[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			return false
		case r < 0xA0, r == 0x2028, r == 0x2029, r == 0xFEFF, r >= 0xD800 && r < 0xE000, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

// node hands out the next free node, cleared (its Content array is kept
// for reuse). A file needs a dozen or two.
func (p *fastParser) node(kind yaml.Kind, value string) *yaml.Node {
	c := p.used / nodeChunk
	if c == len(p.chunks) {
		p.chunks = append(p.chunks, make([]yaml.Node, nodeChunk))
	}
	n := &p.chunks[c][p.used%nodeChunk]
	p.used++
	*n = yaml.Node{Kind: kind, Value: value, Content: n.Content[:0]}
	return n
}

func (p *fastParser) scalar(value string, null bool) *yaml.Node {
	n := p.node(yaml.ScalarNode, value)
	if null {
		n.Tag = "!!null"
	}
	return n
}

// peek returns the next non-empty line without consuming it, and its indent.
func (p *fastParser) peek() (line string, indent, end int, ok bool) {
	pos := p.pos
	for pos < len(p.text) {
		end = strings.IndexByte(p.text[pos:], '\n')
		if end < 0 {
			end = len(p.text)
		} else {
			end += pos
		}
		if end > pos {
			line = p.text[pos:end]
			indent = len(line) - len(strings.TrimLeft(line, " "))
			return line, indent, end, true
		}
		pos = end + 1
	}
	return "", 0, 0, false
}

// next consumes the next non-empty line.
func (p *fastParser) next() (string, bool) {
	line, _, end, ok := p.peek()
	if !ok {
		return "", false
	}
	p.line += strings.Count(p.text[p.pos:end], "\n") + 1
	p.pos = end + 1
	return line, true
}

// splitKey splits "key: rest" or "key:" (a key of [a-z_], no indent).
func splitKey(l string) (key, rest string, ok bool) {
	i := 0
	for i < len(l) && (l[i] >= 'a' && l[i] <= 'z' || l[i] == '_') {
		i++
	}
	if i == 0 || i == len(l) || l[i] != ':' {
		return "", "", false
	}
	rest = l[i+1:]
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	return l[:i], strings.Trim(rest, " "), true
}

// topValue reads the value of a top-level key: rest of its line, or the
// block list or map on the lines below.
func (p *fastParser) topValue(rest string) *yaml.Node {
	switch {
	case rest == "":
		l, indent, _, ok := p.peek()
		if !ok {
			return p.scalar("", true)
		}
		if isItem(l[indent:]) {
			return p.blockList(indent)
		}
		if indent == 0 {
			return p.scalar("", true)
		}
		return p.mapEntries(p.node(yaml.MappingNode, ""), indent)
	case rest[0] == '[':
		return p.flow(rest, yaml.SequenceNode)
	case rest[0] == '{':
		return p.flow(rest, yaml.MappingNode)
	}
	v, null, ok := blockScalar(rest)
	if !ok {
		return nil
	}
	return p.scalar(v, null)
}

func isItem(l string) bool { return strings.HasPrefix(l, "- ") }

// blockList reads "- item" lines at indent: scalars, or maps whose further
// keys sit under the first one.
func (p *fastParser) blockList(indent int) *yaml.Node {
	seq := p.node(yaml.SequenceNode, "")
	for {
		l, in, _, ok := p.peek()
		if !ok || in != indent || !isItem(l[in:]) {
			return seq
		}
		p.next()
		item := l[in+2:]
		if item == "" || item[0] == ' ' {
			return nil
		}
		var v *yaml.Node
		if key, rest, ok := splitKey(item); ok {
			v = p.node(yaml.MappingNode, "")
			if !p.entry(v, key, rest, indent+2) || p.mapEntries(v, indent+2) == nil {
				return nil
			}
		} else {
			s, null, ok := blockScalar(strings.TrimRight(item, " "))
			if !ok {
				return nil
			}
			v = p.scalar(s, null)
		}
		seq.Content = append(seq.Content, v)
	}
}

// mapEntries adds the "key: scalar" lines at indent to m.
func (p *fastParser) mapEntries(m *yaml.Node, indent int) *yaml.Node {
	for {
		l, in, _, ok := p.peek()
		if !ok || in != indent {
			return m
		}
		key, rest, ok := splitKey(l[in:])
		if !ok {
			return m // a list item, or not a key: the caller decides
		}
		p.next()
		if !p.entry(m, key, rest, indent) {
			return nil
		}
	}
}

// entry adds key: rest to a nested map. An empty value must not open a
// deeper block.
func (p *fastParser) entry(m *yaml.Node, key, rest string, indent int) bool {
	var v *yaml.Node
	if rest == "" {
		if l, in, _, ok := p.peek(); ok && (in > indent || in == indent && strings.HasPrefix(l[in:], "-")) {
			return false
		}
		v = p.scalar("", true)
	} else {
		s, null, ok := blockScalar(rest)
		if !ok {
			return false
		}
		v = p.scalar(s, null)
	}
	m.Content = append(m.Content, p.node(yaml.ScalarNode, key), v)
	return true
}

// flow reads a one-line flow list [a, b] or map {k: v, k: v} of scalars.
func (p *fastParser) flow(s string, kind yaml.Kind) *yaml.Node {
	closing := byte(']')
	if kind == yaml.MappingNode {
		closing = '}'
	}
	n := p.node(kind, "")
	i := skipSpaces(s, 1)
	if i < len(s) && s[i] == closing {
		return endsLine(s, i, n)
	}
	for {
		if kind == yaml.MappingNode {
			key, next, ok := flowKey(s, i)
			if !ok {
				return nil
			}
			n.Content = append(n.Content, p.node(yaml.ScalarNode, key))
			i = next
		}
		v, null, next, ok := flowScalar(s, i)
		if !ok {
			return nil
		}
		n.Content = append(n.Content, p.scalar(v, null))
		i = skipSpaces(s, next)
		switch {
		case i >= len(s):
			return nil
		case s[i] == closing:
			return endsLine(s, i, n)
		case s[i] != ',':
			return nil
		}
		i = skipSpaces(s, i+1)
	}
}

// endsLine is n when the closing bracket at s[i] ends the line (spaces
// aside), else nil.
func endsLine(s string, i int, n *yaml.Node) *yaml.Node {
	if skipSpaces(s, i+1) != len(s) {
		return nil
	}
	return n
}

// flowKey reads a flow map's key at s[i] (lower-case letters and _) and
// its ": ", and returns where its value starts.
func flowKey(s string, i int) (key string, next int, ok bool) {
	j := i
	for j < len(s) && (s[j] >= 'a' && s[j] <= 'z' || s[j] == '_') {
		j++
	}
	if j == i || j+1 >= len(s) || s[j] != ':' || s[j+1] != ' ' {
		return "", 0, false
	}
	return s[i:j], skipSpaces(s, j+1), true
}

func skipSpaces(s string, i int) int {
	for i < len(s) && s[i] == ' ' {
		i++
	}
	return i
}

// startsPlain reports whether c may begin a plain scalar in the subset: YAML
// indicators begin something else (or, like '-', only sometimes a scalar).
func startsPlain(c byte) bool {
	return !strings.ContainsRune("-?:,[]{}#&*!|>'\"%@` ", rune(c))
}

// isNull reports whether a plain scalar resolves to null.
func isNull(s string) bool {
	switch s {
	case "", "~", "null", "Null", "NULL":
		return true
	}
	return false
}

// blockScalar reads a whole single-line value s (no leading or trailing
// spaces): plain, or quoted without escapes.
func blockScalar(s string) (value string, null, ok bool) {
	if s == "" {
		return "", false, false
	}
	if s[0] == '\'' || s[0] == '"' {
		v, n, ok := quoted(s, 0)
		return v, false, ok && n == len(s)
	}
	if !startsPlain(s[0]) || s[len(s)-1] == ':' || strings.Contains(s, ": ") || strings.Contains(s, " #") {
		return "", false, false
	}
	return s, isNull(s), true
}

// quoted reads a quoted scalar starting at s[i] and returns the index after
// its closing quote. Double quotes with a backslash fall back.
func quoted(s string, i int) (value string, next int, ok bool) {
	q := s[i]
	if q == '"' {
		end := strings.IndexByte(s[i+1:], '"')
		if end < 0 {
			return "", 0, false
		}
		v := s[i+1 : i+1+end]
		if strings.IndexByte(v, '\\') >= 0 {
			return "", 0, false
		}
		return v, i + end + 2, true
	}
	var b strings.Builder
	start := i + 1
	for j := start; j < len(s); j++ {
		if s[j] != '\'' {
			continue
		}
		if j+1 < len(s) && s[j+1] == '\'' {
			b.WriteString(s[start : j+1])
			j++
			start = j + 1
			continue
		}
		if b.Len() == 0 {
			return s[start:j], j + 1, true
		}
		b.WriteString(s[start:j])
		return b.String(), j + 1, true
	}
	return "", 0, false
}

// flowScalar reads one scalar of a flow collection starting at s[i]: quoted,
// or plain up to the next ',' or closing bracket.
func flowScalar(s string, i int) (value string, null bool, next int, ok bool) {
	if i >= len(s) {
		return "", false, 0, false
	}
	if s[i] == '\'' || s[i] == '"' {
		v, n, ok := quoted(s, i)
		return v, false, n, ok
	}
	if !startsPlain(s[i]) {
		return "", false, 0, false
	}
	j := i
	for ; j < len(s); j++ {
		c := s[j]
		if c == ',' || c == ']' || c == '}' {
			break
		}
		switch c {
		case '[', '{', '#', '?', '\'', '"':
			return "", false, 0, false
		case ':':
			// Only the ':' of times and URLs (12:00, https://): before
			// anything else YAML may read a key.
			if j+1 >= len(s) || !isAlnum(s[j+1]) && s[j+1] != '/' {
				return "", false, 0, false
			}
		}
	}
	v := strings.TrimRight(s[i:j], " ")
	if v == "" {
		return "", false, 0, false
	}
	return v, isNull(v), j, true
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}
