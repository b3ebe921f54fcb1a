package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
)

func rebuildIndexCommand() *cli.Command {
	return &cli.Command{
		Name:  "rebuild-index",
		Usage: "bring the search index in .mem/index up to date with the files",
		Description: "Incremental by default: every file is stat'ed against the manifest of the last run and only\n" +
			"changed files are read. --full builds a fresh index beside the live one and swaps it in\n" +
			"atomically; searches keep answering from the old index meanwhile. See docs/index.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "full", Usage: "build a complete new index and swap it in"},
		},
		Action: runRebuildIndex,
	}
}

func runRebuildIndex(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("rebuild-index takes no arguments")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	bar := newProgressBar(cmd.Root().ErrWriter)
	notify := notifier(cmd)
	if cmd.Bool("quiet") {
		// From cron: the index heals itself, so only a failure should mail anyone.
		notify = func(string) {}
	}
	// Ctrl-C stops the run between two batches (spec §4: exit 130, saying
	// what was kept) instead of killing it mid-write.
	ctx, stop := interruptible(ctx)
	defer stop()
	done, total := 0, 0
	progress := func(d, t int) { done, total = d, t; bar.update(d, t) }
	st, err := index.Update(v, index.Options{Full: cmd.Bool("full"), Notify: notify, Progress: progress, Context: ctx})
	bar.clear()
	if errors.Is(err, index.ErrInterrupted) {
		return interruptedRebuild(v, st, done, total)
	}
	if err != nil {
		return err
	}
	out := cmd.Root().Writer
	if cmd.Bool("json") {
		return writeJSON(out, struct {
			index.Stats
			Seconds float64 `json:"seconds"`
		}{st, st.Duration.Seconds()})
	}
	if !cmd.Bool("quiet") {
		fmt.Fprintf(out, "indexed %d, updated %d, removed %d in %s%s\n", st.Indexed, st.Updated, st.Removed, st.Duration.Round(time.Millisecond), vaultNote(cmd, v))
	}
	return nil
}

// interruptedRebuild says what an interrupted run kept: the index in use
// (a full build is dropped, the live index untouched), or, for an
// update, what the next run redoes; exit 130.
func interruptedRebuild(v *vault.Vault, st index.Stats, done, total int) error {
	at := ""
	if total > 0 {
		at = fmt.Sprintf(" at %d of %d files", done, total)
	}
	f, err := index.Freshness(v)
	switch {
	case err != nil:
		return fail.As(fail.Interrupted, fmt.Errorf("interrupted%s: %v", at, err))
	case !f.Exists:
		return fail.As(fail.Interrupted, fmt.Errorf("interrupted%s: there was no index before this run, so none is kept; 'mem rebuild-index' builds one from the start", at))
	case st.Full:
		return fail.As(fail.Interrupted, fmt.Errorf("interrupted%s: the new index was dropped; the index in use is kept as it was (%d files, %d changed since it was built); 'mem rebuild-index' brings it up to date incrementally from there", at, f.Files, f.Changed))
	}
	return fail.As(fail.Interrupted, fmt.Errorf("interrupted%s: the index in use is kept (%d files, %d changed since its last complete update); 'mem rebuild-index' redoes only those", at, f.Files, f.Changed))
}

// notifier prints the index's messages (rebuilding, waiting, stale) on
// stderr: they explain a slow or stale answer, so search keeps them even
// with --quiet.
func notifier(cmd *cli.Command) func(string) {
	return func(msg string) { fmt.Fprintln(cmd.Root().ErrWriter, "mem:", msg) }
}

// progressBar draws "[#####.....] done/total files  rate/s" on a terminal,
// only once a run has lasted long enough to need it, and nothing when
// stderr is a pipe or a file.
type progressBar struct {
	w     io.Writer // nil: not a terminal
	unit  string    // what is counted; "" is files
	start time.Time
	last  time.Time
	drawn bool
}

// progressDelay keeps quick runs free of a flashing bar.
const progressDelay = 500 * time.Millisecond

func newProgressBar(w io.Writer) *progressBar {
	p := &progressBar{start: time.Now()}
	if f, ok := w.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			p.w = w
		}
	}
	return p
}

func (p *progressBar) update(done, total int) {
	now := time.Now()
	if p.w == nil || total == 0 || now.Sub(p.start) < progressDelay || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.drawn = now, true
	const width = 30
	filled := width * done / total
	rate := float64(done) / now.Sub(p.start).Seconds()
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d %s  %.0f/s ", strings.Repeat("#", filled), strings.Repeat(".", width-filled), done, total, cmp.Or(p.unit, "files"), rate)
}

// clear erases the bar so the summary line starts clean.
func (p *progressBar) clear() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
