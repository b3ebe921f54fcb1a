package index

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/highlight"
	simplefrag "github.com/blevesearch/bleve/v2/search/highlight/fragmenter/simple"
	simplehl "github.com/blevesearch/bleve/v2/search/highlight/highlighter/simple"
	"github.com/blevesearch/bleve/v2/search/query"
	"github.com/blevesearch/bleve/v2/search/searcher"
	bleveindex "github.com/blevesearch/bleve_index_api"

	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/index/tokens"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// Marks around a matched term in a snippet: markdown bold, since snippets
// are markdown text and agents read them as such.
const (
	markStart = "**"
	markEnd   = "**"
)

const highlighterName = "mem"

func init() {
	// The html highlighter escapes text for HTML; snippets are markdown.
	registry.RegisterHighlighter(highlighterName, func(_ map[string]any, cache *registry.Cache) (highlight.Highlighter, error) {
		frag, err := cache.FragmenterNamed(simplefrag.Name)
		if err != nil {
			return nil, err
		}
		return newHighlighter(frag, markdown.Unmarkable), nil
	})
}

// newHighlighter is mem's highlighter: bleve's simple one with
// wordFragmenter and markFormatter, which reads a field's unmarkable
// spans with spans.
func newHighlighter(frag highlight.Fragmenter, spans func(text []byte) []markdown.Span) highlight.Highlighter {
	return simplehl.NewHighlighter(wordFragmenter{frag}, markFormatter{spans}, " … ")
}

// wordFragmenter is bleve's fragmenter with each fragment widened to
// whole words: a snippet never starts or ends inside one.
type wordFragmenter struct{ highlight.Fragmenter }

func (w wordFragmenter) Fragment(orig []byte, ot highlight.TermLocations) []*highlight.Fragment {
	// bleve orders term locations by start alone (an unstable sort of a
	// map's items), then merges overlapping ones in that order; a merge
	// takes the later one's end, so an identifier indexed whole and in
	// parts (eu-central, eu, central) was marked one way or the other from
	// run to run. The locations it merges are these pointers, in this
	// order: their contents are sorted here, the shortest first at one
	// start, so the merge always joins them into the whole.
	vals := make([]highlight.TermLocation, len(ot))
	for i, t := range ot {
		vals[i] = *t
	}
	slices.SortStableFunc(vals, func(a, b highlight.TermLocation) int {
		return cmp.Or(cmp.Compare(a.Start, b.Start), cmp.Compare(a.End, b.End), cmp.Compare(a.Term, b.Term))
	})
	for i := range ot {
		*ot[i] = vals[i]
	}
	frags := w.Fragmenter.Fragment(orig, ot)
	for _, f := range frags {
		f.Start, f.End = wordStart(orig, f.Start), wordEnd(orig, f.End)
	}
	return frags
}

// wordStart is at, moved back to the start of the word it is inside.
func wordStart(text []byte, at int) int {
	for at > 0 {
		r, n := utf8.DecodeLastRune(text[:at])
		if unicode.IsSpace(r) {
			break
		}
		at -= n
	}
	return at
}

// wordEnd is at, moved on to the end of the word it is inside.
func wordEnd(text []byte, at int) int {
	for at < len(text) {
		r, n := utf8.DecodeRune(text[at:])
		if unicode.IsSpace(r) {
			break
		}
		at += n
	}
	return at
}

// markFormatter is bleve's plain fragment formatter that leaves a term
// unmarked where the note's markdown (read by pkg/markdown) would break:
// inside its own bold (**JSON **Canvas****), code, or a [[wikilink]].
// spans is markdown.Unmarkable, or the memo of a held index.
type markFormatter struct {
	spans func(text []byte) []markdown.Span
}

func (m markFormatter) Format(f *highlight.Fragment, terms highlight.TermLocations) string {
	skip := m.spans(f.Orig)
	var b strings.Builder
	curr := f.Start
	for _, t := range terms {
		if t == nil || !t.ArrayPositions.Equals(f.ArrayPositions) || t.Start < curr {
			continue
		}
		if t.End > f.End {
			break
		}
		if slices.ContainsFunc(skip, func(s markdown.Span) bool { return t.Start < s.End && s.Start < t.End }) {
			continue
		}
		b.Write(f.Orig[curr:t.Start])
		b.WriteString(markStart)
		b.Write(f.Orig[t.Start:t.End])
		b.WriteString(markEnd)
		curr = t.End
	}
	b.Write(f.Orig[curr:f.End])
	return b.String()
}

// Query is one search: the one representation of a search's question,
// which mem search, the MCP search tool and the daemon's protocol all
// fill (and check with Check). The funcs are the caller's, never sent.
type Query struct {
	Text string `json:"text"` // words in plain language (parseQuery); with Syntax, bleve query-string syntax
	// Also are more phrasings of the same question, each asked like Text;
	// the answers are fused by reciprocal rank fusion.
	Also       []string  `json:"also,omitempty"`
	Syntax     bool      `json:"syntax,omitempty"`     // Text (and Also) are bleve query-string syntax, as is
	Explain    bool      `json:"explain,omitempty"`    // each hit says what matched and how its score is made
	Project    string    `json:"project,omitempty"`    // only this project
	Type       string    `json:"type,omitempty"`       // only this type
	Provenance string    `json:"provenance,omitempty"` // only this provenance
	Since      time.Time `json:"since,omitzero"`       // only valid_at at or after this
	Limit      int       `json:"limit,omitempty"`      // at most this many hits (default 10)
	// Current keeps only hits whose status is current.
	Current bool `json:"current,omitempty"`
	// Now decides staleness and retirement (default the wall clock).
	Now time.Time `json:"now,omitzero"`
	// NoRefresh answers from the index as it is, reporting how many files
	// changed since it was built, instead of updating it first.
	NoRefresh bool                  `json:"no_refresh,omitempty"`
	Notify    func(msg string)      `json:"-"` // messages for stderr
	Progress  func(done, total int) `json:"-"`
	// Held, when set, is asked for an open index that holds every file as
	// it is now; Search then answers from it, as fresh, without looking at
	// the files (the daemon, which sees every change, vouches for it:
	// pkg/daemon). nil, or a nil answer: Search does its own work.
	Held func(v *vault.Vault) *Reader `json:"-"`
}

