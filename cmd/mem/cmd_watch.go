package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/vault"
)

func watchCommand() *cli.Command {
	return &cli.Command{
		Name:  "watch",
		Usage: "the memory daemon: keep the index and every render.outputs view fresh, answer searches and renders",
		Description: "One per vault. Within a second of any change to the files, updates the index and re-renders\n" +
			"every render.outputs entry (untouched when only the time line would change); commits every\n" +
			"commit.interval (default 1h) and, when mem.yaml sets sync.interval and sync.remote, runs mem sync\n" +
			"that often. mem search, mem render and mem mcp ask it first over .mem/run/watch.sock\n" +
			"and do the work themselves when it does not answer at once. SIGTERM finishes the work in hand;\n" +
			"SIGHUP re-reads mem.yaml. See docs/watch.md.",
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "status", Usage: "say what the running daemon watches and did last (exit 1 when none runs)"},
			&cli.BoolFlag{Name: "once", Usage: "update the index and render every output once, then exit (for scripts)"},
		},
		Action: runWatch,
	}
}

func runWatch(ctx context.Context, cmd *cli.Command) error {
	if cmd.NArg() > 0 {
		return usagef("watch takes no arguments")
	}
	if cmd.Bool("status") && cmd.Bool("once") {
		return usagef("--status and --once: give one")
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	if cmd.Bool("status") {
		return watchStatus(cmd, v)
	}
	d := newDaemon(v, cmd.Root().ErrWriter, "mem watch")
	if cmd.Bool("once") {
		idx, rendered := d.Once(ctx)
		failed := false
		for _, e := range []struct {
			name string
			ev   daemon.Event
		}{{"index", idx}, {"render", rendered}} {
			if !e.ev.OK || !cmd.Bool("quiet") {
				fmt.Fprintf(cmd.Root().ErrWriter, "mem watch: %s: %s\n", e.name, e.ev.Result)
			}
			failed = failed || !e.ev.OK
		}
		if failed {
			return checkFailed("")
		}
		return nil
	}
	unlock, err := lockDaemon(v)
	if err != nil {
		return err
	}
	defer unlock()
	return runDaemon(ctx, d)
}

// newDaemon is the daemon of v with what it takes from this process: the
// clock, git's environment, the home folder and the watch limit.
func newDaemon(v *vault.Vault, log io.Writer, name string) *daemon.Daemon {
	limit, _ := strconv.Atoi(os.Getenv(daemon.LimitEnv))
	return daemon.New(daemon.Config{Vault: v, Name: name, Log: log, Now: now, Env: historyEnv(),
		Home: os.Getenv("HOME"), Limit: limit})
}

// runDaemon runs d until ctx ends or a SIGTERM or SIGINT (the cause its
// log names); SIGHUP re-reads mem.yaml.
func runDaemon(ctx context.Context, d *daemon.Daemon) error {
	setGC(daemonGC)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	reload := make(chan struct{}, 1)
	go func() {
		for {
			select {
			case s := <-sigs:
				if s != syscall.SIGHUP {
					cancel(errors.New(s.String()))
					return
				}
				select {
				case reload <- struct{}{}:
				default:
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	return d.Run(ctx, reload)
}

// lockDaemon makes this process the vault's one daemon, mem watch or mem
// serve; while another runs it refuses (exit 2), naming its pid.
func lockDaemon(v *vault.Vault) (unlock func(), err error) {
	unlock, err = daemon.Lock(v)
	var running *daemon.RunningError
	if errors.As(err, &running) {
		return nil, usagef(err.Error())
	}
	return unlock, err
}

// watchStatus asks the running daemon what it is doing.
func watchStatus(cmd *cli.Command, v *vault.Vault) error {
	// A person asked: a busy daemon may greet late.
	resp, err := daemon.Ask(daemon.SocketPath(v.Root), daemon.Request{Op: "status"}, time.Second)
	if err != nil || resp.Status == nil {
		why := "no mem watch answers on " + daemon.SocketPath(v.Root)
		if err != nil && !errors.Is(err, daemon.ErrNoDaemon) {
			why = err.Error()
		}
		return checkFailed(why + ": start it with 'mem watch' (see docs/watch.md); meanwhile every command does its own work")
	}
	st := resp.Status
	verdict := watchVerdict(st)
	if cmd.Bool("json") {
		if err := writeJSON(cmd.Root().Writer, st); err != nil {
			return err
		}
		return verdict
	}
	printWatchStatus(cmd.Root().Writer, st)
	return verdict
}

// watchVerdict fails the check (exit 1) when a step's last run failed, so
// a script or a monitor asking --status learns it without reading the
// text.
func watchVerdict(st *daemon.Status) error {
	var failed []string
	for name, ev := range map[string]daemon.Event{"index": st.Index, "render": st.Render, "commit": st.Commit, "sync": st.Sync} {
		if !ev.At.IsZero() && !ev.OK {
			failed = append(failed, name)
		}
	}
	slices.Sort(failed)
	if len(failed) == 0 {
		return nil
	}
	return checkFailed(fmt.Sprintf("mem watch: the last %s failed (see above): fix what it says; the daemon runs it again on the next change or interval", strings.Join(failed, ", ")))
}

// printWatchStatus says what the daemon watches, how, and what each of
// its steps did last.
func printWatchStatus(w io.Writer, st *daemon.Status) {
	fmt.Fprintf(w, "mem watch: pid %d, mem %s, running since %s\n", st.PID, st.Version, st.Started.Format(time.RFC3339))
	if st.Watching == "polling" {
		fmt.Fprintf(w, "watching: %s by polling (%d folders): %s\n", st.Vault, st.Dirs, st.Why)
	} else {
		fmt.Fprintf(w, "watching: %s with fsnotify (%d folders)\n", st.Vault, st.Dirs)
	}
	fmt.Fprintf(w, "queue:    %d change(s) not yet handled\n", st.Queue)
	for _, e := range []struct {
		name string
		ev   daemon.Event
	}{{"index", st.Index}, {"render", st.Render}, {"commit", st.Commit}, {"sync", st.Sync}, {"merge", st.Merge}} {
		switch {
		case e.name == "merge" && e.ev == (daemon.Event{}): // none yet: nothing to say
		case e.ev.At.IsZero() && e.ev.Result != "":
			fmt.Fprintf(w, "%-9s %s\n", e.name+":", e.ev.Result)
		case e.ev.At.IsZero():
			fmt.Fprintf(w, "%-9s not yet\n", e.name+":")
		default:
			ok := "ok"
			if !e.ev.OK {
				ok = "FAILED"
			}
			fmt.Fprintf(w, "%-9s %s %s: %s\n", e.name+":", e.ev.At.Format(time.RFC3339), ok, e.ev.Result)
		}
	}
	fmt.Fprintf(w, "served:   %d request(s); %d search(es) from the index held open\n", st.Served, st.Warm)
}
