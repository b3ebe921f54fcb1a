package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

func acceptCommand() *cli.Command {
	return &cli.Command{
		Name:      "accept",
		Usage:     "accept one unreviewed claim (an agent's write or an import): a person's review, recorded in verified",
		ArgsUsage: "ID",
		Description: "Adds verified: [{by: human:<you>, at: now}] (you: mem.yaml's author, else git's user), so the\n" +
			"claim counts as reviewed (docs/security.md#trust-model): it renders in its own tier, and a\n" +
			"correction or supersedes it carries takes effect. An import becomes native. Accepting a\n" +
			"claim a person wrote or accepted already changes nothing. 'mem review' walks them all.",
		Flags:  []cli.Flag{hashFlag()},
		Action: runAccept,
	}
}

func runAccept(ctx context.Context, cmd *cli.Command) error {
	ref, err := oneID(cmd, "mem accept 2a3ee3")
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	f, err := personFront(ctx, v)
	if err != nil {
		return err
	}
	m, changed, err := writer.Accept(v, f, ref, cmd.String("hash"), now())
	if err != nil {
		return err
	}
	decision := "accepted"
	if !changed {
		decision = "already reviewed"
	}
	if err := printReviewed(cmd, []reviewed{{m.ID, m.Rel, decision}}); err != nil {
		return err
	}
	return printPlacement(ctx, cmd, v, m)
}

// personFront is the CLI's front, stopped by ctx, with the person a review
// is recorded as (history.Repo.Person: the commit author).
func personFront(ctx context.Context, v *vault.Vault) (writer.Front, error) {
	f := frontIn(ctx, cliFront)
	r, err := history.Open(v, historyEnvCtx(ctx))
	if errors.Is(err, history.ErrNoRepo) {
		// A vault outside git (mem works without it) still has an owner:
		// the login running mem, as a commit would have no author to take.
		who := os.Getenv("USER")
		if who == "" {
			who = "owner"
		}
		f.Person = "human:" + who
		return f, nil
	}
	if err != nil {
		return writer.Front{}, fmt.Errorf("a review is recorded as the vault's git author: %w", err)
	}
	if f.Person, err = r.Person(now()); err != nil {
		return writer.Front{}, err
	}
	return f, nil
}
