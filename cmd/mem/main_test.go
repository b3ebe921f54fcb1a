package main

import (
	"context"
	"os"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the mem binary, so scripts run the
// real command in a fresh temp directory, the way users run it.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"mem": func() { os.Exit(run(context.Background(), os.Args, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs every testdata/script/*.txtar end to end.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
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
