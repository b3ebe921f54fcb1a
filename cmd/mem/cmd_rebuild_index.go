package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/index"
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

func runRebuildIndex(_ context.Context, cmd *cli.Command) error {
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
	st, err := index.Update(v, index.Options{Full: cmd.Bool("full"), Notify: notify, Progress: bar.update})
	bar.clear()
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
