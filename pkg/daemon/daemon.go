package daemon

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/mcpserver"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

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

// The daemon merges the index it holds into one segment once the vault has
// been quiet for mergeIdle after a cycle and the index has mergeMin
// segments or more. A full build leaves ~25 at 50,000 files, and a search
// looks up each of its terms in every one: on one segment a held search
// took 0.69 of the CPU (docs/performance.md). An update in place adds a
// segment, and a merge rewrites the whole index (a few seconds of CPU at
// 50,000 files), so a few edits' segments are left to bleve's own merges.
// mergeMax bounds a merge that bleve never ends (it logs a failed merge
// and tries it again).
const mergeMax = 10 * time.Minute

const (
	mergeIdle = 10 * time.Second
	mergeMin  = 4
)

// DefaultCommitInterval applies when mem.yaml has no commit.interval.
const DefaultCommitInterval = time.Hour

// unvouchedReuse bounds how long a scan that cannot vouch for every file
// is handed out: clients polling right after a write share scans, and
// the next one after the writes settle can vouch.
const unvouchedReuse = 250 * time.Millisecond

// Config is what a daemon takes from the process that runs it: cmd/mem
// fills it (pkg/ reads no environment of its own).
type Config struct {
	Vault *vault.Vault
	Name  string    // the command running it, mem watch or mem serve, for the log
	Log   io.Writer // where it says what it does (stderr)
	Now   func() time.Time
	Env   history.Env
	// Home is the daemon's home folder; a request from another is
	// declined (~ in a project's roots is the home of whoever reads it).
	Home string
	// Limit caps the folders watched with fsnotify (LimitEnv); 0 is the
	// system's limit.
	Limit int
}

// Daemon is the running daemon of one vault.
type Daemon struct {
	cfg  Config
	root string
	fw   *Watcher
	// work orders the work on the index: a cycle, commit, sync or reload
	// holds it to write (it closes and reopens the held index); searches
	// and renders hold it to read, side by side, while the held index
	// vouches for every file (read). reads caps how many run at once: on
	// a small machine more only add scheduling and garbage.
	work  sync.RWMutex
	reads chan struct{}
	busy  atomic.Bool // a cycle or commit is running: clients do their own work
	mu    sync.Mutex  // guards st and v
	st    Status
	v     *vault.Vault
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
	// merging is the idle merge in flight, nil when none (guarded by
	// mergeMu). It holds the index lock and publishes under work, so
	// what takes work to write stops it first (lockWork).
	mergeMu sync.Mutex
	merging *mergeRun
	// idle and minSegments are when a merge starts (mergeIdle,
	// mergeMin); the tests wait less, on a smaller index.
	idle        time.Duration
	minSegments int
	ctx         context.Context
}

// New is the daemon of cfg.Vault; Run runs it, Once does one cycle.
func New(cfg Config) *Daemon {
	d := &Daemon{cfg: cfg, root: cfg.Vault.Root, v: cfg.Vault, again: make(chan struct{}, 1),
		reads: make(chan struct{}, max(runtime.GOMAXPROCS(0), 1)), idle: mergeIdle, minSegments: mergeMin, ctx: context.Background()}
	d.st = Status{Vault: d.root, PID: os.Getpid(), Version: Version(), Started: cfg.Now().UTC()}
	// The daemon's own scans are held too (a reload keeps its Options),
	// and so are the scans of the commands it answers.
	d.v.HeldScan = d.Scan
	return d
}

func (d *Daemon) logf(format string, args ...any) {
	fmt.Fprintf(d.cfg.Log, d.cfg.Name+": "+format+"\n", args...)
}

func (d *Daemon) vault() *vault.Vault {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.v
}

// Once brings the index and every render output up to date once, and
// returns how each went.
func (d *Daemon) Once(ctx context.Context) (idx, rendered Event) {
	d.cycle(ctx)
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.st.Index, d.st.Render
}

