package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/index"
)

// WatchConfig says what `mem-bench watch` measures: the daemon of the mem
// binary Mem on the generated vault Vault (docs/watch.md).
type WatchConfig struct {
	Mem, Vault, Word, Project string
	Writes, Runs              int
	Idle                      time.Duration
	Log                       io.Writer
}

// WatchResult is what it measured; durations are medians unless named.
type WatchResult struct {
	files                   int
	latency                 []time.Duration // write → searchable, each write
	search, searchAlone, rg time.Duration
	hook, hookAlone, floor  time.Duration
	idleCPU                 time.Duration // CPU time over idle
	idle                    time.Duration
	rss, peakRSS            int64 // KiB
	watching                string
	latencyKinds            map[string][]time.Duration
	served                  int
}

// hello is the bench client's greeting wait: a loaded machine greets
// late, and this is not a client under test.
const hello = time.Second

// Watch starts `mem watch` on the vault and measures it.
func Watch(ctx context.Context, cfg WatchConfig) (*WatchResult, error) {
	res := &WatchResult{latencyKinds: map[string][]time.Duration{}}
	logf := func(format string, args ...any) { fmt.Fprintf(cfg.Log, format+"\n", args...) }
	root, err := filepath.Abs(cfg.Vault)
	if err != nil {
		return nil, err
	}
	project := cfg.Project
	if project == "" {
		project = firstProject(root)
	}
	res.files = countMarkdown(root)
	// The index first, so the daemon starts from a built one.
	if out, err := exec.CommandContext(ctx, cfg.Mem, "--vault", root, "rebuild-index", "--quiet").CombinedOutput(); err != nil {
		return nil, fmt.Errorf("rebuild-index: %v: %s", err, out)
	}
	d := exec.CommandContext(ctx, cfg.Mem, "--vault", root, "watch")
	d.Stderr = cfg.Log
	if err := d.Start(); err != nil {
		return nil, err
	}
	defer func() { d.Process.Signal(syscall.SIGTERM); d.Wait() }()
	w := &watchRun{ctx: ctx, cfg: cfg, root: root, sock: daemon.SocketPath(root), res: res}
	daemon.Version = func() string { return daemon.VersionOf(cfg.Mem) } // speak as the mem binary
	for !w.ask(cfg.Word) {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		time.Sleep(50 * time.Millisecond)
	}
	st, _ := daemon.Ask(w.sock, daemon.Request{Op: "status"}, hello)
	if st.Status != nil {
		res.watching = st.Status.Watching
	}
	logf("daemon up (%s); %d writes", res.watching, cfg.Writes)
	if err := w.writeLatency(); err != nil {
		return nil, err
	}
	logf("latency p50 %v p95 %v", percentile(res.latency, 50), percentile(res.latency, 95))
	if err := w.settle(); err != nil {
		return nil, err
	}
	if err := w.clients(project); err != nil {
		return nil, err
	}
	// Idle: the daemon's CPU time over cfg.Idle with nothing changing.
	if err := w.settle(); err != nil {
		return nil, err
	}
	before, err := cpuTime(d.Process.Pid)
	if err != nil {
		return nil, err
	}
	logf("idle %v", cfg.Idle)
	time.Sleep(cfg.Idle)
	after, err := cpuTime(d.Process.Pid)
	if err != nil {
		return nil, err
	}
	res.idleCPU, res.idle = after-before, cfg.Idle
	res.rss, res.peakRSS = procKiB(d.Process.Pid, "VmRSS:"), procKiB(d.Process.Pid, "VmHWM:")
	return res, nil
}

// countMarkdown counts the markdown files under root, outside its dot
// folders.
func countMarkdown(root string) int {
	n := 0
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") && !strings.Contains(strings.TrimPrefix(p, root), "/.") {
			n++
		}
		return nil
	})
	return n
}

// watchRun is one Watch with its daemon up: the vault, the daemon's
// socket, and what it measured so far.
type watchRun struct {
	ctx        context.Context
	cfg        WatchConfig
	root, sock string
	res        *WatchResult
}

