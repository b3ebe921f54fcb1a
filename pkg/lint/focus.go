package lint

import (
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// fact is what the Linter's maps need to know of one file besides its
// path: small enough to keep for every file of a big vault in the context
// cache (context.go), so a run over a few named files need not load the
// vault to learn it.
type fact struct {
	id    string // vault.Memory.ID
	flags uint8
	props []prop // unknown keys with a non-empty property kind, in order
}

const (
	factFrontmatter = 1 << iota // parsed, with a frontmatter block
	factOK                      // vault.Memory.OK
	factProject                 // OK and type: project
	// The next two spare build a pass over the name: most files' path is
	// lower-case ASCII and their id is that path without .md.
	factLowerPath // the path has no upper-case letter and is ASCII
	factIDIsPath  // the id is the path without .md
)

type prop struct{ key, kind string }

// factOf is m's fact, as New and build read it.
func factOf(m *vault.Memory) fact {
	f := fact{id: m.ID}
	if lowerASCII(m.Rel) {
		f.flags |= factLowerPath
	}
	if m.ID == strings.TrimSuffix(m.Rel, ".md") {
		f.flags |= factIDIsPath
	}
	if m.OK() {
		f.flags |= factOK
		if m.Meta().Type == frontmatter.TypeProject {
			f.flags |= factProject
		}
	}
	if m.Doc == nil || !m.Doc.HasFrontmatter {
		return f
	}
	f.flags |= factFrontmatter
	for _, kv := range m.Doc.Extra {
		if kind := propertyKind(kv.Value); kind != "" && !isKnownKey(kv.Key) {
			f.props = append(f.props, prop{kv.Key, kind})
		}
	}
	return f
}

// lowerASCII reports whether strings.ToLower would return s as it is
// because it is ASCII without upper-case letters.
func lowerASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c >= 0x80 || 'A' <= c && c <= 'Z' {
			return false
		}
	}
	return true
}

// keys are the vault-wide keys some files' checks look up. A nil *keys
// wants every key.
type keys struct {
	ids, projects, bases, targets, props map[string]bool
}

func newKeys() *keys {
	return &keys{ids: map[string]bool{}, projects: map[string]bool{}, bases: map[string]bool{}, targets: map[string]bool{}, props: map[string]bool{}}
}

func (k *keys) id(s string) bool      { return k == nil || k.ids[s] }
func (k *keys) project(s string) bool { return k == nil || k.projects[s] }
func (k *keys) base(s string) bool    { return k == nil || k.bases[s] }
func (k *keys) target(s string) bool  { return k == nil || k.targets[s] }
func (k *keys) prop(s string) bool    { return k == nil || k.props[s] }

// The checks look the vault up only through these, so that a recording
// Linter (asked not nil) learns every key they need. It answers as if the
// vault were empty, which makes a check ask every key it could ask: a
// link's every candidate, a superseded id's files and claim.

func (l *Linter) idFiles(id string) []string {
	if l.asked != nil {
		l.asked.ids[id] = true
	}
	return l.ids[id]
}

func (l *Linter) isProject(id string) bool {
	if l.asked != nil {
		l.asked.projects[id] = true
	}
	return l.projects[id]
}

func (l *Linter) baseFiles(base string) []string {
	if l.asked != nil {
		l.asked.bases[base] = true
	}
	return l.bases[base]
}

func (l *Linter) isTarget(name string) bool {
	if l.asked != nil {
		l.asked.targets[name] = true
	}
	return l.targets[name]
}

func (l *Linter) propUses(key string) map[string]*propUse {
	if l.asked != nil {
		l.asked.props[key] = true
	}
	return l.props[key]
}

// focus builds the Linter for linting files (loaded with raw bytes) with
// the vault described by rels (sorted) and facts as context, holding only
// the keys files ask about: the checks run once on a Linter that knows
// nothing and records what they look up, then the maps are filled from one
// pass over the facts. The Linter answers those files exactly as New over
// the whole vault would. ok is false when metaOf could not give a claim.
func focus(v *vault.Vault, now time.Time, rels []string, facts []fact, files []*vault.Memory, metaOf func(i int) *frontmatter.Meta) (l *Linter, ok bool) {
	rec := &Linter{vault: v, now: now, asked: newKeys(), kind: readKind(v)}
	for _, m := range files {
		rec.File(m)
	}
	return build(v, now, rels, facts, rec.asked, metaOf)
}
