package history

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// TestPerfAgainstGit measures mem commit against `git add -A && git commit`
// on two identical generated vaults: the first commit of the whole vault,
// then five hourly commits of 10 changed files against git add of those
// files and git commit (git told which files changed) and against git add
// -A and git commit of 10 other changed files (git finding them, as mem
// must: what shelling out to git would cost). It is slow, so it runs only
// with MEM_PERF_N set (e.g. MEM_PERF_N=50000); figures in docs/history.md.
// MEM_PERF_PROFILE=FILE writes a CPU profile of the 10-file rounds alone
// (mem's and git's: git's time shows as waiting on its processes).
func TestPerfAgainstGit(t *testing.T) {
	n := 0
	fmt.Sscan(os.Getenv("MEM_PERF_N"), &n)
	if n == 0 {
		t.Skip("set MEM_PERF_N=50000 to measure")
	}
	vaulttest.GitEnv(t)
	mk := func() *vault.Vault {
		dir := t.TempDir()
		if _, err := benchgen.Write(dir, benchgen.Options{N: n, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		run(t, dir, "git", "init", "-q", "-b", "main")
		// No detached auto-gc: it would skew the figures and race the cleanup.
		run(t, dir, "git", "config", "gc.auto", "0")
		if _, err := vault.Init(dir, nil); err != nil {
			t.Fatal(err)
		}
		v, err := vault.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	mv, gv := mk(), mk()

	timeGit := func() time.Duration {
		start := time.Now()
		run(t, gv.Root, "sh", "-c", "git add -A && git commit -q -m x")
		return time.Since(start)
	}
	timeMem := func() (time.Duration, *CommitResult) {
		start := time.Now()
		res, err := Commit(mv, CommitOptions{Env: testEnv(), Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		return time.Since(start), res
	}
	m1, res := timeMem()
	g1 := timeGit()
	t.Logf("first commit of %d files: mem %v (read %d), git %v", res.Files, m1, res.Read, g1)
	m0, res := timeMem()
	t.Logf("no change: mem %v (read %d, commit %q)", m0, res.Read, res.Commit)
	rels, err := mv.List()
	if err != nil {
		t.Fatal(err)
	}
	// Five rounds of 10 edited files each, mem and git alternating so a
	// busy machine slows all three; the medians are what docs/history.md
	// quotes.
	var mems, gits, gitAlls []time.Duration
	if p := os.Getenv("MEM_PERF_PROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
	}
	edit := func(round, offset int, roots ...string) []string {
		var edited []string
		for i := range 10 {
			rel := rels[(i*len(rels)/10+round*7+offset)%len(rels)]
			edited = append(edited, rel)
			for _, root := range roots {
				p := filepath.Join(root, filepath.FromSlash(rel))
				f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
				if err != nil {
					t.Fatal(err)
				}
				fmt.Fprintf(f, "edited %d %d\n", round, i)
				f.Close()
			}
		}
		return edited
	}
	for round := range 5 {
		// Make sure the edited files' mtimes differ from the index's.
		stampedAfter(t, filepath.Join(mv.Root, ".git", "index"), filepath.Join(gv.Root, ".git", "index"))
		edited := edit(round, 0, mv.Root, gv.Root)
		m2, res := timeMem()
		// The reference of issue 12 (and docs/performance.md): git add of
		// the changed files, then git commit.
		start := time.Now()
		run(t, gv.Root, append([]string{"git", "add", "--"}, edited...)...)
		run(t, gv.Root, "git", "commit", "-q", "-m", "x")
		g2 := time.Since(start)
		stampedAfter(t, filepath.Join(gv.Root, ".git", "index"))
		edit(round, 3, gv.Root)
		g3 := timeGit()
		t.Logf("10 changed files: mem %v (read %d, %s), git add FILES %v, git add -A %v", m2, res.Read, res.Subject, g2, g3)
		mems, gits, gitAlls = append(mems, m2), append(gits, g2), append(gitAlls, g3)
	}
	pprof.StopCPUProfile() // a no-op without a profile
	for _, d := range [][]time.Duration{mems, gits, gitAlls} {
		slices.Sort(d)
	}
	m, g, ga := mems[2], gits[2], gitAlls[2]
	t.Logf("10 changed files, medians: mem %v, git add FILES %v (%.2fx), git add -A %v (%.2fx)", m, g, float64(m)/float64(g), ga, float64(m)/float64(ga))
	if out, err := exec.Command("git", "-C", mv.Root, "fsck", "--no-progress").CombinedOutput(); err != nil {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
	if st := run(t, mv.Root, "git", "status", "--porcelain"); st != "" {
		t.Fatalf("status not clean: %.500s", st)
	}
}
