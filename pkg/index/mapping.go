// Package index keeps the bleve full-text index of a vault in .mem/index: a
// disposable cache rebuilt from the files, updated incrementally from a
// manifest of what was indexed, swapped in atomically on a full build, and
// never answering silently from stale data. bleve stays behind this package.
package index

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/mapping"
	bleveindex "github.com/blevesearch/bleve_index_api"
	"slices"
	"strings"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/index/tokens"
	"github.com/mem-md/mem/pkg/index/wordvec"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// schemaVersion is the version of the mapping and of the documents built
// from a file. Bump it whenever either changes: an index recorded with
// another version is deleted and rebuilt, never queried.
//
// 2: no _all field; bare query words search the prose fields one by one
// (see proseFields), every prose field has term vectors.
// 3: supersedes and subject, so a hit's status finds what beat it.
// 4: type as written (OKF's Metric, Claude Code's feedback), not as mem
// treats it, so search shows and filters other tools' types.
// 5: BM25 scoring; session (stored, for episodes); a file without a
// title (a note, an Obsidian page) has its file name indexed as its title.
// 6: evidence (what an observed claim's writer checked), searchable prose.
// 7: the mem analyzer (identifiers split and joined, spaceless scripts in
// pairs of characters: pkg/index/tokens); TF-IDF scoring again; exact, a
// file's names as a query equal to one is compared (tokens.ExactKey).
// 8: no term, and no exact name, over tokens.MaxTerm bytes.
// 9: meaning, the vector of a file's title and body (pkg/index/wordvec), stored
// for the rerank by meaning.
// 10: meaning from a table of the 30,000 most frequent words, not 50,000:
// a vector stored from the old table holds words the new one lacks.
const schemaVersion = 10

// Field names of an indexed document. The document id is the file's path
// relative to the vault, so a hit cites the file without a stored field.
const (
	fieldID          = "id"
	fieldType        = "type"
	fieldProvenance  = "provenance"
	fieldProject     = "project"
	fieldSource      = "source"
	fieldTags        = "tags"
	fieldTagsWords   = "tags_words" // the tags' words, English-analysed
	fieldTitle       = "title"
	fieldDescription = "description"
	fieldAliases     = "aliases"
	fieldEvidence    = "evidence"
	fieldBody        = "body"
	fieldValidAt     = "valid_at"
	fieldValidAtText = "valid_at_text"
	fieldImportance  = "importance"
	fieldSupersedes  = "supersedes" // the ids a claim supersedes
	fieldSubject     = "subject"    // gate.Subject: the key claims about one subject share
	fieldSession     = "session"    // the session that wrote it: one session close in time is an episode
	fieldExact       = "exact"      // tokens.ExactKey of its title, aliases and file name
	fieldMeaning     = "meaning"    // its title's and body's vector (wordvec.Encode)
)

// storedFields are what a hit prints; everything else is indexed only,
// which keeps the index small.
var storedFields = []string{fieldID, fieldType, fieldProvenance, fieldValidAtText, fieldSession, fieldMeaning}

// snippetFields are highlighted for a hit's snippet (stored with term vectors).
var snippetFields = []string{fieldBody, fieldTitle}

// proseFields are what a query word without a field searches. bleve's
// usual route is the composite _all field, a second copy of every token
// with its positions: at 50k notes it was a third of the index and of the
// memory a full build needs, so a field-less query is instead asked of
// each of these fields (see anyField in search.go).
var proseFields = []string{fieldTitle, fieldBody, fieldDescription, fieldAliases, fieldTagsWords, fieldEvidence}

// fieldWeight is each prose field's boost: a word in what names a file
// (its title or file name, aliases, tags) says more about it than the
// same word somewhere in its body.
var fieldWeight = map[string]float64{
	fieldTitle: 3, fieldAliases: 3, fieldTagsWords: 2, fieldDescription: 1.5, fieldBody: 1, fieldEvidence: 1,
}

