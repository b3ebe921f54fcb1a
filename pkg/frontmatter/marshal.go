package frontmatter

import (
	"bytes"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Marshal writes the document back: known keys in KnownKeys order, then the
// kept keys in their original order, then the body unchanged. Parse of the
// result yields the same Meta, Extra and Body.
func (d *Document) Marshal() []byte {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, v)
	}
	meta := &d.Meta
	kept := d.keptKeys()
	for i := range Fields {
		if v := Fields[i].node(meta); v != nil {
			if _, ok := kept[Fields[i].Key]; !ok {
				add(Fields[i].Key, v)
			}
		}
	}
	for _, kv := range d.Extra {
		if same, ok := kept[kv.Key]; ok && !same {
			if v := meta.node(kv.Key); v != nil {
				add(kv.Key, v)
			}
			continue
		}
		add(kv.Key, kv.Value.node())
	}
	return encode(defineAliases(m), d.Body)
}

// keptKeys are the known keys written as they were read: a key kept
// verbatim for what mem does not model (errKept), true while its typed
// value is unchanged (false: a writer changed it, and the writer's value
// wins); and a type read from Claude Code's metadata.type.
func (d *Document) keptKeys() map[string]bool {
	meta := &d.Meta
	// A key given twice is in Extra twice, untyped (decodeMapping), and is
	// written as it was: compared with its zero Meta value it would look
	// changed, and both occurrences were dropped.
	times := map[string]int{}
	for _, kv := range d.Extra {
		times[kv.Key]++
	}
	kept := map[string]bool{}
	for _, kv := range d.Extra {
		var was Meta
		if fieldByKey[kv.Key] != nil && times[kv.Key] == 1 && kv.Value.n != nil && decodeKnown(&was, kv.Key, kv.Value.n) == errKept {
			kept[kv.Key] = sameNode(was.node(kv.Key), meta.node(kv.Key))
		}
	}
	// A type read from Claude Code's metadata.type stays there.
	if _, ok := d.Keys["type"]; !ok && meta.Type != "" && meta.Type == d.metadataType() {
		kept["type"] = true
	}
	return kept
}

// encode is the file: the mapping m between fences, then body.
func encode(m *yaml.Node, body string) []byte {
	var buf bytes.Buffer
	buf.WriteString("---\n")
	if len(m.Content) > 0 {
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(m); err != nil {
			// Only reachable with a hand-built invalid node; keep the body safe.
			panic("frontmatter: encode: " + err.Error())
		}
		enc.Close()
	}
	buf.WriteString("---\n")
	buf.WriteString(body)
	return buf.Bytes()
}

// defineAliases returns n with every alias whose anchor is not written
// before it replaced by a copy of the value it names: a writer that
// replaced an anchored value (retire's invalid_reason, a field merge that
// took the anchor from one side and the alias from the other) would
// otherwise write a file whose YAML no longer parses. Copies keep no
// anchors, and all of them together are bounded (maxKeptNodes): past it an
// alias is left as it is, and the writer's size and parse checks refuse
// the file. n itself is never changed; a node is copied where a child is.
func defineAliases(n *yaml.Node) *yaml.Node {
	defined := map[string]bool{}
	budget := maxKeptNodes
	var walk func(n *yaml.Node, copying bool) *yaml.Node
	walk = func(n *yaml.Node, copying bool) *yaml.Node {
		if n.Kind == yaml.AliasNode {
			if defined[n.Value] || n.Alias == nil || budget < 0 {
				return n
			}
			return walk(n.Alias, true)
		}
		if copying {
			if budget -= 1 + len(n.Value)/64; budget < 0 {
				return n
			}
		}
		c := n
		if copying {
			cp := *n
			cp.Anchor = ""
			cp.Content = slices.Clone(n.Content)
			c = &cp
		} else if n.Anchor != "" {
			defined[n.Anchor] = true
		}
		for i, child := range n.Content {
			w := walk(child, copying)
			if w != child {
				if c == n {
					cp := *n
					cp.Content = slices.Clone(n.Content)
					c = &cp
				}
				c.Content[i] = w
			}
		}
		return c
	}
	return walk(n, false)
}

// node is key's value in m as YAML, nil when absent.
func (m *Meta) node(key string) *yaml.Node { return fieldByKey[key].node(m) }

// node writes the field's value in m by its kind, nil when absent.
func (f *Field) node(m *Meta) *yaml.Node {
	switch p := f.Value(m).(type) {
	case *string:
		return strNode(*p)
	case *bool:
		if *p {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}
		}
	case *int:
		if *p != 0 {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(*p)}
		}
	case *Time:
		return timeNode(*p)
	case *[]string:
		return listNode(*p)
	case **Actor:
		if *p != nil {
			return mapNode(ActorFields, *p)
		}
	case *[]Actor:
		return seqNode(*p, func(a *Actor) *yaml.Node { return mapNode(ActorFields, a) })
	case *[]Source:
		return seqNode(*p, func(s *Source) *yaml.Node { return mapNode(SourceFields, s) })
	case *[]Signal:
		return seqNode(*p, func(s *Signal) *yaml.Node { return mapNode(SignalFields, s) })
	default:
		panic("frontmatter: field " + f.Key + " has a kind no codec knows")
	}
	return nil
}

// sameNode compares two values as YAML data (kind, scalar and children).
func sameNode(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Value != b.Value || len(a.Content) != len(b.Content) {
		return false
	}
	for i := range a.Content {
		if !sameNode(a.Content[i], b.Content[i]) {
			return false
		}
	}
	return true
}

func strNode(s string) *yaml.Node {
	if s == "" {
		return nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// timeNode writes dates unquoted so Obsidian shows a date property.
func timeNode(t Time) *yaml.Node {
	if t.IsZero() {
		return nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: t.String()}
}

func listNode(items []string) *yaml.Node {
	return seqNode(items, func(s *string) *yaml.Node {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: *s}
	})
}

func seqNode[T any](items []T, one func(*T) *yaml.Node) *yaml.Node {
	if len(items) == 0 {
		return nil
	}
	n := &yaml.Node{Kind: yaml.SequenceNode, Content: make([]*yaml.Node, len(items))}
	for i := range items {
		n.Content[i] = one(&items[i])
	}
	return n
}

// mapNode builds a map of r's non-empty keys; times stay unquoted dates.
func mapNode[T any](table []SubField[T], r *T) *yaml.Node {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for _, f := range table {
		v := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str"}
		switch p := f.Value(r).(type) {
		case *string:
			v.Value = *p
		case *Time:
			v.Tag, v.Value = "!!timestamp", p.String()
		default:
			panic("frontmatter: nested key " + f.Key + " has a kind no codec knows")
		}
		if v.Value != "" {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: f.Key}, v)
		}
	}
	return n
}

// Summary is the first non-empty line of the body: a memory's one-line text.
func (d *Document) Summary() string {
	return Summary(d.Body)
}

// Summary returns the first non-empty line of a markdown body, trimmed.
// Render calls it for every memory at session start, so it does not allocate.
func Summary(body string) string {
	for body != "" {
		line, rest, _ := strings.Cut(body, "\n")
		if t := strings.TrimSpace(line); t != "" {
			return t
		}
		body = rest
	}
	return ""
}
