package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

func TestCommitVaultInSubfolder(t *testing.T) {
	t.Parallel()
	v := newVault(t, "team/vault")
	top := filepath.Dir(filepath.Dir(v.Root))
	os.WriteFile(filepath.Join(top, "README.md"), []byte("outer\n"), 0o644)
	os.WriteFile(filepath.Join(top, ".gitignore"), []byte("*.log\n"), 0o644)
	run(t, top, "git", "add", "README.md", ".gitignore")
	run(t, top, "git", "commit", "-q", "-m", "outer")
	// An outer file staged but not committed must stay staged, not committed.
	os.WriteFile(filepath.Join(top, "README.md"), []byte("outer changed\n"), 0o644)
	run(t, top, "git", "add", "README.md")
	os.WriteFile(filepath.Join(top, "untracked.txt"), []byte("x"), 0o644)
	memory(t, v, "memory/a.md", "fact", "", "a")
	vaulttest.Write(t, v.Root, "memory/debug.log", "ignored by the outer .gitignore")

	res := commit(t, v, CommitOptions{})
	if res.Added != 4 { // the vault's .gitattributes, .gitignore, mem.yaml, memory/a.md; nothing outside
		t.Fatalf("changes: %+v", res.Changes)
	}
	got := strings.Join(lsTree(t, v), " ")
	want := ".gitignore README.md team/vault/.gitattributes team/vault/.gitignore team/vault/mem.yaml team/vault/memory/a.md"
	if got != want {
		t.Fatalf("tree:\n got %s\nwant %s", got, want)
	}
	if got := run(t, top, "git", "show", "HEAD:README.md"); got != "outer" {
		t.Fatalf("outer README at HEAD = %q, want the committed 'outer'", got)
	}
	run(t, top, "git", "fsck", "--strict", "--no-progress")
	// The outer change stays staged, debug.log stays ignored.
	if st := run(t, top, "git", "status", "--porcelain"); st != "M  README.md\n?? untracked.txt" {
		t.Fatalf("git status:\n%s", st)
	}
	if log, err := Log(v, "memory/a.md", 0); err != nil || len(log) != 1 || log[0].Summary != "a" {
		t.Fatalf("log of a.md in a sub-folder vault: %+v %v", log, err)
	}
}

// Log is a test shorthand for opening the repository and listing.
func Log(v *vault.Vault, rel string, limit int) ([]LogEntry, error) {
	r, err := Open(v, testEnv())
	if err != nil {
		return nil, err
	}
	return r.Log(rel, limit)
}

func TestCommitSkipsWhileGitIsBusy(t *testing.T) {
	t.Parallel()
	for _, marker := range []string{"index.lock", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "rebase-merge/", "rebase-apply/", "BISECT_LOG"} {
		t.Run(marker, func(t *testing.T) {
			v := newVault(t, "")
			memory(t, v, "memory/a.md", "fact", "", "a")
			p := filepath.Join(v.Root, ".git", strings.TrimSuffix(marker, "/"))
			if strings.HasSuffix(marker, "/") {
				os.Mkdir(p, 0o755)
			} else {
				os.WriteFile(p, nil, 0o644)
			}
			_, err := Commit(v, CommitOptions{Env: testEnv(), Now: t0})
			var skip *SkipError
			if !errors.As(err, &skip) || !strings.Contains(skip.Reason, p) {
				t.Fatalf("err = %v, want a skip naming %s", err, p)
			}
			if _, err := os.Stat(filepath.Join(v.Root, ".git", "refs", "heads", "main")); !errors.Is(err, fs.ErrNotExist) {
				t.Fatal("a commit was made while git was busy")
			}
			if marker != "index.lock" {
				if _, err := os.Stat(filepath.Join(v.Root, ".git", "index.lock")); err == nil {
					t.Fatal("mem left its index.lock behind")
				}
			}
		})
	}
}

func TestCommitRefusesMassDelete(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for i := range 20 {
		memory(t, v, fmt.Sprintf("memory/m%d.md", i), "fact", "", fmt.Sprint(i))
	}
	first := commit(t, v, CommitOptions{})
	// 4 of 20 (20%) is allowed; a fifth deletion is over the share and at
	// the lint.mass_delete_min floor of 5.
	for i := range 5 {
		os.Remove(filepath.Join(v.Root, fmt.Sprintf("memory/m%d.md", i)))
	}
	_, err := Commit(v, CommitOptions{Env: testEnv(), Now: clock(t).Add(time.Minute)})
	var md *MassDeleteError
	if !errors.As(err, &md) || md.Removed != 5 || md.Of != 20 || !strings.Contains(err.Error(), "--allow-mass-delete") {
		t.Fatalf("err = %v, want a mass-delete refusal of 5 of 20", err)
	}
	if head := run(t, v.Root, "git", "rev-parse", "HEAD"); head != first.Commit {
		t.Fatalf("HEAD moved to %s after a refused commit", head)
	}
	fsckOnly(t, v)
	// Renames are not deletions.
	os.Rename(filepath.Join(v.Root, "memory/m10.md"), filepath.Join(v.Root, "memory/moved.md"))
	os.Rename(filepath.Join(v.Root, "memory/m11.md"), filepath.Join(v.Root, "memory/moved2.md"))
	_, err = Commit(v, CommitOptions{Env: testEnv(), Now: clock(t).Add(time.Minute)})
	if !errors.As(err, &md) || md.Removed != 5 {
		t.Fatalf("with renames: err = %v, want still 5 removed", err)
	}
	res := commit(t, v, CommitOptions{AllowMassDelete: true})
	if res.Deleted != 5 || res.Renamed != 2 || res.Memories != 15 {
		t.Fatalf("allowed commit: %+v", res)
	}
	fsck(t, v)
}