// newMapping is the index mapping: prose is English with stemming; ids and
// enums are keywords, matched exactly; valid_at is a date and importance a
// number so range queries work (valid_at:>"2026-01-01", importance:>=7).
// There is no _all field (see proseFields).
func newMapping() mapping.IndexMapping {
	prose := func(store bool) *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = tokens.Name
		f.Store = store
		f.IncludeInAll = false
		// Term positions: phrase queries need them in every field a bare
		// phrase searches, highlighting in the stored ones. Beside body
		// the other prose fields are a few words, so this costs little.
		f.IncludeTermVectors = true
		f.DocValues = false // nobody sorts or facets on prose
		return f
	}
	// Keywords match exactly (tags:go, --project) and are not prose fields,
	// or a bare "fact" would match every fact.
	kw := func(store bool) *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Store = store
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false // nothing sorts or facets on them
		return f
	}
	// Tags are also words a bare query should find: a second, unstored
	// English mapping of the same value. Ids are not: a default id is the
	// file name, whose words go stale when the text is edited.
	words := prose(false)
	words.Name = fieldTagsWords
	storedOnly := bleve.NewTextFieldMapping()
	storedOnly.Index, storedOnly.IncludeInAll, storedOnly.IncludeTermVectors, storedOnly.DocValues = false, false, false, false

	date := bleve.NewDateTimeFieldMapping()
	date.Store, date.IncludeInAll, date.DocValues = false, false, false
	num := bleve.NewNumericFieldMapping()
	num.Store, num.IncludeInAll, num.DocValues = false, false, false

	doc := bleve.NewDocumentStaticMapping()
	doc.AddSubDocumentMapping("_all", bleve.NewDocumentDisabledMapping()) // see proseFields
	doc.AddFieldMappingsAt(fieldTitle, prose(true))
	doc.AddFieldMappingsAt(fieldBody, prose(true))
	doc.AddFieldMappingsAt(fieldDescription, prose(false))
	doc.AddFieldMappingsAt(fieldAliases, prose(false))
	doc.AddFieldMappingsAt(fieldEvidence, prose(false))
	doc.AddFieldMappingsAt(fieldID, kw(true))
	doc.AddFieldMappingsAt(fieldTags, kw(false), words)
	doc.AddFieldMappingsAt(fieldType, kw(true))
	doc.AddFieldMappingsAt(fieldProvenance, kw(true))
	doc.AddFieldMappingsAt(fieldProject, kw(false))
	doc.AddFieldMappingsAt(fieldSource, kw(false))
	doc.AddFieldMappingsAt(fieldValidAtText, storedOnly)
	doc.AddFieldMappingsAt(fieldMeaning, storedOnly)
	doc.AddFieldMappingsAt(fieldValidAt, date)
	doc.AddFieldMappingsAt(fieldImportance, num)
	doc.AddFieldMappingsAt(fieldSupersedes, kw(false))
	doc.AddFieldMappingsAt(fieldSubject, kw(false))
	doc.AddFieldMappingsAt(fieldSession, kw(true))
	doc.AddFieldMappingsAt(fieldExact, kw(false))

	m := bleve.NewIndexMapping()
	// bleve's TF-IDF, not its BM25 (k1 1.2, b 0.75): on the suite BM25
	// lost on both sets, LoCoMo hit@5 0.711 against 0.714 and REALTALK
	// 0.544 against 0.549, with MRR 0.516/0.381 against 0.522/0.401.
	// With b 0.5 it seemed to raise the three sets' minimum ratio (1.005
	// to 1.032), but only through bleve's "average length", the sum of
	// each segment's distinct terms, which changes with the index's
	// layout; given a true average length, no k1 and b tried raised it
	// (docs/index.md, BM25 with a true average length).
	m.ScoringModel = bleveindex.TFIDFScoring
	m.DefaultMapping = doc
	m.DefaultAnalyzer = tokens.Name // bare query words are analysed like the prose
	// What a field-less clause anyField does not expand (a bare number's
	// numeric range) is asked of body, not of the missing _all.
	m.DefaultField = fieldBody
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	return m
}

// typeAsWritten is the type a hit shows and --type filters on: the file's
// own word (spec §3 keeps other tools' types as written; mem only treats
// them as notes), or note for a file without one.
func typeAsWritten(t string) string {
	if t = strings.TrimSpace(t); t != "" {
		return t
	}
	return frontmatter.TypeNote
}

// document is what bleve indexes for one file; nil when the file has
// nothing to index (unreadable, binary, a link leaving the vault).
func document(m *vault.Memory) map[string]any {
	if m.Doc == nil {
		return nil
	}
	meta := m.Meta()
	d := map[string]any{
		fieldID:         m.ID,
		fieldType:       typeAsWritten(meta.Type),
		fieldBody:       rules.Redact(m.Doc.Body), // the index is a file too: no key is stored (spec §8)
		fieldImportance: float64(meta.ImportanceOrDefault()),
	}
	set := func(k, v string) {
		if v != "" {
			d[k] = v
		}
	}
	set(fieldProvenance, meta.Provenance)
	set(fieldProject, meta.Project)
	set(fieldSource, meta.Source)
	set(fieldTitle, rules.Redact(meta.Title))
	// A note without a title is found by its file name; a memory's file
	// name is a slug of its own text, and would only add noise.
	if meta.Title == "" && !frontmatter.IsMemoryType(meta.Type) {
		set(fieldTitle, vault.FileTitle(m.Rel))
	}
	// The vector of the text stored, which a snippet shows.
	title, _ := d[fieldTitle].(string)
	if v := wordvec.Of(title + "\n" + d[fieldBody].(string)); v != nil {
		d[fieldMeaning] = wordvec.Encode(v)
	}
	set(fieldSession, meta.Session)
	set(fieldDescription, rules.Redact(meta.Description))
	set(fieldEvidence, rules.Redact(meta.Evidence))
	if len(meta.Tags) > 0 {
		d[fieldTags] = meta.Tags
	}
	set(fieldSubject, gate.Subject(meta))
	if len(meta.Supersedes) > 0 {
		d[fieldSupersedes] = meta.Supersedes
	}
	if len(meta.Aliases) > 0 {
		d[fieldAliases] = meta.Aliases
	}
	// The names a query may repeat exactly: title, aliases, and a note's
	// file name (a memory's is a slug of its text, stale once it is edited).
	names := append([]string{meta.Title}, meta.Aliases...)
	if !frontmatter.IsMemoryType(meta.Type) {
		names = append(names, vault.FileTitle(m.Rel))
	}
	var exact []string
	for _, name := range names {
		if k := tokens.ExactKey(name); k != "" && len(k) <= tokens.MaxTerm && !slices.Contains(exact, k) {
			exact = append(exact, k)
		}
	}
	if len(exact) > 0 {
		d[fieldExact] = exact
	}
	if !meta.ValidAt.IsZero() {
		d[fieldValidAt] = meta.ValidAt.Time
		d[fieldValidAtText] = meta.ValidAt.String()
	}
	return d
}
