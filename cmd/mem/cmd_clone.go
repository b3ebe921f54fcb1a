package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
)

func cloneCommand() *cli.Command {
	return &cli.Command{
		Name:      "clone",
		Usage:     "get the vault on a new machine from a sync remote or a backup, verified and indexed",
		ArgsUsage: "REMOTE DIR",
		Description: "Clones REMOTE (a path or file:// bare repository, an ssh or https URL) into DIR, then reads both " +
			"ends back: the same head, the same commit, file and memory counts, git fsck clean, every file checked " +
			"out. Builds the search index, sets sync.remote in mem.yaml when it is unset (not for a backup mem backup " +
			"wrote: a backup is one-way, and the summary says so), and prints the line for a shell profile and the " +
			"line for a timer. Exit 1 when the two ends differ, or when the cloned mem.yaml does not load (every file is " +
			"restored all the same; the message says how to fix it); 2 when the remote cannot be " +
			"read or is not a mem vault (nothing is left in DIR). See docs/sync.md.",
		Action: runClone,
	}
}

func runClone(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() != 2 {
		return usagef("clone takes two arguments: mem clone REMOTE DIR")
	}
	cwd, err := os.Getwd()
	if err != nil {
		return err
	}
	remote, dir := cmd.Args().Get(0), cmd.Args().Get(1)
	res, err := history.Clone(remote, cwd, dir, historyEnvCtx(ctx))
	if err != nil {
		return err
	}
	out, errOut := cmd.Root().Writer, cmd.Root().ErrWriter
	for _, p := range res.Problems {
		fmt.Fprintln(errOut, "mem clone: verify:", p)
	}
	if res.Config != "" {
		return cloneConfigBroken(cmd, res)
	}
	v, err := vaultOptions().Open(res.Dir)
	if err != nil {
		return err
	}
	if err := cloneRemote(errOut, v, res); err != nil {
		return err
	}
	st, err := index.Update(v, index.Options{Context: ctx})
	if err != nil {
		return fmt.Errorf("%s: cloned and verified, but building the index failed: %w (run 'mem rebuild-index --full')", res.Dir, err)
	}
	if cmd.Bool("json") {
		if err := writeJSON(out, struct {
			Clone   *history.CloneResult `json:"clone"`
			Indexed index.Stats          `json:"indexed"`
		}{res, st}); err != nil {
			return err
		}
	} else if !cmd.Bool("quiet") || !res.Verified() {
		printClone(out, v, res)
	}
	if !res.Verified() {
		return checkFailed(fmt.Sprintf("the clone in %s does not match %s: see the lines above", res.Dir, res.URL))
	}
	return nil
}

// cloneConfigBroken reports a clone whose mem.yaml does not load. Exit 1,
// not 2: the restore is done and kept (2 says nothing was left in DIR);
// only this file needs the person (docs/sync.md).
func cloneConfigBroken(cmd *cli.Command, res *history.CloneResult) error {
	errOut := cmd.Root().ErrWriter
	if cmd.Bool("json") {
		if err := writeJSON(cmd.Root().Writer, struct {
			Clone *history.CloneResult `json:"clone"`
		}{res}); err != nil {
			return err
		}
	}
	fmt.Fprintf(errOut, "mem clone: %s\n", res.Config)
	fmt.Fprintf(errOut, "mem clone: every file is restored in %s, but mem cannot run there until mem.yaml loads: fix it, or take back the last version that loads ('git -C %s log -p -- mem.yaml', then 'git -C %s checkout COMMIT -- mem.yaml'), then run 'mem --vault %s rebuild-index'\n", res.Dir, res.Dir, res.Dir, res.Dir)
	return checkFailed(fmt.Sprintf("the clone in %s holds a mem.yaml that does not load: see the lines above", res.Dir))
}

// cloneRemote records the remote cloned as sync.remote when mem.yaml names
// none, and says when it names another.
func cloneRemote(errOut io.Writer, v *vault.Vault, res *history.CloneResult) error {
	switch {
	case res.Backup:
		// A backup is one-way: syncing into it would make the next
		// 'mem backup' of the machine it came from fail.
	case v.Config.Sync.Remote == "":
		return rememberRemote(res.Dir, res.URL, "sync.remote")
	case v.Config.Sync.Remote != res.URL:
		fmt.Fprintf(errOut, "mem clone: note: mem.yaml names sync.remote %s (another machine's view of the remote); this machine reaches it as %s: sync with 'mem sync %s'\n", v.Config.Sync.Remote, res.URL, res.URL)
	}
	return nil
}

// printClone says what was cloned, both ends' heads and counts and, once
// verified, how to set the machine up.
func printClone(out io.Writer, v *vault.Vault, res *history.CloneResult) {
	fmt.Fprintf(out, "cloned %s into %s (%s)\n", res.URL, res.Dir, res.Branch)
	fmt.Fprintf(out, "  here:   %s, %d commits, %d files, %d memories\n", shortHash(res.Here.Head), res.Here.Commits, res.Here.Files, res.Here.Memories)
	fmt.Fprintf(out, "  remote: %s, %d commits, %d files, %d memories\n", shortHash(res.There.Head), res.There.Commits, res.There.Files, res.There.Memories)
	if !res.Verified() {
		return
	}
	fmt.Fprintln(out, "  verified; search index built")
	job := "sync"
	if res.Backup {
		fmt.Fprintf(out, "  %s is a backup (%s): sync.remote is left unset, as a backup is one-way\n", res.URL, res.BackupWhy)
		fmt.Fprintln(out, "  to keep machines in step, sync them through a shared remote instead ('mem sync PATH|URL', docs/sync.md);")
		fmt.Fprintln(out, "  while the machine this came from backs up there too, give this one its own backup ('mem backup --to OTHER'):")
		fmt.Fprintln(out, "  of two machines pushing to one backup, the first to diverge is refused")
		if v.Config.Sync.Remote == "" {
			job = "commit"
		}
	}
	fmt.Fprintln(out, "add to your shell profile (~/.profile, ~/.zshrc):")
	fmt.Fprintf(out, "  export MEM_VAULT=%q\n", res.Dir)
	fmt.Fprintln(out, "add a timer (crontab -e; docs/schedule.md has systemd and launchd):")
	fmt.Fprintf(out, "  */15 * * * *  %s --vault %q --quiet %s\n", installedMem(), res.Dir, job)
}

// installedMem is the path of this mem binary, for a cron line: cron's
// PATH is minimal, and mem is wherever it was installed (issue 42: the
// line said $HOME/go/bin/mem).
func installedMem() string {
	exe, err := os.Executable()
	if err != nil {
		return "mem"
	}
	return exe
}
