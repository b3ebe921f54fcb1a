package index

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/blevesearch/bleve/v2"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// Reader is the live index held open by a process that answers many
// searches (mem watch), so a search costs no open of bleve and no read of
// the manifest. While it is open, bolt's lock keeps writers of this
// generation waiting, in this process too: close it before an update.
type Reader struct {
	v    *vault.Vault
	name string // of the generation; not its manifest, a few hundred bytes a file
	idx  bleve.Index
	memo *memo
	// current is CURRENT as it was before the open read it: while the
	// same file (no publish renamed another over it) is there unchanged,
	// it still names this generation, and Live need not read it.
	current os.FileInfo
}

// memo is what searches answered from one held Reader keep about the
// files they read. Its holder hands the Reader out only while no file has
// changed since the index was brought up to date (index.Query.Held: the
// daemon's watcher sees every change, and a change lets the Reader go), so
// a file read once is that file for the Reader's life; and the stored
// title and body a snippet is cut from cannot change while the index is
// open. Facts about one version of a file, never a query's answer. Each
// map is bounded by memoMax, emptied when full.
type memo struct {
	mu    sync.Mutex
	files map[string]*vault.Memory   // parsed, for a hit's status (annotate)
	found map[string][]rules.Finding // rules.Text of a stored title and body (readable)
	marks map[string][]markdown.Span // markdown.Unmarkable of a stored field (snippets)
	// docs: the stored documents searches read, by id (a hit's title and
	// body for its snippet, an episode seed's session and date).
	docs map[string]bleveindex.Document
	// held: for the fields annotate asks, how many documents hold a term,
	// counted on the first search that asks.
	held map[fieldTerm]holding
}

// fieldTerm is a term of a field: a key built without joining the two
// (a search asks about a hundred, each joined string was garbage).
type fieldTerm struct{ field, term string }

// holding is a count of documents, and whether it could be read.
type holding struct {
	n  uint64
	ok bool
}

// relatedFields are the fields whose terms memo.holders counts: the ids
// claims supersede and their subjects, a few terms of a few files each.
var relatedFields = []string{fieldSupersedes, fieldSubject}

// holders is how many of idx's documents hold term in field, and whether
// it is known: only with a memo, for relatedFields. Each is counted from
// the term's postings: the counts of bleve's FieldDict are wrong (zapx
// v17.2.5's dictionary iterator reuses one postings list, and a term
// read after one held by a single document counts 1, however many hold
// it; in one merged segment most of the shared subjects did, and a held
// search called a beaten claim current).
func (c *memo) holders(idx bleve.Index, field, term string) (uint64, bool) {
	if c == nil || !slices.Contains(relatedFields, field) {
		return 0, false
	}
	h := memoized(&c.mu, c.held, fieldTerm{field, term}, func() holding {
		n, err := countTerm(idx, field, term)
		return holding{n, err == nil}
	})
	return h.n, h.ok
}

// countTerm counts the live documents of idx holding term in field.
func countTerm(idx bleve.Index, field, term string) (uint64, error) {
	r, err := reader(idx)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	tfr, err := r.TermFieldReader(context.Background(), []byte(term), field, false, false, false)
	if err != nil {
		return 0, err
	}
	defer tfr.Close()
	return tfr.Count(), nil
}

// reader is reader(idx), with its stored documents read through the
// memo; without one, reader(idx).
func (c *memo) reader(idx bleve.Index) (bleveindex.IndexReader, error) {
	r, err := reader(idx)
	if err != nil || c == nil {
		return r, err
	}
	return memoReader{r, c}, nil
}

// memoReader is an index reader whose stored documents come through a
// memo: a document read once is kept (bounded by memoMax), and shared by
// the searches that read it again, which only read it.
type memoReader struct {
	bleveindex.IndexReader
	c *memo
}

