package history

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// looseObject is the path of object h in a bare repository's loose store.
func looseObject(t *testing.T, repo, h string) string {
	t.Helper()
	p := filepath.Join(repo, "objects", h[:2], h[2:])
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("object %s is not loose in %s: %v", h, repo, err)
	}
	return p
}

// A blob or tree that only an older commit uses, removed from the backup,
// must fail verification (issue 17 item 5): reading head alone missed it.
func TestBackupVerifyReadsHistory(t *testing.T) {
	t.Parallel()
	for _, what := range []string{"blob", "tree"} {
		t.Run(what, func(t *testing.T) {
			v := newVault(t, "")
			memory(t, v, "memory/keep.md", "fact", "", "kept")
			memory(t, v, "memory/old/gone.md", "fact", "", "removed later")
			commit(t, v, CommitOptions{})
			old := run(t, v.Root, "git", "rev-parse", "HEAD:memory/old/gone.md")
			if what == "tree" {
				old = run(t, v.Root, "git", "rev-parse", "HEAD:memory/old")
			}
			os.RemoveAll(filepath.Join(v.Root, "memory", "old"))
			commit(t, v, CommitOptions{})
			dest := filepath.Join(t.TempDir(), "b.git")
			if res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest}); err != nil || !res.Verified() {
				t.Fatalf("%+v %v", res, err)
			}
			if err := os.Remove(looseOrRepack(t, dest, old)); err != nil {
				t.Fatal(err)
			}
			for _, verifyOnly := range []bool{false, true} {
				res, err := Backup(v, BackupOptions{Env: testEnv(), To: dest, VerifyOnly: verifyOnly})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verified() || !strings.Contains(strings.Join(res.Problems, "\n"), "missing "+what+" "+old) {
					t.Fatalf("verify-only=%v: an old %s missing from the backup was not reported: %q", verifyOnly, what, res.Problems)
				}
			}
		})
	}
}

// looseOrRepack makes object h loose in repo (unpacking every pack) and
// returns its path.
func looseOrRepack(t *testing.T, repo, h string) string {
	t.Helper()
	p := filepath.Join(repo, "objects", h[:2], h[2:])
	if _, err := os.Stat(p); err == nil {
		return p
	}
	packs, _ := filepath.Glob(filepath.Join(repo, "objects", "pack", "*.pack"))
	for _, pk := range packs {
		data, err := os.ReadFile(pk)
		if err != nil {
			t.Fatal(err)
		}
		os.Remove(pk)
		os.Remove(strings.TrimSuffix(pk, ".pack") + ".idx")
		runIn(t, repo, string(data), "git", "unpack-objects", "-q")
	}
	return looseObject(t, repo, h)
}

// A missing or corrupt object in the vault's own repository made the
// backup wait for ever on git-receive-pack (issue 17 item 8); it must fail
// at once, naming the object and 'git fsck', and leave no backup behind.
func TestBackupOfADamagedVault(t *testing.T) {
	t.Parallel()
	// A file outside the vault folder is never scanned for secrets, so
	// only the push reads it.
	for _, damage := range []string{"missing", "corrupt", "corrupt outside the vault", "truncated tree"} {
		t.Run(damage, func(t *testing.T) {
			v := newVault(t, "vault")
			memory(t, v, "memory/a.md", "fact", "", "a")
			commit(t, v, CommitOptions{})
			top := filepath.Dir(v.Root)
			path := "vault/memory/a.md"
			if damage == "corrupt outside the vault" {
				os.WriteFile(filepath.Join(top, "code.txt"), []byte("code"), 0o644)
				run(t, top, "git", "add", "code.txt")
				run(t, top, "git", "commit", "-q", "-m", "code")
				path = "code.txt"
			}
			if damage == "truncated tree" {
				path = "vault/memory"
			}
			h := run(t, top, "git", "rev-parse", "HEAD:"+path)
			p := filepath.Join(top, ".git", "objects", h[:2], h[2:])
			os.Chmod(p, 0o644)
			if damage == "missing" {
				os.Remove(p)
			} else if damage == "truncated tree" {
				data, _ := os.ReadFile(p)
				os.WriteFile(p, data[:10], 0o644)
			} else if err := os.WriteFile(p, []byte("not zlib"), 0o644); err != nil {
				t.Fatal(err)
			}
			dest := filepath.Join(t.TempDir(), "b.git")
			_, err := Backup(v, BackupOptions{Env: testEnv(), To: dest})
			var be *BackupError
			if !errors.As(err, &be) || !strings.Contains(err.Error(), h[:7]) || !strings.Contains(err.Error(), "fsck") {
				t.Fatalf("err = %v, want a BackupError naming %s and fsck", err, h)
			}
			if _, err := os.Stat(dest); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("a failed first backup left %s: %v", dest, err)
			}
			if left, _ := filepath.Glob(filepath.Join(filepath.Dir(dest), ".*")); len(left) > 0 {
				t.Fatalf("temporary folders left: %v", left)
			}
		})
	}
}

// runIn runs a command with stdin.
func runIn(t *testing.T, dir, stdin string, args ...string) {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Dir, cmd.Stdin = dir, strings.NewReader(stdin)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", strings.Join(args, " "), err, out)
	}
}
