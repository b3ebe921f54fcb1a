//go:build unix

package main

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/vault"
)

// interruptVaultSize is the generated vault of TestInterruptLongCommands:
// large enough that each command works for seconds on this 2-core machine,
// small enough to generate in the test. MEM_INTERRUPT_VAULT=40000 runs it
// at issue 38's size (docs/performance.md records that run).
func interruptVaultSize(t *testing.T) int {
	if s := os.Getenv("MEM_INTERRUPT_VAULT"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1000 {
			t.Fatalf("MEM_INTERRUPT_VAULT=%q: want a number of files, at least 1000", s)
		}
		return n
	}
	return 3000
}

// TestInterruptLongCommands sends SIGINT (Ctrl-C) to rebuild-index --full,
// import and sync once each is working on a generated vault: each exits 130
// within 2 s, says what it kept, and leaves the vault usable: the index in
// use answers, the imported files written are whole and the next import
// finishes the rest, the synced vault is as it was or completed and the
// next sync finishes.
func TestInterruptLongCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a vault of 3000 files")
	}
	t.Parallel()
	home := t.TempDir()
	env := append(os.Environ(), "HOME="+home, "MEM_VAULT=", "MEM_NOW=2026-11-29T12:00:00Z", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=mem test", "GIT_AUTHOR_EMAIL=test@example.com", "GIT_COMMITTER_NAME=mem test", "GIT_COMMITTER_EMAIL=test@example.com")
	run := func(t *testing.T, dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("mem", args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("mem %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	// interrupt starts mem, waits until working(pid) says it is under way,
	// sends SIGINT and returns the exit code, the time it took to exit and
	// stderr.
	interrupt := func(t *testing.T, dir string, working func(pid int) bool, args ...string) (int, time.Duration, string) {
		t.Helper()
		cmd := exec.Command("mem", args...)
		var stderr bytes.Buffer
		cmd.Dir, cmd.Env, cmd.Stderr = dir, env, &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(time.Minute); !working(cmd.Process.Pid) && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGINT)
		sent := time.Now()
		err := cmd.Wait()
		took := time.Since(sent)
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatal(err)
		}
		return cmd.ProcessState.ExitCode(), took, stderr.String()
	}
	check := func(t *testing.T, what string, code int, took time.Duration, stderr, kept string) {
		t.Helper()
		t.Logf("%s: exit %d %s after SIGINT: %s", what, code, took.Round(time.Millisecond), strings.TrimSpace(stderr))
		if code != 130 || took > 2*time.Second || !strings.Contains(stderr, kept) {
			t.Errorf("%s: exit %d after %s, stderr:\n%s\nwant exit 130 within 2s, saying %q", what, code, took, stderr, kept)
		}
	}

	dir := filepath.Join(t.TempDir(), "v")
	if _, err := benchgen.Write(dir, benchgen.Options{N: interruptVaultSize(t), Seed: 1}); err != nil {
		t.Fatal(err)
	}

	t.Run("rebuild-index", func(t *testing.T) {
		run(t, dir, "rebuild-index")
		gens := func() int {
			n := 0
			entries, _ := os.ReadDir(filepath.Join(dir, ".mem", "index"))
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "gen-") {
					n++
				}
			}
			return n
		}
		code, took, stderr := interrupt(t, dir, func(int) bool { return gens() > 1 }, "rebuild-index", "--full")
		check(t, "rebuild-index --full", code, took, stderr, "the new index was dropped; the index in use is kept as it was")
		if out := run(t, dir, "--json", "search", "--no-refresh", "--limit", "1", benchgen.QueryWord); !strings.Contains(out, `"path"`) {
			t.Errorf("the index in use does not answer after the interrupt:\n%s", out)
		}
	})

	t.Run("import", func(t *testing.T) {
		const items = 1500
		var src strings.Builder
		for i := range items {
			fmt.Fprintf(&src, "- Imported claim %d about the widget fleet\n", i)
		}
		p := filepath.Join(t.TempDir(), "MEMORY.md")
		if err := os.WriteFile(p, []byte(src.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		imported := func() int {
			entries, _ := os.ReadDir(filepath.Join(dir, "imports", "memory-md"))
			return len(entries)
		}
		code, took, stderr := interrupt(t, dir, func(int) bool { return imported() > 20 }, "import", "memory-md", p)
		check(t, "import", code, took, stderr, "files were written before it; run the import again to finish, it skips them")
		// What was written is whole: every file parses.
		v, err := vault.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		mems, err := v.Load(vault.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mems {
			if !m.OK() {
				t.Errorf("%s does not parse after the interrupt: %v", m.Rel, m.Err)
			}
		}
		written := imported()
		out := run(t, dir, "import", "memory-md", p)
		if want := fmt.Sprintf("%d already imported", written); written == 0 || written >= items || !strings.Contains(out, want) || imported() != items {
			t.Errorf("after an interrupt with %d files written, the next import says\n%s\nand leaves %d files; want %q and %d", written, out, imported(), want, items)
		}
	})

	t.Run("sync", func(t *testing.T) {
		top := t.TempDir()
		remote := filepath.Join(top, "remote.git")
		if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		run(t, dir, "sync", remote)
		// Another machine changes 500 memories and pushes.
		other := filepath.Join(top, "other")
		git := func(args ...string) {
			t.Helper()
			cmd := exec.Command("git", args...)
			cmd.Env = env
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
			}
		}
		git("clone", "-q", remote, other)
		files, _ := filepath.Glob(filepath.Join(other, "memory", "*.md"))
		files = files[:min(len(files), 500)]
		for _, f := range files {
			fh, err := os.OpenFile(f, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintln(fh, "\nA line the other machine added.")
			fh.Close()
		}
		git("-C", other, "commit", "-qam", "the other machine")
		git("-C", other, "push", "-q")
		head := func() string {
			out, _ := exec.Command("git", "-C", dir, "rev-parse", "HEAD").Output()
			return string(out)
		}
		before := head()
		v, err := vault.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		// Under way once it holds the sync lock.
		code, took, stderr := interrupt(t, dir, func(pid int) bool { return v.LockPID("sync") == pid }, "sync")
		check(t, "sync", code, took, stderr, "interrupted: ")
		switch {
		case strings.Contains(stderr, "no file was changed"):
			if head() != before {
				t.Errorf("the interrupt said no file was changed, but the branch moved")
			}
		case !strings.Contains(stderr, "the vault is complete"):
			t.Errorf("the interrupt says neither 'no file was changed' nor 'the vault is complete':\n%s", stderr)
		}
		run(t, dir, "sync")
		out, err := exec.Command("git", "-C", dir, "status", "--porcelain").CombinedOutput()
		if err != nil || len(out) > 0 {
			t.Errorf("after the next sync, git status: %v\n%s", err, out)
		}
		if data, err := os.ReadFile(strings.Replace(files[0], other, dir, 1)); err != nil || !strings.Contains(string(data), "the other machine added") {
			t.Errorf("after the next sync, the other machine's change is missing: %v\n%s", err, data)
		}
	})
}