// MaxAlso is how many more phrasings a query may hold.
const MaxAlso = 8

// FieldError is what is wrong with one field of a Query. Each caller names
// the field its own way (mem search's --limit, the MCP tool's limit), so
// Problem reads after that name: "--limit must be at least 1".
type FieldError struct {
	Field   string // the Query's JSON name: text, also, limit, provenance, project
	Problem string
}

func (e *FieldError) Error() string { return e.Field + " " + e.Problem }

// Kind: a query that asks nothing sensible is a usage error (exit 2).
func (e *FieldError) Kind() fail.Kind { return fail.Usage }

// Check says what is wrong with q before it is asked: the one validator
// of a search's question, whoever asks it. Limit is the caller's to fill
// (mem search's and the MCP tool's default is 10).
func (q Query) Check() error {
	bad := func(field, format string, args ...any) error {
		return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	switch {
	case strings.TrimSpace(q.Text) == "":
		return bad("text", "is empty: say what to look for")
	case len(q.Also) > MaxAlso:
		return bad("also", "takes at most %d phrasings, not %d", MaxAlso, len(q.Also))
	case slices.ContainsFunc(q.Also, func(t string) bool { return strings.TrimSpace(t) == "" }):
		return bad("also", "needs TEXT: an empty phrasing asks nothing")
	case q.Limit < 1:
		return bad("limit", "must be at least 1")
	case q.Provenance != "" && !slices.Contains(frontmatter.Provenances, q.Provenance):
		return bad("provenance", "%q: want one of %s", q.Provenance, strings.Join(frontmatter.Provenances, ", "))
	case q.Project != "" && !vault.ProjectIDPattern().MatchString(q.Project):
		return bad("project", "%q: a project id looks like proj_name", q.Project)
	}
	return nil
}

// Result is a search's answer and how fresh the index behind it was.
type Result struct {
	Query string      `json:"query"`
	Index IndexStatus `json:"index"`
	Hits  []Hit       `json:"hits"`
}

// IndexStatus says whether the answer reflects every file. Changed counts
// the files that differed from the index when the search began: refreshed
// before answering when Fresh, still unindexed otherwise.
type IndexStatus struct {
	Fresh   bool `json:"fresh"`
	Changed int  `json:"changed"`
}

// Hit is one matching file, with what an answer needs to cite and weigh it.
type Hit struct {
	ID         string  `json:"id"`
	Path       string  `json:"path"`
	Type       string  `json:"type"`
	Provenance string  `json:"provenance"`
	ValidAt    string  `json:"valid_at"`
	Score      float64 `json:"score"`
	Snippet    string  `json:"snippet"`
	// Status is whether the claim stands: current, stale, superseded (by
	// SupersededBy), retired, deprecated, import, or broken.
	Status       string `json:"status"`
	SupersededBy string `json:"superseded_by,omitempty"`
	// With Query.Explain: each term that matched, as field:term, and
	// bleve's breakdown of the score, one part a line, indented by depth.
	Matched []string `json:"matched,omitempty"`
	Explain []string `json:"explain,omitempty"`
	// File is the file as this search read it to decide Status, so a
	// caller presenting the hit (inspect.Present) need not read it again;
	// nil in an answer that came over the wire. Other searches may share
	// it: never changed.
	File *vault.Memory `json:"-"`
}

// QueryError is a query the bleve query-string parser rejects.
type QueryError struct{ Err error }

func (e *QueryError) Error() string {
	return fmt.Sprintf("cannot parse the query: %v (syntax: https://blevesearch.com/docs/Query-String-Query/)", e.Err)
}

// Kind: a query bleve cannot parse is a usage error (exit 2).
func (e *QueryError) Kind() fail.Kind { return fail.Usage }

func (e *QueryError) Unwrap() error { return e.Err }

// refreshWait is how long a search waits for another writer before
// answering from the live index as it is (a --full rebuild can take a while,
// and the live index answers meanwhile).
const refreshWait = 2 * time.Second

// Search answers q. It first makes sure the index is fresh (or, with
// NoRefresh, measures how stale it is); with no index yet it builds one.
// ctx ends the query of the index (not a refresh under way, which is kept
// for the next search).
func Search(ctx context.Context, v *vault.Vault, q Query) (Result, error) {
	res := Result{Query: q.Text, Hits: []Hit{}}
	search, err := buildQueries(q)
	if err != nil {
		return res, err
	}
	if q.Limit <= 0 {
		q.Limit = 10
	}
	if q.Now.IsZero() {
		q.Now = clock.Now()
	}
	if q.Held != nil {
		if r := q.Held(v); r != nil {
			res.Index.Fresh = true
			res.Hits, err = queryIndex(ctx, v, r.idx, r.memo, search, q)
			return res, err
		}
	}
	// The freshness check (a stat of every file) dominates a search, so
	// the query runs on the live index meanwhile; its answer is used when
	// the check finds nothing changed, and the query runs again otherwise.
	type answer struct {
		hits []Hit
		err  error
	}
	early := make(chan answer, 1)
	go func() {
		hits, err := runQuery(ctx, v, search, q)
		early <- answer{hits, err}
	}()
	opts := Options{Notify: q.Notify, Progress: q.Progress}
	res.Index, err = prepare(v, q.NoRefresh, opts)
	a := <-early
	if err != nil {
		return res, err
	}
	// Unchanged, or not refreshed (--no-refresh, another writer busy; the
	// staleness is in res.Index): the early answer is the answer.
	if a.err == nil && (res.Index.Changed == 0 || !res.Index.Fresh) {
		res.Hits = a.hits
		return res, nil
	}
	res.Hits, err = runQuery(ctx, v, search, q)
	var qe *QueryError
	if err != nil && !errors.Is(err, errBusy) && !errors.As(err, &qe) {
		// Damaged: rebuild (saying so) and try once more. A rebuild reads
		// every file, so the answer is then fresh whatever was measured.
		var st Stats
		if st, err = repair(v, err, opts); err == nil {
			if st.Full {
				res.Index.Fresh = true
			}
			res.Hits, err = runQuery(ctx, v, search, q)
		}
	}
	if errors.Is(err, errBusy) {
		return res, fmt.Errorf("%w: it is being updated in place; try again in a moment", err)
	}
	return res, err
}

// runQuery runs a search on the live index, opened read-only for just this,
// and gives each hit its status. It reads more hits than it answers, so a
// correction ranking just below the limit still comes before the claim it
// corrects; with q.Current it reads on until the answer is full.
func runQuery(ctx context.Context, v *vault.Vault, search []phrasing, q Query) ([]Hit, error) {
	idx, err := openReader(v)
	if err != nil {
		return nil, err
	}
	defer idx.Close()
	return queryIndex(ctx, v, idx, nil, search, q)
}

// candidateWindow is how many hits a search ranks before it answers, the
// same whatever its limit: the episode lift and the current-claim order
// work on the hits ranked, so a window that grew with the limit let the
// first five of a limit-10 answer differ from the limit-5 one (80 of 760
// LoCoMo questions and 15 of 344 REALTALK ones before; none with the
// window, which cost no hit@k). A limit above 45 ranks more.
const candidateWindow = 100

// queryIndex is runQuery on an open index, with the memo of a held one
// (nil: none). Only the hits answered are given a snippet: highlighting
// and making it readable (markdown spans, the §8 read rules) was two
// thirds of a search answered from an open index.
func queryIndex(ctx context.Context, v *vault.Vault, idx bleve.Index, c *memo, qs []phrasing, q Query) ([]Hit, error) {
	page := max(candidateWindow, 2*q.Limit+10)
	hits := []Hit{}
	matches := map[string]*search.DocumentMatch{}
	// From a held index the candidates are ranked without their stored
	// fields (a lookup of each of the window's documents, a third of such a
	// search): a hit's id is then its file's, read for its status, which the
	// held index holds as it is; the rest is loaded for the hits answered.
	fields := storedFields
	if c != nil {
		fields = nil
	}
	// From a held index the candidates are also ranked without the places
	// their terms stand (reading and keeping them for every document that
	// matched was about half of its ranking's CPU); locate reads
	// them for the hits answered.
	noLocs := c != nil && !q.Explain
	var origin map[*search.DocumentMatch]int
	for n := page; ; n += page {
		if noLocs {
			origin = map[*search.DocumentMatch]int{}
		}
		ranked, more, err := candidates(ctx, idx, c, qs, n, q.Explain, fields, origin)
		if err != nil {
			return nil, err
		}
		hits = slices.Grow(hits[:0], len(ranked)) // room for all at once: grown by append, ~9% of a held search's garbage
		for _, h := range ranked {
			hits = append(hits, Hit{Path: h.ID, Score: h.Score})
			describe(&hits[len(hits)-1], h.Fields)
			matches[h.ID] = h
		}
		rels := make([]string, len(hits))
		for i, h := range hits {
			rels[i] = h.Path
		}
		mems := c.load(v, rels)
		for i, m := range mems {
			if hits[i].ID != "" {
				continue
			}
			if m.OK() {
				hits[i].ID = m.ID
				continue
			}
			// A file that cannot be read now: its id as indexed.
			if err := loadStored(idx, c, ranked[i:i+1]); err != nil {
				return nil, err
			}
			describe(&hits[i], ranked[i].Fields)
		}
		if err := annotate(v, idx, c, hits, mems, q.Now); err != nil {
			return nil, err
		}
		if q.Current {
			hits = slices.DeleteFunc(hits, func(h Hit) bool { return h.Status != vault.StatusCurrent })
		}
		if !q.Current || len(hits) >= q.Limit || !more {
			break
		}
	}
	rank(hits)
	hits = hits[:min(len(hits), q.Limit)]
	if noLocs {
		if err := locate(ctx, idx, qs, origin, hits, matches); err != nil {
			return nil, err
		}
	}
	if q.Explain {
		for i := range hits {
			hits[i].Matched, hits[i].Explain = explain(matches[hits[i].Path])
		}
	}
	return hits, snippets(idx, c, hits, matches)
}

// locate gives the matches of hits ranked without locations (candidates'
// noLocs) the places their terms stand in the fields a snippet reads, as a
// ranking with them gives: the clauses of each hit's phrasing are asked
// again of the hits it ranked. A match no phrasing ranked (lifted by its episode alone, or
// found by its exact name only) has none, as it would not have had.
func locate(ctx context.Context, idx bleve.Index, qs []phrasing, origin map[*search.DocumentMatch]int, hits []Hit, matches map[string]*search.DocumentMatch) error {
	ids := map[int][]string{}
	for _, h := range hits {
		if i, ok := origin[matches[h.Path]]; ok {
			ids[i] = append(ids[i], h.Path)
		}
	}
	for i, docs := range ids {
		cs := clauses(qs[i].query)
		if cs == nil {
			continue
		}
		req := bleve.NewSearchRequestOptions(query.NewConjunctionQuery([]query.Query{cs, query.NewDocIDQuery(docs)}), len(docs), 0, false)
		req.IncludeLocations = true
		sr, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return err
		}
		for _, m := range sr.Hits {
			matches[m.ID].Locations = m.Locations
		}
	}
	return nil
}

