package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// memRun runs the mem binary (TestMain puts it on PATH) with extra
// environment, returning its output and exit code.
func memRun(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute) // a hang guard, not a timing
	defer cancel()
	cmd := exec.CommandContext(ctx, "mem", args...)
	cmd.Env = append(os.Environ(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		t.Fatalf("mem %v: %v", args, err)
	}
	return out.String(), errb.String(), code
}

// exampleVault is a fresh copy of the example vault with a render output.
func exampleVault(t *testing.T) string {
	t.Helper()
	t.Setenv("MEM_NOW", "2026-11-29T12:00:00Z")
	dir := filepath.Join(t.TempDir(), "v")
	if _, stderr, code := memRun(t, nil, "init", "--example", dir); code != 0 {
		t.Fatalf("init: %s", stderr)
	}
	f, err := os.OpenFile(filepath.Join(dir, "mem.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, "render:\n  outputs:\n    - path: MEMORY.md\n      cwd: code/webshop\n")
	f.Close()
	return dir
}

// daemonProc is a running `mem watch`.
type daemonProc struct {
	*exec.Cmd
	log  *syncBuffer
	done chan struct{} // closed when it exited, with err
	err  error
}

// startDaemon starts `mem watch` on dir and waits until it answers and
// has finished its first cycle (indexed and rendered): a client greeted
// during a cycle is told the daemon is busy and does its own work, which
// a test counting the daemon's answers would miss. The test's end stops it
// with SIGTERM.
func startDaemon(t *testing.T, dir string, env ...string) (*daemonProc, *syncBuffer) {
	t.Helper()
	d := &daemonProc{Cmd: exec.Command("mem", "--vault", dir, "watch"), log: &syncBuffer{}, done: make(chan struct{})}
	d.Env = append(os.Environ(), env...)
	d.Stderr = d.log
	if err := d.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { d.err = d.Wait(); close(d.done) }()
	t.Cleanup(func() {
		d.Process.Signal(syscall.SIGTERM)
		<-d.done
	})
	for {
		if st, ok := daemonStatus(t, dir); ok && !st.Index.At.IsZero() && !st.Render.At.IsZero() {
			return d, d.log
		}
		select {
		case <-d.done:
			t.Fatalf("mem watch exited: %v\n%s", d.err, d.log)
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// daemonStatus is what the daemon on dir says it did, ok false when none answers.
func daemonStatus(t *testing.T, dir string) (st daemon.Status, ok bool) {
	t.Helper()
	out, _, code := memRun(t, nil, "--vault", dir, "--json", "watch", "--status")
	if code != 0 && out == "" { // exit 1 with a status: a step failed
		return st, false
	}
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatal(err)
	}
	return st, true
}

func served(t *testing.T, dir string) daemon.Status {
	t.Helper()
	st, ok := daemonStatus(t, dir)
	if !ok {
		t.Fatal("watch --status: no daemon answers")
	}
	return st
}

// eventually retries check until it holds, failing after a minute (a
// guard against a hang; the daemon's latency is a benchmark, not a test).
func eventually(t *testing.T, what string, check func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !check(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("never: %s", what)
		}
	}
}

func TestWatchRefusesASecondDaemon(t *testing.T) {
	dir := exampleVault(t)
	first, _ := startDaemon(t, dir)
	_, stderr, code := memRun(t, nil, "--vault", dir, "watch")
	if code != 2 {
		t.Fatalf("second mem watch exited %d, want 2\n%s", code, stderr)
	}
	if want := fmt.Sprintf("pid %d", first.Process.Pid); !strings.Contains(stderr, want) {
		t.Fatalf("second mem watch does not name the first (%s):\n%s", want, stderr)
	}
}

// Every answer the daemon gives is the one the command gives by itself,
// byte for byte: stdout, stderr and exit code. Its searches come from the
// index it holds open.
func TestDaemonAnswersAsTheCommandDoes(t *testing.T) {
	dir := exampleVault(t)
	webshop := filepath.Join(dir, "code", "webshop")
	out := filepath.Join(t.TempDir(), "view.md")
	const searches = 9 // the search cases, each answered from the open index
	cases := [][]string{
		{"search", "checkout"},
		{"--json", "search", "test", "--limit", "2"},
		{"search", "--type", "lesson", "nix"},
		{"search", "--project", "proj_webshop", "--since", "2020-01-01", "staging"},
		{"search", "nothingmatcheszzz"},
		{"-q", "search", "nothingmatcheszzz"},
		{"search", "--current", "--limit", "1", "deploy"},
		{"search", "--no-refresh", "postgres"},
		{"render"},
		{"render", "--cwd", webshop},
		{"render", "--project", "proj_homelab", "--budget", "2000"},
		{"render", "--format", "hook", "--cwd", webshop},
		{"render", "--format", "json", "--now", "2026-12-01"},
		{"--json", "render", "--explain"},
		{"render", "--strict"},
		{"render", "-o", out},
		{"render", "--all"},
		{"render", "--budget", "10"},       // exit 2: answered locally
		{"render", "--project", "proj_no"}, // exit 2
		{"search", "title:("},
	}
	type answer struct {
		stdout, stderr string
		code           int
	}
	ask := func(env []string, args []string) answer {
		o, e, c := memRun(t, env, append([]string{"--vault", dir}, args...)...)
		return answer{o, e, c}
	}
	// Found through MEM_VAULT rather than named, the vault is named in a
	// summary ("no matches … (vault DIR)").
	found := func(env []string) answer {
		o, e, c := memRun(t, append(env, "MEM_VAULT="+dir), "search", "nothingmatcheszzz")
		return answer{o, e, c}
	}
	// Each case runs twice alone: the second answer is the steady one
	// (-o and --all wrote their files the first time).
	local := make([]answer, len(cases))
	for i, c := range cases {
		ask([]string{"MEM_NO_DAEMON=1"}, c)
		local[i] = ask([]string{"MEM_NO_DAEMON=1"}, c)
	}
	localFound := found([]string{"MEM_NO_DAEMON=1"})
	startDaemon(t, dir)
	// A client that gave up waiting for the greeting (20ms, a loaded
	// machine) would do the work itself, and the counts below would miss it.
	patient := []string{HelloWaitEnv + "=30s"}
	before := served(t, dir)
	for i, c := range cases {
		if got := ask(patient, c); got != local[i] {
			t.Errorf("mem %s: the daemon's answer differs from the command's own\ndaemon: %+v\nlocal:  %+v", strings.Join(c, " "), got, local[i])
		}
	}
	if got := found(patient); got != localFound {
		t.Errorf("MEM_VAULT=DIR mem search: the daemon's answer differs from the command's own\ndaemon: %+v\nlocal:  %+v", got, localFound)
	}
	// The answered ones were the daemon's (the two usage errors are not).
	// The daemon counts a request as it takes it, but one whose client
	// stopped waiting for the answer (daemon.AnswerWait, a loaded machine)
	// may be counted a moment after the client is done: the counts are
	// waited for, not read once.
	var after daemon.Status
	eventually(t, "the daemon counts every answer", func() bool {
		after = served(t, dir)
		return after.Served-before.Served >= len(cases)+1-2 && after.Warm-before.Warm >= searches+1
	})
	if n := after.Warm - before.Warm; n != searches+1 {
		t.Fatalf("%d searches answered from the open index, want %d", n, searches+1)
	}
}

// A write, an editor's atomic save, a new folder, a move and a delete are
// all searchable (or gone) once the daemon has seen them, and MEMORY.md
// follows.
func TestWatchKeepsTheIndexAndViewFresh(t *testing.T) {
	for _, mode := range []string{"fsnotify", "polling"} {
		t.Run(mode, func(t *testing.T) {
			dir := exampleVault(t)
			var env []string
			if mode == "polling" {
				env = []string{daemon.LimitEnv + "=2"}
			}
			_, log := startDaemon(t, dir, env...)
			if !strings.Contains(log.String(), "watching "+dir+" "+map[string]string{"fsnotify": "with fsnotify", "polling": "by polling"}[mode]) {
				t.Fatalf("the daemon does not say it watches by %s:\n%s", mode, log)
			}
			if mode == "polling" && !strings.Contains(log.String(), "watch limit was reached") {
				t.Fatalf("the daemon does not say why it polls:\n%s", log)
			}
			// Every search below must be the daemon's and see the files as
			// they are, without its own refresh.
			finds := func(word string) bool {
				out, _, _ := memRun(t, nil, "--vault", dir, "search", "--no-refresh", word)
				return strings.Contains(out, word)
			}
			memRun(t, nil, "--vault", dir, "remember", "--importance", "9", "--tag", "durable", "The quokka cluster runs on ARM")
			eventually(t, "a remembered claim searchable", func() bool { return finds("quokka") })
			eventually(t, "MEMORY.md re-rendered", func() bool {
				b, _ := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
				return bytes.Contains(b, []byte("quokka"))
			})
			note := "---\ntype: fact\nprovenance: stated\n---\nThe wombat service speaks gRPC\n"
			tmp := filepath.Join(dir, "memory", ".wombat.md.swp")
			os.WriteFile(tmp, []byte(note), 0o644)
			os.Rename(tmp, filepath.Join(dir, "memory", "wombat.md"))
			eventually(t, "an atomic save searchable", func() bool { return finds("wombat") })
			sub := filepath.Join(dir, "memory", "deep", "er")
			os.MkdirAll(sub, 0o755)
			os.WriteFile(filepath.Join(sub, "numbat.md"), []byte(strings.ReplaceAll(note, "wombat", "numbat")), 0o644)
			eventually(t, "a file in a new folder searchable", func() bool { return finds("numbat") })
			os.Rename(filepath.Join(dir, "memory", "deep"), filepath.Join(dir, "memory", "moved"))
			eventually(t, "a moved folder's file at its new path", func() bool {
				out, _, _ := memRun(t, nil, "--vault", dir, "search", "--no-refresh", "numbat")
				return strings.Contains(out, "memory/moved/er/numbat.md") && !strings.Contains(out, "memory/deep/")
			})
			os.RemoveAll(filepath.Join(dir, "memory", "moved"))
			eventually(t, "a deleted folder's file gone", func() bool { return !finds("numbat") })
		})
	}
}

// fakeDaemon listens on dir's socket and treats each connection with fn.
func fakeDaemon(t *testing.T, dir string, fn func(net.Conn)) {
	t.Helper()
	os.MkdirAll(filepath.Join(dir, ".mem"), 0o755)
	ln, err := daemon.Listen(daemon.SocketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var conns sync.WaitGroup
	t.Cleanup(func() { ln.Close(); conns.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			go func() { defer conns.Done(); defer c.Close(); fn(c) }()
		}
	}()
}

// A stuck daemon (accepts, never answers), one that hangs after its
// greeting, and one of another mem version: every client falls back and
// answers as it would alone.
func TestClientsFallBackFromABadDaemon(t *testing.T) {
	stuck := func(c net.Conn) { c.Read(make([]byte, 1)) } // until the client gives up
	greetThenHang := func(c net.Conn) {
		json.NewEncoder(c).Encode(daemon.Hello{Version: daemon.Version(), PID: 1})
		bufio.NewReader(c).ReadString('\n')
		c.Read(make([]byte, 1))
	}
	other := func(c net.Conn) {
		json.NewEncoder(c).Encode(daemon.Hello{Version: "0.0.1 other", PID: 1})
		bufio.NewReader(c).ReadString('\n')
		json.NewEncoder(c).Encode(daemon.Response{Search: &inspect.Result{}, Text: "WRONG"})
	}
	for name, fn := range map[string]func(net.Conn){"stuck": stuck, "greet-then-hang": greetThenHang, "other-version": other} {
		t.Run(name, func(t *testing.T) {
			dir := exampleVault(t)
			args := [][]string{
				{"--vault", dir, "search", "checkout"},
				{"--vault", dir, "render", "--format", "hook", "--cwd", filepath.Join(dir, "code", "webshop")},
			}
			var want []string
			for _, a := range args {
				memRun(t, []string{"MEM_NO_DAEMON=1"}, a...) // builds the index
				o, e, c := memRun(t, []string{"MEM_NO_DAEMON=1"}, a...)
				want = append(want, fmt.Sprint(o, e, c))
			}
			fakeDaemon(t, dir, fn)
			for i, a := range args {
				if o, e, c := memRun(t, nil, a...); fmt.Sprint(o, e, c) != want[i] {
					t.Fatalf("mem %v with a %s daemon:\n%s %s %d\nwant\n%s", a, name, o, e, c, want[i])
				}
			}
			if _, _, code := memRun(t, nil, "--vault", dir, "watch", "--status"); code != 1 {
				t.Fatalf("watch --status with a %s daemon exited %d, want 1", name, code)
			}
		})
	}
}

// MCP recall and search answer the same through the daemon as alone.
func TestMCPAsksTheDaemon(t *testing.T) {
	dir := exampleVault(t)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"recall", map[string]any{"cwd": filepath.Join(dir, "code", "webshop")}},
		{"recall", map[string]any{"project": "proj_homelab", "budget": 3000}},
		{"recall", map[string]any{"project": "proj_nope"}},
		{"search", map[string]any{"query": "checkout", "limit": 3}},
		{"search", map[string]any{"query": "zzznothing"}},
	}
	answers := func() []string {
		cs, _ := connectMem(t, dir)
		var got []string
		for _, c := range calls {
			var out any
			text, isErr := callTool(t, cs, c.tool, c.args, &out)
			b, _ := json.Marshal(out)
			got = append(got, fmt.Sprint(text, isErr, string(b)))
		}
		return got
	}
	t.Setenv("MEM_NO_DAEMON", "1")
	answers() // the first builds the index; the second is the steady answer
	local := answers()
	os.Unsetenv("MEM_NO_DAEMON")
	t.Setenv(HelloWaitEnv, "30s") // a client that gave up would not be counted
	startDaemon(t, dir)
	before := served(t, dir).Served
	for i, got := range answers() {
		if got != local[i] {
			t.Errorf("%s %v: through the daemon\n%s\nalone\n%s", calls[i].tool, calls[i].args, got, local[i])
		}
	}
	// A call is counted as the daemon takes it, perhaps after a client
	// that stopped waiting for the answer is done: waited for, not read once.
	var n int
	eventually(t, "the daemon counts every call", func() bool {
		n = served(t, dir).Served - before
		return n >= len(calls)
	})
	if n != len(calls) {
		t.Fatalf("the daemon served %d of %d calls", n, len(calls))
	}
}

// The daemon SIGKILLed at random while two writers write (mem remember, an
// editor's atomic save) and two clients search and render: no client
// fails or hangs, no view on disk is torn, the index is never found
// damaged, and every write is searchable once a daemon runs again.
// MEM_WATCH_KILLS sets the kills (3 here, 10 with MEM_SOAK=1; scripts/soak
// runs 100) and MEM_RELIABILITY_REPORT takes the figures, as
// cmd/mem/reliability's do.
func TestWatchKillSoak(t *testing.T) {
	kills := 3
	if soak() {
		kills = 10
	}
	if n, err := strconv.Atoi(os.Getenv("MEM_WATCH_KILLS")); err == nil && n > 0 {
		kills = n
	}
	dir := exampleVault(t)
	alone := []string{"MEM_NO_DAEMON=1"}
	var (
		mu                       sync.Mutex
		words                    []string
		searches, renders, views int
		slowest                  time.Duration
		stderrs                  strings.Builder
	)
	timed := func(env []string, args ...string) (string, string, int) {
		start := time.Now()
		o, e, c := memRun(t, env, append([]string{"--vault", dir}, args...)...)
		mu.Lock()
		slowest = max(slowest, time.Since(start))
		stderrs.WriteString(e)
		mu.Unlock()
		return o, e, c
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	loop := func(step func(i int)) {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				step(i)
			}
		})
	}
	loop(func(i int) { // a writer through mem
		word := fmt.Sprintf("kiwi%dx", i)
		if _, e, c := timed(alone, "remember", "Soak claim "+word+" holds"); c != 0 {
			t.Errorf("remember %s exited %d: %s", word, c, e)
			return
		}
		mu.Lock()
		words = append(words, word)
		mu.Unlock()
	})
	loop(func(i int) { // an editor saving by rename
		word := fmt.Sprintf("okra%dx", i)
		tmp := filepath.Join(dir, "notes", ".okra.swp")
		os.WriteFile(tmp, []byte("---\ntype: note\n---\nThe soak note "+word+" is saved\n"), 0o644)
		if err := os.Rename(tmp, filepath.Join(dir, "notes", "soak-"+word+".md")); err != nil {
			t.Error(err)
			return
		}
		mu.Lock()
		words = append(words, word)
		mu.Unlock()
		time.Sleep(20 * time.Millisecond) // an editor, not a flood
	})
	loop(func(int) { // a client searching
		if _, e, c := timed(nil, "search", "soak"); c != 0 {
			t.Errorf("mem search exited %d while the daemon was killed: %s", c, e)
		}
		mu.Lock()
		searches++
		mu.Unlock()
	})
	loop(func(int) { // a client rendering, and a reader of the view on disk
		o, e, c := timed(nil, "render", "--format", "hook")
		if c != 0 || !strings.Contains(o, "Remembered notes") {
			t.Errorf("mem render --format hook exited %d while the daemon was killed:\n%s%s", c, o, e)
		}
		b, err := os.ReadFile(filepath.Join(dir, "MEMORY.md"))
		if err == nil && !wholeView(b) {
			t.Errorf("MEMORY.md is torn:\n%s", b)
		}
		mu.Lock()
		renders++
		views += min(len(b), 1)
		mu.Unlock()
	})
	for range kills {
		cmd := exec.Command("mem", "--vault", dir, "watch")
		var log bytes.Buffer
		cmd.Stderr = &log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// A kill at a random moment of the daemon's life is the point: no
		// condition to wait for.
		time.Sleep(time.Duration(rand.IntN(500)) * time.Millisecond)
		cmd.Process.Kill()
		cmd.Wait()
		mu.Lock()
		stderrs.Write(log.Bytes())
		mu.Unlock()
	}
	close(stop)
	wg.Wait()
	mu.Lock()
	logs := stderrs.String()
	mu.Unlock()
	for _, bad := range []string{"rebuilding it from the files", "held open by another process"} {
		if strings.Contains(logs, bad) {
			t.Errorf("the index was found damaged or held (%q) across the kills:\n%s", bad, logs)
		}
	}
	startDaemon(t, dir)
	for _, word := range words {
		eventually(t, word+" searchable", func() bool {
			out, _, _ := memRun(t, nil, "--vault", dir, "search", "--no-refresh", word)
			return strings.Contains(out, word)
		})
	}
	figures := fmt.Sprintf("watchkill kills=%d writes=%d searches=%d renders=%d views=%d slowest_ms=%d", kills, len(words), searches, renders, views, slowest.Milliseconds())
	t.Log(figures)
	if p := os.Getenv("MEM_RELIABILITY_REPORT"); p != "" {
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintln(f, figures)
		f.Close()
	}
}

