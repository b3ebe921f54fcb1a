package main

import (
	"errors"
	"fmt"
	"testing"

	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/importer"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// Every domain error a command can return maps to the exit code spec §4
// gives its kind, however deeply it is wrapped.
func TestExitCodeTable(t *testing.T) {
	for _, c := range []struct {
		err  error
		want int
	}{
		{&writer.Refusal{Rule: "secret-aws-access-token", Msg: "refused"}, 1},
		{&gate.RefusedError{Msg: "not enough signals"}, 1},
		{&gate.SupersessionError{Msg: "weaker"}, 1},
		{&history.MassDeleteError{Removed: 30, Of: 100}, 1},
		{&history.RefusedError{Msg: "a secret in commit abc"}, 1},
		{&history.SkipError{Reason: "git is busy"}, 0},
		{&render.BudgetError{Budget: 10, Min: 100}, 2},
		{&render.StrictError{Skipped: 2}, 1},
		{&index.QueryError{Err: errors.New("bad")}, 2},
		{&vault.LockedError{Path: "x.lock", PID: 7}, 2},
		{&history.BackupError{Msg: "disk full"}, 2},
		{vault.ErrNoVault, 2},
		{vault.ErrConflict, 1},
		{fmt.Errorf("x: %w", vault.ErrNotFound), 2},
		{vault.ErrAmbiguous, 2},
		{&writer.EditError{Problems: []string{"x:1:1: error"}}, 1},
		{importer.ErrUnknownKind("nope"), 2},
		{checkFailed("lint errors"), 1},
		{usagef("bad flag"), 2},
		{errors.New("unreadable file"), 2},
	} {
		wrapped := fmt.Errorf("mem: %w", c.err)
		if got := exitCode(wrapped); got != c.want {
			t.Errorf("%T (%v): exit %d, want %d", c.err, c.err, got, c.want)
		}
	}
}