// clauses is a disjunction of the clauses of q that place terms in a
// snippet's fields (snippetFields, the only places a snippet reads): its
// boolean's required and optional ones and its conjunctions' and
// disjunctions' parts, whatever their nesting, each field of a word asked
// of every prose field (anyField) only in those fields; the excluded ones
// place none. Asked of documents that match q, it places in those fields
// the same terms as q does, and it is what locate asks: bleve's boolean
// searcher, advanced to a document (as a conjunction with the document's
// id advances it), can skip past an optional clause's match it had
// already read (BooleanSearcher.Advance moves the optional searcher on
// even when it stands at or past the document), and the document then
// comes back without that clause's places: a snippet without its
// highlight. A disjunction advances only what trails. Nil when no clause
// reads a snippet's field.
func clauses(q query.Query) query.Query {
	var leaves []query.Query
	shown := func(q query.Query) bool {
		f, ok := q.(query.FieldableQuery)
		return !ok || f.Field() == "" || slices.Contains(snippetFields, f.Field())
	}
	var walk func(q query.Query)
	walk = func(q query.Query) {
		switch q := q.(type) {
		case *query.BooleanQuery:
			for _, c := range []query.Query{q.Must, q.Should} {
				if c != nil {
					walk(c)
				}
			}
		case *query.ConjunctionQuery:
			for _, c := range q.Conjuncts {
				walk(c)
			}
		case *query.DisjunctionQuery:
			for _, c := range q.Disjuncts {
				walk(c)
			}
		case *fieldsQuery:
			for _, c := range q.perField {
				walk(c)
			}
		default:
			if shown(q) {
				leaves = append(leaves, q)
			}
		}
	}
	walk(q)
	if len(leaves) == 0 {
		return nil
	}
	return query.NewDisjunctionQuery(leaves)
}

