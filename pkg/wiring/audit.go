package wiring

import (
	"context"
	"math"
	"time"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// Audit is `mem audit` at now (the command's, MCP's and the health page's):
// the views render.outputs names, the state AuditState reads, and lint's
// secrets cache, so a text a whole-vault lint or an earlier audit scanned
// is recalled, not scanned again (the scan of every file was most of an
// audit: 5.5 s of a 50,000-file vault), and the files it scans are kept
// for the next. ctx, when done, stops it (nil never does).
func Audit(ctx context.Context, v *vault.Vault, now time.Time) (*audit.Report, error) {
	views, err := render.Outputs(v)
	if err != nil {
		return nil, err
	}
	memo := lint.ReadSecrets(v)
	r, err := audit.Run(v, audit.Options{Now: now, Views: views, State: AuditState(v, now), Context: ctx, Secrets: memo})
	if err != nil {
		return nil, err
	}
	lint.SaveSecrets(v, memo)
	return r, nil
}

// AuditState reads for the audit what other commands leave behind: the
// index manifest, git's HEAD (no history walk), the held files and the
// backup record, with ages at now. A record that cannot be
// read is that part's Problem, not an error: the audit reports it.
func AuditState(v *vault.Vault, now time.Time) audit.State {
	var s audit.State
	st, err := index.Freshness(v)
	switch {
	case err != nil:
		s.Index.Problem = err.Error()
	default:
		s.Index = audit.Index{Exists: st.Exists, Changed: st.Changed, Files: st.Files, Problem: st.Reason}
		if !st.Built.IsZero() {
			t := st.Built.UTC()
			s.Index.Built = &t
		}
	}

	head := ""
	switch when, hash, ok, err := history.LastCommit(v); {
	case err != nil:
		s.Commit.Problem = err.Error()
	case !ok && hash != "":
		s.Commit.Problem = "mem has committed nothing here yet (the repository's last commit is from before mem.yaml): run 'mem commit'"
	case !ok:
		s.Commit.Problem = "nothing committed yet: run 'mem commit'"
	default:
		when = when.UTC()
		head = hash
		s.Commit = audit.Commit{Committed: true, Hash: hash, At: &when, AgeHours: hours(now.Sub(when))}
	}

	if held, err := history.Held(v); err != nil {
		s.Held = append(s.Held, err.Error())
	} else {
		for _, h := range held {
			s.Held = append(s.Held, h.String())
		}
	}

	rec, err := history.LastBackup(v)
	switch {
	case err != nil:
		s.Backup.Problem = err.Error()
	case rec == nil:
		s.Backup.Problem = "no backup yet (none verified): run 'mem backup --to DIR|REMOTE' (or set backup.to in mem.yaml)"
	default:
		at := rec.Time.UTC()
		s.Backup = audit.Backup{Verified: true, At: &at, AgeHours: hours(now.Sub(at)), Target: rec.Target, Head: rec.Head,
			Behind: head != "" && rec.Head != head, Files: rec.Files, Memories: rec.Memories}
	}
	return s
}

// hours is an age in hours to one decimal, as the report prints it.
func hours(d time.Duration) float64 { return math.Round(d.Hours()*10) / 10 }
