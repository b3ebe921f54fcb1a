package history

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// What an interrupted first backup of an earlier mem left (issue 17 item
// 9): git's folders, no HEAD, no object, no ref. Every later backup there
// failed ("not a git repository"); now it is made again, with a warning.
func TestBackupOverAHalfMadeOne(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "b.git")
	for _, d := range []string{"objects/info", "objects/pack", "refs/heads", "refs/tags"} {
		os.MkdirAll(filepath.Join(dest, d), 0o755)
	}
	os.WriteFile(filepath.Join(dest, "config"), []byte("[core]\n\tbare = true\n"), 0o644)

	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, VerifyOnly: true}); err == nil || !strings.Contains(err.Error(), "never finished") {
		t.Fatalf("verify-only of a half-made backup: %v", err)
	}
	res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest})
	if err != nil || !res.Created || !res.Verified() {
		t.Fatalf("%+v %v", res, err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "never finished") {
		t.Fatalf("warnings: %q", res.Warnings)
	}
	run(t, dest, "git", "fsck", "--strict", "--no-progress")

	// A folder holding anything else is never taken for one.
	other := filepath.Join(t.TempDir(), "photos")
	os.MkdirAll(filepath.Join(other, "refs"), 0o755)
	os.WriteFile(filepath.Join(other, "refs", "holiday.jpg"), []byte("jpeg"), 0o644)
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: other}); err == nil || !strings.Contains(err.Error(), "not a git repository") {
		t.Fatalf("a folder with a file in refs/: %v", err)
	}
	if _, err := os.Stat(filepath.Join(other, "refs", "holiday.jpg")); err != nil {
		t.Fatal("the file was removed")
	}
}

// A target under a folder that does not exist (an unmounted drive) is
// refused, naming the folder, and nothing is created.
func TestBackupRefusesAMissingParent(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	mnt := filepath.Join(t.TempDir(), "mnt", "backup")
	_, err := Backup(v, BackupOptions{Env: testEnv(), To: filepath.Join(mnt, "memory.git")})
	if err == nil || !strings.Contains(err.Error(), "the folder "+mnt+" does not exist") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(filepath.Dir(mnt)); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a parent folder was created: %v", err)
	}
}

// Leftovers of a first backup killed before its rename are removed once
// they are older than any live backup can be.
func TestBackupRemovesAStaleNewFolder(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	parent := t.TempDir()
	left := filepath.Join(parent, ".b.git"+newBackupMark+"123")
	os.MkdirAll(filepath.Join(left, "objects"), 0o755)
	old := clock(t).Add(-3 * gitrepo.DefaultTimeout)
	os.Chtimes(left, old, old)
	res, err := Backup(v, BackupOptions{Env: testEnv(), To: filepath.Join(parent, "b.git")})
	if err != nil || !res.Verified() {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := os.Stat(left); !errors.Is(err, os.ErrNotExist) || len(res.Warnings) != 1 {
		t.Fatalf("leftover still there (%v), warnings %q", err, res.Warnings)
	}
}

// A path backup's hooks never run (issue 28): git runs the receiving end
// here, as this user, so a hook planted in the backup would run at every
// backup. One that would decline the push and leave a mark does neither.
func TestBackupRunsNoHookOfAPathBackup(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/a.md", "fact", "", "a")
	commit(t, v, CommitOptions{})
	dest := filepath.Join(t.TempDir(), "b.git")
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil {
		t.Fatal(err)
	}
	mark := filepath.Join(t.TempDir(), "ran")
	os.MkdirAll(filepath.Join(dest, "hooks"), 0o755)
	os.WriteFile(filepath.Join(dest, "hooks", "pre-receive"), []byte("#!/bin/sh\ntouch "+mark+"\nexit 1\n"), 0o755)
	memory(t, v, "memory/b.md", "fact", "", "b")
	commit(t, v, CommitOptions{})
	res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest})
	if err != nil || !res.Verified() || !res.Pushed {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := os.Stat(mark); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the backup's pre-receive hook ran (%v)", err)
	}
}
