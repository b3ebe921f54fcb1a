package history

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestBackupNewExistingTampered(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for i := range 8 {
		memory(t, v, fmt.Sprintf("memory/m%d.md", i), "fact", "", fmt.Sprint("memory ", i))
	}
	commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "backup.git")

	// To a new path: created bare, pushed, read back, recorded.
	res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Created || !res.Pushed || !res.Verified() {
		t.Fatalf("first backup: %+v", res)
	}
	if res.Vault != res.Backup || res.Backup.Files != 11 || res.Backup.Memories != 8 || res.Backup.Commits != 1 {
		t.Fatalf("counts: vault %+v backup %+v", res.Vault, res.Backup)
	}
	if got := run(t, dest, "git", "rev-parse", "--is-bare-repository"); got != "true" {
		t.Fatal("backup is not bare")
	}
	run(t, dest, "git", "fsck", "--strict", "--no-progress")
	rec, err := LastBackup(v)
	if err != nil || rec == nil || rec.Head != res.Vault.Head || rec.Target != dest || !rec.Time.Equal(clock(t)) {
		t.Fatalf("LastBackup = %+v, %v", rec, err)
	}

	// To the existing one, after another commit.
	memory(t, v, "memory/new.md", "lesson", "", "new")
	commit(t, v, CommitOptions{})
	res, err = Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)})
	if err != nil || res.Created || !res.Pushed || !res.Verified() || res.Backup.Commits != 2 || res.Backup.Memories != 9 {
		t.Fatalf("second backup: %+v %v", res, err)
	}
	// Up to date: nothing to push, still verified.
	if res, err = Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)}); err != nil || res.Pushed || !res.Verified() {
		t.Fatalf("up-to-date backup: %+v %v", res, err)
	}

	// A blob removed from the backup: verification names the file.
	blob := run(t, v.Root, "git", "rev-parse", "HEAD:memory/m3.md")
	obj := filepath.Join(dest, "objects", blob[:2], blob[2:])
	if err := os.Remove(obj); err != nil {
		t.Fatalf("tamper: %v (the backup should hold loose objects)", err)
	}
	res, err = Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verified() || !strings.Contains(strings.Join(res.Problems, "\n"), "file memory/m3.md (blob "+blob[:7]+") unreadable") {
		t.Fatalf("missing blob not reported: %q", res.Problems)
	}
	if rec, _ := LastBackup(v); rec.Commits != 2 || rec.Head != res.Vault.Head {
		t.Fatalf("a failed verification changed the record: %+v", rec)
	}
}

func TestBackupRefMoved(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	memory(t, v, "memory/b.md", "fact", "", "b")
	commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "b")
	if res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil || !res.Verified() {
		t.Fatalf("%+v %v", res, err)
	}
	// Moved back: --verify-only reports the head mismatch.
	run(t, dest, "git", "update-ref", "refs/heads/main", "main~1")
	res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, VerifyOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(res.Problems, "\n")
	if res.Verified() || !strings.Contains(joined, "head differs: vault main is at") || !strings.Contains(joined, "commits differ: vault 2, backup 1") {
		t.Fatalf("moved ref not reported: %q", res.Problems)
	}
	// A plain backup pushes the missing commit and verifies again.
	if res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil || !res.Pushed || !res.Verified() {
		t.Fatalf("repair by push: %+v %v", res, err)
	}
	// Moved to a commit the vault does not have: the push is refused clearly.
	tree := run(t, dest, "git", "rev-parse", "main^{tree}")
	foreign := run(t, dest, "git", "commit-tree", "-m", "foreign", tree)
	run(t, dest, "git", "update-ref", "refs/heads/main", foreign)
	_, err = Backup(v, BackupOptions{Env: testEnv(), To: dest})
	if err == nil || !strings.Contains(err.Error(), "the backup holds commits the vault does not") {
		t.Fatalf("diverged backup: err = %v", err)
	}
}

func TestBackupRefusesMemoryDrop(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for i := range 10 {
		memory(t, v, fmt.Sprintf("memory/m%d.md", i), "fact", "", fmt.Sprint(i))
	}
	commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "b")
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil {
		t.Fatal(err)
	}
	for i := range 5 {
		os.Remove(filepath.Join(v.Root, fmt.Sprintf("memory/m%d.md", i)))
	}
	commit(t, v, CommitOptions{AllowMassDelete: true})
	before := run(t, dest, "git", "rev-parse", "main")
	_, err := Backup(v, BackupOptions{Env: testEnv(), To: dest})
	var md *MassDeleteError
	if !errors.As(err, &md) || md.Removed != 5 || md.Of != 10 {
		t.Fatalf("err = %v, want a refusal of 5 of 10", err)
	}
	if after := run(t, dest, "git", "rev-parse", "main"); after != before {
		t.Fatal("the refused head was pushed")
	}
	if res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, AllowMassDelete: true}); err != nil || !res.Verified() || res.Backup.Memories != 5 {
		t.Fatalf("allowed: %+v %v", res, err)
	}
}

func TestBackupTargetErrors(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "run 'mem commit'") {
		t.Fatalf("backup before any commit: %v", err)
	}
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("backup into a plain folder: %v", err)
	}
	if _, err := Backup(v, BackupOptions{Env: testEnv()}); err == nil || !strings.Contains(err.Error(), "--to") {
		t.Fatalf("no target: %v", err)
	}
	// A configured git remote name resolves to its URL.
	dest := filepath.Join(t.TempDir(), "r.git")
	run(t, v.Root, "git", "init", "-q", "--bare", dest)
	run(t, v.Root, "git", "remote", "add", "vaultbackup", dest)
	if res, err := Backup(v, BackupOptions{Env: testEnv(), To: "vaultbackup"}); err != nil || !res.Verified() || res.URL != dest {
		t.Fatalf("remote name: %+v %v", res, err)
	}
}

// A backup killed while go-git rewrote a ref in the backup leaves it empty;
// the next backup must not fail on it for ever.
func TestBackupAfterATornRef(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	first := commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "backup.git")
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)}); err != nil {
		t.Fatal(err)
	}
	memory(t, v, "memory/b.md", "fact", "", "b")
	commit(t, v, CommitOptions{})
	ref := filepath.Join(dest, "refs", "heads", first.Branch)
	if err := os.WriteFile(ref, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)})
	if err != nil || !res.Pushed || !res.Verified() || res.Backup.Commits != 2 {
		t.Fatalf("backup after a torn ref: %+v %v", res, err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "an empty ref, left by a backup that was killed") {
		t.Fatalf("warnings: %q", res.Warnings)
	}
	run(t, dest, "git", "fsck", "--strict", "--no-progress")
}

// TestBackupWhileAnotherGitHoldsARefLock: a refs/heads/<branch>.lock that
// another git is writing (empty at first) is no ref; the backup goes on
// (go-git's References read it and failed with "ref file is empty").
func TestBackupWhileAnotherGitHoldsARefLock(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	res := commit(t, v, CommitOptions{})
	lock := filepath.Join(v.Root, ".git", "refs", "heads", res.Branch+".lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	dest := filepath.Join(t.TempDir(), "backup.git")
	b, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, Now: clock(t)})
	if err != nil || !b.Pushed || !b.Verified() {
		t.Fatalf("backup beside a ref lock: %+v %v", b, err)
	}
}
