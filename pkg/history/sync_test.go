package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// twoMachines makes a bare remote and two vaults syncing with it, both
// holding the memories of a first sync from a.
func twoMachines(t *testing.T) (a, b *vault.Vault, remote string) {
	t.Helper()
	a = newVault(t, "")
	memory(t, a, "memory/one.md", "fact", "", "one")
	memory(t, a, "memory/two.md", "fact", "", "two")
	remote = filepath.Join(t.TempDir(), "remote.git")
	if _, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0}); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "b")
	if _, err := Clone(remote, "", dir, testEnv()); err != nil {
		t.Fatal(err)
	}
	b, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return a, b, remote
}

// A sync killed after its journal and part of the working tree were
// written leaves a state that mem commit will not commit, and the next
// sync finishes the merge: every file of the merge, the branch moved.
func TestSyncFinishesAnInterruptedMerge(t *testing.T) {
	t.Parallel()
	a, b, remote := twoMachines(t)
	memory(t, b, "memory/three.md", "fact", "", "three")
	memory(t, b, "memory/four.md", "fact", "", "four")
	if _, err := Sync(b, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	memory(t, a, "memory/five.md", "fact", "", "five")
	dry, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, DryRun: true, Now: t0.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if dry.Merge == "" {
		t.Fatalf("expected a merge, got %+v", dry)
	}
	r, err := Open(a, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	old := run(t, a.Root, "git", "rev-parse", "HEAD")
	// What a kill leaves half-way through finishMerge: the journal, one
	// of the two incoming files, no index update, the branch not moved.
	data, _ := json.Marshal(journal{Ref: "refs/heads/main", Old: old, New: dry.Merge})
	if err := os.WriteFile(filepath.Join(r.gitDir, syncJournal), data, 0o644); err != nil {
		t.Fatal(err)
	}
	vaulttest.Write(t, a.Root, "memory/three.md", run(t, a.Root, "git", "show", dry.Merge+":memory/three.md")+"\n")
	var skip *SkipError
	if _, err := Commit(a, CommitOptions{Env: testEnv(), Now: t0.Add(3 * time.Hour)}); !errors.As(err, &skip) || !strings.Contains(err.Error(), "mem sync") {
		t.Fatalf("mem commit under a half-applied merge: want a skip naming mem sync, got %v", err)
	}
	res, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(3 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Recovered || !res.Pushed {
		t.Fatalf("want recovered and pushed, got %+v", res)
	}
	if head := run(t, a.Root, "git", "rev-parse", "HEAD"); head != dry.Merge {
		t.Fatalf("head %s, want the merge %s", head, dry.Merge)
	}
	for _, f := range []string{"one", "two", "three", "four", "five"} {
		if _, err := os.Stat(filepath.Join(a.Root, "memory", f+".md")); err != nil {
			t.Errorf("memory %s missing after the recovered sync: %v", f, err)
		}
	}
	if st := run(t, a.Root, "git", "status", "--porcelain"); st != "" {
		t.Fatalf("git status after the recovered sync:\n%s", st)
	}
	if _, err := os.Stat(filepath.Join(r.gitDir, syncJournal)); !os.IsNotExist(err) {
		t.Fatalf("journal left behind: %v", err)
	}
	fsck(t, a)
}

// A second sync of one vault while the first holds the lock skips,
// naming the first's pid, instead of interleaving.
func TestSyncSecondSkips(t *testing.T) {
	t.Parallel()
	a, _, remote := twoMachines(t)
	a.LockTimeout = 50 * time.Millisecond
	unlock, err := a.Lock("sync")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	memory(t, a, "memory/late.md", "fact", "", "late")
	_, err = Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0})
	var skip *SkipError
	if !errors.As(err, &skip) || !strings.Contains(err.Error(), "another mem sync (pid ") {
		t.Fatalf("want a skip naming the pid, got %v", err)
	}
	if st := run(t, a.Root, "git", "status", "--porcelain"); !strings.Contains(st, "late.md") {
		t.Fatalf("the skipped sync committed: status %q", st)
	}
}

// A sync killed while it wrote a new folder's stage leaves no memory torn:
// the stage's files are not the vault's (the loader and the commit's scan
// skip a temp folder), and the next sync writes the folder whole.
func TestSyncKilledInAFolderStage(t *testing.T) {
	a, b, remote := twoMachines(t)
	memory(t, b, "memory/new/deep/one.md", "fact", "", "one in a new folder")
	if _, err := Sync(b, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	dry, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, DryRun: true, Now: t0.Add(2 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Open(a, testEnv())
	if err != nil {
		t.Fatal(err)
	}
	// What a kill leaves half-way through writing the stage of memory/new.
	data, _ := json.Marshal(journal{Ref: "refs/heads/main", Old: run(t, a.Root, "git", "rev-parse", "HEAD"), New: dry.Head})
	if err := os.WriteFile(filepath.Join(r.gitDir, syncJournal), data, 0o644); err != nil {
		t.Fatal(err)
	}
	vaulttest.Write(t, a.Root, "memory/"+vault.TempPrefix+"kill/deep/one.md", "---\ntype: fa")
	loaded, err := a.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range loaded {
		if strings.Contains(m.Rel, vault.TempPrefix) {
			t.Fatalf("the stage's torn file was loaded as a memory: %s", m.Rel)
		}
	}
	res, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(3 * time.Hour)})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Recovered {
		t.Fatalf("want recovered, got %+v", res)
	}
	// The recovery moves the branch at the sync's own time, not the
	// system clock's.
	if log := run(t, a.Root, "git", "reflog", "show", "--date=unix", "--format=%gd %gs", "refs/heads/main"); !strings.Contains(log, fmt.Sprintf("main@{%d} mem sync: ", t0.Add(3*time.Hour).Unix())) {
		t.Fatalf("the recovery's reflog entry is not dated by SyncOptions.Now (%s):\n%s", t0.Add(3*time.Hour), log)
	}
	got, err := os.ReadFile(filepath.Join(a.Root, "memory", "new", "deep", "one.md"))
	if want := run(t, a.Root, "git", "show", dry.Head+":memory/new/deep/one.md") + "\n"; err != nil || string(got) != want {
		t.Fatalf("memory/new/deep/one.md = %q (%v), want %q", got, err, want)
	}
	if st := run(t, a.Root, "git", "status", "--porcelain"); st != "" {
		t.Fatalf("git status after the recovered sync:\n%s", st)
	}
	fsck(t, a)
}

// A sync of a commit of packThreshold new files (the commit writes them
// as one pack after its reads listed the packs) checks and pushes them,
// and so does one whose fetch's git gc --auto repacks them and deletes
// the files they were in (gc.autoPackLimit 1: the clone's pack and the
// commit's make two). Both failed once with "missing or corrupt object",
// while git fsck was clean and the next sync pushed.
func TestSyncPushesAWideCommitItsReadsDidNotList(t *testing.T) {
	t.Parallel()
	for name, gc := range map[string][]string{"pack": nil, "repacked by the fetch": {"gc.autoPackLimit", "1"}} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, b, remote := twoMachines(t)
			if gc != nil {
				run(t, b.Root, "git", "config", gc[0], gc[1])
			}
			for i := range packThreshold {
				memory(t, b, fmt.Sprintf("memory/payload-%d.md", i), "fact", "", fmt.Sprintf("payload %d", i))
			}
			res, err := Sync(b, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)})
			if err != nil {
				t.Fatal(err)
			}
			if !res.Pushed || res.Out.Added != packThreshold {
				t.Fatalf("want %d memories pushed, got %+v", packThreshold, res)
			}
			if gc != nil {
				packs, _ := filepath.Glob(filepath.Join(b.Root, ".git", "objects", "pack", "*.pack"))
				if len(packs) != 1 {
					t.Fatalf("the fetch's gc did not repack (packs %v): the test checks nothing", packs)
				}
			}
			fsck(t, b)
		})
	}
}
