package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/internal/benchgen/bench"
	"github.com/mem-md/mem/internal/benchgen/recall"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/vault"
)

// runRecall is `mem-bench recall`: every set of -data (each folder of
// conversations, in a format recall.Formats reads) as vaults in a scratch
// directory, every question asked through MCP search (the server's own
// code, in process) and of the plain bleve program, in the same run.
func runRecall(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	data := fs.String("data", "../shared/data", "directory of the sets (a folder each), or of one set's conversations")
	sets := fs.String("set", "", "comma-separated sets to run (default: every set of -data)")
	convs := fs.String("conv", "", "comma-separated conversations to ask, by name: the file's without .json, or the folder's (default: all)")
	variant := fs.Bool("queries", false, "also ask each question with two mechanical rewrites in queries")
	misses := fs.Bool("misses", false, "print every question mem misses in its first five, with the evidence and both searchers' hits")
	dir := fs.String("dir", "", "scratch directory for the vaults (default: a new temporary one, removed after)")
	held := fs.Bool("held", false, "answer mem's searches from the index held open, as a running daemon does (mem serve, mem watch)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(*data); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stdout, "recall: skipped: %s is absent (the sets live in shared/data beside the repository)\n", *data)
		return nil
	}
	var names []string
	if *convs != "" {
		names = strings.Split(*convs, ",")
	}
	all, err := recall.LoadSets(*data, names)
	if err != nil {
		return err
	}
	if *sets != "" {
		want := strings.Split(*sets, ",")
		all = slices.DeleteFunc(all, func(s recall.Set) bool { return !slices.Contains(want, s.Name) })
		if len(all) == 0 {
			return fmt.Errorf("recall: %s holds none of the sets %s", *data, *sets)
		}
	}
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "mem-bench-recall-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		*dir = tmp
	}
	type result struct {
		set              recall.Set
		mem, also, plain recall.Score
	}
	var results []result
	for _, set := range all {
		r := result{set: set}
		for _, c := range set.Conversations {
			mem, also, plain, err := measureConversation(filepath.Join(*dir, set.Name+"-"+c.Name), c, *variant, *held)
			if err != nil {
				return fmt.Errorf("%s %s: %w", set.Name, c.Name, err)
			}
			if *misses {
				printMisses(stdout, set.Name, c, mem, plain)
			}
			r.mem.Add(mem)
			r.also.Add(also)
			r.plain.Add(plain)
		}
		results = append(results, r)
	}
	fmt.Fprintf(stdout, "Turn retrieval, %d sets, machine %s. mem: MCP search, the question as query; plain: bleve, one field, en analyzer, the question as a match query.\n",
		len(results), bench.Machine())
	minRatio, minSet := math.Inf(1), ""
	for _, r := range results {
		fmt.Fprintf(stdout, "\n%s (%s): %d conversations, %d questions\n\n", r.set.Name, r.set.Format.Name, len(r.set.Conversations), r.mem.N)
		w := tabwriter.NewWriter(stdout, 0, 0, 1, ' ', 0)
		fmt.Fprintln(w, "| searcher\t| hit@1\t| hit@5\t| hit@10\t| MRR\t| median\t| mean\t| p95\t| limit-unstable\t|")
		fmt.Fprintln(w, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
		line := func(name string, s recall.Score) {
			fmt.Fprintf(w, "| %s\t| %.3f\t| %.3f\t| %.3f\t| %.3f\t| %s\t| %s\t| %s\t| %d\t|\n", name, s.Rate(s.Hit1), s.Rate(s.Hit5), s.Rate(s.Hit10), s.MRR(),
				s.Median().Round(10*time.Microsecond), s.Mean().Round(10*time.Microsecond), s.P95().Round(10*time.Microsecond), s.Unstable)
		}
		line("mem", r.mem)
		if *variant {
			line("mem, + 2 rewrites in queries", r.also)
		}
		line("plain", r.plain)
		w.Flush()
		fmt.Fprintf(stdout, "\nper category, mem / plain:\n\n")
		w = tabwriter.NewWriter(stdout, 0, 0, 1, ' ', 0)
		fmt.Fprintln(w, "| category\t| questions\t| hit@1\t| hit@5\t| hit@10\t| MRR\t| hit@5 ratio\t|")
		fmt.Fprintln(w, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
		cats := slices.Sorted(maps.Keys(r.mem.ByCategory))
		for _, cat := range cats {
			m, p := r.mem.ByCategory[cat], r.plain.ByCategory[cat]
			fmt.Fprintf(w, "| %d %s\t| %d\t| %.3f / %.3f\t| %.3f / %.3f\t| %.3f / %.3f\t| %.3f / %.3f\t| %.2f\t|\n", cat, r.set.Format.Categories[cat], m.N,
				m.Rate(m.Hit1), p.Rate(p.Hit1), m.Rate(m.Hit5), p.Rate(p.Hit5), m.Rate(m.Hit10), p.Rate(p.Hit10), m.MRR(), p.MRR(), ratio(m.Hit5, p.Hit5))
		}
		w.Flush()
		if r.mem.Refused+r.also.Refused > 0 {
			fmt.Fprintf(stdout, "refused (counted as misses): %d with query, %d with queries\n", r.mem.Refused, r.also.Refused)
		}
		if r.mem.Unstable > 0 {
			fmt.Fprintf(stdout, "limit-unstable, e.g. %s\n", r.mem.UnstableExample)
		}
		if q := ratio(r.mem.Hit5, r.plain.Hit5); q < minRatio {
			minRatio, minSet = q, r.set.Name
		}
	}
	fmt.Fprintf(stdout, "\nsummary, hit@5:\n\n")
	w := tabwriter.NewWriter(stdout, 0, 0, 1, ' ', 0)
	fmt.Fprintln(w, "| set\t| questions\t| mem\t| plain\t| ratio\t| mem MRR\t| plain MRR\t|")
	fmt.Fprintln(w, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	for _, r := range results {
		fmt.Fprintf(w, "| %s\t| %d\t| %.3f\t| %.3f\t| %.3f\t| %.3f\t| %.3f\t|\n", r.set.Name, r.mem.N, r.mem.Rate(r.mem.Hit5), r.plain.Rate(r.plain.Hit5),
			ratio(r.mem.Hit5, r.plain.Hit5), r.mem.MRR(), r.plain.MRR())
	}
	w.Flush()
	fmt.Fprintf(stdout, "\nminimum ratio over sets (mem hit@5 / plain hit@5): %.3f (%s)\n", minRatio, minSet)
	// A search's first k hits must not depend on its limit: CI fails on
	// any question whose limit-10 answer does not begin with its limit-5 one.
	for _, r := range results {
		if r.mem.Unstable > 0 {
			return fmt.Errorf("recall: %s: %d questions' first five hits depend on the limit, e.g. %s", r.set.Name, r.mem.Unstable, r.mem.UnstableExample)
		}
	}
	return nil
}

// printMisses lists the questions of c that mem misses in its first
// five: the evidence turns, then mem's and plain's first five, each turn
// on one line and marked + when it is evidence.
func printMisses(w io.Writer, set string, c recall.Conversation, mem, plain recall.Score) {
	for i, a := range mem.Answers {
		if a.Hit5() {
			continue
		}
		p := plain.Answers[i]
		fmt.Fprintf(w, "\nMISS %s %s cat %d (plain hit@5: %v): %s\n", set, c.Name, a.Category, p.Hit5(), a.Question)
		for _, e := range a.Evidence {
			fmt.Fprintf(w, "  gold  %s  %s\n", e, strings.Join(strings.Fields(c.Text(e)), " "))
		}
		for _, l := range []struct {
			name string
			hits []string
		}{{"mem  ", a.Hits}, {"plain", p.Hits}} {
			name, hits := l.name, l.hits
			for _, h := range hits[:min(5, len(hits))] {
				mark := " "
				if slices.Contains(a.Evidence, h) {
					mark = "+"
				}
				fmt.Fprintf(w, "  %s%s %s  %s\n", name, mark, h, strings.Join(strings.Fields(c.Text(h)), " "))
			}
		}
	}
}

// ratio is mem's hits over plain's (1 when both found nothing).
func ratio(mem, plain int) float64 {
	if plain == 0 {
		if mem == 0 {
			return 1
		}
		return math.Inf(1)
	}
	return float64(mem) / float64(plain)
}

// measureConversation writes c as a vault at root and asks its questions
// of mem (and, with variant, with rewrites) and of the plain program;
// with held, mem answers from the index held open.
func measureConversation(root string, c recall.Conversation, variant, held bool) (mem, also, plain recall.Score, err error) {
	if err = recall.WriteVault(root, c); err != nil {
		return
	}
	ask, done, err := mcpSearch(root, held)
	if err != nil {
		return
	}
	// The first question builds the index; build it before the clock runs.
	if _, err = ask("warm-up", nil, 1); err == nil {
		mem, err = recall.Measure(c, ask, false)
	}
	if err == nil && variant {
		also, err = recall.Measure(c, ask, true)
	}
	done()
	if err != nil {
		return
	}
	p, err := recall.NewPlain(c)
	if err != nil {
		return
	}
	defer p.Close()
	plain, err = recall.Measure(c, p.Search, false)
	return
}

// mcpSearch is a Searcher that calls the search tool of an MCP server on
// the vault at root, connected in process; with held, the server answers
// from the index held open once it is built (the vault does not change
// while it is asked).
func mcpSearch(root string, held bool) (recall.Searcher, func(), error) {
	v, err := vault.Open(root)
	if err != nil {
		return nil, nil, err
	}
	opts := mcpserver.Options{Vault: v, Now: func() time.Time { return time.Now().UTC() }, Cwd: root, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	var mu sync.Mutex
	var r *index.Reader
	if held {
		opts.Held = func(v *vault.Vault) *index.Reader {
			mu.Lock()
			defer mu.Unlock()
			if r == nil {
				r, _ = index.OpenReader(v) // none before the first search builds it
			}
			return r
		}
	}
	srv := mcpserver.New(opts)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		return nil, nil, err
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "mem-bench", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		ss.Close()
		return nil, nil, err
	}
	done := func() {
		cs.Close()
		ss.Wait()
		if r != nil {
			r.Close()
		}
	}
	ask := func(query string, also []string, limit int) ([]string, error) {
		args := map[string]any{"query": query, "limit": limit}
		if len(also) > 0 {
			args["queries"] = also
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: args})
		if err != nil {
			return nil, err
		}
		if res.IsError {
			var msg strings.Builder
			for _, c := range res.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					msg.WriteString(t.Text)
				}
			}
			return nil, &recall.Refusal{Msg: msg.String()}
		}
		data, err := json.Marshal(res.StructuredContent)
		if err != nil {
			return nil, err
		}
		var out index.Result
		if err := json.Unmarshal(data, &out); err != nil {
			return nil, err
		}
		paths := make([]string, len(out.Hits))
		for i, h := range out.Hits {
			paths[i] = h.Path
		}
		return paths, nil
	}
	return ask, done, nil
}
