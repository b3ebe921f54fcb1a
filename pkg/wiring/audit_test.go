package wiring

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
)

var now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

func newVault(t *testing.T) *vault.Vault {
	t.Helper()
	root := t.TempDir()
	vaulttest.Write(t, root, vault.ConfigFile, "")
	vaulttest.Write(t, root, "projects/app.md", "---\ntype: project\nid: proj_app\ntitle: App\n---\nThe app.\n")
	vaulttest.Write(t, root, "memory/a.md", "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-01\n---\nAlpha is global.\n")
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// Outside git, with no index and no backup: each said as its part's
// problem, not an error.
func TestAuditStateNothingYet(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	s := AuditState(v, now)
	if s.Commit.Committed || !strings.Contains(s.Commit.Problem, "not inside a git repository") {
		t.Errorf("commit = %+v", s.Commit)
	}
	if s.Backup.Verified || !strings.Contains(s.Backup.Problem, "no backup yet") {
		t.Errorf("backup = %+v", s.Backup)
	}
	// No index: every file changed since a build that never was.
	if s.Index.Exists || s.Index.Changed != 2 || s.Index.Files != 2 || s.Index.Problem == "" {
		t.Errorf("index = %+v", s.Index)
	}
}

// The state commit, backup and the index leave, with its ages at now, as
// the audit reports it.
func TestAuditState(t *testing.T) {
	vaulttest.GitEnv(t)
	v := newVault(t)
	if out, err := exec.Command("git", "init", "-q", "-b", "main", v.Root).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	vaulttest.Write(t, v.Root, "memory/b.md", "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-28\n---\nBeta is durable.\n")
	if _, err := history.Commit(v, history.CommitOptions{Env: history.Env{Vars: os.Environ()}, Now: now.Add(-2 * time.Hour)}); err != nil {
		t.Fatal(err)
	}
	bk := filepath.Join(t.TempDir(), "bk")
	if res, err := history.Backup(v, history.BackupOptions{To: bk, Now: now.Add(-3 * time.Hour)}); err != nil || !res.Verified() {
		t.Fatalf("backup: %v %+v", err, res)
	}
	if _, err := index.Update(v, index.Options{}); err != nil {
		t.Fatal(err)
	}
	vaulttest.Write(t, v.Root, "memory/c.md", "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-29\n---\nGamma, not yet indexed.\n")

	s := AuditState(v, now)
	if !s.Commit.Committed || s.Commit.AgeHours != 2 || len(s.Commit.Hash) != 40 {
		t.Errorf("commit = %+v", s.Commit)
	}
	if !s.Backup.Verified || s.Backup.AgeHours != 3 || s.Backup.Behind || s.Backup.Head != s.Commit.Hash || s.Backup.Memories != 3 {
		t.Errorf("backup = %+v", s.Backup)
	}
	if !s.Index.Exists || s.Index.Changed != 1 || s.Index.Built == nil {
		t.Errorf("index = %+v", s.Index)
	}
	if len(s.Held) != 0 {
		t.Errorf("held = %v", s.Held)
	}

	// The report prints it: the backup counts markdown files, not
	// memories by type.
	r, err := audit.Run(v, audit.Options{Now: now, State: s})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	if err := audit.WriteText(&text, r); err != nil || !strings.Contains(text.String(), ", 3 of them markdown, holds the vault's HEAD)") {
		t.Errorf("backup line (%v):\n%s", err, text.String())
	}
	if r.Backup != s.Backup || r.Commit.Hash != s.Commit.Hash {
		t.Errorf("report state = %+v, read %+v", r.State, s)
	}

	// A commit after the backup: the backup no longer holds HEAD.
	vaulttest.Write(t, v.Root, "memory/d.md", "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-29\n---\nDelta.\n")
	if _, err := history.Commit(v, history.CommitOptions{Env: history.Env{Vars: os.Environ()}, Now: now.Add(-time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if s := AuditState(v, now); !s.Backup.Behind || s.Commit.AgeHours != 1 {
		t.Errorf("after a commit: commit %+v, backup %+v", s.Commit, s.Backup)
	}
}