// Run watches the vault until ctx ends: every change is indexed and
// rendered within a second, the vault is committed every commit.interval
// and synced every sync.interval; a value on reload re-reads mem.yaml.
// It answers on the socket meanwhile. When ctx ends (its cause, a signal,
// is named in the log), an index update in flight stops between two
// batches, the changes seen and not yet handled are handled, and the log
// says what was kept.
func (d *Daemon) Run(ctx context.Context, reload <-chan struct{}) error {
	// mem serve answers before Run: a request reads these through running.
	fw := Watch(d.root, d.skip, d.cfg.Limit) // before d.mu: skip takes it
	d.mu.Lock()
	d.ctx, d.fw = ctx, fw
	d.mu.Unlock()
	defer d.fw.Close()
	d.free = time.AfterFunc(freeAfter, debug.FreeOSMemory)
	defer d.free.Stop()
	defer func() {
		d.lockWork() // a request in flight may be reading it
		defer d.work.Unlock()
		d.release()
	}()
	mode, why := d.fw.Mode()
	if mode == "polling" {
		d.logf("watching %s by polling every %s: %s", d.root, PollInterval, why)
	} else {
		d.logf("watching %s with fsnotify (%d folders)", d.root, d.fw.Dirs())
	}
	sock := SocketPath(d.root)
	ln, err := Listen(sock)
	if err != nil {
		// The daemon still keeps the index and views fresh; clients do
		// their own work.
		d.logf("warning: cannot answer on %s (%v): searches and renders do their own work", sock, err)
	} else {
		defer ln.Close()
		go Serve(ln, d.busy.Load, d.Handle)
		d.logf("answering on %s (pid %d)", sock, os.Getpid())
	}
	// The plans first, so a --status asked as soon as the first cycle has
	// indexed already says when commit and sync will run.
	commitEvery := d.CommitInterval()
	commitT := time.NewTicker(commitEvery)
	defer commitT.Stop()
	var syncT syncTicker
	defer syncT.stop()
	syncT.set(d.SyncInterval())
	d.cycle(ctx)
	idle := time.NewTimer(d.idle)
	defer idle.Stop()
	for {
		select {
		case <-d.fw.Changes():
			d.settle()
			d.cycle(ctx)
			idle.Reset(d.idle)
		case <-d.again:
			d.cycle(ctx)
			idle.Reset(d.idle)
		case <-idle.C:
			d.startMerge(ctx)
		case <-commitT.C:
			d.commit()
		case <-syncT.c():
			d.sync()
		case <-reload:
			d.reload()
			if e := d.CommitInterval(); e != commitEvery {
				commitEvery = e
				commitT.Reset(e)
			}
			syncT.set(d.SyncInterval())
			d.cycle(ctx)
			idle.Reset(d.idle)
		case <-ctx.Done():
			d.logf("stopped (%v): %s", context.Cause(ctx), d.stop())
			return nil
		}
	}
}