// describe fills h's stored fields (id, type, provenance, valid_at) from
// a hit's loaded fields; nil leaves them as they are.
func describe(h *Hit, fields map[string]any) {
	if fields == nil {
		return
	}
	str := func(f string) string { s, _ := fields[f].(string); return s }
	h.ID, h.Type, h.Provenance, h.ValidAt = str(fieldID), str(fieldType), str(fieldProvenance), str(fieldValidAtText)
}

// reader is a reader of idx's segments as they are now, for reading stored
// documents directly; the caller closes it.
func reader(idx bleve.Index) (bleveindex.IndexReader, error) {
	ai, err := idx.Advanced()
	if err != nil {
		return nil, err
	}
	return ai.Reader()
}

// loadStored loads the stored fields of each hit that was ranked without
// them, as a search request naming storedFields loads them; with a memo,
// each document through it.
func loadStored(idx bleve.Index, c *memo, hits []*search.DocumentMatch) error {
	if !slices.ContainsFunc(hits, func(h *search.DocumentMatch) bool { return h.Fields == nil }) {
		return nil
	}
	r, err := c.reader(idx)
	if err != nil {
		return err
	}
	defer r.Close()
	req := &bleve.SearchRequest{Fields: storedFields}
	for _, h := range hits {
		if h.Fields != nil {
			continue
		}
		if err, _ := bleve.LoadAndHighlightFields(h, req, "", r, nil); err != nil {
			return err
		}
	}
	return nil
}

// rrfK is reciprocal rank fusion's constant: a file's fused score is the
// sum over the phrasings of 1/(rrfK + its rank), so agreement between
// phrasings counts more than one phrasing's first place.
const rrfK = 60

// rrfAsked is the weight of the question as asked (Text) against each of
// its other phrasings.
const rrfAsked = 2

// novelty is the weight of phrasing p among the phrasings before it (seen,
// their analysed terms, which it extends): the share of its terms that
// none of them has. A phrasing that only repeats earlier words (the
// question with its stop words or short words dropped) re-counts evidence
// the earlier rankings already weighed, and fused at full weight it
// outvotes them: on LoCoMo two such rewrites at weight 1 gave 0.704 hit@5
// against the question's 0.712 alone. A rewording's new words count in
// full. Syntax phrasings are not analysed here and count in full.
func novelty(a analysis.Analyzer, p phrasing, seen map[string]bool) float64 {
	if a == nil || p.text == "" {
		return 1
	}
	var terms, fresh int
	for _, t := range a.Analyze([]byte(p.text)) {
		terms++
		if !seen[string(t.Term)] {
			fresh++
			seen[string(t.Term)] = true
		}
	}
	if terms == 0 {
		return 0
	}
	return float64(fresh) / float64(terms)
}

