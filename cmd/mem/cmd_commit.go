package main

import (
	"context"
	"fmt"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/history"
)

func commitCommand() *cli.Command {
	return &cli.Command{
		Name:  "commit",
		Usage: "commit every vault change to git (no empty commits) with a message summarising it",
		Description: "Safe to run hourly from cron while agents write. Skips (exit 0) while git is mid-merge, " +
			"rebase, cherry-pick, revert or bisect, or holds its index lock, for at most commit.interval: a lock or marker older than " +
			"that exits 1, naming it and its age. Leaves out, unread, a file over lint.max_file_size or with a second " +
			"hard link (a tracked one keeps its committed version). Refuses (exit 1) a commit removing more " +
			"than lint.mass_delete_share (default 20%) of the memories. Leaves out a file holding a secret, names it " +
			"(file:line: rule) and exits 1 once the rest is committed. See docs/history.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "message", Aliases: []string{"m"}, Usage: "subject line instead of the generated summary"},
			&cli.BoolFlag{Name: "allow-mass-delete", Usage: "commit even when many memories disappear at once"},
		},
		Action: runCommit,
	}
}

func runCommit(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("commit takes no arguments (the subject goes in -m)")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	res, err := history.Commit(v, history.CommitOptions{
		Message: cmd.String("message"), AllowMassDelete: cmd.Bool("allow-mass-delete"), Now: now(), Env: historyEnvCtx(ctx),
	})
	if skipped, err := reportSkip(cmd, err); skipped || err != nil {
		return err
	}
	out, errOut := cmd.Root().Writer, cmd.Root().ErrWriter
	for _, w := range res.Warnings {
		fmt.Fprintln(errOut, "mem commit: warning:", w)
	}
	// Spec §8: a file holding a secret is left out and named (never the
	// secret), the rest is committed, and the run fails so a scheduled job
	// reports it.
	for _, f := range res.Secrets {
		where := "its file name"
		if f.Line > 0 {
			where = fmt.Sprintf("line %d", f.Line)
		}
		fmt.Fprintf(errOut, "%s:%d: %s: left out of the commit: %s holds a secret; remove it (and rotate the secret if it was real), then commit again\n", f.Path, f.Line, f.Rule, where)
	}
	var failed error
	if len(res.Secrets) > 0 {
		failed = checkFailed(fmt.Sprintf("%d %s holding a secret left out of the commit", len(res.Secrets), plural(len(res.Secrets), "file")))
	}
	if cmd.Bool("quiet") && !cmd.Bool("json") {
		return failed // silent on success, so cron mails only problems
	}
	if cmd.Bool("json") {
		if err := writeJSON(out, res); err != nil {
			return err
		}
		return failed
	}
	// What the commit itself counted: loading the vault again to count by
	// type would cost more than the commit (300 ms at 50,000 files); the
	// subject line has the changes by type, mem audit the whole vault's.
	files := fmt.Sprintf("%s (%d markdown)", audit.Quantity(res.Files, "file", "files"), res.Memories)
	if res.Commit == "" {
		fmt.Fprintf(out, "nothing to commit: the vault matches %s: %s%s\n", shortHash(res.Parent), files, vaultNote(cmd, v))
		return failed
	}
	fmt.Fprintf(out, "[%s %s] %s\n", res.Branch, shortHash(res.Commit), res.Subject)
	fmt.Fprintf(out, "%s at the new head; %d read%s\n", files, res.Read, vaultNote(cmd, v))
	return failed
}

func shortHash(h string) string {
	if len(h) < 7 {
		return "(no commit yet)"
	}
	return h[:7]
}

// historyEnv hands pkg/history this process's environment (git's identity
// variables, what its git children run with) and the default deadlines.
func historyEnv() history.Env { return history.Env{Vars: os.Environ()} }

// historyEnvCtx is historyEnv with ctx, which stops the git programs
// pkg/history runs (and a sync at its next step).
func historyEnvCtx(ctx context.Context) history.Env {
	env := historyEnv()
	env.Context = ctx
	return env
}
