package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// Pos is a 1-based line and column in the file.
type Pos struct{ Line, Col int }

// Error is a parse failure that makes the whole frontmatter unusable.
type Error struct {
	Pos
	Rule string // stable lint rule name, e.g. frontmatter-missing
	Msg  string
}

func (e *Error) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

// FieldError is a problem with one key's value. The file still parses; the
// value is kept verbatim in Extra so nothing is lost on rewrite.
type FieldError struct {
	Pos
	Key  string
	Kind FieldKind
	Msg  string
}

// FieldKind is what is wrong with a key's value, so a consumer (lint picks
// its rule by it) never reads the message text.
type FieldKind uint8

const (
	// WrongType: the value's shape is not the key's (a list where one
	// value goes, a map missing, an unknown key inside a signal).
	WrongType FieldKind = iota
	// Duplicate: the key appears more than once.
	Duplicate
	// BadDate: a date or datetime that does not parse.
	BadDate
	// BadValue: the right shape but not an allowed value (importance
	// outside 1..10, a checkbox that is neither true nor false).
	BadValue
	// Alias: a memory uses a YAML anchor or alias (spec §3 refuses them
	// in memories; a note keeps them as written).
	Alias
)

// kindError is a decoding error that knows its FieldKind; an error that is
// none (or wraps none) is a WrongType.
type kindError struct {
	kind FieldKind
	msg  string
}

func (e *kindError) Error() string { return e.msg }

func kindOf(err error) FieldKind {
	var ke *kindError
	if errors.As(err, &ke) {
		return ke.kind
	}
	return WrongType
}

// Document is one parsed markdown file.
type Document struct {
	Meta  Meta
	Extra []KeyValue // unknown keys and known keys with bad values, in file order
	Body  string     // everything after the closing fence, LF line endings
	// BodyLine is the 1-based line of the file where Body starts.
	BodyLine int
	// Keys maps each top-level key to its position in the file.
	Keys map[string]Pos
	// Problems are field-level problems (wrong type, bad enum shape, bad date).
	Problems []FieldError
	// HasFrontmatter is false when the file has no opening fence.
	HasFrontmatter bool
}