func TestSmallVaultPruneIsNotMassDelete(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	for i := range 3 {
		memory(t, v, fmt.Sprintf("memory/m%d.md", i), "fact", "", fmt.Sprint(i))
	}
	commit(t, v, CommitOptions{})
	// 2 of 3 is 67%, but under lint.mass_delete_min: an hourly cron commit
	// of a small vault must not be stuck refusing forever.
	os.Remove(filepath.Join(v.Root, "memory/m0.md"))
	os.Remove(filepath.Join(v.Root, "memory/m1.md"))
	if res := commit(t, v, CommitOptions{}); res.Deleted != 2 {
		t.Fatalf("prune: %+v", res)
	}
}

func fsckOnly(t *testing.T, v *vault.Vault) {
	t.Helper()
	run(t, v.Root, "git", "fsck", "--strict", "--no-progress")
}

// A writer keeps creating and rewriting memories (through the vault's own
// writer) while commits run; after it stops and one more commit, HEAD holds
// exactly the files on disk, each one whole.
func TestCommitWithConcurrentWriter(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	var stop atomic.Bool
	var wg sync.WaitGroup
	var written atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; !stop.Load(); i++ {
			doc := &frontmatter.Document{Meta: frontmatter.Meta{Type: "fact", Provenance: "stated"}, Body: fmt.Sprintf("memory number %d\n", i)}
			m, err := v.Create("memory", fmt.Sprintf("note %d", i), doc, t0)
			if err != nil {
				t.Error(err)
				return
			}
			written.Add(1)
			if i%3 == 0 {
				err := v.Update(m.Rel, "", t0, func(d *frontmatter.Document) error {
					d.Body = strings.Repeat("rewritten ", 50) + "\n"
					return nil
				})
				if err != nil {
					t.Error(err)
					return
				}
			}
		}
	}()
	commits := 0
	for deadline := time.Now().Add(1500 * time.Millisecond); time.Now().Before(deadline); {
		res, err := Commit(v, CommitOptions{Env: testEnv(), Now: clock(t)})
		tick(t, time.Minute)
		if err != nil {
			t.Fatalf("commit during writes: %v", err)
		}
		if res.Commit != "" {
			commits++
		}
	}
	stop.Store(true)
	wg.Wait()
	commit(t, v, CommitOptions{})
	onDisk, err := filepath.Glob(filepath.Join(v.Root, "memory", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	var inHead int
	for _, p := range lsTree(t, v) {
		if strings.HasPrefix(p, "memory/") {
			inHead++
			data := run(t, v.Root, "git", "show", "HEAD:"+p)
			if _, err := vault.ParseFile([]byte(data)); err != nil || !strings.Contains(data, "type: fact") {
				t.Fatalf("%s at HEAD is not a whole memory: %v\n%s", p, err, data)
			}
		}
	}
	if inHead != len(onDisk) || int64(inHead) != written.Load() {
		t.Fatalf("HEAD holds %d memories, disk %d, writer wrote %d", inHead, len(onDisk), written.Load())
	}
	if commits < 2 {
		t.Fatalf("only %d commits ran during the writes", commits)
	}
	t.Logf("%d commits during writes, %d memories", commits, inHead)
	fsck(t, v)
}

// TestCommitLeavesOutOversizedMemories: a memory file over
// lint.max_file_size is not committed (the loader never reads it); one
// already committed keeps its committed version; each run says so.
func TestCommitLeavesOutOversizedMemories(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	vaulttest.Write(t, v.Root, vault.ConfigFile, "lint:\n  max_file_size: 200\n")
	v, err := vault.Open(v.Root)
	if err != nil {
		t.Fatal(err)
	}
	memory(t, v, "memory/small.md", "fact", "", "fits")
	memory(t, v, "memory/grows.md", "fact", "", "fits for now")
	memory(t, v, "memory/huge.md", "fact", "", strings.Repeat("word ", 100))
	vaulttest.Write(t, v.Root, "assets/big.txt", strings.Repeat("not a memory ", 100))
	res := commit(t, v, CommitOptions{})
	tree := strings.Join(lsTree(t, v), " ")
	if strings.Contains(tree, "memory/huge.md") || !strings.Contains(tree, "memory/small.md") || !strings.Contains(tree, "assets/big.txt") {
		t.Fatalf("committed tree: %s", tree)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "memory/huge.md: 539 bytes, over lint.max_file_size (200)") {
		t.Fatalf("warnings: %q", res.Warnings)
	}
	memory(t, v, "memory/grows.md", "fact", "", strings.Repeat("more ", 60))
	memory(t, v, "memory/small.md", "fact", "", "still fits")
	res = commit(t, v, CommitOptions{})
	if res.Modified != 1 || len(res.Warnings) != 2 {
		t.Fatalf("second commit: %+v", res)
	}
	if got := run(t, v.Root, "git", "show", "HEAD:memory/grows.md"); !strings.Contains(got, "fits for now") {
		t.Fatalf("the committed version of a file that grew too big changed: %q", got)
	}
	run(t, v.Root, "git", "fsck", "--strict", "--no-progress")
}