// candidates are the best n files for the phrasings qs, best first, each
// phrasing's answer with its episodes lifted (see episodes), several fused
// by reciprocal rank; more says whether any phrasing has more.
//
// With origin (a held index, no explain) the hits are ranked without the
// places their terms stand, and origin records, for each match a
// phrasing's ranking made, that phrasing: locate reads the places for
// the hits answered only. c is the held index's memo, or nil.
func candidates(ctx context.Context, idx bleve.Index, c *memo, qs []phrasing, n int, explain bool, fields []string, origin map[*search.DocumentMatch]int) ([]*search.DocumentMatch, bool, error) {
	noLocs := origin != nil
	type ranked struct {
		hits   []*search.DocumentMatch
		weight float64
	}
	var lists []ranked
	more := false
	var an analysis.Analyzer
	seen := map[string]bool{}
	if len(qs) > 1 {
		an = idx.Mapping().AnalyzerNamed(tokens.Name)
	}
	for i, p := range qs {
		w := float64(rrfAsked)
		if len(qs) > 1 {
			// novelty records p's words in seen, the question's too.
			if nw := novelty(an, p, seen); i > 0 {
				if nw == 0 {
					continue // its ranking would weigh nothing: not asked
				}
				w = nw
			}
		}
		req := bleve.NewSearchRequestOptions(p.query, n, 0, explain)
		req.Fields = fields
		req.IncludeLocations = !noLocs // for highlight and explain
		hits, total, err := best(ctx, idx, req)
		if ctx.Err() != nil {
			return nil, false, ctx.Err() // not the query's fault
		}
		if err != nil {
			return nil, false, &QueryError{err}
		}
		if noLocs {
			for _, h := range hits {
				origin[h] = i
			}
		}
		more = more || total > n
		if p.lift {
			var added []*search.DocumentMatch
			if hits, added, err = byDay(ctx, idx, hits, p, !noLocs); err != nil {
				if ctx.Err() != nil {
					return nil, false, ctx.Err()
				}
				return nil, false, err
			}
			if noLocs {
				for _, h := range added {
					origin[h] = i // located with the window's, by locate
				}
			}
			if hits, err = episodes(idx, c, hits, p); err != nil {
				return nil, false, err
			}
			if hits, err = byMeaning(idx, c, hits, p, n); err != nil {
				return nil, false, err
			}
			if hits, err = byAnswer(idx, c, hits, p); err != nil {
				return nil, false, err
			}
		}
		lists = append(lists, ranked{hits, w})
	}
	if len(qs) == 1 {
		hits, err := exactFirst(ctx, idx, lists[0].hits, qs[0], fields)
		return hits, more, err
	}
	fused := map[string]*search.DocumentMatch{}
	score := map[string]float64{}
	for _, l := range lists {
		for r, h := range l.hits {
			if fused[h.ID] == nil {
				fused[h.ID] = h
			}
			score[h.ID] += l.weight / float64(rrfK+r+1)
		}
	}
	out := make([]*search.DocumentMatch, 0, len(fused))
	for id, h := range fused {
		h.Score = score[id]
		explainStep(h, "fused by reciprocal rank over %d phrasings (the breakdown below is the first that found it)", len(lists))
		out = append(out, h)
	}
	slices.SortFunc(out, byScore)
	out, err := exactFirst(ctx, idx, out[:min(n, len(out))], qs[0], fields)
	return out, more, err
}

// byScore orders hits best first and, where their scores are equal, by
// path: the same files in the same order however the index's segments lie.
func byScore(a, b *search.DocumentMatch) int {
	return cmp.Or(cmp.Compare(b.Score, a.Score), cmp.Compare(a.ID, b.ID))
}

// best is the answer to req, at most req.Size hits, in byScore's order,
// and how many matched. bleve orders equal scores by document number,
// which the index's layout decides (which segments a build's merges left,
// in what order), so a search's answer changed with the layout: LoCoMo's
// recall moved by a question or two from one build of the same files to
// the next. Here the files tied at the last place are all read (up to
// tieMax) and the place goes to the first by path, so every layout of the
// same documents gives the same answer. A quarter more than asked is read
// at once: at 50,000 generated files half of 300 two-word questions tied
// at the 100th place, and the tie ended within those in all but one.
func best(ctx context.Context, idx bleve.Index, req *bleve.SearchRequest) ([]*search.DocumentMatch, int, error) {
	n := req.Size
	req.Size = n + n/4 + 1 // room for a tie at the last place
	for {
		sr, err := idx.SearchInContext(ctx, req)
		if err != nil {
			return nil, 0, err
		}
		hits := sr.Hits
		if n > 0 && len(hits) == req.Size && req.Size < tieMax && hits[n-1].Score == hits[len(hits)-1].Score {
			req.Size = tieMax // the tie goes on past what was read
			continue
		}
		slices.SortStableFunc(hits, byScore)
		return hits[:min(n, len(hits))], int(sr.Total), nil
	}
}

// tieMax bounds the files best reads to break a tie at the last place.
// Only a query whose scores barely differ ties so many (a filter alone,
// type:decision, scores every match the same): past tieMax the tie is
// broken among the first tieMax by document number, as bleve does.
const tieMax = 1000

// exactFirst puts first, in a ranked answer to the asked phrasing p, the
// files whose title, an alias or file name is the query itself (compared
// as tokens.ExactKey): a query that names a note finds it first, however
// many other files hold its words more often. Syntax queries are not
// compared.
func exactFirst(ctx context.Context, idx bleve.Index, hits []*search.DocumentMatch, p phrasing, fields []string) ([]*search.DocumentMatch, error) {
	key := tokens.ExactKey(p.text)
	if !p.lift || key == "" {
		return hits, nil
	}
	t := bleve.NewTermQuery(key)
	t.SetField(fieldExact)
	explaining := len(hits) > 0 && hits[0].Expl != nil
	req := bleve.NewSearchRequestOptions(query.NewBooleanQueryForQueryString(append([]query.Query{t}, p.required...), nil, p.excluded), exactMax, 0, explaining)
	req.Fields = fields
	named, _, err := best(ctx, idx, req)
	if err != nil || len(named) == 0 {
		return hits, err
	}
	top := 0.0
	if len(hits) > 0 {
		top = hits[0].Score
	}
	first := make([]*search.DocumentMatch, 0, len(named)+len(hits))
	exact := map[string]bool{}
	for _, e := range named {
		exact[e.ID] = true
		// The prose match, when it has one, keeps its terms for the snippet.
		if i := slices.IndexFunc(hits, func(h *search.DocumentMatch) bool { return h.ID == e.ID }); i >= 0 {
			e = hits[i]
		}
		e.Score = top + 1
		explainStep(e, "named exactly by the query (its title, an alias or its file name): first")
		first = append(first, e)
	}
	slices.SortFunc(first, func(a, b *search.DocumentMatch) int { return cmp.Compare(a.ID, b.ID) })
	for _, h := range hits {
		if !exact[h.ID] {
			first = append(first, h)
		}
	}
	return first, nil
}

