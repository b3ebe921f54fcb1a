package main

import (
	"context"
	"fmt"
	"io"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
)

func backupCommand() *cli.Command {
	return &cli.Command{
		Name:  "backup",
		Usage: "push history to a backup repository, then read it back and verify it",
		Description: "Pushes every branch and tag to --to (a path, created as a bare repository when absent; a URL; " +
			"or a git remote name; default backup.to in mem.yaml), then reads the backup back: same head, same " +
			"counts, every object of the history read and hashed (git fsck). Commits that add a secret are not " +
			"pushed. Exit 1 when anything differs or is refused; 2 when the vault's repository is damaged or the " +
			"backup cannot be written. See docs/history.md.",
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "to", Usage: "backup PATH, URL or git remote name (default: backup.to in mem.yaml)"},
			&cli.BoolFlag{Name: "verify-only", Usage: "read the backup back without pushing first"},
			&cli.BoolFlag{Name: "allow-mass-delete", Usage: "push even when the memory count dropped by more than lint.mass_delete_share"},
		},
		Action: runBackup,
	}
}

func runBackup(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("backup takes no arguments: mem backup --to PATH|REMOTE")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	opts, err := backupOptions(ctx, cmd, v)
	if err != nil {
		return err
	}
	res, err := history.Backup(v, opts)
	if err != nil {
		return err
	}
	out, errOut := cmd.Root().Writer, cmd.Root().ErrWriter
	if res.Verified() && v.Config.Backup.To == "" && !opts.VerifyOnly {
		// Remembered once verified, so the scheduled 'mem backup' needs no
		// --to; committed and pushed too, so the vault is left clean and
		// the backup holds its head (a second, small push, once per vault).
		if res, err = rememberBackup(v, opts, res, errOut); err != nil {
			return err
		}
	}
	printBackupNotes(errOut, res)
	if cmd.Bool("json") {
		if err := writeJSON(out, res); err != nil {
			return err
		}
	} else if !cmd.Bool("quiet") || !res.Verified() {
		printBackup(out, res, opts.VerifyOnly)
	}
	if !res.Verified() {
		return checkFailed(fmt.Sprintf("backup %s FAILED verification (%d problems above): it is not a good copy; run 'mem backup' again or back up to a fresh path", res.URL, len(res.Problems)))
	}
	return nil
}

// backupOptions is what the flags ask of the backup, its target
// mem.yaml's backup.to unless --to names one.
func backupOptions(ctx context.Context, cmd *cli.Command, v *vault.Vault) (history.BackupOptions, error) {
	opts := history.BackupOptions{
		To: cmd.String("to"), VerifyOnly: cmd.Bool("verify-only"),
		AllowMassDelete: cmd.Bool("allow-mass-delete"), Now: now(), Env: historyEnvCtx(ctx),
	}
	if opts.To == "" {
		opts.To, opts.RelativeTo = v.Config.Backup.To, v.Root
	}
	if opts.To == "" {
		return opts, usagef("backup needs a target: mem backup --to PATH|REMOTE (or set backup.to in mem.yaml)")
	}
	return opts, nil
}

// printBackupNotes says on stderr what the backup warns of and what its
// verification found.
func printBackupNotes(errOut io.Writer, res *history.BackupResult) {
	for _, w := range res.Warnings {
		fmt.Fprintln(errOut, "mem backup: warning:", w)
	}
	for _, p := range res.Problems {
		fmt.Fprintln(errOut, "mem backup: verify:", p)
	}
}

// printBackup says what a backup did, the heads and counts of both ends,
// and that it was verified.
func printBackup(out io.Writer, res *history.BackupResult, verifyOnly bool) {
	action := "pushed " + res.Branch + " to"
	switch {
	case verifyOnly:
		action = "read back"
	case !res.Pushed:
		action = "already up to date:"
	}
	created := ""
	if res.Created {
		created = " (created, bare)"
	}
	fmt.Fprintf(out, "%s %s%s\n", action, res.URL, created)
	fmt.Fprintf(out, "%-7s %-8s %8s %8s %9s\n", "", "head", "commits", "files", "markdown")
	for _, e := range []struct {
		name string
		end  history.End
	}{{"vault", res.Vault}, {"backup", res.Backup}} {
		fmt.Fprintf(out, "%-7s %-8s %8d %8d %9d\n", e.name, shortHash(e.end.Head), e.end.Commits, e.end.Files, e.end.Memories)
	}
	if res.Verified() {
		fmt.Fprintln(out, "verified: same head and counts; every object of the history read back and hashed (git fsck)")
	}
}

// rememberBackup records a first verified backup's target as backup.to,
// commits mem.yaml alone and backs that commit up too. A step that fails
// is a warning: the backup itself is verified.
func rememberBackup(v *vault.Vault, opts history.BackupOptions, res *history.BackupResult, errOut io.Writer) (*history.BackupResult, error) {
	if err := rememberRemote(v.Root, opts.To, "backup.to"); err != nil {
		fmt.Fprintln(errOut, "mem backup: warning: verified, but could not record backup.to in mem.yaml:", err)
		return res, nil
	}
	if err := history.CommitConfig(v, "mem backup: remember backup.to", opts.Now, opts.Env); err != nil {
		fmt.Fprintf(errOut, "mem backup: warning: backup.to is recorded in mem.yaml but not committed (%v): 'mem commit' commits it\n", err)
		return res, nil
	}
	again, err := history.Backup(v, opts)
	if err != nil {
		return nil, err
	}
	again.Created = res.Created
	again.Warnings = append(res.Warnings, again.Warnings...)
	return again, nil
}