func (r memoReader) Document(id string) (bleveindex.Document, error) {
	r.c.mu.Lock()
	doc, ok := r.c.docs[id]
	r.c.mu.Unlock()
	if ok {
		return doc, nil
	}
	doc, err := r.IndexReader.Document(id)
	if err != nil || doc == nil {
		return doc, err
	}
	r.c.mu.Lock()
	if len(r.c.docs) >= memoMax {
		clear(r.c.docs)
	}
	r.c.docs[id] = doc
	r.c.mu.Unlock()
	return doc, nil
}

// memoMax bounds each of a memo's maps: 50,000 parsed files would hold the
// vault's text in memory; a few thousand are the files searches keep
// finding, a few MB.
const memoMax = 4096

// load is v.LoadFiles through the memo; without one, v.LoadFiles. A file
// that could not be read or parsed is read again next time.
func (c *memo) load(v *vault.Vault, rels []string) []*vault.Memory {
	if c == nil || len(rels) == 0 {
		return v.LoadFiles(rels, vault.LoadOptions{})
	}
	out := make([]*vault.Memory, len(rels))
	var missing []string
	var at []int
	c.mu.Lock()
	for i, rel := range rels {
		if out[i] = c.files[rel]; out[i] == nil {
			missing, at = append(missing, rel), append(at, i)
		}
	}
	c.mu.Unlock()
	if len(missing) == 0 {
		return out
	}
	read := v.LoadFiles(missing, vault.LoadOptions{})
	c.mu.Lock()
	defer c.mu.Unlock()
	for j, m := range read {
		out[at[j]] = m
		if m.OK() {
			if len(c.files) >= memoMax {
				clear(c.files)
			}
			c.files[m.Rel] = m
		}
	}
	return out
}

// text is rules.Text of the stored title and body of the document id,
// through the memo; without one, computed.
func (c *memo) text(id, full string) []rules.Finding {
	if c == nil {
		return rules.Text(full)
	}
	return memoized(&c.mu, c.found, id, func() []rules.Finding { return rules.Text(full) })
}

// unmarkable is markdown.Unmarkable of text, the stored field key names
// (document id and field), through the memo.
func (c *memo) unmarkable(key string, text []byte) []markdown.Span {
	return memoized(&c.mu, c.marks, key, func() []markdown.Span { return markdown.Unmarkable(text) })
}

// memoized is m[key], computed by f outside the lock on a miss and kept
// (the map emptied first when it holds memoMax entries).
func memoized[K comparable, T any](mu *sync.Mutex, m map[K]T, key K, f func() T) T {
	mu.Lock()
	v, ok := m[key]
	mu.Unlock()
	if ok {
		return v
	}
	v = f()
	mu.Lock()
	if len(m) >= memoMax {
		clear(m)
	}
	m[key] = v
	mu.Unlock()
	return v
}

// OpenReader opens v's live index read-only and keeps it open.
func OpenReader(v *vault.Vault) (*Reader, error) {
	current, _ := os.Stat(filepath.Join(Dir(v), currentFile))
	g, idx, err := openLive(v)
	if err != nil {
		return nil, err
	}
	return &Reader{v: v, name: g.name, idx: idx, current: current,
		memo: &memo{files: map[string]*vault.Memory{}, found: map[string][]rules.Finding{}, marks: map[string][]markdown.Span{}, held: map[fieldTerm]holding{},
			docs: map[string]bleveindex.Document{}}}, nil
}

// Live says whether r is still the live generation: a full build by
// another process swaps in a new one. The daemon asks before every search;
// a stat answers while CURRENT is the file that was read (a publish
// renames a new file over it), and it is read only when it is not.
func (r *Reader) Live() bool {
	path := filepath.Join(Dir(r.v), currentFile)
	if fi, err := os.Stat(path); err == nil && r.current != nil && os.SameFile(fi, r.current) &&
		fi.ModTime().Equal(r.current.ModTime()) && fi.Size() == r.current.Size() {
		return true
	}
	data, err := os.ReadFile(path)
	return err == nil && strings.TrimSpace(string(data)) == r.name
}

// Close releases the index.
func (r *Reader) Close() error { return r.idx.Close() }
