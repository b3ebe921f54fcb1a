package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
)

func searchCommand() *cli.Command {
	return &cli.Command{
		Name:      "search",
		Usage:     "full-text search of the vault; each hit cites path, id, type, provenance, valid_at and status",
		ArgsUsage: "QUERY",
		Description: "QUERY is words in plain language (stemmed English). The only syntax is \"a phrase\", +word\n" +
			"(must) and -word (must not) at a word's start, and field:value or field:\"a value\" (a filter) for\n" +
			"type, provenance, project, tags, id, title, body and aliases; every other character is text\n" +
			"(?, :, -5, 2022-2023). --syntax reads QUERY as bleve query-string syntax instead (wildcards,\n" +
			"valid_at:>\"2026-01-01\", importance:>=7). --also adds phrasings, fused by reciprocal rank.\n" +
			"Ranking is TF-IDF, title, aliases, tags and file name above the body; memories of one session\n" +
			"close in time are an episode, and a match lifts its neighbours.\n" +
			"Before answering, the index is refreshed from the files; with --no-refresh\n" +
			"it answers as it is and says how many files changed since it was built.\n" +
			"Each hit says whether its claim stands: current, stale, superseded by ID, retired, deprecated\n" +
			"or import. At equal relevance current claims come first, and a superseded claim never comes\n" +
			"before the claim that superseded it.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "project", Usage: "only memories of this project id"},
			&cli.StringFlag{Name: "type", Usage: "only this type: " + strings.Join(frontmatter.Types, ", ")},
			&cli.StringFlag{Name: "provenance", Usage: "only this provenance: " + strings.Join(frontmatter.Provenances, ", ")},
			&cli.StringFlag{Name: "since", Usage: "only claims with valid_at on or after DATE (YYYY-MM-DD or RFC 3339)"},
			&cli.IntFlag{Name: "limit", Value: 10, Usage: "at most this many hits"},
			&cli.BoolFlag{Name: "current", Usage: "only claims that stand: not stale, superseded, retired, deprecated or imported"},
			&cli.BoolFlag{Name: "no-refresh", Usage: "answer from the index as it is; report how stale it is"},
			&cli.StringSliceFlag{Name: "also", Usage: "another phrasing of the same question (repeatable, up to 8), fused by rank"},
			&cli.BoolFlag{Name: "syntax", Usage: "read QUERY (and --also) as bleve query-string syntax, as is"},
			&cli.BoolFlag{Name: "explain", Usage: "per hit, the terms that matched in which field and what the score is made of"},
		},
		Action: runSearch,
	}
}

func runSearch(ctx context.Context, cmd *cli.Command) error {
	q, err := searchQuery(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	q.Notify = notifier(cmd)
	var shown inspect.Result
	if resp, ok := askDaemon(cmd, v.Root, daemon.Request{Op: "search", Search: &q}); ok && resp.Search != nil {
		for _, n := range resp.Notes {
			q.Notify(n)
		}
		shown = *resp.Search
	} else {
		bar := newProgressBar(cmd.Root().ErrWriter)
		q.Progress = bar.update
		res, err := index.Search(ctx, v, q)
		bar.clear()
		if err != nil {
			return err
		}
		shown = inspect.Present(v, res)
	}
	if !shown.Index.Fresh {
		fix := "search again in a moment"
		if q.NoRefresh {
			fix = "drop --no-refresh, or run 'mem rebuild-index'"
		}
		q.Notify(fmt.Sprintf("the index is stale: %d %s changed since it was built and %s not in this answer (%s)", shown.Index.Changed, plural(shown.Index.Changed, "file"), isAre(shown.Index.Changed), fix))
	}
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, shown)
	}
	printHits(cmd, shown, vaultNote(cmd, v))
	return nil
}

// searchQuery reads the flags into an index.Query and checks it with the
// query's own validator, naming the flags in its message.
func searchQuery(cmd *cli.Command) (index.Query, error) {
	q := index.Query{
		Text: strings.Join(cmd.Args().Slice(), " "), Project: cmd.String("project"),
		Type: cmd.String("type"), Provenance: cmd.String("provenance"),
		Limit: int(cmd.Int("limit")), NoRefresh: cmd.Bool("no-refresh"),
		Current: cmd.Bool("current"), Now: now(),
		Also: cmd.StringSlice("also"), Syntax: cmd.Bool("syntax"), Explain: cmd.Bool("explain"),
	}
	var fe *index.FieldError
	switch err := q.Check(); {
	case errors.As(err, &fe) && fe.Field == "text":
		return q, usagef("search needs QUERY: mem search 'deploy pipeline'")
	case errors.As(err, &fe):
		return q, usagef("--" + fe.Error())
	}
	if s := cmd.String("since"); s != "" {
		t, err := parseTimeFlag(s)
		if err != nil {
			return q, usagef("--since: " + err.Error())
		}
		q.Since = t
	}
	return q, nil
}

// printHits prints each hit as a citation line and its snippet:
//
//	memory/db-1a2b3c.md  fact, stated, 2026-01-02, current  (id: memory/db-1a2b3c)
//	    The database is **Postgres** 16
//
// and a claim no person reviewed says who wrote it at the end of its line:
// "  (unreviewed, written by process:claude-code)".
func printHits(cmd *cli.Command, res inspect.Result, note string) {
	out := cmd.Root().Writer
	if len(res.Hits) == 0 {
		if !cmd.Bool("quiet") {
			fmt.Fprintf(cmd.Root().ErrWriter, "mem: no matches for %q%s\n", res.Query, note)
		}
		return
	}
	for _, h := range res.Hits {
		if n := h.Note(); n != "" {
			fmt.Fprintln(out, h.Cite()+"  ("+n+")")
		} else {
			fmt.Fprintln(out, h.Cite())
		}
		if h.Snippet != "" {
			fmt.Fprintf(out, "    %s\n", h.Snippet)
		}
		if cmd.Bool("explain") {
			fmt.Fprintf(out, "    matched: %s\n", strings.Join(h.Matched, " "))
			for _, p := range h.Explain {
				fmt.Fprintf(out, "      %s\n", p)
			}
		}
	}
}