// ask is whether the daemon's own index (--no-refresh) finds word, in the
// first hit's snippet.
func (w *watchRun) ask(word string) bool {
	r, err := daemon.Ask(w.sock, daemon.Request{Op: "search", Home: os.Getenv("HOME"), Search: &index.Query{
		Now: time.Now(), Text: word, Limit: 1, NoRefresh: true}}, hello)
	return err == nil && r.Search != nil && len(r.Search.Hits) > 0 && strings.Contains(r.Search.Hits[0].Snippet, word)
}

// settle waits until the daemon has no change queued and is not in a
// cycle (a busy daemon's greeting makes ask fail).
func (w *watchRun) settle() error {
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		st, err := daemon.Ask(w.sock, daemon.Request{Op: "status"}, hello)
		if err == nil && st.Status != nil && st.Status.Queue == 0 && w.ask(w.cfg.Word) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("the daemon did not settle within a minute")
		}
	}
}

// writeLatency times write → searchable: three kinds of write in turn,
// each with a word no file has, timed from the write's end to the first
// answer of the daemon's own index holding it.
func (w *watchRun) writeLatency() error {
	for i := range w.cfg.Writes {
		word := "wlat" + strconv.Itoa(i) + "x"
		kind, err := w.write(i, word)
		if err != nil {
			return err
		}
		start := time.Now()
		for !w.ask(word) {
			if time.Since(start) > time.Minute {
				return fmt.Errorf("write %d (%s) not searchable after a minute", i, kind)
			}
			time.Sleep(10 * time.Millisecond)
		}
		lat := time.Since(start)
		w.res.latency = append(w.res.latency, lat)
		w.res.latencyKinds[kind] = append(w.res.latencyKinds[kind], lat)
	}
	return nil
}

// write makes the i-th write, holding word, of the kind i names: mem
// remember, an editor's atomic rename, or an overwrite in place.
func (w *watchRun) write(i int, word string) (kind string, err error) {
	body := fmt.Sprintf("---\ntype: fact\nprovenance: stated\n---\nThe bench write %s is here\n", word)
	switch i % 3 {
	case 0:
		if out, err := exec.CommandContext(w.ctx, w.cfg.Mem, "--vault", w.root, "remember", "The bench claim "+word+" is here").CombinedOutput(); err != nil {
			return "", fmt.Errorf("remember: %v: %s", err, out)
		}
		return "mem remember", nil
	case 1:
		tmp := filepath.Join(w.root, "memory", ".bench.swp")
		if err := os.WriteFile(tmp, []byte(body), 0o644); err != nil {
			return "", err
		}
		return "atomic rename", os.Rename(tmp, filepath.Join(w.root, "memory", "bench-"+word+".md"))
	default:
		return "overwrite", os.WriteFile(filepath.Join(w.root, "memory", "bench-overwrite.md"), []byte(body), 0o644)
	}
}

// clients times the client commands with the daemon, alone, and the
// references, interleaved so a busy machine moves them all; the first
// round warms up.
func (w *watchRun) clients(project string) error {
	runs := map[string][]time.Duration{}
	floor := `find . -name '*.md' -not -path './.git/*' -not -path './.mem/*' -print0 | xargs -0 cat > /dev/null`
	mem, word := w.cfg.Mem, w.cfg.Word
	cmds := []struct {
		name string
		argv []string
		env  []string
	}{
		{"search", []string{mem, "search", word}, nil},
		{"search alone", []string{mem, "search", word}, []string{"MEM_NO_DAEMON=1"}},
		{"rg", []string{"rg", "-il", "--glob", "*.md", word, "."}, nil},
		{"hook", append([]string{mem, "render", "--format", "hook"}, projectArgs(project)...), nil},
		{"hook alone", append([]string{mem, "render", "--format", "hook"}, projectArgs(project)...), []string{"MEM_NO_DAEMON=1"}},
		{"floor", []string{"sh", "-c", floor}, nil},
	}
	for round := 0; round <= w.cfg.Runs; round++ {
		for _, c := range cmds {
			cmd := exec.CommandContext(w.ctx, c.argv[0], c.argv[1:]...)
			cmd.Dir, cmd.Env = w.root, append(os.Environ(), c.env...)
			start := time.Now()
			out, err := cmd.CombinedOutput()
			wall := time.Since(start)
			if err != nil && !(c.name == "rg" && cmd.ProcessState.ExitCode() == 1) {
				return fmt.Errorf("%s: %v: %s", c.name, err, out)
			}
			if round > 0 {
				runs[c.name] = append(runs[c.name], wall)
			}
		}
	}
	med := func(name string) time.Duration { return percentile(runs[name], 50) }
	w.res.search, w.res.searchAlone, w.res.rg = med("search"), med("search alone"), med("rg")
	w.res.hook, w.res.hookAlone, w.res.floor = med("hook"), med("hook alone"), med("floor")
	if st, _ := daemon.Ask(w.sock, daemon.Request{Op: "status"}, hello); st.Status != nil {
		w.res.served = st.Status.Served
	}
	return nil
}

