package daemon

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mem-md/mem/examples"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// syncBuffer is the daemon's log, read while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// exampleDaemon is a daemon of a fresh copy of the example vault, not yet
// running.
func exampleDaemon(t testing.TB) (*Daemon, *syncBuffer) {
	t.Helper()
	dir, err := os.MkdirTemp("", "mem-daemon-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	home := t.TempDir()
	root := filepath.Join(dir, "vault")
	if _, err := (vault.Options{Home: home}).Init(root, examples.Vault()); err != nil {
		t.Fatal(err)
	}
	// One render output, as a mem.yaml would name it.
	f, err := os.OpenFile(filepath.Join(root, vault.ConfigFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("render:\n  outputs:\n    - {path: MEMORY.md, cwd: code/webshop}\n")
	f.Close()
	v, err := vault.Options{Home: home}.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	return New(Config{Vault: v, Name: "mem test", Log: log, Now: func() time.Time { return testNow }, Home: home}), log
}

// start runs d until the test ends, and waits for its first cycle.
func start(t testing.TB, d *Daemon) (stop func(cause error), done <-chan error) {
	t.Helper()
	ctx, cancel := context.WithCancelCause(context.Background())
	ch, finished := make(chan error, 1), make(chan struct{})
	go func() { ch <- d.Run(ctx, nil); close(finished) }()
	t.Cleanup(func() { cancel(nil); <-finished })
	eventually(t, "the first cycle", func() bool { return d.Status().Index.OK })
	eventually(t, "the index held open", func() bool {
		d.work.RLock()
		defer d.work.RUnlock()
		return d.fresh()
	})
	return cancel, ch
}

func eventually(t testing.TB, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if ok() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

func (d *Daemon) searchFor(text string) Response {
	return d.Handle(Request{Op: "search", Home: d.cfg.Home, Search: &index.Query{Text: text, Limit: 10, Now: testNow}})
}

// A search is answered by index.Search from the index held open, as a
// typed result; searches at once share it (the read lock), each counted.
func TestSearchesShareTheHeldIndex(t *testing.T) {
	d, _ := exampleDaemon(t)
	start(t, d)
	const n = 8
	var wg sync.WaitGroup
	answers := make([]Response, n)
	for i := range n {
		wg.Go(func() { answers[i] = d.searchFor("checkout") })
	}
	wg.Wait()
	for i, r := range answers {
		if r.Declined != "" || r.Search == nil || len(r.Search.Hits) == 0 || !r.Search.Index.Fresh {
			t.Fatalf("search %d: %+v", i, r)
		}
	}
	if st := d.Status(); st.Warm != n || st.Served != n {
		t.Fatalf("served %d, %d from the held index; want %d and %d", st.Served, st.Warm, n, n)
	}
}

// A question the daemon does not answer is declined, and nothing is run:
// the client then does the work itself.
func TestDeclines(t *testing.T) {
	d, _ := exampleDaemon(t)
	start(t, d)
	home := d.cfg.Home
	q := func(mod func(*index.Query)) *index.Query {
		x := index.Query{Text: "checkout", Limit: 10, Now: testNow}
		mod(&x)
		return &x
	}
	for name, req := range map[string]Request{
		"unknown op":    {Op: "sync", Home: home},
		"no question":   {Op: "search", Home: home},
		"another home":  {Op: "search", Home: "/somewhere/else", Search: q(func(*index.Query) {})},
		"no clock":      {Op: "search", Home: home, Search: q(func(x *index.Query) { x.Now = time.Time{} })},
		"bad limit":     {Op: "search", Home: home, Search: q(func(x *index.Query) { x.Limit = 0 })},
		"empty query":   {Op: "search", Home: home, Search: q(func(x *index.Query) { x.Text = " " })},
		"relative path": {Op: "render", Home: home, Render: &Render{Targets: []render.Target{{Cwd: "code", Output: "x.md"}}, Options: render.RunOptions{Now: testNow}}},
		"no cwd":        {Op: "render", Home: home, Render: &Render{Targets: []render.Target{{Format: "markdown"}}, Options: render.RunOptions{Now: testNow}}},
	} {
		if r := d.Handle(req); r.Declined == "" || r.Search != nil || r.Render != nil {
			t.Errorf("%s: answered, not declined: %+v", name, r)
		}
	}
	if _, err := os.Stat(filepath.Join(d.root, "x.md")); err == nil {
		t.Error("a declined render wrote its output")
	}
}

// A render is answered with what mem render shows: the view, or the file
// written; --all is mem.yaml's render.outputs, read by the daemon.
func TestRender(t *testing.T) {
	d, _ := exampleDaemon(t)
	start(t, d)
	cwd := filepath.Join(d.root, "code", "webshop")
	r := d.Handle(Request{Op: "render", Home: d.cfg.Home, Render: &Render{
		Targets: []render.Target{{Cwd: cwd, CwdFrom: "--cwd", Format: "markdown"}}, Options: render.RunOptions{Now: testNow}}})
	if r.Declined != "" || len(r.Render) != 1 || !bytes.Contains(r.Render[0].Doc, []byte("## Project: Webshop")) {
		t.Fatalf("render for %s: %+v", cwd, r)
	}
	r = d.Handle(Request{Op: "render", Home: d.cfg.Home, Render: &Render{All: true, Options: render.RunOptions{Now: testNow, Cwd: d.root}}})
	if r.Declined != "" || len(r.Render) == 0 || r.Render[0].Output == "" {
		t.Fatalf("render --all: %+v", r)
	}
}

// A new file is indexed within the cycle after it is seen, and a search
// then finds it, from the index held open again.
func TestAChangeIsSearchable(t *testing.T) {
	d, _ := exampleDaemon(t)
	start(t, d)
	note := "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\n---\nThe okapi ledger closes on Fridays.\n"
	if err := os.WriteFile(filepath.Join(d.root, "memory", "okapi.md"), []byte(note), 0o644); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the new memory searchable", func() bool {
		r := d.searchFor("okapi")
		return r.Search != nil && len(r.Search.Hits) == 1 && r.Search.Hits[0].Path == "memory/okapi.md"
	})
}

// What a search read of a file while the index was held (its writer, for
// an unreviewed claim) is read again once the file changes, never kept.
func TestAChangedFileIsReadAgain(t *testing.T) {
	d, _ := exampleDaemon(t)
	start(t, d)
	claim := func(by string) {
		note := "---\ntype: fact\nprovenance: observed\nvalid_at: 2026-11-01\ngenerated:\n  by: " + by +
			"\n  at: 2026-11-01T10:00:00Z\n---\nThe okapi ledger closes on Fridays.\n"
		if err := os.WriteFile(filepath.Join(d.root, "memory", "okapi.md"), []byte(note), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// Answered from the held index, the file read through its memo.
	heldSaid := func(by string) func() bool {
		return func() bool {
			warm := d.Status().Warm
			r := d.searchFor("okapi")
			return r.Search != nil && len(r.Search.Hits) == 1 && r.Search.Hits[0].WrittenBy == by && d.Status().Warm > warm
		}
	}
	claim("process:agent-a")
	eventually(t, "the claim searchable, written by agent-a", heldSaid("process:agent-a"))
	if !heldSaid("process:agent-a")() {
		t.Fatal("a search again answered otherwise")
	}
	claim("process:agent-b")
	eventually(t, "the claim written by agent-b", heldSaid("process:agent-b"))
}

// Stopping (a signal, named as the context's cause) handles the changes in
// hand and says what was kept; Run returns.
func TestStopSaysWhatWasKept(t *testing.T) {
	d, log := exampleDaemon(t)
	stop, done := start(t, d)
	stop(errors.New("terminated"))
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return")
	}
	if s := log.String(); !strings.Contains(s, "mem test: stopped (terminated): the index and views hold every change seen; nothing committed by this daemon") {
		t.Fatalf("log:\n%s", s)
	}
	d.work.RLock()
	defer d.work.RUnlock()
	if d.held != nil {
		t.Fatal("the index is still held open after Run")
	}
}

// Once indexes and renders, and says how each went; no socket, no watcher.
func TestOnce(t *testing.T) {
	d, _ := exampleDaemon(t)
	idx, rendered := d.Once(context.Background())
	if !idx.OK || !strings.Contains(idx.Result, "indexed") {
		t.Fatalf("index: %+v", idx)
	}
	if !rendered.OK || !strings.Contains(rendered.Result, "rendered") {
		t.Fatalf("render: %+v", rendered)
	}
	if _, err := os.Stat(SocketPath(d.root)); err == nil {
		t.Fatal("Once answers on a socket")
	}
}

// The commit and sync plans come from mem.yaml, and the status says why
// there is no sync.
func TestPlans(t *testing.T) {
	d, _ := exampleDaemon(t)
	if got := d.CommitInterval(); got != DefaultCommitInterval {
		t.Errorf("commit interval %s, want the default %s", got, DefaultCommitInterval)
	}
	d.v.Config.Commit.Interval = time.Minute
	if got := d.CommitInterval(); got != time.Minute {
		t.Errorf("commit interval %s, want 1m", got)
	}
	for _, c := range []struct {
		every  time.Duration
		remote string
		want   time.Duration
		plan   string
	}{
		{0, "", 0, "off: mem.yaml sets no sync.interval"},
		{time.Minute, "", 0, "off: mem.yaml sets sync.interval but no sync.remote"},
		{time.Minute, "/r.git", time.Minute, "every 1m0s with /r.git, none yet"},
	} {
		d.v.Config.Sync.Interval, d.v.Config.Sync.Remote = c.every, c.remote
		if got := d.SyncInterval(); got != c.want || !strings.HasPrefix(d.Status().Sync.Result, c.plan) {
			t.Errorf("sync %s %q: %s %q, want %s %q", c.every, c.remote, got, d.Status().Sync.Result, c.want, c.plan)
		}
	}
}
