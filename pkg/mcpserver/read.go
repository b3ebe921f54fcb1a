package mcpserver

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

var (
	provenances = frontmatter.Provenances
	// claimTypes are what remember writes: notes and project notes are
	// not one-line claims.
	claimTypes = slices.DeleteFunc(slices.Clone(frontmatter.Types), func(t string) bool {
		return t == frontmatter.TypeNote || t == frontmatter.TypeProject
	})
)

// RecallInput selects the session a view is rendered for.
type RecallInput struct {
	Cwd     string `json:"cwd,omitempty" jsonschema:"absolute working directory of the session; its project is the one whose roots hold it (default: where the server started)"`
	Project string `json:"project,omitempty" jsonschema:"render for this project id (proj_...) instead of resolving one from cwd"`
	Budget  int    `json:"budget,omitempty" jsonschema:"most bytes of output (default: render.budget of mem.yaml, 8192)"`
	Query   string `json:"query,omitempty" jsonschema:"also search every store for this, in plain language (as search's query): the best hits come after the view, each labelled memory, note or pointer"`
	Limit   int    `json:"limit,omitempty" jsonschema:"at most this many hits for query (default 5)"`
}

// recallOutput is the view and what went into it. View carries the text
// too: clients hand the model the structured content, not the text.
type recallOutput struct {
	View     string   `json:"view"`
	Project  string   `json:"project,omitempty"`
	Bytes    int      `json:"bytes"`
	Budget   int      `json:"budget"`
	Items    int      `json:"items"`
	Dropped  int      `json:"dropped"`
	Warnings []string `json:"warnings,omitempty"`
	// Hits, with a query: the best matches from every store, so an
	// answer can say which one a claim came from.
	Hits []recallHit `json:"hits,omitempty"`
	// Stores are the harness memory files loaded for cwd besides this view.
	Stores []loadedStore `json:"stores,omitempty"`
}

// recallHit is one search hit labelled by its store: a memory (a one-line
// claim), a note (long form, or another tool's page), or a pointer (the
// memory `note` writes beside a note, linking to it).
type recallHit struct {
	Store string `json:"store" jsonschema:"memory, note or pointer"`
	inspect.Hit
}

