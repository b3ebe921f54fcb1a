package main

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

func reviewCommand() *cli.Command {
	return &cli.Command{
		Name:  "review",
		Usage: "walk imported memories: accept (becomes native and renders as its project and importance say), edit, or reject (status: deprecated)",
		Description: "With --accept or --reject, review decides those ids and asks nothing (for scripts).\n" +
			"Each accepted memory's line on stderr says where it will render, or why not (a global memory\n" +
			"renders with importance 7 or more: raise it with 'mem edit'). An accepted import with no\n" +
			"valid_at is dated the day it was accepted. Accepting one already accepted changes nothing.\n" +
			"Otherwise it shows each imported memory and reads one answer per memory: a (accept),\n" +
			"e (edit, then accept), r (reject), s (skip) or q (quit); from stdin when it is not a terminal.",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "accept", Usage: "accept this imported memory (repeat for more)"},
			&cli.StringSliceFlag{Name: "reject", Usage: "reject this imported memory (repeat for more)"},
		},
		Action: runReview,
	}
}

// reviewed is one decision, as --json reports it.
type reviewed struct {
	ID       string `json:"id"`
	Path     string `json:"path"`
	Decision string `json:"decision"` // accepted, rejected, skipped
}

func runReview(_ context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("review takes no arguments: use --accept ID or --reject ID, or answer its questions")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	var done []reviewed
	decide := func(ref, decision string) error {
		f := writer.Accept
		if decision == "rejected" {
			f = writer.Reject
		}
		m, _, err := f(v, cliFront, ref, "", now())
		if err != nil {
			return err
		}
		done = append(done, reviewed{m.ID, m.Rel, decision})
		if decision == "accepted" {
			return printPlacement(cmd, v, m)
		}
		return nil
	}
	accept, reject := cmd.StringSlice("accept"), cmd.StringSlice("reject")
	if len(accept)+len(reject) > 0 {
		already, err := reviewFlags(v, accept, reject)
		if err != nil {
			return err
		}
		for _, m := range already {
			done = append(done, reviewed{m.ID, m.Rel, "already accepted"})
		}
		accept = slices.DeleteFunc(accept, func(ref string) bool {
			return slices.ContainsFunc(already, func(m *vault.Memory) bool { return m.ID == ref || m.Rel == ref })
		})
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
	pending := x.List(inspect.Filter{Status: vault.StatusImport})
	w, in := cmd.Root().ErrWriter, bufio.NewReader(os.Stdin)
	for i, e := range pending {
		fmt.Fprintf(w, "\n(%d/%d) %s  %s, %s, valid_at %s\n    %s\n", i+1, len(pending), e.ID, e.Type, e.Provenance, orUndated(e.ValidAt), e.Summary)
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

// reviewFlags refuses, before anything is written, an id given to both
// --accept and --reject or naming a memory that is not imported. It
// returns the --accept refs already accepted (an import mem review made
// native: still under imports/), which need nothing.
func reviewFlags(v *vault.Vault, accept, reject []string) ([]*vault.Memory, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	var already []*vault.Memory
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
			switch {
			case strings.HasPrefix(m.Meta().Source, "import:"):
			case flag == "--accept" && strings.HasPrefix(m.Rel, "imports/") && !m.Meta().IsDeprecated():
				if !slices.Contains(already, m) {
					already = append(already, m)
				}
			default:
				return nil, usagef(fmt.Sprintf("%s %s: not an imported memory (source %q): review decides imports only", flag, m.ID, m.Meta().Source))
			}
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
