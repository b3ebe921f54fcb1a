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

func runReview(ctx context.Context, cmd *cli.Command) error {
	if err := checkReviewFlags(cmd); err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	accept, reject := cmd.StringSlice("accept"), cmd.StringSlice("reject")
	switch {
	case cmd.Bool("undo"):
		return undoReview(cmd, v)
	case cmd.Bool("accept-all"):
		return acceptAll(ctx, cmd, v, cmd.String("source"))
	case len(accept)+len(reject) > 0:
		return reviewIDs(ctx, &reviewer{ctx: ctx, cmd: cmd, v: v}, accept, reject)
	}
	return reviewAsking(ctx, &reviewer{ctx: ctx, cmd: cmd, v: v})
}

// checkReviewFlags refuses the flags that do not go together, before the
// vault is opened.
func checkReviewFlags(cmd *cli.Command) error {
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
	return nil
}

// reviewer decides claims one by one and keeps what it decided.
type reviewer struct {
	ctx   context.Context // stops a write before it writes
	cmd   *cli.Command
	v     *vault.Vault
	front *writer.Front // the person, found on the first accept
	done  []reviewed
}

// decide accepts (in the person's name) or rejects the claim ref names;
// an accepted claim's line says where it will render.
func (r *reviewer) decide(ref, decision string) error {
	f, do := frontIn(r.ctx, cliFront), writer.Reject
	if decision == "accepted" {
		if r.front == nil {
			pf, err := personFront(r.ctx, r.v)
			if err != nil {
				return err
			}
			r.front = &pf
		}
		f, do = *r.front, writer.Accept
	}
	m, _, err := do(r.v, f, ref, "", now())
	if err != nil {
		return err
	}
	r.done = append(r.done, reviewed{m.ID, m.Rel, decision})
	if decision == "accepted" {
		return printPlacement(r.ctx, r.cmd, r.v, m)
	}
	return nil
}

// reviewIDs decides the claims --accept and --reject name, asking nothing;
// an --accept of a claim already reviewed is reported and left as it is.
func reviewIDs(ctx context.Context, r *reviewer, accept, reject []string) error {
	already, err := reviewFlags(ctx, r.v, accept, reject)
	if err != nil {
		return err
	}
	for _, ref := range accept {
		if m := already[ref]; m != nil {
			r.done = append(r.done, reviewed{m.ID, m.Rel, "already reviewed"})
		}
	}
	accept = slices.DeleteFunc(accept, func(ref string) bool { return already[ref] != nil })
	for _, ref := range accept {
		if err := r.decide(ref, "accepted"); err != nil {
			return err
		}
	}
	for _, ref := range reject {
		if err := r.decide(ref, "rejected"); err != nil {
			return err
		}
	}
	return printReviewed(r.cmd, r.done)
}

// reviewAsking shows each unreviewed claim (those --source selects) and
// reads one answer per claim from stdin; quitting, or the end of the
// answers, leaves the rest for later.
func reviewAsking(ctx context.Context, r *reviewer) error {
	x, err := inspect.Load(r.v, now(), historyEnvCtx(ctx))
	if err != nil {
		return err
	}
	pending := x.Pending(r.cmd.String("source"))
	w, in := r.cmd.Root().ErrWriter, bufio.NewReader(os.Stdin)
	for i, e := range pending {
		fmt.Fprintf(w, "\n(%d/%d) %s  %s, %s, valid_at %s, written by %s\n    %s\n", i+1, len(pending), e.ID, e.Type, e.Provenance, orUndated(e.ValidAt), e.WrittenBy, e.Summary)
		answer := ask(w, in, "[a]ccept, [e]dit, [r]eject, [s]kip, [q]uit? ")
		if strings.HasPrefix(answer, "q") || answer == "" {
			break
		}
		if err := r.answer(x, e, answer); err != nil {
			return err
		}
	}
	return printReviewed(r.cmd, r.done)
}

// answer carries out the answer given for the pending claim e: accept,
// edit then accept, reject, or skip.
func (r *reviewer) answer(x *inspect.Vault, e inspect.Entry, answer string) error {
	switch {
	case strings.HasPrefix(answer, "a"):
		return r.decide(e.ID, "accepted")
	case strings.HasPrefix(answer, "e"):
		m, err := r.v.FindMemory(x.Mems, e.ID)
		if err != nil {
			return err
		}
		if _, err := editFile(r.ctx, r.cmd, r.v, m); err != nil {
			return err
		}
		return r.decide(e.ID, "accepted")
	case strings.HasPrefix(answer, "r"):
		return r.decide(e.ID, "rejected")
	}
	r.done = append(r.done, reviewed{e.ID, e.Path, "skipped"})
	return nil
}

// acceptAll is a person's bulk decision: every unreviewed claim source
// selects, accepted as one batch (writer.AcceptAll) that --undo reverts.
func acceptAll(ctx context.Context, cmd *cli.Command, v *vault.Vault, source string) error {
	x, err := inspect.Load(v, now(), historyEnvCtx(ctx))
	if err != nil {
		return err
	}
	pending := x.Pending(source)
	refs := make([]string, len(pending))
	for i, e := range pending {
		refs[i] = e.Path
	}
	f, err := personFront(ctx, v)
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
func reviewFlags(ctx context.Context, v *vault.Vault, accept, reject []string) (map[string]*vault.Memory, error) {
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
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