// stop handles the changes seen and not yet handled (the work in hand),
// and says what the vault's index and views were left with.
func (d *Daemon) stop() string {
	if d.fw.Queue() > 0 {
		// Not ctx: it has ended, and the work in hand is a few files.
		d.cycle(context.Background())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	kept := "the index and views hold every change seen"
	if !d.st.Index.OK {
		kept = "the last index update did not finish (" + d.st.Index.Result + "): the index keeps what it had, and the next start or search brings it up to date"
	}
	if d.st.Commit.At.IsZero() {
		return kept + "; nothing committed by this daemon (mem commit, or the next start's interval, commits the rest)"
	}
	return kept + "; last commit " + d.st.Commit.At.Format(time.RFC3339)
}

// skip leaves out what is not the vault's content (mem's own state and
// git's, mem's temporary files) and the views the daemon writes itself,
// so its own writes do not wake it again.
func (d *Daemon) skip(rel string) bool {
	return vault.IsOwn(rel) || d.vault().IsRenderedOutput(rel)
}

// Scan is vault.Options.HeldScan: the last scan of this vault while the
// watcher has seen no change since it began, when it sees every change as
// it happens. A scan that cannot vouch for every file (Snapshot.Key: a link,
// a file changed just before it) is kept only for unvouchedReuse: the
// kept render needs a scan that can, and one taken once the writes have
// settled can.
func (d *Daemon) Scan(v *vault.Vault, scan func() (*vault.Snapshot, error)) (*vault.Snapshot, error) {
	fw, _ := d.running()
	if fw == nil || v.Root != d.root || !fw.Complete() {
		return scan()
	}
	d.scanMu.Lock()
	defer d.scanMu.Unlock()
	gen := fw.Gen()
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

// running is the watcher and the context of Run, nil before it.
func (d *Daemon) running() (*Watcher, context.Context) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.fw, d.ctx
}

// fresh says the held index holds every file as it is: the watcher, seeing
// every change, has seen none since the cycle that brought it up to date,
// and no other process swapped in a new one. The caller holds work.
func (d *Daemon) fresh() bool {
	return d.held != nil && d.fw.Complete() && d.fw.Gen() == d.heldGen && d.held.Live()
}

// read runs fn with the index.Query.Held its searches take. While the held
// index is fresh, fn runs under the read lock beside other reads, and Held
// hands it out; otherwise under the write lock, with the index let go (so
// fn's own refresh can write it) and Held handing nothing.
func (d *Daemon) read(fn func(held func(*vault.Vault) *index.Reader)) {
	d.reads <- struct{}{}
	defer func() { <-d.reads }()
	d.work.RLock()
	if d.fresh() {
		defer d.work.RUnlock()
		fn(d.warm)
		return
	}
	d.work.RUnlock()
	d.lockWork()
	defer d.work.Unlock()
	if !d.fresh() {
		d.release()
	}
	fn(d.warm)
}

// warm is index.Query.Held under read: the held index, counted.
func (d *Daemon) warm(v *vault.Vault) *index.Reader {
	if d.held == nil || v.Root != d.root {
		return nil
	}
	d.mu.Lock()
	d.st.Warm++
	d.mu.Unlock()
	return d.held
}

// release closes the held index, and asks for a cycle to open it again;
// the caller holds work to write.
func (d *Daemon) release() {
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

// settle waits for a burst of changes to end.
func (d *Daemon) settle() {
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

// CommitInterval is how often the daemon commits: commit.interval, or
// DefaultCommitInterval.
func (d *Daemon) CommitInterval() time.Duration {
	if e := d.vault().Config.Commit.Interval; e > 0 {
		return e
	}
	return DefaultCommitInterval
}

// SyncInterval is how often the daemon syncs: sync.interval when mem.yaml
// also names sync.remote, else 0 (no sync). Until a first sync, the status
// says which.
func (d *Daemon) SyncInterval() time.Duration {
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
func (d *Daemon) reload() {
	d.lockWork()
	defer d.work.Unlock()
	v, err := d.vault().Options.Open(d.root)
	if err != nil {
		d.logf("SIGHUP: keeping the settings in force: %v", err)
		return
	}
	d.mu.Lock()
	d.v = v
	d.mu.Unlock()
	d.logf("SIGHUP: re-read %s", vault.ConfigFile)
}

func (d *Daemon) record(e *Event, ok bool, result string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	*e = Event{At: d.cfg.Now().UTC(), OK: ok, Result: result}
}

// cycle brings the index and every render output up to date. ctx stops an
// index update between two batches.
func (d *Daemon) cycle(ctx context.Context) {
	d.busy.Store(true)
	defer d.busy.Store(false)
	d.lockWork()
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
	v := d.vault()
	st, err := index.Update(v, index.Options{Context: ctx, Notify: func(msg string) { d.logf("index: %s", msg) }})
	if err != nil {
		d.record(&d.st.Index, false, err.Error())
		d.logf("index: %v", err)
	} else {
		d.record(&d.st.Index, true, fmt.Sprintf("%d indexed, %d updated, %d removed of %d files", st.Indexed, st.Updated, st.Removed, st.Files))
		if d.fw != nil && d.fw.Complete() {
			// Held only when the watcher sees every change: fresh()
			// trusts it while no change was seen since gen.
			if d.held, err = index.OpenReader(v); err == nil {
				d.heldGen = gen
				n := d.held.Segments()
				d.mu.Lock()
				if n >= d.minSegments {
					d.st.Merge = Event{Result: fmt.Sprintf("due: the index's %d segments, once the vault is quiet for %s", n, d.idle)}
				} else if d.st.Merge.At.IsZero() {
					d.st.Merge = Event{} // not due any more
				}
				d.mu.Unlock()
			} else {
				d.logf("index: %v", err)
			}
		}
	}
	if len(v.Config.Render.Outputs) == 0 {
		d.record(&d.st.Render, true, "no render.outputs in mem.yaml")
		return
	}
	ok, msg := d.renderOutputs(ctx, v)
	if !ok {
		d.logf("render: %s", msg)
	}
	d.record(&d.st.Render, ok, msg)
}

// renderOutputs renders every render.outputs entry, as mem render --all
// does, and says what it wrote.
func (d *Daemon) renderOutputs(ctx context.Context, v *vault.Vault) (bool, string) {
	targets, err := render.Outputs(v)
	if err != nil {
		return false, err.Error()
	}
	done, err := render.RunEmit(ctx, v, targets, render.RunOptions{Now: d.cfg.Now(), Cwd: v.Root})
	var lines []string
	for _, e := range done {
		for _, w := range e.Warn {
			lines = append(lines, "warning: "+w)
		}
		switch {
		case e.Refused:
		case e.Wrote:
			lines = append(lines, fmt.Sprintf("rendered %d bytes into %s", e.Bytes, e.Output))
		default:
			lines = append(lines, e.Output+" is up to date")
		}
	}
	if err != nil {
		lines = append(lines, err.Error())
	}
	return err == nil, strings.Join(lines, "; ")
}

// gitWork runs a commit or sync with the daemon marked busy and holding no
// index (while busy, clients refresh it themselves).
func (d *Daemon) gitWork(run func(v *vault.Vault)) {
	d.busy.Store(true)
	defer d.busy.Store(false)
	d.lockWork()
	defer d.work.Unlock()
	d.release()
	run(d.vault())
}

func (d *Daemon) commit() {
	d.gitWork(func(v *vault.Vault) {
		res, err := history.Commit(v, history.CommitOptions{Now: d.cfg.Now(), Env: d.cfg.Env})
		var msg string
		switch {
		case err != nil:
		case res.Commit == "":
			msg = "nothing to commit"
		default:
			msg = fmt.Sprintf("[%s %s] %s", res.Branch, short(res.Commit), res.Subject)
		}
		if err == nil && len(res.Secrets) > 0 {
			err = fmt.Errorf("%d file(s) holding a secret left out of the commit: run mem commit to see which", len(res.Secrets))
		}
		d.done(&d.st.Commit, "commit", msg, err)
	})
}

// sync runs mem sync with sync.remote, as a timer running it would.
func (d *Daemon) sync() {
	d.gitWork(func(v *vault.Vault) {
		res, err := inspect.Sync(v, history.SyncOptions{Remote: v.Config.Sync.Remote, RelativeTo: v.Root, Now: d.cfg.Now(), Env: d.cfg.Env})
		var msg string
		if err == nil {
			parts := []string{fmt.Sprintf("synced %s with %s: in %d added, %d changed, %d removed; out %d added, %d changed, %d removed",
				res.Branch, res.URL, res.In.Added, res.In.Changed, res.In.Removed, res.Out.Added, res.Out.Changed, res.Out.Removed)}
			parts = append(parts, res.Warnings...)
			parts = append(parts, res.Decisions...)
			msg = strings.Join(parts, "; ")
		}
		d.done(&d.st.Sync, "sync", msg, err)
	})
}

// done records a commit's or sync's outcome; a skip (fail.Skipped: no git
// repository, say) is no failure.
func (d *Daemon) done(e *Event, name, msg string, err error) {
	if err != nil {
		msg = err.Error()
		if fail.Of(err) != fail.Skipped {
			d.logf("%s: %s", name, msg)
			d.record(e, false, msg)
			return
		}
	}
	d.record(e, true, msg)
}

func short(hash string) string {
	if len(hash) < 7 {
		return hash
	}
	return hash[:7]
}

// Status is what the daemon watches and did last.
func (d *Daemon) Status() Status {
	d.mu.Lock()
	st, fw := d.st, d.fw
	d.mu.Unlock()
	if fw != nil {
		st.Queue, st.Dirs = fw.Queue(), fw.Dirs()
		st.Watching, st.Why = fw.Mode()
	}
	return st
}

// Handle answers one socket request by calling the function the command
// calls: index.Search for a search, render.RunEmit for a render,
// mcpserver.Call for an MCP tool.
func (d *Daemon) Handle(req Request) Response {
	switch req.Op {
	case "status":
		st := d.Status()
		return Response{Status: &st}
	case "search":
		return d.search(req)
	case "render":
		return d.render(req)
	case "mcp":
		a, _ := d.Ask(req.Tool, req.Input, req.Now)
		return Response{Text: a.Text, Out: a.Out, Error: a.Error}
	}
	return Response{Declined: "unknown op " + req.Op}
}

// question says why a search or render request is declined, "" when it is
// answered.
func (d *Daemon) question(req Request, asked bool, now time.Time) string {
	switch {
	case !asked:
		return "a " + req.Op + " request without its question"
	case req.Home != d.cfg.Home:
		return "another home folder than the daemon's " + d.cfg.Home
	case now.IsZero():
		return "a request without the client's clock"
	}
	return ""
}

func (d *Daemon) search(req Request) Response {
	if why := d.question(req, req.Search != nil, searchNow(req.Search)); why != "" {
		return Response{Declined: why}
	}
	q := *req.Search
	if err := q.Check(); err != nil {
		return Response{Declined: err.Error()}
	}
	var notes []string
	q.Notify = func(msg string) { notes = append(notes, msg) }
	_, ctx := d.running()
	res, err := d.Search(ctx, q)
	if err != nil {
		// The client reports it as the command does (a usage error's
		// exit 2 among them).
		return Response{Declined: err.Error()}
	}
	shown := inspect.Present(d.vault(), res)
	return Response{Search: &shown, Notes: notes}
}

// Search answers a search in this process (mem serve's page) as the daemon
// answers mem search: from the held index while it is fresh, beside the
// other reads.
func (d *Daemon) Search(ctx context.Context, q index.Query) (index.Result, error) {
	var res index.Result
	var err error
	v := d.vault()
	d.read(func(held func(*vault.Vault) *index.Reader) {
		d.served()
		q.Held = held
		res, err = index.Search(ctx, v, q)
	})
	return res, err
}

func searchNow(q *index.Query) time.Time {
	if q == nil {
		return time.Time{}
	}
	return q.Now
}

func (d *Daemon) render(req Request) Response {
	r := req.Render
	if why := d.question(req, r != nil, renderNow(r)); why != "" {
		return Response{Declined: why}
	}
	v := d.vault()
	paths := []string{r.Options.Cwd}
	for _, t := range r.Targets {
		paths = append(paths, t.Cwd, t.Output)
	}
	for _, p := range paths {
		if p != "" && !filepath.IsAbs(p) {
			return Response{Declined: "a render's paths must be absolute: " + p}
		}
	}
	targets := r.Targets
	if !r.All && len(targets) == 0 {
		return Response{Declined: "a render request names no target (mem render always sends one, or --all)"}
	}
	if r.All {
		var err error
		if targets, err = render.Outputs(v); err != nil {
			return Response{Declined: err.Error()}
		}
	}
	if r.Options.Cwd == "" && slices.ContainsFunc(targets, func(t render.Target) bool { return t.Cwd == "" }) {
		return Response{Declined: "a render needs its working directory"}
	}
	var done []render.Emitted
	var err error
	// A render reads no index: beside the searches, never beside a cycle.
	d.reads <- struct{}{}
	d.work.RLock()
	d.served()
	_, ctx := d.running()
	done, err = render.RunEmit(ctx, v, targets, r.Options)
	d.work.RUnlock()
	<-d.reads
	if err != nil {
		if fail.Of(err) != fail.Check {
			return Response{Declined: err.Error()}
		}
		return Response{Render: done, Code: 1, Error: err.Error()}
	}
	return Response{Render: done}
}

func renderNow(r *Render) time.Time {
	if r == nil {
		return time.Time{}
	}
	return r.Options.Now
}

// Ask answers the MCP recall or search tool (its arguments in, JSON or a
// value that marshals to it) with the index held open, as mem mcp asks
// over the socket and mem serve's servers ask in process
// (mcpserver.Options.Ask). While a cycle or commit runs, it declines, and
// the tool does its own work.
func (d *Daemon) Ask(tool string, in any, now time.Time) (mcpserver.Answer, bool) {
	if d.busy.Load() {
		return mcpserver.Answer{}, false
	}
	raw, ok := in.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(in); err != nil {
			return mcpserver.Answer{}, false
		}
	}
	var a mcpserver.Answer
	v := d.vault()
	d.read(func(held func(*vault.Vault) *index.Reader) {
		d.served()
		_, ctx := d.running()
		a = mcpserver.Call(ctx, mcpserver.Options{
			Vault: v, Now: func() time.Time { return now }, Env: d.cfg.Env, Held: held,
			Logger: slog.New(slog.NewTextHandler(d.cfg.Log, &slog.HandlerOptions{Level: slog.LevelWarn})),
		}, tool, raw)
	})
	return a, true
}

func (d *Daemon) served() {
	d.mu.Lock()
	d.st.Served++
	d.mu.Unlock()
	d.worked()
}

// worked (re)starts the wait before the memory is handed back.
func (d *Daemon) worked() {
	if d.free != nil {
		d.free.Reset(freeAfter)
	}
}

// ErrStopped is the cause a daemon's context ends with when its server
// stopped (mem serve's listener).
var ErrStopped = errors.New("the listener stopped")
