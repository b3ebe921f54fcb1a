//go:build unix

package reliability

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// crashCmd is one command the crash test kills, and what a finished run of
// it leaves that the next checks must find.
type crashCmd struct {
	name string
	args func(trial int) []string
}

var crashCmds = []crashCmd{
	{"rebuild-index", func(int) []string { return []string{"rebuild-index", "--full"} }},
	{"render", func(int) []string { return []string{"render", "-o", "MEMORY.md"} }},
	{"remember", func(n int) []string {
		return []string{"remember", fmt.Sprintf("Killed writer %d mentions killtok%d.", n, n)}
	}},
	{"commit", func(int) []string { return []string{"commit"} }},
	{"backup", func(int) []string { return []string{"backup", "--to", "../bk"} }},
}

// TestCrash SIGKILLs each command at a random moment of its run, then
// checks everything a user relies on: every file parses, MEMORY.md is the
// old or the new render, search answers correctly, git is sound and the
// next commit and backup succeed, no temp file is read as a memory; at the
// end `mem doctor --fix` clears the temp files the kills left.
func TestCrash(t *testing.T) {
	t.Parallel()
	trials := knob("MEM_CRASH_TRIALS", 2, 8) // per command
	seeds := knob("MEM_CRASH_SEEDS", 100, 300)
	v := newVault(t)
	base := len(v.load())
	v.seed(seeds)
	v.must("commit", "-q")
	v.must("backup", "-q", "--to", "../bk")
	v.must("render", "-q", "-o", "MEMORY.md")

	// How long each command takes unkilled, so kills land inside the run.
	took := map[string]time.Duration{}
	for _, c := range crashCmds {
		start := time.Now()
		v.must(append(c.args(-1), "-q")...)
		took[c.name] = time.Since(start)
	}
	t.Logf("unkilled run times: %v", took)

	rng := seeded(t)
	writes := 1 // the unkilled remember above
	var kills, temps, staleLocks, locksByHand int
	for trial := range trials * len(crashCmds) {
		c := crashCmds[trial%len(crashCmds)]
		// A fresh memory before every kill, so render, index, commit and
		// backup all have work to do when they die.
		token := fmt.Sprintf("crashtok%d", trial)
		id := strings.TrimSpace(v.must("remember", "-q", fmt.Sprintf("Crash trial %d mentions %s.", trial, token)))
		writes++
		before, _ := os.ReadFile(filepath.Join(v.dir, "MEMORY.md"))

		delay := time.Duration(rng.Int64N(int64(took[c.name])*11/10 + 1))
		killed := v.killAfter(delay, c.args(trial)...)
		if killed {
			kills++
		}
		where := fmt.Sprintf("trial %d: %s killed after %s (killed: %v)", trial, c.name, delay, killed)

		v.checkFiles(where)
		v.checkView(where, before)
		if ids, err := v.searchIDs(token, 5); err != nil || !slices.Equal(ids, []string{id}) {
			t.Fatalf("%s: search %s: got %v, %v; want [%s]", where, token, ids, err, id)
		}
		if c.name == "remember" {
			// The killed writer's memory is whole or absent, never half.
			if ids, err := v.searchIDs(fmt.Sprintf("killtok%d", trial), 5); err != nil || len(ids) > 1 {
				t.Fatalf("%s: search killtok%d: %v, %v", where, trial, ids, err)
			} else if len(ids) == 1 {
				writes++
			}
		}
		if ids, err := v.searchIDs("lighthouse", seeds+10); err != nil || len(ids) != seeds {
			t.Fatalf("%s: search lighthouse: %d hits (%v), want %d", where, len(ids), err, seeds)
		}
		v.git("fsck", "--no-progress", "--no-dangling")
		r := v.run(nil, "commit")
		if r.code != 0 {
			t.Fatalf("%s: the next commit failed: exit %d: %s", where, r.code, r.stderr)
		}
		// A commit killed while holding one of git's lock files (index.lock,
		// refs/heads/<branch>.lock) leaves it; the next commit removes the
		// locks mem recorded (pkg/history/stalelock.go). Only a kill in the
		// instant between creating a lock and recording it leaves one the
		// next commit skips on; that must never be silent: doctor names it,
		// --fix removes it when mem's pid line proves it stale, and a person
		// removes the rest as doctor says.
		for range 3 {
			m := skippedLock.FindStringSubmatch(r.stderr)
			if m == nil {
				break
			}
			staleLocks++
			t.Logf("%s: the next commit skipped on %s", where, m[1])
			if v.clearStaleLock(where, m[1]) {
				locksByHand++
			}
			if r = v.run(nil, "commit"); r.code != 0 {
				t.Fatalf("%s: the commit after clearing %s: exit %d: %s", where, m[1], r.code, r.stderr)
			}
		}
		if st := v.uncommitted(); st != "" {
			t.Fatalf("%s: the next commit left changes uncommitted:\n%s\n(mem commit said: %s)", where, st, v.run(nil, "commit").stderr)
		}
		if c.name == "backup" {
			if r := v.run(nil, "backup", "--to", "../bk"); r.code != 0 {
				t.Fatalf("%s: the next backup failed: exit %d: %s%s", where, r.code, r.stdout, r.stderr)
			}
		}
		temps += len(v.tempFiles())
	}

	// Every file mem left behind: none is a memory, and doctor --fix
	// removes them once they are old enough to be nobody's.
	left := v.tempFiles()
	old := time.Now().Add(-2 * time.Minute)
	for _, p := range left {
		os.Chtimes(p, old, old)
	}
	r := v.run(nil, "doctor", "--fix")
	if r.code != 0 {
		t.Fatalf("mem doctor --fix after %d kills: exit %d\n%s%s", kills, r.code, r.stdout, r.stderr)
	}
	if rest := v.tempFiles(); len(rest) > 0 {
		t.Fatalf("temp files after doctor --fix: %v", rest)
	}
	n := len(v.load())
	want := base + seeds + writes
	if n != want {
		t.Fatalf("%d files in the vault, want %d (seeds %d + writes %d)", n, want, seeds, writes)
	}
	figures(t, "crash", "trials", trials*len(crashCmds), "kills", kills, "writes", writes, "temps_left", len(left), "stale_git_locks", staleLocks, "locks_removed_by_hand", locksByHand, "losses", want-n)
}

