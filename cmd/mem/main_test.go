package main

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/mem-md/mem/internal/vaulttest"
)

// TestMain lets the test binary act as the mem binary, so scripts run the
// real command in a fresh temp directory, the way users run it; the tests
// run twice as many at once as there are CPUs (vaulttest.ProcessTests).
func TestMain(m *testing.M) {
	testscript.Main(vaulttest.ProcessTests{M: m}, map[string]func(){
		"mem": func() {
			putOffFirstGC()
			os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs every testdata/script/*.txtar end to end.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"exits": exits},
		Setup: func(env *testscript.Env) error {
			env.Setenv("MEM_NOW", "2026-11-29T12:00:00Z")
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("GIT_AUTHOR_NAME", "mem test")
			env.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
			env.Setenv("GIT_COMMITTER_NAME", "mem test")
			env.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
			return nil
		},
	})
}

// soak is MEM_SOAK=1: the long soaks (TestConcurrentRemember,
// TestWatchKillSoak) at their full sizes, as .ci/run's soak stage runs
// them. Without it they run short, so `go test ./...` passes on a busy
// 2-core machine within Go's default timeout (docs/performance.md).
func soak() bool { return os.Getenv("MEM_SOAK") != "" }

// exits runs a command and asserts its exit code, so a failure case says
// which failure it is (spec §4: 1 a failed check, 2 usage or environment):
//
//	exits 2 mem lint --bogus
//
// Its stdout and stderr are kept for the assertions that follow.
func exits(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exits CODE COMMAND [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: %q is not an exit code", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) {
			ts.Fatalf("exits: %v", err)
		}
		got = exitErr.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited %d, want %d", args[1], got, want)
	}
}