// exactMax bounds the files one exact name finds (a name most often
// belongs to one).
const exactMax = 10

// explain is a hit's matched terms (field:term) and score breakdown. A
// file lifted by its episode alone has no terms of its own.
func explain(m *search.DocumentMatch) (matched, parts []string) {
	for field, terms := range m.Locations {
		for term := range terms {
			matched = append(matched, field+":"+term)
		}
	}
	slices.Sort(matched)
	// bleve's explanation names its own binary document number (" in
	// <bytes>)", "doc=<bytes>)"); the hit already says which file it is.
	id := string(m.IndexInternalID)
	var walk func(x *search.Explanation, depth int)
	walk = func(x *search.Explanation, depth int) {
		if x == nil {
			return
		}
		msg := x.Message
		if id != "" {
			msg = strings.ReplaceAll(strings.ReplaceAll(msg, " in "+id+")", ")"), ", doc="+id+")", ")")
		}
		parts = append(parts, fmt.Sprintf("%s%.4g %s", strings.Repeat("  ", depth), x.Value, msg))
		for _, c := range x.Children {
			walk(c, depth+1)
		}
	}
	walk(m.Expl, 0)
	return matched, parts
}

// explainStep records on h a step that changed its score after bleve
// ranked it (the episode lift, the rerank by meaning, a near-duplicate's
// penalty, fusion, an exact name): the step becomes the root of h's
// explanation, with what came before below it, so the breakdown adds up
// to the score the hit is answered with. Only a search asked to explain
// has explanations (bleve gives them or not per request), so the steps of
// any other search record nothing.
func explainStep(h *search.DocumentMatch, format string, a ...any) {
	if h.Expl != nil {
		h.Expl = &search.Explanation{Value: h.Score, Message: fmt.Sprintf(format, a...), Children: []*search.Explanation{h.Expl}}
	}
}

// snippets gives each hit its snippet from its match, highlighted as
// bleve's search highlights every hit of a page when asked to
// (bleve.LoadAndHighlightFields), reading each answered file's stored
// document once: its title and body, and the fields of a hit ranked
// without them (queryIndex).
func snippets(idx bleve.Index, c *memo, hits []Hit, matches map[string]*search.DocumentMatch) error {
	if len(hits) == 0 {
		return nil
	}
	hl, err := bleve.Config.Cache.HighlighterNamed(highlighterName)
	if err != nil {
		return err
	}
	frag, err := bleve.Config.Cache.FragmenterNamed(simplefrag.Name)
	if err != nil {
		return err
	}
	r, err := c.reader(idx)
	if err != nil {
		return err
	}
	defer r.Close()
	for i := range hits {
		m := matches[hits[i].Path]
		doc, err := r.Document(m.ID)
		if err != nil {
			return err
		}
		if doc == nil {
			return bleve.ErrorIndexReadInconsistency
		}
		var title, body string
		stored := map[string]any{} // for a hit ranked without them
		doc.VisitFields(func(f bleveindex.Field) {
			if t, ok := f.(bleveindex.TextField); ok {
				switch f.Name() {
				case fieldTitle:
					title = t.Text()
				case fieldBody:
					body = t.Text()
				default:
					stored[f.Name()] = t.Text()
				}
			}
		})
		if m.Fields == nil {
			describe(&hits[i], stored)
		}
		for _, f := range snippetFields {
			h := hl
			if c != nil {
				// The held index's memo keeps the note's markdown as read
				// (a parse of its text: 6% of mem serve's CPU at 50k).
				key := m.ID + "\x00" + f
				h = newHighlighter(frag, func(text []byte) []markdown.Span { return c.unmarkable(key, text) })
			}
			h.BestFragmentsInField(m, doc, f, 1)
		}
		full := title + "\n" + body
		hits[i].Snippet = readable(m.Fragments, title, body, c.text(m.ID, full))
	}
	return nil
}

// prepare refreshes the index (or measures its staleness) before a search.
func prepare(v *vault.Vault, noRefresh bool, opts Options) (IndexStatus, error) {
	if noRefresh {
		f, err := Freshness(v)
		if err != nil {
			return IndexStatus{}, err
		}
		if f.Exists {
			return IndexStatus{Fresh: f.Changed == 0, Changed: f.Changed}, nil
		}
		// Nothing to answer from: build one whatever the flag says.
		st, err := Update(v, opts)
		return IndexStatus{Fresh: err == nil, Changed: st.Changed}, err
	}
	unlock, ok, err := lockIndex(opts.Context, v, refreshWait, nil)
	if err != nil {
		// The lock cannot be taken — a read-only vault (a mount, a
		// colleague's copy, permissions): a search only reads, so it
		// answers from the index there is, and says so (issue 42).
		f, ferr := Freshness(v)
		if ferr != nil || !f.Exists {
			return IndexStatus{}, fmt.Errorf("%w: and there is no index to search without it; run mem where the vault is writable ('mem rebuild-index')", err)
		}
		opts.notify("cannot update the index here (%v): searching the index as it is", err)
		return IndexStatus{Fresh: f.Changed == 0, Changed: f.Changed}, nil
	}
	if ok {
		defer unlock()
		st, err := update(v, opts, false)
		return IndexStatus{Fresh: err == nil, Changed: st.Changed}, err
	}
	// Another writer (most likely a --full rebuild) holds the lock: answer
	// from the live index, saying how stale it is.
	f, err := Freshness(v)
	if err != nil {
		return IndexStatus{}, err
	}
	if !f.Exists {
		// The first build is under way; there is nothing to answer from yet.
		st, err := Update(v, opts)
		return IndexStatus{Fresh: err == nil, Changed: st.Changed}, err
	}
	if f.Changed > 0 {
		opts.notify("another mem process is updating the index: answering from the current one")
	}
	return IndexStatus{Fresh: f.Changed == 0, Changed: f.Changed}, nil
}

