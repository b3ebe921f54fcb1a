package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// TestMain lets the test binary act as a rebuild process that
// TestKilledRebuild can SIGKILL at any moment.
func TestMain(m *testing.M) {
	if dir := os.Getenv("MEM_INDEX_TEST_UPDATE"); dir != "" {
		v, err := vault.Open(dir)
		if err == nil {
			_, err = Update(v, Options{Full: os.Getenv("MEM_INDEX_TEST_FULL") != ""})
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	code := m.Run()
	removeSharedBenchVault()
	os.Exit(code)
}

// TestKilledRebuild kills a full rebuild (and, every other time, a large
// incremental update, which writes the live index in place) at a random
// moment, again and again, and checks that the next search answers
// correctly: every file found, the newest change included.
// MEM_INDEX_KILL_ITERATIONS=200 runs a longer campaign.
func TestKilledRebuild(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("spawns processes")
	}
	iterations := 12
	if s := os.Getenv("MEM_INDEX_KILL_ITERATIONS"); s != "" {
		iterations, _ = strconv.Atoi(s)
	}
	v := newVault(t)
	const files = 900 // three batches
	for i := range files {
		write(t, v, fmt.Sprintf("memory/m%04d.md", i), memory("fact", "stated", "2026-01-02", fmt.Sprintf("common fact number %d about topic%d", i, i%7)))
	}
	mustUpdate(t, v, Options{Full: true})

	child := func(full bool) *exec.Cmd {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "MEM_INDEX_TEST_UPDATE="+v.Root)
		if full {
			cmd.Env = append(cmd.Env, "MEM_INDEX_TEST_FULL=1")
		}
		return cmd
	}
	// Kill points are drawn over the length of an unkilled child run.
	start := time.Now()
	if out, err := child(true).CombinedOutput(); err != nil {
		t.Fatalf("rebuild child: %v\n%s", err, out)
	}
	runTime := time.Since(start)
	for i := range iterations {
		full := i%2 == 0
		// Change the vault so the killed run has real work to do: a new
		// marker file each time, and for incremental runs a third of the
		// files rewritten.
		write(t, v, fmt.Sprintf("memory/marker%d.md", i), memory("fact", "stated", "2026-01-02", fmt.Sprintf("common marker%d", i)))
		if !full {
			for j := i % 3; j < files; j += 3 {
				write(t, v, fmt.Sprintf("memory/m%04d.md", j), memory("fact", "stated", "2026-01-02", fmt.Sprintf("common fact number %d revised %d", j, i)))
			}
		}
		cmd := child(full)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		delay := time.Duration(rand.Int64N(int64(runTime)))
		time.Sleep(delay) // a kill at a random point of the run is the test
		cmd.Process.Kill()
		err := cmd.Wait()
		t.Logf("iteration %d: %s run killed after %v (exit: %v)", i, map[bool]string{true: "full", false: "incremental"}[full], delay, err)

		var msgs []string
		res, err := Search(context.Background(), v, Query{Text: "common", Limit: 10000, Notify: func(m string) { msgs = append(msgs, m) }})
		if err != nil {
			t.Fatalf("iteration %d: search after kill: %v", i, err)
		}
		if want := files + i + 1; len(res.Hits) != want || !res.Index.Fresh {
			t.Fatalf("iteration %d: %d hits (fresh %v), want %d; messages %q", i, len(res.Hits), res.Index.Fresh, want, msgs)
		}
		if got := paths(t, v, Query{Text: fmt.Sprintf("marker%d", i)}); len(got) != 1 {
			t.Fatalf("iteration %d: marker search found %v", i, got)
		}
		if !full {
			if got := paths(t, v, Query{Text: fmt.Sprintf(`"revised %d"`, i), Limit: 10000}); len(got) != files/3 {
				t.Fatalf("iteration %d: %d revised files found, want %d", i, len(got), files/3)
			}
		}
		if len(msgs) > 0 {
			t.Logf("iteration %d: %q", i, msgs)
		}
	}
	// Every leftover of the killed builds is swept by the next writer.
	entries, _ := os.ReadDir(Dir(v))
	if len(entries) != 2 {
		t.Errorf("after the campaign .mem/index holds %d entries, want CURRENT and one generation", len(entries))
	}
}
