package frontmatter

import "strings"

// Field is one key mem types, and where Meta keeps its value. Fields is the
// one list of them: the parser (both paths), the marshaller and the vault's
// parse cache all walk it, so a key added here is read, written and cached
// alike, and a key left out of one codec cannot happen.
type Field struct {
	Key string
	// Value points into m. Its type is the field's kind, and the codecs
	// switch on it: *string (text), *bool (a checkbox), *int (importance,
	// 1 to 10), *Time (a date or datetime), *[]string (a list of text),
	// **Actor (one {by, at} map), *[]Actor, *[]Source or *[]Signal (lists
	// of maps, whose keys are ActorFields, SourceFields and SignalFields).
	Value func(m *Meta) any
}

// Fields in the order they are written. Obsidian shows properties in file
// order, so identity and ranking columns come first.
var Fields = []Field{
	{"id", func(m *Meta) any { return &m.ID }},
	{"type", func(m *Meta) any { return &m.Type }},
	{"title", func(m *Meta) any { return &m.Title }},
	{"description", func(m *Meta) any { return &m.Description }},
	{"provenance", func(m *Meta) any { return &m.Provenance }},
	{"status", func(m *Meta) any { return &m.Status }},
	{"project", func(m *Meta) any { return &m.Project }},
	{"pinned", func(m *Meta) any { return &m.Pinned }},
	{"section", func(m *Meta) any { return &m.Section }},
	{"importance", func(m *Meta) any { return &m.Importance }},
	{"key", func(m *Meta) any { return &m.Key }},
	{"valid_at", func(m *Meta) any { return &m.ValidAt }},
	{"stale_after", func(m *Meta) any { return &m.StaleAfter }},
	{"invalid_at", func(m *Meta) any { return &m.InvalidAt }},
	{"supersedes", func(m *Meta) any { return &m.Supersedes }},
	{"tags", func(m *Meta) any { return &m.Tags }},
	{"aliases", func(m *Meta) any { return &m.Aliases }},
	{"roots", func(m *Meta) any { return &m.Roots }},
	{"source", func(m *Meta) any { return &m.Source }},
	{"session", func(m *Meta) any { return &m.Session }},
	{"evidence", func(m *Meta) any { return &m.Evidence }},
	{"generated", func(m *Meta) any { return &m.Generated }},
	{"verified", func(m *Meta) any { return &m.Verified }},
	{"sources", func(m *Meta) any { return &m.Sources }},
	{"signals", func(m *Meta) any { return &m.Signals }},
}

// SubField is one key of a nested map (an Actor, a Source, a Signal); its
// Value points at a *string or a *Time.
type SubField[T any] struct {
	Key   string
	Value func(*T) any
}

// The keys of the nested maps, in the order they are written.
var (
	ActorFields = []SubField[Actor]{
		{"by", func(a *Actor) any { return &a.By }},
		{"at", func(a *Actor) any { return &a.At }},
	}
	SourceFields = []SubField[Source]{
		{"resource", func(s *Source) any { return &s.Resource }},
		{"id", func(s *Source) any { return &s.ID }},
		{"title", func(s *Source) any { return &s.Title }},
		{"author", func(s *Source) any { return &s.Author }},
		{"last_modified", func(s *Source) any { return &s.LastModified }},
	}
	SignalFields = []SubField[Signal]{
		{"session", func(s *Signal) any { return &s.Session }},
		{"at", func(s *Signal) any { return &s.At }},
		{"evidence", func(s *Signal) any { return &s.Evidence }},
	}
)

// Extension keys mem writes but does not type: each is kept in Extra,
// verbatim and in its place, as a key of another tool is.
const (
	InvalidReasonKey = "invalid_reason" // retire --reason: why the claim stopped being true
	PromotedAtKey    = "promoted_at"    // promote: when a lesson became a rule
	ImportKey        = "import_key"     // import: the item's key, how a re-run knows it is there
)

// KnownKeys are every key mem writes: the keys of Fields in the order they
// are written, then the extension keys.
var KnownKeys = func() []string {
	keys := make([]string, 0, len(Fields)+3)
	for _, f := range Fields {
		keys = append(keys, f.Key)
	}
	return append(keys, InvalidReasonKey, PromotedAtKey, ImportKey)
}()

// fieldByKey finds a key's Field; nil for a key mem does not type (kept
// verbatim as a yaml.v3 node, so the fast path declines it).
var fieldByKey = func() map[string]*Field {
	m := make(map[string]*Field, len(Fields))
	for i := range Fields {
		m[Fields[i].Key] = &Fields[i]
	}
	return m
}()

// subKeyList names a nested map's keys for a message: "session, at, evidence".
func subKeyList[T any](table []SubField[T]) string {
	keys := make([]string, len(table))
	for i, f := range table {
		keys[i] = f.Key
	}
	return strings.Join(keys, ", ")
}
