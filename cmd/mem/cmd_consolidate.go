package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/consolidate"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/wiring"
)

func consolidateCommand() *cli.Command {
	return &cli.Command{
		Name:  "consolidate",
		Usage: "propose merges, retirements and import decisions that keep the vault clean; apply them as one commit, or undo the last batch",
		Description: "Finds the same fact stored twice in one scope, current claims that contradict each other,\n" +
			"claims past stale_after still standing, imports not reviewed after consolidate.review_after\n" +
			"(default 14 days) and views over their budget, and prints a proposal for each (--json for agents).\n" +
			"--apply asks for each proposal (y or n, from stdin when it is not a terminal). --apply --yes\n" +
			"applies only what harms nothing: merges of true duplicates and retirements of claims past\n" +
			"stale_after that no person pinned; conflicts, imports and lossy merges wait for a person.\n" +
			"Applying goes through the writer and deletes nothing; each change is printed (even with --quiet),\n" +
			"the batch is one commit of the files it changed, and --undo puts them back byte for byte.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "apply", Usage: "apply the proposals, asking for each"},
			&cli.BoolFlag{Name: "yes", Usage: "with --apply: apply, without asking, the proposals that harm nothing (the rest wait for a person)"},
			&cli.BoolFlag{Name: "undo", Usage: "put back every file of the last applied batch, and commit that"},
		},
		Action: runConsolidate,
	}
}

// consolidateOptions is which of mem consolidate's modes the flags ask
// for: the proposals (neither), --apply (asking unless yes) or --undo.
type consolidateOptions struct{ apply, yes, undo bool }

func consolidateFlags(cmd *cli.Command) (consolidateOptions, error) {
	o := consolidateOptions{apply: cmd.Bool("apply"), yes: cmd.Bool("yes"), undo: cmd.Bool("undo")}
	switch {
	case cmd.NArg() > 0:
		return o, usagef("consolidate takes no arguments: mem consolidate [--apply [--yes] | --undo]")
	case o.undo && (o.apply || o.yes):
		return o, usagef("give --undo alone")
	case o.yes && !o.apply:
		return o, usagef("--yes goes with --apply")
	}
	return o, nil
}

func runConsolidate(ctx context.Context, cmd *cli.Command) error {
	o, err := consolidateFlags(cmd)
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	w := cmd.Root().Writer
	if o.undo {
		return undoConsolidate(ctx, cmd, v)
	}
	r, err := findProposals(ctx, v)
	if err != nil {
		return err
	}
	if !o.apply {
		if cmd.Bool("json") {
			return writeJSON(w, r)
		}
		printProposals(w, r)
		return nil
	}
	chosen := r.Unattended()
	if !o.yes {
		chosen = askProposals(cmd.Root().ErrWriter, r)
	}
	f := frontIn(ctx, cliFront)
	if slices.ContainsFunc(chosen, func(p consolidate.Proposal) bool { return p.Action == consolidate.ActAccept }) {
		// Accepting an import is a review: recorded as the person (spec §5.2b).
		if f, err = personFront(ctx, v); err != nil {
			return err
		}
	}
	bar := newProgressBar(cmd.Root().ErrWriter)
	bar.unit = "proposals"
	t := now()
	outs, b, err := consolidate.Apply(v, f, chosen, t, wiring.CommitPaths(v, t, historyEnvCtx(ctx)), bar.update)
	bar.clear()
	if cmd.Bool("json") && err == nil {
		return writeJSON(w, struct {
			Batch    *consolidate.Batch     `json:"batch"`
			Outcomes []consolidate.Outcome  `json:"outcomes"`
			Waiting  []consolidate.Proposal `json:"waiting"`
		}{b, outs, waiting(r, o.yes)})
	}
	printApplied(w, outs, b, waiting(r, o.yes), cmd.Bool("quiet"))
	return err
}

