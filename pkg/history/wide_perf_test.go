package history

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/pprof"
	"testing"
	"time"
)

// TestPerfWideSync profiles issue 41's wide commit in-process: one remote
// commit adding MEM_SYNC_WIDE memories (built with git fast-import) synced
// into a vault of 20. It runs only with MEM_SYNC_WIDE set;
// MEM_PERF_PROFILE=FILE writes a CPU profile of the sync alone. The timed
// comparison with git pull is cmd/mem/reliability's TestSyncWideCommit.
func TestPerfWideSync(t *testing.T) {
	n := 0
	fmt.Sscan(os.Getenv("MEM_SYNC_WIDE"), &n)
	if n == 0 {
		t.Skip("set MEM_SYNC_WIDE=10000 to profile a sync of one wide commit")
	}
	a := newVault(t, "")
	for i := range 20 {
		memory(t, a, fmt.Sprintf("memory/seed-%02d.md", i), "fact", "", fmt.Sprint("seed ", i))
	}
	remote := filepath.Join(t.TempDir(), "remote.git")
	if _, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0}); err != nil {
		t.Fatal(err)
	}
	head := run(t, a.Root, "git", "rev-parse", "HEAD")
	var stream bytes.Buffer
	fmt.Fprintf(&stream, "commit refs/heads/main\ncommitter wide <w@example.com> 1764000000 +0000\ndata 12\nadd memories\nfrom %s\n", head)
	for i := range n {
		body := fmt.Sprintf("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\nimportance: %d\n---\nWide fact number %d mentions widetok%d.\n", i%10+1, i, i)
		fmt.Fprintf(&stream, "M 100644 inline memory/wide/w-%06d.md\ndata %d\n%s\n", i, len(body), body)
	}
	cmd := exec.Command("git", "--git-dir", remote, "fast-import", "--quiet")
	cmd.Stdin = &stream
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	if p := os.Getenv("MEM_PERF_PROFILE"); p != "" {
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	res, err := Sync(a, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)})
	pprof.StopCPUProfile()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("sync of one commit adding %d memories: %v (in: %+v)", n, time.Since(start), res.In)
	fsck(t, a)
}
