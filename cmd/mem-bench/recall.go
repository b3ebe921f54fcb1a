package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/internal/benchgen/bench"
	"github.com/mem-md/mem/internal/benchgen/recall"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/vault"
)

// runRecall is `mem-bench recall`: the LoCoMo conversations of -data as
// vaults in a scratch directory, every question asked through MCP search
// (the server's own code, in process) and of the plain bleve program.
func runRecall(fs *flag.FlagSet, args []string, stdout io.Writer) error {
	data := fs.String("data", "../shared/data/locomo", "directory of the LoCoMo conversations (N.json)")
	convs := fs.String("conv", "", "comma-separated conversations to ask (default: all of -data)")
	dir := fs.String("dir", "", "scratch directory for the vaults (default: a new temporary one, removed after)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(*data); errors.Is(err, os.ErrNotExist) {
		fmt.Fprintf(stdout, "recall: skipped: %s is absent (the LoCoMo conversations live in shared/data/locomo beside the repository)\n", *data)
		return nil
	}
	var names []string
	if *convs != "" {
		names = strings.Split(*convs, ",")
	}
	cs, err := recall.Load(*data, names)
	if err != nil {
		return err
	}
	if *dir == "" {
		tmp, err := os.MkdirTemp("", "mem-bench-recall-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		*dir = tmp
	}
	type row struct {
		name              string
		single, also, ref recall.Score
	}
	var rows []row
	var total row
	total.name = "all"
	for _, c := range cs {
		root := filepath.Join(*dir, "locomo-"+c.Name)
		if err := recall.WriteVault(root, c); err != nil {
			return err
		}
		ask, done, err := mcpSearch(root)
		if err != nil {
			return err
		}
		r := row{name: c.Name}
		// The first question builds the index; build it before the clock runs.
		if _, err := ask("warm-up", nil, 1); err != nil {
			done()
			return err
		}
		if r.single, err = recall.Measure(c, ask, false); err == nil {
			r.also, err = recall.Measure(c, ask, true)
		}
		done()
		if err != nil {
			return err
		}
		plain, err := recall.NewPlain(c)
		if err != nil {
			return err
		}
		r.ref, err = recall.Measure(c, plain.Search, false)
		plain.Close()
		if err != nil {
			return err
		}
		rows = append(rows, r)
		total.single.Add(r.single)
		total.also.Add(r.also)
		total.ref.Add(r.ref)
	}
	fmt.Fprintf(stdout, "LoCoMo turn retrieval: %d conversations, %d questions (category 5 excluded), machine %s\n\n",
		len(cs), total.single.N, bench.Machine())
	w := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "|\thit@1\thit@5\thit@10\tmedian\tmean\tp95\t|")
	line := func(name string, s recall.Score) {
		fmt.Fprintf(w, "| %s\t%.3f\t%.3f\t%.3f\t%s\t%s\t%s\t|\n", name, s.Rate(s.Hit1), s.Rate(s.Hit5), s.Rate(s.Hit10),
			s.Median().Round(10*time.Microsecond), s.Mean().Round(10*time.Microsecond), s.P95().Round(10*time.Microsecond))
	}
	line("mem search (MCP, query)", total.single)
	line("mem search (MCP, query + 2 rewrites in queries)", total.also)
	line("plain bleve (match query, en)", total.ref)
	w.Flush()
	if n := total.single.Refused + total.also.Refused; n > 0 {
		fmt.Fprintf(stdout, "refused (counted as misses): %d with query, %d with queries\n", total.single.Refused, total.also.Refused)
	}
	fmt.Fprintf(stdout, "\nhit@5 ratio mem/plain: %.3f\n\nper conversation, hit@5:\n", total.single.Rate(total.single.Hit5)/total.ref.Rate(total.ref.Hit5))
	w = tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "| conversation\tquestions\tmem\tmem queries\tplain\tratio\t|")
	for _, r := range append(rows, total) {
		fmt.Fprintf(w, "| %s\t%d\t%.3f\t%.3f\t%.3f\t%.2f\t|\n", r.name, r.single.N, r.single.Rate(r.single.Hit5),
			r.also.Rate(r.also.Hit5), r.ref.Rate(r.ref.Hit5), r.single.Rate(r.single.Hit5)/r.ref.Rate(r.ref.Hit5))
	}
	w.Flush()
	fmt.Fprintln(stdout, "\nper category (1 multi-hop, 2 temporal, 3 open-domain, 4 single-hop), hit@5 mem / plain:")
	for cat := 1; cat <= 4; cat++ {
		m, p := total.single.ByCategory[cat], total.ref.ByCategory[cat]
		if m[1] > 0 {
			fmt.Fprintf(stdout, "  %d: %d questions, %.3f / %.3f\n", cat, m[1], float64(m[0])/float64(m[1]), float64(p[0])/float64(p[1]))
		}
	}
	return nil
}

// mcpSearch is a Searcher that calls the search tool of an MCP server on
// the vault at root, connected in process.
func mcpSearch(root string) (recall.Searcher, func(), error) {
	v, err := vault.Open(root)
	if err != nil {
		return nil, nil, err
	}
	srv := mcpserver.New(mcpserver.Options{Vault: v, Cwd: root, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
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
	done := func() { cs.Close(); ss.Wait() }
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