// wholeView says whether a render output on disk is a whole render: its
// header, then sections, the last one ending in a whole line. A torn write
// (the file cut short) fails one of these.
func wholeView(b []byte) bool {
	return bytes.HasPrefix(b, []byte("<!-- generated by mem render")) &&
		bytes.HasSuffix(b, []byte("\n")) && bytes.Contains(b, []byte("\n## Global\n"))
}

// The daemon commits on commit.interval, re-reads mem.yaml on SIGHUP (a
// new render output is rendered), and on SIGTERM finishes and exits 0.
func TestWatchCommitsReloadsAndStops(t *testing.T) {
	vaulttest.GitEnv(t) // it commits: a fresh CI machine has no git identity
	dir := exampleVault(t)
	for _, args := range [][]string{{"add", "-A"}, {"commit", "-qm", "start"}} {
		if out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	f, _ := os.OpenFile(filepath.Join(dir, "mem.yaml"), os.O_APPEND|os.O_WRONLY, 0)
	fmt.Fprint(f, "commit:\n  interval: 200ms\n")
	f.Close()
	d, log := startDaemon(t, dir)
	memRun(t, []string{"MEM_NO_DAEMON=1"}, "--vault", dir, "remember", "The tapir backup runs nightly")
	eventually(t, "the daemon commits the new memory", func() bool {
		out, _ := exec.Command("git", "-C", dir, "log", "--stat", "-1").CombinedOutput()
		return bytes.Contains(out, []byte("tapir"))
	})
	yaml, _ := os.ReadFile(filepath.Join(dir, "mem.yaml"))
	yaml = bytes.Replace(yaml, []byte("      cwd: code/webshop\n"), []byte("      cwd: code/webshop\n    - path: HOMELAB.md\n      project: proj_homelab\n"), 1)
	os.WriteFile(filepath.Join(dir, "mem.yaml"), yaml, 0o644)
	d.Process.Signal(syscall.SIGHUP)
	eventually(t, "SIGHUP renders the new output", func() bool {
		_, err := os.Stat(filepath.Join(dir, "HOMELAB.md"))
		return err == nil
	})
	d.Process.Signal(syscall.SIGTERM)
	<-d.done
	if d.err != nil || !strings.Contains(log.String(), "stopped (terminated)") {
		t.Fatalf("mem watch after SIGTERM: %v\n%s", d.err, log)
	}
}

// The index the daemon holds open never stands in another process's way
// nor goes stale: a full rebuild elsewhere swaps in a new one, which the
// daemon then answers from, and an update elsewhere after a write does
// not find the index held.
func TestDaemonLetsGoOfTheIndex(t *testing.T) {
	dir := exampleVault(t)
	alone := []string{"MEM_NO_DAEMON=1"}
	startDaemon(t, dir)
	if _, e, c := memRun(t, alone, "--vault", dir, "rebuild-index", "--full"); c != 0 {
		t.Fatalf("rebuild-index --full with the daemon running exited %d: %s", c, e)
	}
	want, _, _ := memRun(t, alone, "--vault", dir, "search", "checkout")
	before := served(t, dir).Warm
	eventually(t, "the daemon answers from the new index", func() bool {
		got, _, _ := memRun(t, nil, "--vault", dir, "search", "checkout")
		if got != want {
			t.Fatalf("after a full rebuild the daemon answers\n%s\nwant\n%s", got, want)
		}
		return served(t, dir).Warm > before
	})
	note := "---\ntype: fact\nprovenance: stated\n---\nThe okapi queue drains hourly\n"
	os.WriteFile(filepath.Join(dir, "memory", "okapi.md"), []byte(note), 0o644)
	_, e, c := memRun(t, alone, "--vault", dir, "rebuild-index")
	if c != 0 || strings.Contains(e, "held open") {
		t.Fatalf("rebuild-index after a write, the daemon running: exit %d\n%s", c, e)
	}
	if out, _, _ := memRun(t, nil, "--vault", dir, "search", "okapi"); !strings.Contains(out, "okapi.md") {
		t.Fatalf("the write is not searchable:\n%s", out)
	}
}

// With sync.interval and sync.remote in mem.yaml the daemon runs mem sync
// that often: a new memory reaches the remote, and --status says so.
func TestWatchSyncsOnSyncInterval(t *testing.T) {
	vaulttest.GitEnv(t) // it syncs: a fresh CI machine has no git identity
	dir := exampleVault(t)
	remote := filepath.Join(t.TempDir(), "remote.git")
	if _, e, c := memRun(t, nil, "--vault", dir, "sync", remote); c != 0 {
		t.Fatalf("mem sync %s: exit %d\n%s", remote, c, e)
	}
	d, _ := startDaemon(t, dir)
	if out, _, _ := memRun(t, nil, "--vault", dir, "watch", "--status"); !regexp.MustCompile(`(?m)^sync: +off: mem.yaml sets no sync.interval`).MatchString(out) {
		t.Fatalf("--status without sync.interval:\n%s", out)
	}
	if err := vault.SetConfig(dir, "sync.interval", "200ms"); err != nil {
		t.Fatal(err)
	}
	d.Process.Signal(syscall.SIGHUP)
	memRun(t, []string{"MEM_NO_DAEMON=1"}, "--vault", dir, "remember", "The capybara ledger closes on Fridays")
	eventually(t, "the daemon syncs the new memory to the remote", func() bool {
		out, _ := exec.Command("git", "-C", remote, "log", "-p", "-1").CombinedOutput()
		return bytes.Contains(out, []byte("capybara"))
	})
	eventually(t, "--status reports the sync", func() bool {
		out, _, _ := memRun(t, nil, "--vault", dir, "watch", "--status")
		return regexp.MustCompile(`(?m)^sync: +\S+ ok: synced \S+ with .*remote\.git`).MatchString(out)
	})
}

// mem doctor says when the vault's daemon was killed, and how to restart it.
func TestDoctorReportsAKilledDaemon(t *testing.T) {
	dir := exampleVault(t)
	d, _ := startDaemon(t, dir)
	if out, _, code := memRun(t, nil, "--vault", dir, "doctor"); !strings.Contains(out, "daemon: mem watch (pid") {
		t.Fatalf("doctor with the daemon running (exit %d):\n%s", code, out)
	}
	d.Process.Kill()
	<-d.done
	out, _, code := memRun(t, nil, "--vault", dir, "doctor")
	if code != 1 || !regexp.MustCompile(`(?m)^fail  daemon\n +mem watch stopped without cleaning up .*systemctl --user restart mem-watch`).MatchString(out) {
		t.Fatalf("doctor after the daemon was killed: exit %d, want 1\n%s", code, out)
	}
}

// rawAsk sends one request line, as any program on the machine could, to
// the daemon on dir and returns its answer.
func rawAsk(t *testing.T, dir string, req func(version string) []byte) daemon.Response {
	t.Helper()
	c, err := net.DialTimeout("unix", daemon.SocketPath(dir), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(time.Minute))
	r := bufio.NewReaderSize(c, 1<<20)
	var hello daemon.Hello
	line, err := r.ReadBytes('\n')
	if err != nil || json.Unmarshal(line, &hello) != nil {
		t.Fatalf("no greeting: %v %q", err, line)
	}
	// The daemon may answer (and close) before reading all of an
	// oversized request: the write's error is not the test's.
	go c.Write(append(req(hello.Version), '\n'))
	var resp daemon.Response
	if line, err = r.ReadBytes('\n'); err != nil || json.Unmarshal(line, &resp) != nil {
		t.Fatalf("no answer: %v %q", err, line)
	}
	return resp
}

// The daemon answers typed requests only (issue 28 item 8): a command line
// that an allow-list took for a render ran `sync`, pushing the vault to a
// remote the client chose and rewriting sync.remote. Such a request, an
// unknown op, a render with a relative path and an oversized request are
// declined and change nothing; a typed search is answered.
func TestDaemonAnswersTypedRequestsOnly(t *testing.T) {
	dir := exampleVault(t)
	ident := []string{"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com"}
	evil := filepath.Join(t.TempDir(), "evil.git")
	if out, err := exec.Command("git", "init", "-q", "--bare", evil).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
	cwd := t.TempDir()
	if err := os.Symlink(dir, filepath.Join(cwd, "render")); err != nil {
		t.Fatal(err)
	}
	config, _ := os.ReadFile(filepath.Join(dir, "mem.yaml"))
	startDaemon(t, dir, ident...)
	home := os.Getenv("HOME")
	for name, req := range map[string]func(string) []byte{
		"argv": func(v string) []byte {
			b, _ := json.Marshal(map[string]any{"version": v, "op": "run", "cwd": cwd,
				"argv": []string{"--vault", "render", "sync", evil}, "env": map[string]string{}})
			return b
		},
		"unknown op": func(v string) []byte {
			b, _ := json.Marshal(daemon.Request{Version: v, Op: "sync"})
			return b
		},
		"relative path": func(v string) []byte {
			b, _ := json.Marshal(daemon.Request{Version: v, Op: "render", Home: home, Render: &daemon.Render{
				Targets: []render.Target{{Cwd: "render", Output: "../x.md"}}, Options: render.RunOptions{Now: time.Now()}}})
			return b
		},
		"oversized": func(v string) []byte {
			b, _ := json.Marshal(daemon.Request{Version: v, Op: "search", Home: home, Search: &index.Query{
				Now: time.Now(), Limit: 10, Text: strings.Repeat("checkout ", 300_000)}})
			return b
		},
	} {
		if resp := rawAsk(t, dir, req); resp.Declined == "" || resp.Search != nil || resp.Render != nil {
			t.Errorf("%s: answered, not declined: %+v", name, resp)
		}
	}
	if out, _ := exec.Command("git", "--git-dir", evil, "show-ref").Output(); len(out) > 0 {
		t.Errorf("the vault was pushed to the client's remote:\n%s", out)
	}
	if now, _ := os.ReadFile(filepath.Join(dir, "mem.yaml")); !bytes.Equal(now, config) {
		t.Errorf("mem.yaml changed:\n%s", now)
	}
	resp := rawAsk(t, dir, func(v string) []byte {
		b, _ := json.Marshal(daemon.Request{Version: v, Op: "search", Home: home, Search: &index.Query{
			Now: time.Now(), Limit: 10, Text: "checkout"}})
		return b
	})
	if resp.Declined != "" || resp.Code != 0 || resp.Search == nil || len(resp.Search.Hits) == 0 || !strings.Contains(resp.Search.Hits[0].Snippet, "heckout") {
		t.Errorf("a typed search: %+v", resp)
	}
}
