package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/vault"
)

func syncCommand() *cli.Command {
	return &cli.Command{
		Name:      "sync",
		Usage:     "one memory on many machines: commit, fetch, merge memory by memory, push",
		ArgsUsage: "[REMOTE]",
		Description: "Commits local changes (as mem commit), fetches REMOTE (a path or file:// bare repository, an ssh or " +
			"https URL, or a git remote name; default sync.remote in mem.yaml, which the first 'mem sync REMOTE' " +
			"sets), merges memory by memory (never conflict markers, never a lost memory), checks what would be " +
			"pushed (no secrets, no mass deletion) and pushes; it never force-pushes. Prints what came in and what " +
			"went out, every decision the merge made and every decision another machine's merge made against this machine's version. Exit 0 also when another sync of this vault is running (it skips, naming the pid), for at most commit.interval; 1 when " +
			"a change is refused (a remote that removes or silences many memories or sends a path, link or file mem never writes, a secret); 2 when the remote cannot be " +
			"reached or the repository is damaged. A remote's change to mem.yaml (any key but okf) or to a file git reads (.gitattributes, .gitignore, .mailmap, …) " +
			"is held back: the memories merge, this machine's file stays as it is, the held change is named on stderr (exit 0) and in 'mem sync --status' and " +
			"'mem audit', and 'mem sync --accept-config' takes it. See docs/sync.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "dry-run", Usage: "commit (as mem commit), fetch and merge in git's object store only: say what a sync would decide; no file changes, nothing is pushed"},
			&cli.BoolFlag{Name: "allow-mass-delete", Usage: "accept an incoming or outgoing change that removes more than lint.mass_delete_share of the memories"},
			&cli.BoolFlag{Name: "accept-config", Usage: "take what a remote changed in this machine's files, held back until now: mem.yaml's keys (all but okf) and the files git reads (.gitattributes, .gitignore, .mailmap, …)"},
			&cli.BoolFlag{Name: "status", Usage: "list what is held back (a remote's change to mem.yaml or a file git reads) and exit; nothing is synced"},
		},
		Action: runSync,
	}
}

