package frontmatter

// Text is one string a document's frontmatter holds. Key is the top-level
// key it is written under (where a linter points); Name is what a writer's
// refusal calls it (a signal's session is "session", as the tools' argument).
type Text struct{ Key, Name, Value string }

// Texts lists every string of d's frontmatter a person or model could read,
// as YAML decoded it: a rule over the raw file never sees what an escape
// ("\e", "\x9b", "\u202e") or a line continuation only makes when decoded.
func (d *Document) Texts() []Text {
	m := &d.Meta
	out := []Text{
		{"title", "title", m.Title}, {"description", "description", m.Description}, {"project", "project", m.Project},
		{"section", "section", m.Section}, {"key", "key", m.Key}, {"source", "source", m.Source},
		{"session", "session", m.Session}, {"status", "status", m.Status}, {"evidence", "evidence", m.Evidence},
	}
	for _, group := range []struct {
		key  string
		vals []string
	}{{"tags", m.Tags}, {"supersedes", m.Supersedes}, {"aliases", m.Aliases}, {"roots", m.Roots}} {
		for _, s := range group.vals {
			out = append(out, Text{group.key, group.key, s})
		}
	}
	if m.Generated != nil {
		out = append(out, Text{"generated", "generated", m.Generated.By})
	}
	for _, a := range m.Verified {
		out = append(out, Text{"verified", "verified", a.By})
	}
	for _, s := range m.Sources {
		out = append(out, Text{"sources", "sources", s.Resource}, Text{"sources", "sources", s.ID}, Text{"sources", "sources", s.Title}, Text{"sources", "sources", s.Author})
	}
	for _, s := range m.Signals {
		out = append(out, Text{"signals", "session", s.Session}, Text{"signals", "evidence", s.Evidence})
	}
	for _, kv := range d.Extra {
		for _, s := range kv.Value.Texts() {
			out = append(out, Text{kv.Key, kv.Key, s})
		}
	}
	return out
}
