package inspect

import (
	"slices"

	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
)

// Sync is history.Sync that also says which rival claims the sync brought
// together: two claims that supersede one claim, one from each side, meet
// only in the files, and the reconciler decides them on every machine, so
// each machine says so when a sync brings the pair together. mem sync and
// the daemon's timed sync both run it.
func Sync(v *vault.Vault, opts history.SyncOptions) (*history.SyncResult, error) {
	before := rivals(v, opts)
	res, err := history.Sync(v, opts)
	if err != nil || res.DryRun || res.In == (history.SyncCounts{}) {
		return res, err
	}
	for _, r := range rivals(v, opts) {
		if !slices.Contains(before, r) {
			res.Decisions = append(res.Decisions, "reconciled: "+r)
		}
	}
	return res, nil
}

// rivals is the reconciler's verdicts on rival claims in v; a vault that
// does not load has none to say (the sync itself reports why).
func rivals(v *vault.Vault, opts history.SyncOptions) []string {
	x, err := Load(v, opts.Now, opts.Env)
	if err != nil {
		return nil
	}
	return x.Rivals()
}
