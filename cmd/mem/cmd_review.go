package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

func reviewCommand() *cli.Command {
	return &cli.Command{
		Name:  "review",
		Usage: "walk every unreviewed claim (agents' writes, imports), newest first: accept (a person's review, recorded in verified), edit, or reject (status: deprecated)",
		Description: "An unreviewed claim is one no person wrote or accepted (docs/security.md#trust-model): an agent's\n" +
			"write over MCP or HTTP, an import, a capture. Accepting records verified by you (mem.yaml's author,\n" +
			"else git's user); an accepted import becomes native, and one with no valid_at is dated the day\n" +
			"it was accepted. Each accepted claim's line on stderr says where it will render, or why not.\n" +
			"With --accept or --reject, review decides those ids and asks nothing (for scripts); accepting\n" +
			"a claim a person wrote or accepted changes nothing and says so. --accept-all accepts every\n" +
			"unreviewed claim (or those --source names) at once: one line per claim, or the count with\n" +
			"--quiet; --undo puts the last such batch back as it was. Otherwise it shows each unreviewed\n" +
			"claim and reads one answer per claim: a (accept), e (edit, then accept), r (reject), s (skip)\n" +
			"or q (quit); from stdin when it is not a terminal.",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "accept", Usage: "accept this unreviewed claim (repeat for more)"},
			&cli.StringSliceFlag{Name: "reject", Usage: "reject this unreviewed claim (repeat for more)"},
			&cli.BoolFlag{Name: "accept-all", Usage: "accept every unreviewed claim (with --source, those it names) as one batch --undo can revert"},
			&cli.StringFlag{Name: "source", Usage: "only claims written by this actor: import:KIND, capture:KIND, process:NAME, or import: / process: for every one of the kind"},
			&cli.BoolFlag{Name: "undo", Usage: "put back the claims of the last --accept-all as they were (unreviewed)"},
		},
		Action: runReview,
	}
}

// reviewed is one decision, as --json reports it.
type reviewed struct {
	ID       string `json:"id"`
	Path     string `json:"path"`
	Decision string `json:"decision"` // accepted, rejected, skipped, already reviewed, unaccepted
}

func runReview(_ context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("review takes no arguments: use --accept ID or --reject ID, or answer its questions")
	}
	accept, reject := cmd.StringSlice("accept"), cmd.StringSlice("reject")
	if slices.Contains(accept, "--all") || slices.Contains(accept, "--source") {
		return usagef("--accept takes an ID: to accept every unreviewed claim, write mem review --accept-all [--source import:KIND]")
	}
	bulk, undo := cmd.Bool("accept-all"), cmd.Bool("undo")
	switch {
	case undo && (bulk || len(accept)+len(reject) > 0 || cmd.String("source") != ""):
		return usagef("--undo takes no other flag: it reverts the last --accept-all")
	case bulk && len(accept)+len(reject) > 0:
		return usagef("--accept-all decides every unreviewed claim: give it no --accept or --reject ids")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	if undo {
		return undoReview(cmd, v)
	}
	if bulk {
		return acceptAll(cmd, v, cmd.String("source"))
	}
	var done []reviewed
	var front *writer.Front // the person, found on the first accept
	decide := func(ref, decision string) error {
		f, do := cliFront, writer.Reject
		if decision == "accepted" {
			if front == nil {
				pf, err := personFront(v)
				if err != nil {
					return err
				}
				front = &pf
			}
			f, do = *front, writer.Accept
		}
		m, _, err := do(v, f, ref, "", now())
		if err != nil {
			return err
		}
		done = append(done, reviewed{m.ID, m.Rel, decision})
		if decision == "accepted" {
			return printPlacement(cmd, v, m)
		}
		return nil
	}
	if len(accept)+len(reject) > 0 {
		already, err := reviewFlags(v, accept, reject)
		if err != nil {
			return err
		}
		for _, ref := range accept {
			if m := already[ref]; m != nil {
				done = append(done, reviewed{m.ID, m.Rel, "already reviewed"})
			}
		}
		accept = slices.DeleteFunc(accept, func(ref string) bool { return already[ref] != nil })
		for _, ref := range accept {
			if err := decide(ref, "accepted"); err != nil {
				return err
			}
		}
		for _, ref := range reject {
			if err := decide(ref, "rejected"); err != nil {
				return err
			}
		}
		return printReviewed(cmd, done)
	}
	x, err := inspect.Load(v, now(), historyEnv())
	if err != nil {
		return err
	}
	pending := x.Pending(cmd.String("source"))
	w, in := cmd.Root().ErrWriter, bufio.NewReader(os.Stdin)
	for i, e := range pending {
		fmt.Fprintf(w, "\n(%d/%d) %s  %s, %s, valid_at %s, written by %s\n    %s\n", i+1, len(pending), e.ID, e.Type, e.Provenance, orUndated(e.ValidAt), e.WrittenBy, e.Summary)
		switch answer := ask(w, in, "[a]ccept, [e]dit, [r]eject, [s]kip, [q]uit? "); {
		case strings.HasPrefix(answer, "a"):
			err = decide(e.ID, "accepted")
		case strings.HasPrefix(answer, "e"):
			m, ferr := v.FindMemory(x.Mems, e.ID)
			if ferr != nil {
				return ferr
			}
			if _, err = editFile(cmd, v, m); err == nil {
				err = decide(e.ID, "accepted")
			}
		case strings.HasPrefix(answer, "r"):
			err = decide(e.ID, "rejected")
		case strings.HasPrefix(answer, "q"), answer == "":
			// The end of the answers (or quit) leaves the rest for later.
			return printReviewed(cmd, done)
		default:
			done = append(done, reviewed{e.ID, e.Path, "skipped"})
		}
		if err != nil {
			return err
		}
	}
	return printReviewed(cmd, done)
}