// openReader opens the live generation read-only. If the generation it
// read from CURRENT vanished (a writer swapped in a new one and swept the
// old), it reads CURRENT again.
func openReader(v *vault.Vault) (bleve.Index, error) {
	_, idx, err := openLive(v)
	return idx, err
}

// openLive is openReader, also returning the generation it opened (its
// manifest not read: see current).
func openLive(v *vault.Vault) (*generation, bleve.Index, error) {
	var lastErr error
	for range 3 {
		g, reason := current(v)
		if g == nil {
			return nil, nil, errors.New(reason)
		}
		idx, err := open(g, true)
		if err == nil {
			return g, idx, nil
		}
		lastErr = err
		if g2, _ := current(v); g2 == nil || g2.name == g.name {
			break
		}
	}
	return nil, nil, lastErr
}

// repair rebuilds an index a reader could not open, unless another
// process replaced it meanwhile.
func repair(v *vault.Vault, cause error, opts Options) (Stats, error) {
	unlock, _, err := lockIndex(opts.Context, v, -1, nil)
	if err != nil {
		return Stats{}, err
	}
	defer unlock()
	if idx, err := openReader(v); err == nil {
		idx.Close()
		return Stats{}, nil
	}
	return rebuild(v, opts, fmt.Sprintf("the index could not be opened (%v)", cause))
}

// phrasing is one phrasing of a search as bleve queries.
type phrasing struct {
	query query.Query
	// lift says whether its hits' episodes are lifted (not with Syntax,
	// whose clauses are not known here); a memory lifted must still hold
	// the required clauses and filters and none of the excluded ones.
	lift               bool
	required, excluded []query.Query
	text               string // as written, for novelty; empty with Syntax
}

// buildQueries turns q into bleve queries, one for Text and one for each
// of Also: each phrasing parsed (parseQuery), and the filters as exact
// keyword or date-range clauses.
func buildQueries(q Query) ([]phrasing, error) {
	var filters []query.Query
	for field, val := range map[string]string{fieldProject: q.Project, fieldType: q.Type, fieldProvenance: q.Provenance} {
		if val != "" {
			t := bleve.NewTermQuery(val)
			t.SetField(field)
			filters = append(filters, t)
		}
	}
	if !q.Since.IsZero() {
		inclusive := true
		r := bleve.NewDateRangeInclusiveQuery(q.Since, time.Time{}, &inclusive, nil)
		r.SetField(fieldValidAt)
		filters = append(filters, r)
	}
	var out []phrasing
	for _, text := range append([]string{q.Text}, q.Also...) {
		if strings.TrimSpace(text) == "" {
			return nil, &QueryError{errors.New("the query is empty")}
		}
		var p phrasing
		if q.Syntax {
			bq, err := parseQuery(text, true)
			if err != nil {
				return nil, err
			}
			p.query = bq
		} else {
			p.query, p.required, p.excluded = parsePlain(text)
			p.lift = true
			p.text = text
			p.required = append(p.required, filters...)
		}
		if len(filters) > 0 {
			p.query = bleve.NewConjunctionQuery(append([]query.Query{p.query}, filters...)...)
		}
		out = append(out, p)
	}
	return out, nil
}

// spreadFieldless replaces, in a parsed query string, every clause without
// a field (a bare word, phrase, wildcard or regexp) by an anyField over the
// prose fields. The tree is changed in place, so the parser's own
// boolean, conjunction and disjunction nodes keep their query-string
// behaviour (a clause that analyses to nothing, like a stop word, is
// dropped rather than matching nothing).
func spreadFieldless(q query.Query) query.Query {
	switch q := q.(type) {
	case *query.BooleanQuery:
		q.Must = spreadFieldless(q.Must)
		q.Should = spreadFieldless(q.Should)
		q.MustNot = spreadFieldless(q.MustNot)
	case *query.ConjunctionQuery:
		for i, c := range q.Conjuncts {
			q.Conjuncts[i] = spreadFieldless(c)
		}
	case *query.DisjunctionQuery:
		for i, c := range q.Disjuncts {
			q.Disjuncts[i] = spreadFieldless(c)
		}
	case *query.MatchQuery:
		if q.Field() == "" {
			return anyField(q, func(f string) query.Query { c := *q; c.SetField(f); return &c })
		}
	case *query.MatchPhraseQuery:
		if q.Field() == "" {
			return anyField(q, func(f string) query.Query { c := *q; c.SetField(f); return &c })
		}
	case *query.WildcardQuery:
		if q.Field() == "" {
			return anyField(q, func(f string) query.Query { c := *q; c.SetField(f); return &c })
		}
	case *query.RegexpQuery:
		if q.Field() == "" {
			return anyField(q, func(f string) query.Query { c := *q; c.SetField(f); return &c })
		}
	}
	// Anything else without a field (a bare number's numeric range) goes
	// to the mapping's default field.
	return q
}