func runSync(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 1 {
		return usagef("sync takes at most one argument: mem sync [REMOTE]")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	if cmd.Bool("status") {
		return syncStatus(cmd, v)
	}
	// Ctrl-C stops the sync between two steps and any git it runs; a merge
	// being applied finishes first (history.Sync says what was kept).
	ctx, stop := interruptible(ctx)
	defer stop()
	opts, err := syncOptions(ctx, cmd, v)
	if err != nil {
		return err
	}
	res, err := inspect.Sync(v, opts)
	if skipped, err := reportSkip(cmd, err); skipped || err != nil {
		return err
	}
	printSyncNotes(cmd.Root().ErrWriter, res)
	if cmd.Bool("json") {
		return writeJSON(cmd.Root().Writer, res)
	}
	if cmd.Bool("quiet") {
		return nil
	}
	printSync(cmd.Root().Writer, res, v.Root, cmd.String("vault") == "")
	return nil
}

// syncOptions is what the flags ask of the sync, the remote mem.yaml's
// sync.remote unless one is named. A remote named while mem.yaml has none
// is checked and remembered before the sync, so the setting goes out with
// it and every machine that clones the vault knows where it syncs;
// checked first, so a typo is not remembered.
func syncOptions(ctx context.Context, cmd *cli.Command, v *vault.Vault) (history.SyncOptions, error) {
	opts := history.SyncOptions{Remote: cmd.Args().First(), DryRun: cmd.Bool("dry-run"), AllowMassDelete: cmd.Bool("allow-mass-delete"), AcceptConfig: cmd.Bool("accept-config"), Now: now(), Env: historyEnvCtx(ctx)}
	remember := opts.Remote != "" && v.Config.Sync.Remote == "" && !opts.DryRun
	if opts.Remote == "" {
		opts.Remote, opts.RelativeTo = v.Config.Sync.Remote, v.Root
	}
	if opts.Remote == "" {
		return opts, usagef("sync needs a remote: mem sync PATH|URL|REMOTE (it is remembered as sync.remote in mem.yaml)")
	}
	if !remember {
		return opts, nil
	}
	if err := history.CheckRemote(v, opts.Remote, "", opts.Env); err != nil {
		return opts, err
	}
	return opts, rememberRemote(v.Root, opts.Remote, "sync.remote")
}

// printSyncNotes says on stderr what the sync warns of, and which
// mem.yaml or git files of the remote it took or held back.
func printSyncNotes(errOut io.Writer, res *history.SyncResult) {
	for _, w := range res.Warnings {
		fmt.Fprintln(errOut, "mem sync: warning:", w)
	}
	for _, h := range res.Accepted {
		fmt.Fprintln(errOut, "mem sync: accepted:", h)
	}
	for _, h := range res.Held {
		fmt.Fprintf(errOut, "mem sync: held back: %s: this machine keeps its own version; 'mem sync --accept-config' takes it\n", h)
	}
}

func printSync(out io.Writer, res *history.SyncResult, root string, nameVault bool) {
	verb := "synced"
	if res.DryRun {
		verb = "dry run (committed, nothing merged or pushed):"
	}
	where := ""
	if nameVault {
		where = " (vault " + root + ")"
	}
	fmt.Fprintf(out, "%s %s with %s%s\n", verb, res.Branch, res.URL, where)
	line := func(dir string, c history.SyncCounts) {
		fmt.Fprintf(out, "  %s: %d added, %d changed (%d retired), %d removed\n", dir, c.Added, c.Changed, c.Retired, c.Removed)
	}
	line("in ", res.In)
	line("out", res.Out)
	printSyncHistory(out, res)
	for _, d := range res.Decisions {
		fmt.Fprintln(out, "  decided:", d)
	}
	for _, d := range res.Overruled {
		fmt.Fprintln(out, "  this machine's version lost:", d)
	}
	printSyncPush(out, res)
}

// printSyncHistory says how the two histories were joined. A dry run says
// what a sync would do: it merged nothing (issue 42: it printed
// "fast-forwarded").
func printSyncHistory(out io.Writer, res *history.SyncResult) {
	switch {
	case res.Merge != "" && res.DryRun:
		fmt.Fprintln(out, "  would merge the two histories (nothing merged)")
	case res.Merge != "":
		fmt.Fprintf(out, "  merged as %s\n", shortHash(res.Merge))
	case res.FastForward && res.DryRun:
		fmt.Fprintf(out, "  would fast-forward to %s (nothing changed)\n", shortHash(res.Head))
	case res.FastForward:
		fmt.Fprintf(out, "  fast-forwarded to %s\n", shortHash(res.Head))
	}
}

// printSyncPush says what was pushed, or would be.
func printSyncPush(out io.Writer, res *history.SyncResult) {
	switch {
	case res.Created:
		fmt.Fprintf(out, "  created %s (bare) and pushed\n", res.URL)
	case res.Pushed:
		fmt.Fprintf(out, "  pushed %s\n", shortHash(res.Head))
	case res.DryRun && res.Out != (history.SyncCounts{}):
		fmt.Fprintln(out, "  would push what is out (nothing pushed)")
	case !res.DryRun:
		fmt.Fprintln(out, "  nothing to push")
	}
}

// rememberRemote writes key (sync.remote, backup.to) to mem.yaml when it
// is unset; a path is stored absolute, as the other machines do not share
// this one's working directory.
func rememberRemote(root, remote, key string) error {
	_, statErr := os.Stat(remote)
	if isPath := statErr == nil || strings.Contains(remote, "/") && !strings.Contains(remote, ":"); isPath {
		abs, err := filepath.Abs(remote)
		if err != nil {
			return err
		}
		remote = abs
	}
	return vault.SetConfig(root, key, remote)
}

// syncStatus lists what a remote changed in this machine's files and is
// held back (docs/sync.md).
func syncStatus(cmd *cli.Command, v *vault.Vault) error {
	held, err := history.Held(v)
	if err != nil {
		return err
	}
	out := cmd.Root().Writer
	if cmd.Bool("json") {
		if held == nil {
			held = []history.HeldFile{}
		}
		return writeJSON(out, map[string]any{"held": held})
	}
	if len(held) == 0 {
		fmt.Fprintln(out, "nothing held back: this machine's mem.yaml and git files are as the shared history has them, or changed here")
		return nil
	}
	for _, h := range held {
		fmt.Fprintf(out, "held back: %s (since %s)\n", h, h.Since.Format(time.RFC3339))
	}
	fmt.Fprintln(out, "this machine keeps its own versions; 'mem sync --accept-config' takes the remote's, an edit here keeps yours")
	return nil
}
