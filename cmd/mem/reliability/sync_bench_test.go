//go:build unix

package reliability

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSyncAgainstGitPull times issue 21's benchmark: a vault of
// MEM_SYNC_BENCH memories (unset: skipped; 10000 or 50000 for the figures
// in docs/sync.md) on two machines, 10 memories changed on each side, then
// `mem sync` on one against `git commit -a && git pull --no-rebase && git
// push` on a copy of the same machine with the same edits and the same
// remote state, in the same run, MEM_SYNC_BENCH_ROUNDS times (5) with
// the two interleaved. Reports the medians; no timed assertion.
func TestSyncAgainstGitPull(t *testing.T) {
	n := knob("MEM_SYNC_BENCH", 0, 0)
	if n == 0 {
		t.Skip("set MEM_SYNC_BENCH=10000 (or 50000) to time mem sync against git pull")
	}
	a := newVault(t)
	top := filepath.Dir(a.dir)
	a.seed(n)
	a.must("commit")
	remote := filepath.Join(top, "remote.git")
	a.must("sync", remote)
	b := &tv{t: t, dir: filepath.Join(top, "b"), home: a.home, env: a.env}
	a.git("clone", "-q", remote, b.dir)
	edit := func(dir string, from int, tag string) {
		for i := from; i < from+10; i++ {
			p := filepath.Join(dir, "memory", fmt.Sprintf("seed-%04d.md", i))
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			os.WriteFile(p, append(data, []byte("edited on "+tag+"\n")...), 0o644)
		}
	}
	rounds := knob("MEM_SYNC_BENCH_ROUNDS", 5, 5)
	var memT, gitT []time.Duration
	for round := range rounds {
		// b's 10 edits reach the remote; a then has 10 of its own.
		edit(b.dir, 20*round, "b")
		b.must("sync", remote)
		edit(a.dir, 5000+20*round, "a")
		// The baseline machine: a copy of a, and of the remote, so both
		// runs merge the same states.
		a2, remote2 := filepath.Join(top, fmt.Sprint("a2-", round)), filepath.Join(top, fmt.Sprint("remote2-", round, ".git"))
		a.git("-C", top, "clone", "-q", "--mirror", remote, remote2)
		if r := a.exec("cp", nil, "-a", a.dir, a2); r.code != 0 {
			t.Fatal(r.stderr)
		}
		a.git("-C", a2, "remote", "add", "bench", remote2)

		start := time.Now()
		a.must("sync")
		memT = append(memT, time.Since(start))
		start = time.Now()
		a.git("-C", a2, "commit", "-qam", "edits")
		a.git("-C", a2, "pull", "-q", "--no-rebase", "--no-edit", "bench", "master")
		a.git("-C", a2, "push", "-q", "bench", "master")
		gitT = append(gitT, time.Since(start))
		if got, want := a.git("-C", a.dir, "rev-parse", "HEAD^{tree}"), a.git("-C", a2, "rev-parse", "HEAD^{tree}"); got != want {
			t.Errorf("round %d: mem sync and git pull merged to different trees: %s vs %s", round, got, want)
		}
		os.RemoveAll(a2)
		os.RemoveAll(remote2)
	}
	median := func(d []time.Duration) time.Duration {
		slices.Sort(d)
		return d[len(d)/2]
	}
	t.Logf("%d memories, 10 changed each side, median of %d rounds: mem sync %v; git commit -a && pull --no-rebase && push %v (ratio %.2f); all mem %v, all git %v",
		n, rounds, median(memT).Round(time.Millisecond), median(gitT).Round(time.Millisecond), float64(median(memT))/float64(median(gitT)), memT, gitT)
}