// killAfter starts mem with args and SIGKILLs it after delay; it reports
// whether the kill landed (the process had not finished yet).
func (v *tv) killAfter(delay time.Duration, args ...string) bool {
	v.t.Helper()
	cmd := exec.Command(memBin, append([]string{"--vault", v.dir}, args...)...)
	cmd.Dir, cmd.Env = v.dir, v.env
	if err := cmd.Start(); err != nil {
		v.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			v.t.Fatalf("mem %s (unkilled): %v", strings.Join(args, " "), err)
		}
		return false
	case <-time.After(delay):
	}
	cmd.Process.Signal(syscall.SIGKILL)
	select {
	case err := <-done:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
				return true
			}
		}
		if err != nil {
			v.t.Fatalf("mem %s: %v", strings.Join(args, " "), err)
		}
		return false // finished just before the signal
	case <-time.After(execTimeout):
		v.t.Fatalf("mem %s did not die after SIGKILL", strings.Join(args, " "))
		return false
	}
}

// checkFiles: every memory file parses, and no temp file is among them.
func (v *tv) checkFiles(where string) {
	v.t.Helper()
	for _, m := range v.load() {
		if !m.OK() {
			v.t.Fatalf("%s: %s does not parse: %v", where, m.Rel, m.Err)
		}
		if strings.HasPrefix(filepath.Base(m.Rel), vault.TempPrefix) {
			v.t.Fatalf("%s: temp file %s read as a memory", where, m.Rel)
		}
	}
}

// checkView: MEMORY.md is the render from before the kill or the render of
// now (MEM_NOW is pinned, so renders are byte-identical), never anything
// else.
func (v *tv) checkView(where string, before []byte) {
	v.t.Helper()
	got, err := os.ReadFile(filepath.Join(v.dir, "MEMORY.md"))
	if err != nil {
		v.t.Fatalf("%s: %v", where, err)
	}
	now := v.must("render")
	if len(got) == 0 || string(got) != string(before) && string(got) != now {
		v.t.Fatalf("%s: MEMORY.md is neither the old nor the new render (%d bytes; old %d, new %d)", where, len(got), len(before), len(now))
	}
}

// tempFiles lists mem's temp files anywhere under the vault but .git.
func (v *tv) tempFiles() []string {
	var out []string
	filepath.WalkDir(v.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if strings.HasPrefix(d.Name(), vault.TempPrefix) {
			out = append(out, p)
			if strings.HasSuffix(d.Name(), ".md") {
				v.t.Errorf("temp file %s ends in .md: a reader would take it for a memory", p)
			}
		}
		return nil
	})
	return out
}

// uncommitted is `git status` less mem's temp files: mem commit never
// commits those (they are litter, not memories).
func (v *tv) uncommitted() string {
	v.t.Helper()
	var out []string
	for _, l := range strings.Split(v.git("status", "--porcelain", "--untracked-files=all"), "\n") {
		if l != "" && !strings.HasPrefix(filepath.Base(l), vault.TempPrefix) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// skippedLock finds the lock file a skipped commit names.
var skippedLock = regexp.MustCompile(`skipped: (\S+\.lock) exists`)

// clearStaleLock does what a person does after a skipped commit:
// mem doctor must name the lock (once it is old enough to be nobody's),
// --fix removes it when it is provably mem's, and otherwise the person
// removes it as doctor says (byHand).
func (v *tv) clearStaleLock(where, lock string) (byHand bool) {
	v.t.Helper()
	old := time.Now().Add(-2 * time.Minute)
	os.Chtimes(lock, old, old)
	r := v.run(nil, "doctor")
	if r.code != 1 || !strings.Contains(r.stdout, lock) {
		v.t.Fatalf("%s: mem doctor does not report the stale %s: exit %d\n%s", where, lock, r.code, r.stdout)
	}
	v.run(nil, "doctor", "--fix")
	if _, err := os.Stat(lock); err == nil {
		os.Remove(lock)
		return true
	}
	return false
}
