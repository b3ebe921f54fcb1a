package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestSyncAgainstGitPull times issue 21's benchmark: a vault of
// MEM_SYNC_BENCH memories (unset: skipped; 10000 or 50000 for the figures
// in docs/sync.md) on two machines, 10 memories changed on each side, then
// `mem sync` on one against `git commit -a && git pull --no-rebase && git
// push` on a copy of the same machine with the same edits and the same
// remote state, in the same run. Reports both; no timed assertion.
func TestSyncAgainstGitPull(t *testing.T) {
	n := knob("MEM_SYNC_BENCH", 0)
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
	// b's 10 edits reach the remote; a then has 10 of its own.
	edit(b.dir, 0, "b")
	b.must("sync", remote)
	edit(a.dir, 100, "a")
	// The baseline machine: a copy of a (and of the remote, so both runs
	// merge the same states).
	a2, remote2 := filepath.Join(top, "a2"), filepath.Join(top, "remote2.git")
	a.git("-C", top, "clone", "-q", "--mirror", remote, remote2)
	if r := a.exec("cp", nil, "-a", a.dir, a2); r.code != 0 {
		t.Fatal(r.stderr)
	}
	a.git("-C", a2, "remote", "add", "bench", remote2)
	a.git("-C", a2, "fetch", "-q", "bench") // warm, as mem sync's remote is known

	start := time.Now()
	out := a.must("sync")
	memTook := time.Since(start)
	start = time.Now()
	a.git("-C", a2, "commit", "-qam", "edits")
	commitTook := time.Since(start)
	a.git("-C", a2, "pull", "-q", "--no-rebase", "--no-edit", "bench", "master")
	a.git("-C", a2, "push", "-q", "bench", "master")
	gitTook := time.Since(start)
	t.Logf("%d memories, 10 changed each side: mem sync %v; git commit -a %v + pull --no-rebase + push = %v (ratio %.2f)\n%s",
		n, memTook.Round(time.Millisecond), commitTook.Round(time.Millisecond), gitTook.Round(time.Millisecond), float64(memTook)/float64(gitTook), out)
	if got, want := a.git("-C", a.dir, "rev-parse", "HEAD^{tree}"), a.git("-C", a2, "rev-parse", "HEAD^{tree}"); got != want {
		t.Errorf("mem sync and git pull merged to different trees: %s vs %s", got, want)
	}
}
