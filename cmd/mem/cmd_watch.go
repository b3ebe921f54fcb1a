package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/mcpserver"
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

// debounce is how long the daemon waits for a burst of changes (an
// editor's save, a checkout) to end; debounceMax bounds that wait, so
// a steady stream of writes is still handled within a second.
const (
	debounce    = 40 * time.Millisecond
	debounceMax = 300 * time.Millisecond
)

// freeAfter is how long the daemon waits after its last work before
// handing that work's memory back to the system: a render of a large vault
// leaves a few hundred MB of garbage that nothing collects while it idles
// (no allocation, no GC).
const freeAfter = 5 * time.Second

// defaultCommitInterval applies when mem.yaml has no commit.interval.
const defaultCommitInterval = time.Hour

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
	d := &watcher{v: v, stderr: cmd.Root().ErrWriter, name: "mem watch"}
	if cmd.Bool("once") {
		d.cycle()
		failed := false
		for _, e := range []struct {
			name string
			ev   daemon.Event
		}{{"index", d.st.Index}, {"render", d.st.Render}} {
			if !e.ev.OK || !cmd.Bool("quiet") {
				d.logf("%s: %s", e.name, e.ev.Result)
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
	return d.run(ctx)
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

// watcher is the running daemon.
type watcher struct {
	v      *vault.Vault
	stderr io.Writer
	name   string // the command running it, mem watch or mem serve, for the log
	fw     *daemon.Watcher
	work   sync.Mutex  // one thing at a time: a cycle, a commit, a request
	busy   atomic.Bool // a cycle or commit is running: clients do their own work
	mu     sync.Mutex  // guards st
	st     daemon.Status
	// The last scan of the vault and the watcher's Gen before it began:
	// handed to every Scan while Gen has not moved (vault.Options.HeldScan),
	// so a search or render costs no walk of the vault.
	scanMu  sync.Mutex
	snap    *vault.Snapshot
	snapGen int64
	snapOK  bool // snap.Key() vouches for every file
	// The live index held open since the last cycle brought it up to date
	// with the files as they were at the watcher's Gen heldGen: a search
	// answers from it while Gen has not moved (index.Query.Held). Guarded
	// by work.
	held    *index.Reader
	heldGen int64
	// again asks the loop for a cycle, to open the index again after it
	// was let go without a change to the files (another process swapped in
	// a new one; a commit or sync, when clients refresh it themselves).
	again chan struct{}
	free  *time.Timer // debug.FreeOSMemory, freeAfter after the last work
}

func (d *watcher) logf(format string, args ...any) {
	fmt.Fprintf(d.stderr, d.name+": "+format+"\n", args...)
}

func (d *watcher) run(ctx context.Context) error {
	d.st = daemon.Status{Vault: d.v.Root, PID: os.Getpid(), Version: daemon.Version(), Started: time.Now().UTC()}
	// The daemon's own scans are held too (a reload keeps its Options);
	// the commands it runs get d.scan and d.reader through daemonOf.
	d.v.HeldScan = d.scan
	limit, _ := strconv.Atoi(os.Getenv(daemon.LimitEnv))
	d.fw = daemon.Watch(d.v.Root, d.skip, limit)
	defer d.fw.Close()
	d.again = make(chan struct{}, 1)
	d.free = time.AfterFunc(freeAfter, debug.FreeOSMemory)
	defer d.free.Stop()
	defer func() {
		d.work.Lock() // a request in flight may be reading it
		defer d.work.Unlock()
		d.release()
	}()
	mode, why := d.fw.Mode()
	d.st.Watching, d.st.Why = mode, why
	if mode == "polling" {
		d.logf("watching %s by polling every %s: %s", d.v.Root, daemon.PollInterval, why)
	} else {
		d.logf("watching %s with fsnotify (%d folders)", d.v.Root, d.fw.Dirs())
	}
	sock := daemon.SocketPath(d.v.Root)
	ln, err := daemon.Listen(sock)
	if err != nil {
		// The daemon still keeps the index and views fresh; clients do
		// their own work.
		d.logf("warning: cannot answer on %s (%v): searches and renders do their own work", sock, err)
	} else {
		defer ln.Close()
		go daemon.Serve(ln, d.busy.Load, d.handle)
		d.logf("answering on %s (pid %d)", sock, os.Getpid())
	}
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)

	// The plans first, so a --status asked as soon as the first cycle has
	// indexed already says when commit and sync will run.
	commitEvery := d.commitInterval()
	commitT := time.NewTicker(commitEvery)
	defer commitT.Stop()
	var syncT syncTicker
	defer syncT.stop()
	syncT.set(d.syncInterval())
	d.cycle()
	for {
		select {
		case <-d.fw.Changes():
			d.settle()
			d.cycle()
		case <-d.again:
			d.cycle()
		case <-commitT.C:
			d.commit()
		case <-syncT.c():
			d.sync()
		case s := <-sigs:
			if s == syscall.SIGHUP {
				d.reload()
				if e := d.commitInterval(); e != commitEvery {
					commitEvery = e
					commitT.Reset(e)
				}
				syncT.set(d.syncInterval())
				d.cycle()
				continue
			}
			// Finish the work in hand: changes seen but not yet handled.
			if d.fw.Queue() > 0 {
				d.cycle()
			}
			d.logf("stopped (%s)", s)
			return nil
		case <-ctx.Done():
			return nil
		}
	}
}

// skip leaves out what is not the vault's content (mem's own state and
// git's, mem's temporary files) and the views the daemon writes itself,
// so its own writes do not wake it again.
func (d *watcher) skip(rel string) bool {
	if vault.IsOwn(rel) {
		return true
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.v.IsRenderedOutput(rel)
}

// scan is vault.Options.HeldScan: the last scan of this vault while the
// watcher has seen no change since it began, when it sees every change as
// it happens. A scan that cannot vouch for every file (Snapshot.Key: a link,
// a file changed just before it) is kept only for unvouchedReuse: the
// kept render needs a scan that can, and one taken once the writes have
// settled can.
func (d *watcher) scan(v *vault.Vault, scan func() (*vault.Snapshot, error)) (*vault.Snapshot, error) {
	if d.fw == nil || v.Root != d.st.Vault || !d.fw.Complete() {
		return scan()
	}
	d.scanMu.Lock()
	defer d.scanMu.Unlock()
	gen := d.fw.Gen()
	if d.snap != nil && d.snapGen == gen && (d.snapOK || time.Since(d.snap.Started()) < unvouchedReuse) {
		return d.snap, nil
	}
	s, err := scan()
	if err != nil {
		return nil, err
	}
	_, d.snapOK = s.Key()
	d.snap, d.snapGen = s, gen
	return s, nil
}

// reader is index.Query.Held: the held index while it holds every file as
// it is (the watcher, seeing every change, has seen none since the cycle
// that brought it up to date, and no other process swapped in a new one).
// Otherwise it lets go of it, so the search's own refresh can write the
// index, and the next cycle opens it again. The caller holds d.work.
func (d *watcher) reader(v *vault.Vault) *index.Reader {
	if d.held == nil || v.Root != d.st.Vault {
		return nil
	}
	if d.fw.Complete() && d.fw.Gen() == d.heldGen && d.held.Live() {
		d.mu.Lock()
		d.st.Warm++
		d.mu.Unlock()
		return d.held
	}
	d.release()
	return nil
}

// release closes the held index, and asks for a cycle to open it again;
// the caller holds d.work.
func (d *watcher) release() {
	if d.held == nil {
		return
	}
	d.held.Close()
	d.held = nil
	select {
	case d.again <- struct{}{}:
	default:
	}
}

// unvouchedReuse bounds how long a scan that cannot vouch for every file
// is handed out: clients polling right after a write share scans, and
// the next one after the writes settle can vouch.
const unvouchedReuse = 250 * time.Millisecond

// settle waits for a burst of changes to end.
func (d *watcher) settle() {
	deadline := time.After(debounceMax)
	for {
		select {
		case <-d.fw.Changes():
		case <-time.After(debounce):
			return
		case <-deadline:
			return
		}
	}
}

func (d *watcher) commitInterval() time.Duration {
	if e := d.v.Config.Commit.Interval; e > 0 {
		return e
	}
	return defaultCommitInterval
}

// syncInterval is how often the daemon syncs: sync.interval when mem.yaml
// also names sync.remote, else 0 (no sync). Until a first sync, --status
// says which.
func (d *watcher) syncInterval() time.Duration {
	d.mu.Lock()
	defer d.mu.Unlock()
	c := d.v.Config.Sync
	var every time.Duration
	var plan string
	switch {
	case c.Interval <= 0:
		plan = "off: mem.yaml sets no sync.interval"
	case c.Remote == "":
		plan = "off: mem.yaml sets sync.interval but no sync.remote (run 'mem sync REMOTE' once)"
	default:
		every, plan = c.Interval, fmt.Sprintf("every %s with %s, none yet", c.Interval, c.Remote)
	}
	if d.st.Sync.At.IsZero() {
		d.st.Sync.Result = plan
	}
	return every
}

// syncTicker is a ticker that can be off.
type syncTicker struct {
	t     *time.Ticker
	every time.Duration
}

func (s *syncTicker) set(every time.Duration) {
	if every == s.every {
		return
	}
	s.stop()
	if s.every = every; every > 0 {
		s.t = time.NewTicker(every)
	}
}

// c never fires while off.
func (s *syncTicker) c() <-chan time.Time {
	if s.t == nil {
		return nil
	}
	return s.t.C
}

func (s *syncTicker) stop() {
	if s.t != nil {
		s.t.Stop()
		s.t = nil
	}
}

// reload re-reads mem.yaml; a broken one keeps the settings in force.
func (d *watcher) reload() {
	d.work.Lock()
	defer d.work.Unlock()
	v, err := d.v.Options.Open(d.v.Root)
	if err != nil {
		d.logf("SIGHUP: keeping the settings in force: %v", err)
		return
	}
	d.mu.Lock()
	d.v = v
	d.mu.Unlock()
	d.logf("SIGHUP: re-read %s", vault.ConfigFile)
}

func (d *watcher) record(e *daemon.Event, ok bool, result string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	*e = daemon.Event{At: time.Now().UTC(), OK: ok, Result: result}
}

// cycle brings the index and every render output up to date.
func (d *watcher) cycle() {
	d.busy.Store(true)
	defer d.busy.Store(false)
	d.work.Lock()
	defer d.work.Unlock()
	defer d.worked()
	// The update writes the index, and bolt's lock excludes a reader; this
	// cycle opens it again, so release's request for one is dropped.
	d.release()
	select {
	case <-d.again:
	default:
	}
	var gen int64
	if d.fw != nil {
		d.fw.Take()
		gen = d.fw.Gen()
	}
	st, err := index.Update(d.v, index.Options{Notify: func(msg string) { d.logf("index: %s", msg) }})
	if err != nil {
		d.record(&d.st.Index, false, err.Error())
		d.logf("index: %v", err)
	} else {
		d.record(&d.st.Index, true, fmt.Sprintf("%d indexed, %d updated, %d removed of %d files", st.Indexed, st.Updated, st.Removed, st.Files))
		if d.fw != nil && d.fw.Complete() {
			// Held only when the watcher sees every change: reader()
			// trusts it while no change was seen since gen.
			if d.held, err = index.OpenReader(d.v); err == nil {
				d.heldGen = gen
			} else {
				d.logf("index: %v", err)
			}
		}
	}
	if len(d.v.Config.Render.Outputs) == 0 {
		d.record(&d.st.Render, true, "no render.outputs in mem.yaml")
		return
	}
	code, _, stderr := d.exec(nil, "--vault="+d.v.Root, "render", "--all")
	msg := strings.TrimSpace(string(stderr))
	if code != 0 {
		d.logf("render: %s", msg)
	}
	d.record(&d.st.Render, code == 0, msg)
}

// runBusy runs the mem command that writes the vault's git (commit, sync)
// with the daemon marked busy and holding no index.
func (d *watcher) runBusy(command string) (int, []byte, []byte) {
	d.busy.Store(true)
	defer d.busy.Store(false)
	d.work.Lock()
	defer d.work.Unlock()
	d.release() // while busy, clients refresh the index themselves
	return d.exec(nil, "--vault="+d.v.Root, command)
}

func (d *watcher) commit() {
	code, stdout, stderr := d.runBusy("commit")
	msg := strings.TrimSpace(string(stdout) + string(stderr))
	if code != 0 {
		d.logf("commit: %s", msg)
	}
	d.record(&d.st.Commit, code == 0, msg)
}

// sync runs mem sync with sync.remote, as a timer running it would.
func (d *watcher) sync() {
	code, stdout, stderr := d.runBusy("sync")
	var lines []string // one line for --status
	for _, l := range strings.Split(strings.TrimSpace(string(stdout)+string(stderr)), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	msg := strings.Join(lines, "; ")
	if code != 0 {
		d.logf("sync: %s", msg)
	}
	d.record(&d.st.Sync, code == 0, msg)
}

// exec runs a mem command in this process the way the mem binary runs it,
// answering c (nil: the daemon's own work on its vault). It never changes
// the process's working directory or environment: a request brings its
// vault and clock as c, and paths as absolute flags.
func (d *watcher) exec(c *call, argv ...string) (int, []byte, []byte) {
	var stdout, stderr bytes.Buffer
	meta := map[string]any{daemonKey: d}
	if c != nil {
		meta[callKey] = c
	}
	// Not the watch command's context: urfave/cli makes the command a
	// context carries the parent of the one it runs, so that run's Root()
	// would be this process's mem (its writers, no daemonKey).
	code := runAs(context.Background(), meta, append([]string{"mem"}, argv...), &stdout, &stderr)
	return code, stdout.Bytes(), stderr.Bytes()
}

// handle answers one socket request.
func (d *watcher) handle(req daemon.Request) daemon.Response {
	switch req.Op {
	case "status":
		d.mu.Lock()
		st := d.st
		d.mu.Unlock()
		st.Queue, st.Dirs = d.fw.Queue(), d.fw.Dirs()
		st.Watching, st.Why = d.fw.Mode()
		return daemon.Response{Status: &st}
	case "search", "render":
		c, argv, why := d.command(req)
		if why != "" {
			return daemon.Response{Declined: why}
		}
		d.work.Lock()
		defer d.work.Unlock()
		d.served()
		code, stdout, stderr := d.exec(c, argv...)
		return daemon.Response{Code: code, Stdout: stdout, Stderr: stderr}
	case "mcp":
		d.work.Lock()
		defer d.work.Unlock()
		d.served()
		now := req.Now
		a := mcpserver.Call(context.Background(), mcpserver.Options{
			Vault: d.v, Now: func() time.Time { return now }, Env: historyEnv(), Held: d.reader,
			Logger: slog.New(slog.NewTextHandler(d.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})),
		}, req.Tool, req.Input)
		return daemon.Response{Text: a.Text, Out: a.Out, Error: a.Error}
	}
	return daemon.Response{Declined: "unknown op " + req.Op}
}

// ask is mcpserver.Options.Ask for mem serve's MCP servers: recall and
// search answered in this process from the warm state, as the socket
// answers mem mcp; while a cycle or commit runs, the tool does its own work.
func (d *watcher) ask(tool string, in any, now time.Time) (mcpserver.Answer, bool) {
	if d.busy.Load() {
		return mcpserver.Answer{}, false
	}
	raw, err := json.Marshal(in)
	if err != nil {
		return mcpserver.Answer{}, false
	}
	r := d.handle(daemon.Request{Op: "mcp", Tool: tool, Input: raw, Now: now})
	return mcpserver.Answer{Text: r.Text, Out: r.Out, Error: r.Error}, true
}

func (d *watcher) served() {
	d.mu.Lock()
	d.st.Served++
	d.mu.Unlock()
	d.worked()
}

// worked (re)starts the wait before the memory is handed back.
func (d *watcher) worked() {
	if d.free != nil {
		d.free.Reset(freeAfter)
	}
}

// command is the mem command that answers a typed search or render
// request: the daemon builds it, so the command is always the one the
// request names, its values are always flag values (--name=value) and the
// query comes after "--". why says why the request is declined (the
// client then does the work itself).
func (d *watcher) command(req daemon.Request) (c *call, argv []string, why string) {
	var cl daemon.Client
	var flags []string
	flag := func(name string, v any, given bool) {
		if given {
			flags = append(flags, fmt.Sprintf("--%s=%v", name, v))
		}
	}
	switch {
	case req.Op == "search" && req.Search != nil:
		q := req.Search
		cl = q.Client
		flag("project", q.Project, q.Project != "")
		flag("type", q.Type, q.Type != "")
		flag("provenance", q.Provenance, q.Provenance != "")
		flag("since", q.Since, q.Since != "")
		flag("limit", q.Limit, q.Limit != 0)
		flag("current", true, q.Current)
		flag("no-refresh", true, q.NoRefresh)
		flags = append(flags, "--", q.Query)
	case req.Op == "render" && req.Render != nil:
		r := req.Render
		cl = r.Client
		for _, p := range []string{r.Cwd, r.Output, r.Splice} {
			if p != "" && !filepath.IsAbs(p) {
				return nil, nil, "a render's paths must be absolute: " + p
			}
		}
		if r.Cwd == "" && !r.All {
			return nil, nil, "a render needs its working directory"
		}
		flag("cwd", r.Cwd, r.Cwd != "" && !r.All)
		flag("now", cl.Now.Format(time.RFC3339Nano), !cl.Now.IsZero())
		flag("project", r.Project, r.Project != "")
		flag("budget", r.Budget, r.Budget != 0)
		flag("format", r.Format, r.Format != "")
		flag("output", r.Output, r.Output != "")
		flag("splice", r.Splice, r.Splice != "")
		flag("explain", true, r.Explain)
		flag("strict", true, r.Strict)
		flag("all", true, r.All)
	default:
		return nil, nil, "a " + req.Op + " request without its question"
	}
	// ~ in a project's roots is the home of whoever reads them.
	if home := os.Getenv("HOME"); cl.Home != home {
		return nil, nil, "another home folder than the daemon's " + home
	}
	if cl.Now.IsZero() {
		return nil, nil, "a request without the client's clock"
	}
	if !cl.Found {
		argv = append(argv, "--vault="+d.v.Root)
	}
	if cl.JSON {
		argv = append(argv, "--json")
	}
	if cl.Quiet {
		argv = append(argv, "--quiet")
	}
	argv = append(append(argv, req.Op), flags...)
	return &call{root: d.v.Root, now: cl.Now}, argv, ""
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
	// A step whose last run failed fails the check (exit 1), so a script
	// or a monitor asking --status learns it without reading the text.
	var failed []string
	for name, ev := range map[string]daemon.Event{"index": st.Index, "render": st.Render, "commit": st.Commit, "sync": st.Sync} {
		if !ev.At.IsZero() && !ev.OK {
			failed = append(failed, name)
		}
	}
	slices.Sort(failed)
	verdict := error(nil)
	if len(failed) > 0 {
		verdict = checkFailed(fmt.Sprintf("mem watch: the last %s failed (see above): fix what it says; the daemon runs it again on the next change or interval", strings.Join(failed, ", ")))
	}
	if cmd.Bool("json") {
		if err := writeJSON(cmd.Root().Writer, st); err != nil {
			return err
		}
		return verdict
	}
	w := cmd.Root().Writer
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
	}{{"index", st.Index}, {"render", st.Render}, {"commit", st.Commit}, {"sync", st.Sync}} {
		switch {
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
	return verdict
}
