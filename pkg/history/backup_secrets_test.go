package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An AWS access key id (AKIA + 16 of A-Z2-7), built so the source holds
// no literal key.
var awsKey = "AKIA" + "QWERTYUIOPASDFGH"

// A secret committed with plain git (mem commit would leave the file out)
// must not reach the backup (spec §8): the push is refused naming commit,
// file, line and rule, never the key, and the backup's refs stay put.
func TestBackupRefusesCommitsAddingSecrets(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "b.git")
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil {
		t.Fatal(err)
	}
	before := run(t, dest, "git", "rev-parse", "main")

	os.WriteFile(filepath.Join(v.Root, "memory", "deploy.md"), []byte("---\ntype: fact\nprovenance: stated\n---\nThe deploy key is "+awsKey+".\n"), 0o644)
	run(t, v.Root, "git", "add", "memory/deploy.md")
	run(t, v.Root, "git", "commit", "-q", "-m", "deploy notes")
	bad := run(t, v.Root, "git", "rev-parse", "--short=7", "HEAD")
	memory(t, v, "memory/b.md", "fact", "", "b") // a later clean commit does not hide it
	commit(t, v, CommitOptions{})

	_, err := Backup(v, BackupOptions{Env: testEnv(), To: dest})
	var refused *RefusedError
	if !errors.As(err, &refused) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "commit "+bad+" adds memory/deploy.md:5: secret-aws-access-token") || strings.Contains(msg, awsKey) {
		t.Fatalf("refusal does not name commit, file, line and rule, or leaks the key: %s", msg)
	}
	if strings.Count(msg, " adds ") != 1 {
		t.Fatalf("the clean commit was reported too: %s", msg)
	}
	if after := run(t, dest, "git", "rev-parse", "main"); after != before {
		t.Fatal("the backup's ref moved")
	}
	// A new backup refuses too, and leaves nothing.
	fresh := filepath.Join(t.TempDir(), "new.git")
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: fresh}); !errors.As(err, &refused) {
		t.Fatalf("first backup: %v", err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("a refused first backup created the target")
	}

	// A key in a commit message is refused as well.
	run(t, v.Root, "git", "reset", "-q", "--hard", before)
	run(t, v.Root, "git", "commit", "-q", "--allow-empty", "-m", "rotate "+awsKey)
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); !errors.As(err, &refused) || !strings.Contains(err.Error(), "adds its message:1: secret-aws-access-token") {
		t.Fatalf("secret in a message: %v", err)
	}
}

// Only commits the backup lacks are scanned: a secret already in the
// backup (pushed by hand) does not block the next hourly backup for ever.
func TestBackupScansOnlyNewCommits(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	os.WriteFile(filepath.Join(v.Root, "memory", "old.md"), []byte("key "+awsKey+"\n"), 0o644)
	run(t, v.Root, "git", "add", "-A")
	run(t, v.Root, "git", "commit", "-q", "-m", "old")
	dest := filepath.Join(t.TempDir(), "b.git")
	run(t, v.Root, "git", "init", "-q", "--bare", dest)
	run(t, v.Root, "git", "push", "-q", dest, "main")
	memory(t, v, "memory/new.md", "fact", "", "new")
	commit(t, v, CommitOptions{})
	if res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil || !res.Verified() {
		t.Fatalf("%+v %v", res, err)
	}
}
