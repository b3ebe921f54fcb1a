package frontmatter

import "gopkg.in/yaml.v3"

// KeyValue is a key kept verbatim: unknown to mem, or known but holding a
// value of the wrong shape (kept so that rewriting a file never loses it).
type KeyValue struct {
	Key   string
	Value Value
}

// Value is a kept key's value. It holds the YAML as parsed (anchors and
// aliases as written, comments dropped; docs/frontmatter.md), so Marshal
// writes it back as before, and answers what the other packages ask of a
// value without their reading YAML: its kind, its text, its items, its
// YAML. pkg/frontmatter is the one package that reads a note's YAML
// (internal/archtest). The zero Value is an empty (null) value.
type Value struct{ n *yaml.Node }

// ValueKind is what a kept value is, as YAML resolves it.
type ValueKind uint8

const (
	NullValue   ValueKind = iota // empty, ~ or null
	TextValue                    // a single value resolved as none of the kinds below
	NumberValue                  // an integer or a float
	BoolValue
	DateValue // a date or a datetime, unquoted
	ListValue
	MapValue
	AliasValue // *name, which a Value keeps as written
)

// Kind is what v is.
func (v Value) Kind() ValueKind {
	if v.n == nil {
		return NullValue
	}
	switch v.n.Kind {
	case yaml.SequenceNode:
		return ListValue
	case yaml.MappingNode:
		return MapValue
	case yaml.AliasNode:
		return AliasValue
	}
	switch v.n.Tag {
	case "!!null":
		return NullValue
	case "!!int", "!!float":
		return NumberValue
	case "!!bool":
		return BoolValue
	case "!!timestamp":
		return DateValue
	}
	return TextValue
}

// Text is a single value's text as YAML reads it (quotes removed), ""
// for a list, a map or an alias.
func (v Value) Text() string {
	if v.n == nil || v.n.Kind != yaml.ScalarNode {
		return ""
	}
	return v.n.Value
}

// Texts are every text v holds, in the order written: a single value's
// text, or each text of a list or a map (its keys too), however deep. A
// rule over a kept value reads all of them, not only a top-level text.
func (v Value) Texts() []string {
	var out []string
	var walk func(n *yaml.Node)
	walk = func(n *yaml.Node) {
		switch n.Kind {
		case yaml.ScalarNode:
			out = append(out, n.Value)
		case yaml.SequenceNode, yaml.MappingNode:
			for _, c := range n.Content {
				walk(c)
			}
		}
	}
	if v.n != nil {
		walk(v.n)
	}
	return out
}

// Items are a list's values in order; nil for anything else.
func (v Value) Items() []Value {
	if v.n == nil || v.n.Kind != yaml.SequenceNode {
		return nil
	}
	out := make([]Value, len(v.n.Content))
	for i, c := range v.n.Content {
		out[i] = Value{c}
	}
	return out
}

// String is v as the YAML Marshal writes for it (with a final newline):
// two values are the same data written the same way when their Strings
// are equal, which is how mem sync's merge compares kept keys.
func (v Value) String() string {
	if v.n == nil {
		return ""
	}
	b, err := yaml.Marshal(v.n)
	if err != nil {
		return ""
	}
	return string(b)
}

// NewList is the list of the texts items.
func NewList(items ...string) Value {
	return Value{listNode(items)}
}

// node is v's YAML for Marshal: the zero Value is written as an empty value.
func (v Value) node() *yaml.Node {
	if v.n == nil {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	return v.n
}