// undoConsolidate puts back the files of the last consolidate batch.
func undoConsolidate(ctx context.Context, cmd *cli.Command, v *vault.Vault) error {
	b, err := consolidate.Undo(v, wiring.CommitPaths(v, now(), historyEnvCtx(ctx)))
	if err != nil {
		return err
	}
	w := cmd.Root().Writer
	if cmd.Bool("json") {
		return writeJSON(w, b)
	}
	fmt.Fprintf(w, "undid the consolidate batch %s: %d files as they were\n", b.Commit, len(b.Files))
	return nil
}

// askProposals asks a person, on ew and stdin, about each proposal that
// can be applied, and returns those answered yes.
func askProposals(ew io.Writer, r *consolidate.Report) []consolidate.Proposal {
	var chosen []consolidate.Proposal
	in := bufio.NewReader(os.Stdin)
	for i, p := range r.Proposals {
		if p.Refused != "" || p.Action == consolidate.ActNone {
			continue
		}
		fmt.Fprintf(ew, "\n(%d/%d) ", i+1, len(r.Proposals))
		printProposal(ew, p)
		if a := ask(ew, in, "apply? [y/N] "); strings.HasPrefix(a, "y") {
			chosen = append(chosen, p)
		}
	}
	return chosen
}

// waiting are the proposals --yes left for a person (none when a person
// answered for each).
func waiting(r *consolidate.Report, yes bool) []consolidate.Proposal {
	var out []consolidate.Proposal
	for _, p := range r.Proposals {
		if yes && p.Waits != "" && p.Refused == "" {
			out = append(out, p)
		}
	}
	return out
}

// printApplied prints one line per change and the commit — even with
// --quiet: a scheduled run that changed the vault says so (issue 42) —
// and how many proposals wait for a person; unless quiet, what it skipped.
func printApplied(w io.Writer, outs []consolidate.Outcome, b *consolidate.Batch, wait []consolidate.Proposal, quiet bool) {
	for _, o := range outs {
		if quiet && o.Result == "skipped" {
			continue
		}
		fmt.Fprintf(w, "%-7s %s: %s\n", o.Action, strings.Join(o.Paths, ", "), o.Result)
	}
	if b != nil {
		fmt.Fprintf(w, "committed %s: %d files (mem consolidate --undo puts them back)\n", b.Commit, len(b.Files))
	} else if !quiet {
		fmt.Fprintln(w, "nothing applied")
	}
	if len(wait) > 0 {
		fmt.Fprintf(w, "%d proposals wait for a person: 'mem consolidate' lists them, 'mem consolidate --apply' asks for each, 'mem review' decides imports\n", len(wait))
	}
}

func findProposals(ctx context.Context, v *vault.Vault) (*consolidate.Report, error) {
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return nil, err
	}
	return consolidate.Find(v, mems, consolidate.Options{Now: now()})
}

func printProposals(w io.Writer, r *consolidate.Report) {
	var counts []string
	for _, k := range []string{consolidate.KindDuplicate, consolidate.KindConflict, consolidate.KindStale, consolidate.KindImport, consolidate.KindBudget} {
		if n := r.Counts[k]; n > 0 {
			counts = append(counts, fmt.Sprintf("%s %d", k, n))
		}
	}
	if len(r.Proposals) == 0 {
		fmt.Fprintln(w, "mem consolidate: nothing to propose")
		return
	}
	fmt.Fprintf(w, "mem consolidate: %d proposals (%s)\n", len(r.Proposals), strings.Join(counts, ", "))
	for _, p := range r.Proposals {
		printProposal(w, p)
	}
}

func printProposal(w io.Writer, p consolidate.Proposal) {
	fmt.Fprintf(w, "%-7s %-9s %s\n", p.Action, p.Kind, strings.Join(p.Paths, ", "))
	fmt.Fprintf(w, "    %s\n", p.Detail)
	if p.Text != "" {
		fmt.Fprintf(w, "    text: %s\n", p.Text)
	}
	if p.Refused != "" {
		fmt.Fprintf(w, "    refused: %s\n", p.Refused)
	} else if p.Waits != "" {
		fmt.Fprintf(w, "    waits for a person: %s\n", p.Waits)
	}
}