// acceptAll is a person's bulk decision: every unreviewed claim source
// selects, accepted as one batch (writer.AcceptAll) that --undo reverts.
func acceptAll(cmd *cli.Command, v *vault.Vault, source string) error {
	x, err := inspect.Load(v, now(), historyEnv())
	if err != nil {
		return err
	}
	pending := x.Pending(source)
	refs := make([]string, len(pending))
	for i, e := range pending {
		refs[i] = e.Path
	}
	f, err := personFront(v)
	if err != nil {
		return err
	}
	b, err := writer.AcceptAll(v, f, refs, now())
	var done []reviewed
	if b != nil {
		for _, r := range b.Files {
			done = append(done, reviewed{r.ID, r.Path, "accepted"})
		}
	}
	if perr := printBulk(cmd, done, "accepted", "mem review --undo puts them back"); err == nil {
		err = perr
	}
	return err
}

// undoReview reverts the last --accept-all.
func undoReview(cmd *cli.Command, v *vault.Vault) error {
	b, err := writer.UndoReview(v)
	if err != nil {
		return err
	}
	var done []reviewed
	for _, r := range b.Files {
		done = append(done, reviewed{r.ID, r.Path, "unaccepted"})
	}
	return printBulk(cmd, done, "unaccepted", "the batch of "+b.At.Format(time.RFC3339)+" by "+b.By)
}

// printBulk prints a batch: one line per claim, or with --quiet the count
// alone (a bulk decision is never silent), and what follows from it.
func printBulk(cmd *cli.Command, done []reviewed, what, note string) error {
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, nonNil(done))
	}
	if !cmd.Bool("quiet") {
		if err := printReviewed(cmd, done); err != nil {
			return err
		}
	}
	fmt.Fprintf(cmd.Root().Writer, "%d %s %s (%s)\n", len(done), plural(len(done), "claim"), what, note)
	return nil
}

// reviewFlags refuses, before anything is written, an id given to both
// --accept and --reject, or a --reject of a claim a person wrote or
// accepted (review rejects unreviewed claims; retire takes back a
// person's). It returns the --accept refs already reviewed (as given, a
// prefix or a path), which need nothing, with the claim each names.
func reviewFlags(v *vault.Vault, accept, reject []string) (map[string]*vault.Memory, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	already := map[string]*vault.Memory{}
	for flag, refs := range map[string][]string{"--accept": accept, "--reject": reject} {
		for _, ref := range refs {
			m, err := v.FindMemory(mems, ref)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", flag, err)
			}
			if other, ok := seen[m.ID]; ok && other != flag {
				return nil, usagef(fmt.Sprintf("%s is given to both --accept and --reject: decide once", m.ID))
			}
			seen[m.ID] = flag
			if !m.OK() || gate.WrittenBy(m.Meta()) != "" {
				continue
			}
			if flag == "--reject" {
				return nil, usagef(fmt.Sprintf("--reject %s: a person wrote or accepted it, so it is not waiting for review; to take it back, mem retire %s", m.ID, m.ID))
			}
			already[ref] = m
		}
	}
	return already, nil
}

func orUndated(s string) string {
	if s == "" {
		return "undated"
	}
	return s
}

func printReviewed(cmd *cli.Command, done []reviewed) error {
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, nonNil(done))
	}
	for _, r := range done {
		fmt.Fprintf(cmd.Root().Writer, "%s %s\n", r.ID, r.Decision)
	}
	return nil
}