// TestSyncWideCommit times issue 41's wide commit: one remote commit
// adding MEM_SYNC_WIDE memories (unset: skipped; 10000 and 100000 for the
// figures in docs/performance.md), built with git fast-import, then `mem
// sync` of a vault of 20 memories against `git pull` of the same commit
// into a copy of the same vault, MEM_SYNC_BENCH_ROUNDS times (3),
// interleaved. MEM_BIN_REF names a second mem binary (another build) that
// syncs its own copy in each round, first in every other round. Reports
// the medians of wall and CPU time (user and system, the process's and its
// children's, so git fetch's too) and the load average at the start and
// end; no timed assertion.
func TestSyncWideCommit(t *testing.T) {
	n := knob("MEM_SYNC_WIDE", 0, 0)
	if n == 0 {
		t.Skip("set MEM_SYNC_WIDE=10000 (or 100000) to time a sync of one wide commit against git pull")
	}
	a := newVault(t)
	top := filepath.Dir(a.dir)
	a.seed(20)
	remote := filepath.Join(top, "remote.git")
	a.must("sync", remote)
	head := strings.TrimSpace(a.git("-C", a.dir, "rev-parse", "HEAD"))
	var stream bytes.Buffer
	fmt.Fprintf(&stream, "commit refs/heads/master\ncommitter wide <w@example.com> 1764000000 +0000\ndata 12\nadd memories\nfrom %s\n", head)
	for i := range n {
		body := fmt.Sprintf("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\nimportance: %d\n---\nWide fact number %d mentions widetok%d.\n", i%10+1, i, i)
		fmt.Fprintf(&stream, "M 100644 inline memory/wide/w-%06d.md\ndata %d\n%s\n", i, len(body), body)
	}
	type timing struct{ wall, cpu time.Duration }
	// A wide commit outlasts the tests' watchdog: these run unbounded.
	run := func(stdin []byte, dir, bin string, args ...string) timing {
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, a.env
		if stdin != nil {
			cmd.Stdin = bytes.NewReader(stdin)
		}
		start := time.Now()
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
		}
		return timing{time.Since(start), cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()}
	}
	loadavg := func() string {
		b, _ := os.ReadFile("/proc/loadavg")
		return strings.Join(strings.Fields(string(b))[:min(3, len(strings.Fields(string(b))))], " ")
	}
	run(stream.Bytes(), top, "git", "--git-dir", remote, "fast-import", "--quiet")
	rounds := knob("MEM_SYNC_BENCH_ROUNDS", 3, 3)
	ref := os.Getenv("MEM_BIN_REF")
	runs := map[string][]timing{}
	t.Logf("load average at the start: %s", loadavg())
	for round := range rounds {
		bins := []string{memBin}
		if ref != "" {
			bins = append(bins, ref)
			if round%2 == 1 {
				bins[0], bins[1] = bins[1], bins[0]
			}
		}
		g := filepath.Join(top, fmt.Sprint("g-", round))
		var dirs []string
		for i, bin := range bins {
			m := filepath.Join(top, fmt.Sprint("m-", round, "-", i))
			for _, dir := range []string{m, g} {
				if _, err := os.Stat(dir); err == nil {
					continue
				}
				if r := a.exec("cp", nil, "-a", a.dir, dir); r.code != 0 {
					t.Fatal(r.stderr)
				}
			}
			runs[bin] = append(runs[bin], run(nil, m, bin, "sync"))
			dirs = append(dirs, m)
		}
		runs["git"] = append(runs["git"], run(nil, g, "git", "pull", "-q", "--no-rebase", "--no-edit", remote, "master"))
		want := a.git("-C", g, "rev-parse", "HEAD^{tree}")
		for _, m := range dirs {
			if got := a.git("-C", m, "rev-parse", "HEAD^{tree}"); got != want {
				t.Errorf("round %d: mem sync (%s) and git pull ended at different trees: %s vs %s", round, m, got, want)
			}
			os.RemoveAll(m)
		}
		os.RemoveAll(g)
	}
	median := func(ts []timing, cpu bool) time.Duration {
		d := make([]time.Duration, len(ts))
		for i, x := range ts {
			d[i] = x.wall
			if cpu {
				d[i] = x.cpu
			}
		}
		slices.Sort(d)
		return d[len(d)/2].Round(time.Millisecond)
	}
	for _, name := range []string{memBin, ref, "git"} {
		if ts := runs[name]; len(ts) > 0 {
			t.Logf("%s: median wall %v, CPU %v (ratio to git pull: wall %.2f, CPU %.2f); all %v",
				name, median(ts, false), median(ts, true), float64(median(ts, false))/float64(median(runs["git"], false)), float64(median(ts, true))/float64(median(runs["git"], true)), ts)
		}
	}
	t.Logf("one commit adding %d memories to a vault of 20, %d rounds; load average at the end: %s", n, rounds, loadavg())
}