// percentile is the p-th percentile (nearest rank) of ds.
func percentile(ds []time.Duration, p int) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := (p*len(s) + 99) / 100
	return s[max(i-1, 0)]
}

// cpuTime is a process's user and system time from /proc (Linux).
func cpuTime(pid int) (time.Duration, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * (time.Second / 100), nil // USER_HZ is 100 on Linux
}

func procKiB(pid int, key string) int64 {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, key); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// WriteWatch prints res as the markdown of docs/performance.md.
func WriteWatch(w io.Writer, res *WatchResult, runs int) {
	ratio := func(a, b time.Duration) string { return fmt.Sprintf("%.3f×", float64(a)/float64(b)) }
	fmt.Fprintf(w, "| %d files, watching by %s | median | reference | ratio |\n|---|---:|---:|---:|\n", res.files, res.watching)
	fmt.Fprintf(w, "| write → searchable, p50 / p95 over %d writes | %v / %v | target p95 ≤ 1 s | |\n", len(res.latency), percentile(res.latency, 50).Round(time.Millisecond), percentile(res.latency, 95).Round(time.Millisecond))
	for _, k := range []string{"mem remember", "atomic rename", "overwrite"} {
		fmt.Fprintf(w, "| … %s (%d), p50 / p95 | %v / %v | | |\n", k, len(res.latencyKinds[k]), percentile(res.latencyKinds[k], 50).Round(time.Millisecond), percentile(res.latencyKinds[k], 95).Round(time.Millisecond))
	}
	fmt.Fprintf(w, "| `mem search WORD`, daemon | %v | rg %v | %s |\n", res.search.Round(time.Millisecond), res.rg.Round(time.Millisecond), ratio(res.search, res.rg))
	fmt.Fprintf(w, "| `mem search WORD`, no daemon | %v | rg %v | %s |\n", res.searchAlone.Round(time.Millisecond), res.rg.Round(time.Millisecond), ratio(res.searchAlone, res.rg))
	fmt.Fprintf(w, "| `mem render --format hook`, daemon | %v | floor %v | %s |\n", res.hook.Round(time.Millisecond), res.floor.Round(time.Millisecond), ratio(res.hook, res.floor))
	fmt.Fprintf(w, "| `mem render --format hook`, no daemon | %v | floor %v | %s |\n", res.hookAlone.Round(time.Millisecond), res.floor.Round(time.Millisecond), ratio(res.hookAlone, res.floor))
	fmt.Fprintf(w, "| daemon idle CPU over %v | %v | | %.2f%% of one core |\n", res.idle, res.idleCPU, 100*float64(res.idleCPU)/float64(res.idle))
	fmt.Fprintf(w, "| daemon RSS now / peak | %d / %d MiB | | |\n", res.rss>>10, res.peakRSS>>10)
	fmt.Fprintf(w, "\n%d timed runs of each client command after one warm-up; the daemon served %d requests.\n", runs, res.served)
}
