package history

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A journal left by a sync from before a path check (here the path that
// is too long once this vault's folder is in front, which made every
// later sync exit 2) is replayed with today's checks: the merge it records
// is abandoned, what the killed run had written or removed is put back,
// the journal goes, the refusal (exit 1) says so, and the next sync runs.
func TestSyncAbandonsAJournalWithARefusedPath(t *testing.T) {
	t.Parallel()
	a, _, remote := twoMachines(t)
	head := run(t, a.Root, "git", "rev-parse", "HEAD")
	one, err := os.ReadFile(filepath.Join(a.Root, "memory", "one.md"))
	if err != nil {
		t.Fatal(err)
	}
	// The merge: one.md changed, two.md removed, and a file whose path
	// git takes and this machine cannot write.
	deep := "memory/deep"
	for len(deep) < 4090-len("/d.md")-254 {
		deep += "/" + strings.Repeat("d", 250)
	}
	deep += "/d.md"
	idx := []string{"GIT_INDEX_FILE=" + filepath.Join(t.TempDir(), "index")}
	git := func(args ...string) string {
		return runEnv(t, a.Root, append(os.Environ(), idx...), append([]string{"git"}, args...)...)
	}
	git("read-tree", "HEAD")
	newOne := "---\ntype: fact\nprovenance: stated\n---\none, as the merge has it\n"
	blob := func(s string) string {
		f := filepath.Join(t.TempDir(), "blob")
		if err := os.WriteFile(f, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return git("hash-object", "-w", f)
	}
	git("update-index", "--cacheinfo", "100644,"+blob(newOne)+",memory/one.md")
	git("update-index", "--force-remove", "memory/two.md")
	git("update-index", "--add", "--cacheinfo", "100644,"+blob("---\ntype: fact\nprovenance: stated\n---\ndeep\n")+","+deep)
	merged := git("commit-tree", "-p", head, "-m", "merge", git("write-tree"))

	// What a run of it left before it failed: one.md written, two.md
	// removed, the journal, the branch not moved.
	if err := os.WriteFile(filepath.Join(a.Root, "memory", "one.md"), []byte(newOne), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(a.Root, "memory", "two.md")); err != nil {
		t.Fatal(err)
	}
	jp := filepath.Join(a.Root, ".git", syncJournal)
	data, _ := json.Marshal(journal{Ref: "refs/heads/main", Old: head, New: merged})
	if err := os.WriteFile(jp, data, 0o644); err != nil {
		t.Fatal(err)
	}

	_, err = Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)})
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "path-too-long") || !strings.Contains(err.Error(), "abandoned: the vault is as it was before it") {
		t.Fatalf("want the merge abandoned, naming the path's rule: %v", err)
	}
	if _, err := os.Stat(jp); !os.IsNotExist(err) {
		t.Errorf("the journal is still there: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(a.Root, "memory", "one.md")); string(got) != string(one) {
		t.Errorf("one.md not put back: %q", got)
	}
	if _, err := os.Stat(filepath.Join(a.Root, "memory", "two.md")); err != nil {
		t.Errorf("two.md not put back: %v", err)
	}
	if got := run(t, a.Root, "git", "rev-parse", "HEAD"); got != head {
		t.Errorf("HEAD moved: %s -> %s", head, got)
	}
	if st := run(t, a.Root, "git", "status", "--porcelain"); st != "" {
		t.Errorf("the vault is not as it was: %s", st)
	}
	if _, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(2 * time.Hour)}); err != nil {
		t.Errorf("the sync after: %v", err)
	}
}