var (
	bom       = []byte("\xEF\xBB\xBF")
	yamlLine  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): `) })
	errNoYAML = errors.New("no frontmatter")
)

// Parse splits data into frontmatter and body and decodes the frontmatter.
// A file without frontmatter returns a Document holding the body and an
// *Error with rule frontmatter-missing; YAML syntax errors carry the line of
// the file, not of the YAML block.
func Parse(data []byte) (*Document, error) { return parse(data, decode) }

// decode takes the fast path (fast.go) when it is sure, else yaml.v3.
func decode(doc *Document, yamlText string) (*Document, error) {
	if parseFast(doc, yamlText) {
		return doc, nil
	}
	return parseYAML(doc, yamlText)
}

// parse normalises and splits data, then hands the frontmatter to decode.
func parse(data []byte, decode func(*Document, string) (*Document, error)) (*Document, error) {
	data = bytes.TrimPrefix(data, bom)
	if bytes.IndexByte(data, '\r') >= 0 {
		data = bytes.ReplaceAll(data, []byte("\r\n"), []byte("\n"))
	}
	// One copy of the file: the body and every value are slices of it.
	text := string(data)
	doc := &Document{Keys: map[string]Pos{}, BodyLine: 1}
	yamlText, body, bodyLine, err := split(text)
	if err != nil {
		doc.Body = text
		if err == errNoYAML {
			return doc, &Error{Pos{1, 1}, "frontmatter-missing", "no frontmatter: the file must start with a line '---', then YAML with at least 'type:', then '---'"}
		}
		return doc, err
	}
	doc.HasFrontmatter = true
	doc.Body = body
	doc.BodyLine = bodyLine
	return decode(doc, yamlText)
}

// parseYAML decodes the frontmatter with yaml.v3: the whole language, and
// the nodes kept verbatim in Extra.
func parseYAML(doc *Document, yamlText string) (*Document, error) {
	var root yaml.Node
	if err := yaml.Unmarshal([]byte(yamlText), &root); err != nil {
		return doc, yamlError(err)
	}
	if len(root.Content) == 0 {
		return doc, nil // empty frontmatter block
	}
	m := root.Content[0]
	if m.Kind != yaml.MappingNode {
		return doc, &Error{Pos{m.Line + 1, m.Column}, "frontmatter-yaml", "frontmatter must be a map of 'key: value' lines"}
	}
	decodeMapping(doc, m)
	if pos, key, ok := firstAlias(m); ok && IsMemoryType(doc.Meta.Type) {
		doc.Problems = append(doc.Problems, FieldError{pos, key, Alias,
			"YAML anchors and aliases (&name, *name) are not allowed in a memory: Obsidian does not show them and a rewrite would have to expand them; write the values out"})
	}
	kept := map[*yaml.Node]bool{}
	budget := maxKeptNodes
	for i := range doc.Extra {
		own := fieldByKey[doc.Extra[i].Key] == nil
		if doc.Extra[i].Value.n = plain(doc.Extra[i].Value.n, own, kept, &budget); budget < 0 {
			return doc, &Error{doc.Keys[doc.Extra[i].Key], "frontmatter-yaml", "YAML aliases expand to too many values (an alias bomb?): write the values out"}
		}
	}
	return doc, nil
}

// firstAlias finds the first YAML anchor or alias of the frontmatter
// mapping m: its position and the top-level key it is under.
func firstAlias(m *yaml.Node) (Pos, string, bool) {
	var find func(n *yaml.Node) *yaml.Node
	find = func(n *yaml.Node) *yaml.Node {
		if n.Anchor != "" || n.Kind == yaml.AliasNode {
			return n
		}
		for _, c := range n.Content {
			if f := find(c); f != nil {
				return f
			}
		}
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		for _, n := range m.Content[i : i+2] {
			if f := find(n); f != nil {
				return Pos{f.Line + 1, f.Column}, m.Content[i].Value, true
			}
		}
	}
	return Pos{}, "", false
}

// maxKeptNodes bounds the YAML nodes kept verbatim once the aliases that
// must be expanded are; a scalar counts once more for every 64 bytes, so
// a few aliases of a long text are bounded too (about 6 MB in all).
const maxKeptNodes = 100_000

// plain returns a copy of a kept value without comments (yaml.v3
// re-attaches them to other nodes on output; docs/frontmatter.md says mem
// does not keep them). Anchors and aliases stay as written (expanding
// them on a rewrite turned a 32 KB note into 80 MB), except where the
// anchor would not be written back: an anchor on a key mem writes in its
// own form (own false) is dropped, and an alias to it is expanded, within
// budget. kept holds the anchored nodes written back so far, in file order.
func plain(n *yaml.Node, own bool, kept map[*yaml.Node]bool, budget *int) *yaml.Node {
	if n.Kind == yaml.AliasNode && n.Alias != nil && !kept[n.Alias] {
		return plain(deref(n), false, kept, budget)
	}
	*budget -= 1 + len(n.Value)/64
	if *budget < 0 {
		return n
	}
	c := *n
	c.HeadComment, c.LineComment, c.FootComment = "", "", ""
	if c.Anchor != "" {
		if own {
			kept[n] = true
		} else {
			c.Anchor = ""
		}
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		c.Content[i] = plain(child, own, kept, budget)
	}
	return &c
}

// BodyOf is what follows data's frontmatter, by the fences Parse reads, and
// the 1-based line of data it starts on: a suffix of data. A file without
// frontmatter, or with one never closed, is all body. data must have LF
// line endings; a byte order mark is skipped.
func BodyOf(data string) (body string, line int) {
	if _, body, line, err := split(strings.TrimPrefix(data, string(bom))); err == nil {
		return body, line
	}
	return data, 1
}

// split finds the YAML between the opening '---' and the closing '---' (or
// '...') line. Unlike adrg/frontmatter it refuses an unclosed block instead
// of silently making the whole file body.
func split(data string) (yamlText, body string, bodyLine int, err error) {
	first, rest, found := strings.Cut(data, "\n")
	if strings.TrimRight(first, " \t") != "---" {
		return "", "", 0, errNoYAML
	}
	if !found {
		return "", "", 0, &Error{Pos{1, 1}, "frontmatter-unterminated", "frontmatter opened with '---' on line 1 is never closed: add a line '---' after the last property"}
	}
	offset, line := 0, 2
	for offset <= len(rest) {
		end := strings.IndexByte(rest[offset:], '\n')
		var l string
		next := len(rest) + 1
		if end < 0 {
			l = rest[offset:]
		} else {
			l = rest[offset : offset+end]
			next = offset + end + 1
		}
		if t := strings.TrimRight(l, " \t"); t == "---" || t == "..." {
			if next > len(rest) {
				return rest[:offset], "", line + 1, nil
			}
			return rest[:offset], rest[next:], line + 1, nil
		}
		offset = next
		line++
	}
	return "", "", 0, &Error{Pos{1, 1}, "frontmatter-unterminated", "frontmatter opened with '---' on line 1 is never closed: add a line '---' after the last property"}
}

// yamlError shifts yaml.v3's line (counted from the block) by the opening fence.
func yamlError(err error) *Error {
	msg := err.Error()
	if te, ok := err.(*yaml.TypeError); ok && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	// yaml.v3 names no line for a parser error on the block's first line
	// (its line 0): that is the file's line 2, after the fence.
	line := 2
	if m := yamlLine().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		msg = msg[len(m[0]):]
		// yaml.v3 counts a scanner error's line from 1 but a parser
		// error's ("did not find expected …") from 0.
		if strings.HasPrefix(msg, "did not find expected") {
			n++
		}
		line = n + 1
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return &Error{Pos{line, 1}, "frontmatter-yaml", "YAML error: " + msg + " (fix the frontmatter syntax; quote values that contain ': ' or start with '[', '{', '@' or '*')"}
}

func decodeMapping(doc *Document, m *yaml.Node) {
	// A key given twice is ambiguous (Obsidian keeps one): every occurrence
	// is kept verbatim and none is typed, so a rewrite changes nothing.
	// Keys holds each key's first position; dup exists only when needed.
	var dup map[string]bool
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if _, seen := doc.Keys[k.Value]; seen {
			if dup == nil {
				dup = map[string]bool{}
			}
			dup[k.Value] = false // false: first occurrence not met yet
			continue
		}
		doc.Keys[k.Value] = Pos{k.Line + 1, k.Column}
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		key := k.Value
		if met, ok := dup[key]; ok {
			if met {
				pos := Pos{k.Line + 1, k.Column}
				doc.Problems = append(doc.Problems, FieldError{pos, key, Duplicate, fmt.Sprintf("key %q appears twice: Obsidian keeps only one; merge them", key)})
			}
			dup[key] = true
			doc.Extra = append(doc.Extra, KeyValue{key, Value{v}})
			continue
		}
		if err := decodeKnown(&doc.Meta, key, v); err != nil {
			if err != errUnknownKey && err != errKept {
				vp := Pos{v.Line + 1, v.Column}
				doc.Problems = append(doc.Problems, FieldError{vp, key, kindOf(err), err.Error()})
			}
			doc.Extra = append(doc.Extra, KeyValue{key, Value{v}})
		}
	}
	if _, ok := doc.Keys["type"]; !ok {
		doc.Meta.Type = doc.metadataType()
	}
}

// KeptText is the text of key's first kept value when that is a single
// value, as mem's extension keys (InvalidReasonKey, ImportKey …) are.
func (d *Document) KeptText(key string) (string, bool) {
	for _, kv := range d.Extra {
		if kv.Key == key {
			if kv.Value.n == nil || kv.Value.n.Kind != yaml.ScalarNode {
				return "", false
			}
			return kv.Value.n.Value, true
		}
	}
	return "", false
}

// SetKeptText sets a kept key to the text s; SetKeptTime to the date t,
// written unquoted so Obsidian shows a date. The key keeps its place in
// the file when it is there already, else goes after the others.
func (d *Document) SetKeptText(key, s string) {
	d.setExtra(key, Value{&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}})
}

func (d *Document) SetKeptTime(key string, t Time) {
	d.setExtra(key, Value{&yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: t.String()}})
}

func (d *Document) setExtra(key string, v Value) {
	for i := range d.Extra {
		if d.Extra[i].Key == key {
			d.Extra[i].Value = v
			return
		}
	}
	d.Extra = append(d.Extra, KeyValue{Key: key, Value: v})
}

// metadataType is the type Claude Code nests as metadata: {type: ...}, ""
// when there is none. With no top-level type it is the file's type (and is
// not written back at the top level).
func (d *Document) metadataType() string {
	for _, kv := range d.Extra {
		m := kv.Value.n
		if kv.Key != "metadata" || m == nil || m.Kind != yaml.MappingNode {
			continue
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			if t := m.Content[i+1]; m.Content[i].Value == "type" && t.Kind == yaml.ScalarNode && t.Tag != "!!null" {
				return strings.TrimSpace(t.Value)
			}
		}
	}
	return ""
}

var errUnknownKey = errors.New("unknown key")

// decodeKnown types key's value into meta by its Field's kind.
func decodeKnown(meta *Meta, key string, v *yaml.Node) error {
	f := fieldByKey[key]
	if f == nil {
		return errUnknownKey
	}
	v = deref(v)
	var err error
	switch p := f.Value(meta).(type) {
	case *string:
		*p, err = str(v)
	case *bool:
		*p, err = boolean(v)
	case *int:
		*p, err = importance(v)
	case *Time:
		*p, err = timeValue(v)
	case *[]string:
		*p, err = strList(v)
	case **Actor:
		a := new(Actor)
		if err = actor(v, a); err == nil || err == errKept {
			*p = a
		}
	case *[]Actor:
		*p, err = list(v, actor)
	case *[]Source:
		*p, err = list(v, source)
	case *[]Signal:
		*p, err = list(v, signal)
	default:
		panic("frontmatter: field " + key + " has a kind no codec knows")
	}
	return err
}

// deref follows YAML aliases (*name) to the value they name.
func deref(v *yaml.Node) *yaml.Node {
	for v.Kind == yaml.AliasNode && v.Alias != nil {
		v = v.Alias
	}
	return v
}

func scalar(v *yaml.Node) (string, error) {
	v = deref(v)
	if v.Kind != yaml.ScalarNode {
		return "", fmt.Errorf("expected a single value, found a %s", kindName(v))
	}
	return v.Value, nil
}

func str(v *yaml.Node) (string, error) {
	v = deref(v)
	s, err := scalar(v)
	if err == nil && v.Tag == "!!null" {
		return "", nil
	}
	return s, err
}

func boolean(v *yaml.Node) (bool, error) {
	s, err := scalar(v)
	if err != nil {
		return false, err
	}
	switch s {
	case "true", "True", "TRUE":
		return true, nil
	case "false", "False", "FALSE", "":
		return false, nil
	}
	return false, &kindError{BadValue, fmt.Sprintf("expected true or false (a checkbox), found %q", s)}
}

func importance(v *yaml.Node) (int, error) {
	s, err := scalar(v)
	if err != nil {
		return 0, err
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 10 {
		return 0, &kindError{BadValue, fmt.Sprintf("importance must be a whole number from 1 to 10, found %q", s)}
	}
	return n, nil
}

func timeValue(v *yaml.Node) (Time, error) {
	v = deref(v)
	s, err := scalar(v)
	if err != nil {
		return Time{}, err
	}
	if v.Tag == "!!null" || s == "" {
		return Time{}, nil
	}
	return ParseTime(s)
}

func strList(v *yaml.Node) ([]string, error) {
	return list(v, func(n *yaml.Node, s *string) (err error) { *s, err = scalar(n); return err })
}

// list decodes a YAML sequence, one item in place into each element (a
// value returned through the tables' accessors would escape, one
// allocation an item).
func list[T any](v *yaml.Node, one func(*yaml.Node, *T) error) ([]T, error) {
	v = deref(v)
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, nil
	}
	// A lone value stands for a one-element list, as in Obsidian and OKF
	// (§5.2 reads a bare verified: {by, at} map as a list of one).
	items := []*yaml.Node{v}
	if v.Kind == yaml.SequenceNode {
		items = v.Content
	}
	if len(items) == 0 {
		return nil, nil // an empty list reads as absent, so a rewrite is lossless
	}
	out := make([]T, len(items))
	var kept error
	for i, it := range items {
		err := one(it, &out[i])
		if err == errKept {
			kept = err
		} else if err != nil {
			return nil, err
		}
	}
	return out, kept
}

// errKept is decodeKnown's word that the value was typed but also holds
// keys mem does not model (OKF's usage_count, a producer's own key): the
// value is kept verbatim in Extra as well, so a rewrite loses none of it.
var errKept = errors.New("kept verbatim")

// record decodes a map node into r by its table. Other keys are not
// mem's to refuse (OKF §4.1: consumers MUST NOT reject unknown fields);
// record reports them with errKept.
func record[T any](v *yaml.Node, table []SubField[T], r *T) error {
	v = deref(v)
	if v.Kind != yaml.MappingNode {
		return fmt.Errorf("expected a map like {%s: ..., %s: ...}, found a %s", table[0].Key, table[1].Key, kindName(v))
	}
	var kept error
	for i := 0; i+1 < len(v.Content); i += 2 {
		k := v.Content[i].Value
		j := slices.IndexFunc(table, func(f SubField[T]) bool { return f.Key == k })
		if j < 0 {
			kept = errKept
			continue
		}
		val, err := str(v.Content[i+1])
		if err != nil {
			return fmt.Errorf("%s: %w", k, err)
		}
		switch p := table[j].Value(r).(type) {
		case *string:
			*p = val
		case *Time:
			if *p, err = parseOptionalTime(val); err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
		default:
			panic("frontmatter: nested key " + k + " has a kind no codec knows")
		}
	}
	return kept
}

func parseOptionalTime(s string) (Time, error) {
	if s == "" {
		return Time{}, nil
	}
	return ParseTime(s)
}

// OKF's nested maps keep their unknown keys (errKept); mem's own signals
// accept only the keys mem writes.
func actor(v *yaml.Node, a *Actor) error   { return record(v, ActorFields, a) }
func source(v *yaml.Node, s *Source) error { return record(v, SourceFields, s) }

func signal(v *yaml.Node, s *Signal) error {
	err := record(v, SignalFields, s)
	if err == errKept {
		err = fmt.Errorf("unknown key (expected %s)", subKeyList(SignalFields))
	}
	return err
}

func kindName(v *yaml.Node) string {
	switch v.Kind {
	case yaml.SequenceNode:
		return "list"
	case yaml.MappingNode:
		return "map"
	case yaml.AliasNode:
		return "YAML alias"
	}
	return "single value"
}
