package history

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// TestBackupKillChild is the child of TestBackupKilledFirstBackup: it
// runs one backup and exits.
func TestBackupKillChild(t *testing.T) {
	root, dest := os.Getenv("MEM_TEST_KILL_VAULT"), os.Getenv("MEM_TEST_KILL_DEST")
	if root == "" {
		t.Skip("run by TestBackupKilledFirstBackup")
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil {
		t.Fatal(err)
	}
}

// A first backup killed at any moment leaves either nothing at the path or
// a whole backup, and the next backup there succeeds (issue 17 item 9: a
// kill left git's folders without a HEAD, refused for ever after).
func TestBackupKilledFirstBackup(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for i := range 300 {
		memory(t, v, fmt.Sprintf("memory/m%03d.md", i), "fact", "", fmt.Sprint("memory number ", i))
	}
	commit(t, v, CommitOptions{})
	parent := t.TempDir()
	for i := range 12 {
		dest := filepath.Join(parent, fmt.Sprintf("b%d.git", i))
		child := exec.Command(os.Args[0], "-test.run=^TestBackupKillChild$")
		child.Env = append(os.Environ(), "MEM_TEST_KILL_VAULT="+v.Root, "MEM_TEST_KILL_DEST="+dest)
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(i*i) * 3 * time.Millisecond) // from before it starts to after it ends
		child.Process.Kill()
		child.Wait()
		left, _ := filepath.Glob(filepath.Join(parent, ".*"))
		_, statErr := os.Stat(dest)
		t.Logf("kill %d: target present %v, temporary folders %d", i, statErr == nil, len(left))
		if _, err := os.Stat(dest); err == nil {
			if _, err := os.Stat(filepath.Join(dest, "HEAD")); err != nil {
				t.Fatalf("kill %d: %s exists without a HEAD", i, dest)
			}
		} else if !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
		res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest})
		if err != nil || !res.Verified() {
			t.Fatalf("kill %d: the next backup: %+v %v", i, res, err)
		}
	}
}