// anyField is one clause asked of each prose field: a document matches
// when any field does, and scores the sum, each field's score times its
// fieldWeight, so a word in the title ranks above one in the body alone.
func anyField(q query.Query, in func(field string) query.Query) query.Query {
	fq := &fieldsQuery{orig: q}
	for _, f := range proseFields {
		c := in(f)
		if b, ok := c.(query.BoostableQuery); ok {
			b.SetBoost(b.Boost() * fieldWeight[f])
		}
		fq.perField = append(fq.perField, c)
	}
	return fq
}

type fieldsQuery struct {
	orig     query.Query // the field-less clause, for Validate
	perField []query.Query
}

// Searcher is a disjunction of the per-field searchers. Like bleve's
// query-string disjunction it drops fields that match nothing by
// construction, and answers MatchNone when all do, so a stop word inside
// "+the +postgres" is ignored as it was with _all.
func (q *fieldsQuery) Searcher(ctx context.Context, i bleveindex.IndexReader, m mapping.IndexMapping, options search.SearcherOptions) (search.Searcher, error) {
	ss := make([]search.Searcher, 0, len(q.perField))
	for _, fq := range q.perField {
		s, err := fq.Searcher(ctx, i, m, options)
		if err != nil {
			for _, s := range ss {
				s.Close()
			}
			return nil, err
		}
		if _, none := s.(*searcher.MatchNoneSearcher); none {
			continue
		}
		ss = append(ss, s)
	}
	if len(ss) == 0 {
		return searcher.NewMatchNoneSearcher(i)
	}
	return searcher.NewDisjunctionSearcher(ctx, i, ss, 0, options)
}

// Validate checks the clause as written (a malformed regexp, say).
func (q *fieldsQuery) Validate() error {
	if v, ok := q.orig.(query.ValidatableQuery); ok {
		return v.Validate()
	}
	return nil
}

// oneLine replaces each run of ASCII white space (regexp's \s: tab,
// newline, form feed, carriage return, space) in s with one space: what
// regexp `\s+` replaced, at a tenth of the cost (4% of a held search).
func oneLine(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	run := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\t', '\n', '\f', '\r', ' ':
			if !run {
				b.WriteByte(' ')
			}
			run = true
		default:
			b.WriteByte(c)
			run = false
		}
	}
	return b.String()
}

// snippet is the best highlighted fragment on one line, and the field it
// is from: body first, else title.
func snippet(frags map[string][]string) (string, string) {
	for _, f := range snippetFields {
		if fs := frags[f]; len(fs) > 0 {
			return strings.TrimSpace(oneLine(fs[0])), f
		}
	}
	return "", ""
}

// snippetWidth is about the length of the highlighter's fragments.
const snippetWidth = 200

// lead is the opening of text as a snippet: on one line, cut after a
// whole word.
func lead(text string) string {
	text = strings.TrimSpace(oneLine(text))
	if len(text) <= snippetWidth {
		return text
	}
	return text[:wordEnd([]byte(text), snippetWidth)] + "…"
}

// readable is a snippet as a read may print it (spec §8): never a secret,
// and an injection shown but marked. The whole title and body decide, not
// the fragment alone: a fragment can cut a secret in half, and an
// injection outside it still says what the file is. When they hold a
// secret the snippet is cut instead from the redacted text, around the
// first highlighted term, which alone is highlighted again. found is
// rules.Text of title + "\n" + body.
func readable(frags map[string][]string, title, body string, found []rules.Finding) string {
	snip, field := snippet(frags)
	flag := rules.Flag(found)
	if snip == "" {
		// No term of its own (a memory its episode lifted): its opening.
		snip, field = lead(body), fieldBody
	}
	// Redact changes the text exactly when it holds a secret, which Text
	// has just looked for: one scan instead of a second of the same text.
	if !slices.ContainsFunc(found, func(f rules.Finding) bool { return f.Kind == rules.Secret }) {
		return flag + snip
	}
	source := body
	if field == fieldTitle {
		source = title
	}
	text := strings.TrimSpace(oneLine(rules.Redact(source)))
	at, term := 0, ""
	if _, rest, ok := strings.Cut(snip, markStart); ok {
		term, _, _ = strings.Cut(rest, markEnd)
		at = max(strings.Index(text, term)-snippetWidth/3, 0)
	}
	at = wordStart([]byte(text), at)
	end := wordEnd([]byte(text), min(at+snippetWidth, len(text)))
	out := text[at:end]
	if term != "" {
		out = strings.Replace(out, term, markStart+term+markEnd, 1)
	}
	if at > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return flag + out
}

// Status is how the index compares with the files, without opening bleve.
type Status struct {
	Exists  bool      // a usable index exists (CURRENT, manifest, schema all good)
	Reason  string    // why not, when !Exists
	Changed int       // files added, changed or removed since it was built
	Files   int       // files in the vault
	Built   time.Time // when the files it holds were scanned
	dir     string    // the live generation's directory
}

// Freshness compares the live index's manifest with a stat walk of the
// vault (reading only files whose stat moved). It is what audit and doctor
// call to report index freshness; it takes no lock and writes nothing.
func Freshness(v *vault.Vault) (Status, error) {
	l := startListing(v)
	g, reason := live(v)
	if g == nil {
		snap, err := l.wait()
		if err != nil {
			return Status{}, err
		}
		return Status{Reason: reason, Changed: len(snap.Rels), Files: len(snap.Rels)}, nil
	}
	d, err := compare(v, g.man, l)
	if err != nil {
		return Status{}, err
	}
	if _, err := os.Stat(filepath.Join(g.blevePath(), "index_meta.json")); err != nil {
		return Status{Reason: fmt.Sprintf("%s is missing its bleve index", g.dir), Changed: d.files, Files: d.files}, nil
	}
	return Status{Exists: true, Changed: d.changed(), Files: d.files, Built: g.man.scanned, dir: g.dir}, nil
}
