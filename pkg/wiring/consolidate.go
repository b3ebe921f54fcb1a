package wiring

import (
	"time"

	"github.com/mem-md/mem/pkg/consolidate"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
)

// CommitPaths is the commit a consolidate batch and its undo make:
// history.CommitPaths of the batch's files alone, as mem commit's author
// at now, run with env.
func CommitPaths(v *vault.Vault, now time.Time, env history.Env) consolidate.Commit {
	return func(paths []string, subject string) (string, error) {
		return history.CommitPaths(v, paths, subject, now, env)
	}
}
