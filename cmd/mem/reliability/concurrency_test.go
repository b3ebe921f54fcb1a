//go:build unix

package reliability

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
)

// written is one write a writer process reported as done.
type written struct {
	id, token  string
	supersedes string // the id a --supersedes write replaced
}

// TestConcurrentWriters runs agent processes writing memories, notes,
// signals and supersessions while commit, rebuild-index, render and search
// run on their own schedules. After one final commit every write any
// process reported is in the files, in git at HEAD, in the index and in
// the counts: nothing lost, duplicated or torn.
func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	writers := knob("MEM_CONC_WRITERS", 4, 4)
	rounds := knob("MEM_CONC_ROUNDS", 8, 25)
	v := newVault(t)
	base := len(v.load())
	v.seed(50)
	lesson := "memory/lesson-cache"
	os.WriteFile(filepath.Join(v.dir, lesson+".md"), []byte("---\ntype: lesson\nprovenance: inferred\nvalid_at: 2026-11-01\n---\nWhen the cache broke, clearing it fixed the build.\n"), 0o644)
	v.must("commit", "-q")

	var (
		mu      sync.Mutex
		writes  []written
		signals int
		files   int // files the writers created
		failed  atomic.Bool
		wg      sync.WaitGroup
	)
	fail := func(format string, args ...any) {
		failed.Store(true)
		t.Errorf(format, args...)
	}
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var last string
			for i := range rounds {
				token := fmt.Sprintf("concw%dr%d", w, i)
				session := fmt.Sprintf("writer-%d", w)
				var r result
				op := i % 5
				if op == 4 && last == "" {
					op = 0
				}
				switch op {
				case 0, 1:
					r = v.run(nil, "remember", "-q", "--session", session, fmt.Sprintf("Writer %d round %d mentions %s.", w, i, token))
				case 2:
					r = v.run([]byte(fmt.Sprintf("A longer note by writer %d.\n\nIt mentions %s.\n", w, token)), "--json", "note", "--title", fmt.Sprintf("Writer %d note %d", w, i))
				case 3:
					r = v.run(nil, "signal", "--session", fmt.Sprintf("%s-%d", session, i), "--evidence", "seen again in "+token, lesson)
				case 4:
					r = v.run(nil, "remember", "-q", "--supersedes", last, fmt.Sprintf("Writer %d round %d replaces its last with %s.", w, i, token))
				}
				if r.code != 0 || r.timedOut {
					fail("writer %d round %d: exit %d: %s", w, i, r.code, r.stderr)
					return
				}
				mu.Lock()
				switch op {
				case 0, 1:
					last = strings.TrimSpace(r.stdout)
					writes = append(writes, written{id: last, token: token})
					files++
				case 2:
					var out struct {
						ID      string `json:"id"`
						Pointer struct {
							ID string `json:"id"`
						} `json:"pointer"`
					}
					if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.ID == "" || out.Pointer.ID == "" {
						fail("writer %d round %d: note printed %q: %v", w, i, r.stdout, err)
					}
					writes = append(writes, written{id: out.ID, token: token}, written{id: out.Pointer.ID})
					files += 2
				case 3:
					signals++
				case 4:
					id := strings.TrimSpace(r.stdout)
					writes = append(writes, written{id: id, token: token, supersedes: last})
					last = id
					files++
				}
				mu.Unlock()
			}
		}()
	}

	// The scheduled jobs, each on its own clock until the writers finish.
	stop := make(chan struct{})
	var jobs sync.WaitGroup
	runs := map[string]*atomic.Int64{}
	schedule := func(name string, every time.Duration, args func(n int) []string) {
		runs[name] = &atomic.Int64{}
		jobs.Add(1)
		go func() {
			defer jobs.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				case <-time.After(every):
				}
				a := args(n)
				r := v.run(nil, a...)
				if r.code != 0 || r.timedOut {
					fail("scheduled mem %s: exit %d (timed out %v): %s", strings.Join(a, " "), r.code, r.timedOut, r.stderr)
				}
				runs[name].Add(1)
			}
		}()
	}
	schedule("commit", 100*time.Millisecond, func(int) []string { return []string{"commit", "-q"} })
	schedule("rebuild-index", 150*time.Millisecond, func(n int) []string {
		if n%3 == 2 {
			return []string{"rebuild-index", "-q", "--full"}
		}
		return []string{"rebuild-index", "-q"}
	})
	schedule("render", 120*time.Millisecond, func(int) []string { return []string{"render", "-q", "-o", "MEMORY.md"} })
	schedule("search", 100*time.Millisecond, func(int) []string { return []string{"search", "-q", "lighthouse"} })
	wg.Wait()
	close(stop)
	jobs.Wait()
	if failed.Load() {
		t.FailNow()
	}

	// One final commit, then every reported write must be everywhere.
	out := v.must("--json", "commit")
	var commit struct {
		Memories int `json:"memories"`
	}
	if err := json.Unmarshal([]byte(out), &commit); err != nil {
		t.Fatalf("mem commit --json: %v: %s", err, out)
	}
	if st := v.uncommitted(); st != "" {
		t.Fatalf("uncommitted after the final commit:\n%s", st)
	}
	head := map[string]bool{}
	for _, p := range strings.Split(v.git("ls-tree", "-r", "--name-only", "HEAD"), "\n") {
		head[p] = true
	}
	mems := v.load()
	byID := map[string]*vault.Memory{}
	for _, m := range mems {
		if !m.OK() {
			t.Errorf("%s is torn or broken: %v", m.Rel, m.Err)
		}
		if byID[m.ID] != nil {
			t.Errorf("id %s is in %s and %s", m.ID, byID[m.ID].Rel, m.Rel)
		}
		byID[m.ID] = m
	}
	lost := 0
	for _, w := range writes {
		m := byID[w.id]
		switch {
		case m == nil:
			lost++
			t.Errorf("reported write %s is not in the files", w.id)
			continue
		case !head[m.Rel]:
			lost++
			t.Errorf("reported write %s is not in git at HEAD", m.Rel)
		case w.token != "" && !strings.Contains(m.Doc.Body, w.token):
			t.Errorf("%s lost its text: %q", m.Rel, m.Doc.Body)
		case w.supersedes != "" && !slices.Contains(m.Meta().Supersedes, w.supersedes):
			t.Errorf("%s supersedes %v, want %s", m.Rel, m.Meta().Supersedes, w.supersedes)
		}
	}
	if got := len(byID[lesson].Meta().Signals); got != signals {
		lost += signals - got
		t.Errorf("%s holds %d signals, the writers reported %d", lesson, got, signals)
	}
	want := base + 50 + 1 + files
	if len(mems) != want || commit.Memories != len(mems) {
		t.Errorf("%d files, %d memories counted at HEAD; want %d (nothing lost or duplicated)", len(mems), commit.Memories, want)
	}

	// The index: brought up to date once more, then every token found
	// exactly once, in the file that holds it. Bleve's own syntax, since a
	// plain-language search also lifts the writer's other memories of its
	// session (an episode), which says nothing about what the index holds.
	v.must("rebuild-index", "-q")
	vv, err := vault.Open(v.dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range writes {
		if w.token == "" {
			continue
		}
		res, err := index.Search(context.Background(), vv, index.Query{Text: w.token, Syntax: true, NoRefresh: true, Limit: 5})
		if err != nil || !res.Index.Fresh || len(res.Hits) != 1 || res.Hits[0].ID != w.id {
			lost++
			t.Errorf("index: search %s: %+v, %v; want one hit %s", w.token, res, err, w.id)
		}
	}
	var jobRuns []string
	for name, n := range runs {
		jobRuns = append(jobRuns, fmt.Sprintf("%s=%d", name, n.Load()))
	}
	slices.Sort(jobRuns)
	figures(t, "concurrency", "writers", writers, "rounds", rounds, "writes", len(writes)+signals, "files", files, "signals", signals,
		"jobs", strings.Join(jobRuns, ","), "losses", lost)
}