// pointerBody is the body vault.PointerText writes.
var pointerBody = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[^\n]*: see \[\[[^\]\n]+\]\]\s*$`) })

// store labels a hit by the file it cites.
func store(m *vault.Memory) string {
	switch {
	case m == nil || !frontmatter.IsMemoryType(m.Meta().Type):
		return "note"
	case m.Doc != nil && pointerBody().MatchString(m.Doc.Body):
		return "pointer"
	}
	return "memory"
}

// recall renders the memory view: the same call `mem render` makes, with
// the render options mem.yaml gives.
func (s *server) recall(ctx context.Context, _ *mcp.CallToolRequest, in RecallInput) (*mcp.CallToolResult, recallOutput, error) {
	var out recallOutput
	if in.Budget < 0 {
		return nil, out, errors.New("budget must be a positive number of bytes")
	}
	if in.Limit < 0 {
		return nil, out, errors.New("limit must be at least 1")
	}
	cwd, err := s.cwd(in.Cwd)
	if err != nil {
		return nil, out, err
	}
	if in.Cwd = cwd; s.Ask != nil {
		if a, ok := s.Ask("recall", in, s.Now()); ok {
			res, o, err := answered(a, &out)
			o.Stores = s.loadedStores(cwd) // the daemon knows no harness: this server names its stores
			return res, o, err
		}
	}
	mems, err := s.load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return nil, out, err
	}
	projects := s.Vault.Projects(mems)
	var p *vault.Project
	if in.Project != "" {
		if p = vault.FindProject(projects, in.Project); p == nil {
			known := make([]string, len(projects))
			for i, pr := range projects {
				known[i] = pr.ID
			}
			return nil, out, fmt.Errorf("project %s: no project note has that id; known: %s", in.Project, strings.Join(known, ", "))
		}
	} else {
		p = vault.ResolveProject(projects, cwd)
	}
	res, err := render.Render(mems, render.OptionsFor(s.Vault, p, in.Budget, s.Now()))
	if err != nil {
		return nil, out, err
	}
	for _, w := range res.Warnings {
		s.Logger.Warn("recall skipped a file", "warning", w)
	}
	out = recallOutput{View: string(res.Doc), Bytes: len(res.Doc), Budget: res.Budget, Items: len(res.Items), Dropped: len(res.Dropped), Warnings: res.Warnings}
	if p != nil {
		out.Project = p.ID
	}
	out.Stores = s.loadedStores(cwd)
	if strings.TrimSpace(in.Query) == "" {
		return text(string(res.Doc)), out, nil
	}
	found, err := index.Search(ctx, s.Vault, index.Query{Text: in.Query, Limit: cmp.Or(in.Limit, 5), Now: s.Now(),
		Notify: func(msg string) { s.Logger.Info(msg) }, Held: s.Held})
	if err != nil {
		return nil, out, err
	}
	byRel := make(map[string]*vault.Memory, len(mems))
	for _, m := range mems {
		byRel[m.Rel] = m
	}
	var b strings.Builder
	b.Write(res.Doc)
	fmt.Fprintf(&b, "\n## Found for %q\n", in.Query)
	if len(found.Hits) == 0 {
		b.WriteString("no matches\n")
	}
	for _, h := range inspect.Present(s.Vault, found).Hits {
		rh := recallHit{Store: store(byRel[h.Path]), Hit: h}
		out.Hits = append(out.Hits, rh)
		fmt.Fprintf(&b, "- %s: %s%s\n", rh.Store, h.Cite(), noteOf(h))
		if h.Snippet != "" {
			fmt.Fprintf(&b, "    %s\n", h.Snippet)
		}
	}
	return text(b.String()), out, nil
}

// SearchInput is one search, with the filters of `mem search`.
type SearchInput struct {
	Query      string   `json:"query,omitempty" jsonschema:"what to look for, in plain language: words, \"a phrase\", +word (must), -word (must not), field:value or field:\"a value\" (type, provenance, project, tags, id, title, body, aliases); every other character is text"`
	Queries    []string `json:"queries,omitempty" jsonschema:"up to 8 more phrasings of the same question, fused with query by reciprocal rank fusion (ask the way you think, and reworded)"`
	Syntax     bool     `json:"syntax,omitempty" jsonschema:"read query and queries as bleve query-string syntax, as is (wildcards, ranges, boosts)"`
	Explain    bool     `json:"explain,omitempty" jsonschema:"per hit, the terms that matched (field:term) and what the score is made of"`
	Project    string   `json:"project,omitempty" jsonschema:"only memories of this project id"`
	Type       string   `json:"type,omitempty" jsonschema:"only this type"`
	Provenance string   `json:"provenance,omitempty" jsonschema:"only this provenance"`
	Since      string   `json:"since,omitempty" jsonschema:"only claims with valid_at on or after this date (YYYY-MM-DD or RFC 3339)"`
	Limit      int      `json:"limit,omitempty" jsonschema:"at most this many hits (default 10)"`
	Current    bool     `json:"current,omitempty" jsonschema:"only claims that stand (not stale, superseded, retired, deprecated or imported)"`
}

// query is the tool's arguments as the one search query, checked by its
// validator (index.Query.Check) with the tool's names for the fields. An
// empty phrasing is dropped: query may be empty when queries is not.
func (in SearchInput) query(now time.Time) (index.Query, error) {
	texts := slices.DeleteFunc(append([]string{in.Query}, in.Queries...), func(t string) bool { return strings.TrimSpace(t) == "" })
	q := index.Query{Syntax: in.Syntax, Explain: in.Explain, Project: in.Project, Type: in.Type,
		Provenance: in.Provenance, Limit: cmp.Or(in.Limit, 10), Current: in.Current, Now: now}
	if len(texts) > 0 {
		q.Text, q.Also = texts[0], texts[1:]
	}
	if in.Limit < 0 {
		q.Limit = in.Limit
	}
	var fe *index.FieldError
	if err := q.Check(); errors.As(err, &fe) {
		name := map[string]string{"text": "query", "also": "queries"}[fe.Field]
		return q, fmt.Errorf("%s %s", cmp.Or(name, fe.Field), fe.Problem)
	}
	if in.Since != "" {
		t, err := frontmatter.ParseTime(in.Since)
		if err != nil {
			return q, fmt.Errorf("since: %w", err)
		}
		q.Since = t.Time
	}
	return q, nil
}

// search answers a query from the bleve index, refreshing it first as
// `mem search` does. Its structured output is JSON already: what a daemon
// answered (Answer.Out) is handed on as it came, not decoded and encoded
// again (searchTool).
func (s *server) search(ctx context.Context, in SearchInput) (*mcp.CallToolResult, json.RawMessage, error) {
	q, err := in.query(s.Now())
	if err != nil {
		return nil, nil, err
	}
	q.Notify, q.Held = func(msg string) { s.Logger.Info(msg) }, s.Held
	if s.Ask != nil {
		if a, ok := s.Ask("search", in, s.Now()); ok {
			if a.Error != "" {
				return nil, nil, errors.New(a.Error)
			}
			return text(a.Text), a.Out, nil
		}
	}
	found, err := index.Search(ctx, s.Vault, q)
	if err != nil {
		return nil, nil, err
	}
	res := inspect.Present(s.Vault, found)
	var b strings.Builder
	if len(res.Hits) == 0 {
		fmt.Fprintf(&b, "no matches for %q\n", res.Query)
	}
	for _, h := range res.Hits {
		fmt.Fprintln(&b, h.Cite()+noteOf(h))
		if h.Snippet != "" {
			fmt.Fprintf(&b, "    %s\n", h.Snippet)
		}
	}
	if !res.Index.Fresh {
		files := "files changed since it was built and are"
		if res.Index.Changed == 1 {
			files = "file changed since it was built and is"
		}
		fmt.Fprintf(&b, "(the index is stale: %d %s not in this answer)\n", res.Index.Changed, files)
	}
	out, err := json.Marshal(res)
	if err != nil {
		return nil, nil, err
	}
	return text(b.String()), out, nil
}

// noteOf is what a hit's line adds for a claim no person reviewed.
func noteOf(h inspect.Hit) string {
	if n := h.Note(); n != "" {
		return "  (" + n + ")"
	}
	return ""
}

// getInput names one file.
type getInput struct {
	ID string `json:"id" jsonschema:"the file's id, or its path relative to the vault (with or without .md)"`
}

// getOutput is one file as it is on disk, as a read may show it (spec §8):
// every secret in Content is replaced by "[redacted: <rule>]", and Flagged
// names the other rules of §8 the file breaks (an injection, an unearned
// rule): shown, never to be obeyed.
type getOutput struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	// Hash is the SHA-256 of the file's bytes, secrets included: pass it
	// as expected_hash (writing back the redacted content removes them).
	Hash    string   `json:"hash"`
	Content string   `json:"content"`
	Flagged []string `json:"flagged,omitempty"`
	// Problem says why mem cannot use the file (it does not parse), with
	// its line; the content is returned so it can be fixed.
	Problem string `json:"problem,omitempty"`
}

// get returns one file's bytes and their hash, read once so the hash is
// exactly that of the content returned.
func (s *server) get(ctx context.Context, _ *mcp.CallToolRequest, in getInput) (*mcp.CallToolResult, getOutput, error) {
	mems, err := s.load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return nil, getOutput{}, err
	}
	m, err := s.Vault.FindMemory(mems, in.ID)
	if err != nil {
		return nil, getOutput{}, err
	}
	// Reloading through the loader keeps its refusals (a link leaving the
	// vault, a file over lint.max_file_size) and gives the bytes it parsed.
	m = s.Vault.LoadFiles([]string{m.Rel}, vault.LoadOptions{Raw: true})[0]
	if m.Unread() {
		return nil, getOutput{}, fmt.Errorf("%s:%v", m.Rel, m.Err)
	}
	raw := m.Raw
	out := getOutput{ID: m.ID, Path: m.Rel, Hash: vault.Hash(raw), Content: rules.Redact(raw)}
	out.Flagged = rules.Names(rules.Unredacted(rules.Memory(raw, m.Doc, s.Now(), s.Vault.Config.Gate)))
	if m.Err != nil {
		out.Problem = fmt.Sprintf("%s:%v", m.Rel, m.Err)
	}
	// No text content of our own: the SDK sends the output as JSON text,
	// so a client that shows only text still sees the hash.
	return nil, out, nil
}
