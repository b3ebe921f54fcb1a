package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// TestConcurrentRemember runs mem processes writing memories into one
// vault at once: every write must land in its own parseable file. 4
// writers of 10 each by default; the soak sizes (MEM_SOAK=1, .ci/run's soak
// stage) are 8 writers of 50.
func TestConcurrentRemember(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns 40 processes")
	}
	t.Parallel()
	dir := t.TempDir()
	if out, err := exec.Command("mem", "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	writers, each := 4, 10
	if soak() {
		writers, each = 8, 50
	}
	var wg sync.WaitGroup
	ids := make([][]string, writers)
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				// The same text from every writer, so file names collide on purpose.
				out, err := exec.Command("mem", "--vault", dir, "remember", "--session", fmt.Sprintf("w%d", w), "--project", "none", fmt.Sprintf("the same memory text %d", i%5)).Output()
				if err != nil {
					t.Errorf("writer %d #%d: %v", w, i, err)
					return
				}
				ids[w] = append(ids[w], string(out[:len(out)-1]))
			}
		}()
	}
	wg.Wait()
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]bool{}
	for _, m := range mems {
		if !m.OK() {
			t.Errorf("%s does not parse: %v", m.Rel, m.Err)
		}
		byID[m.ID] = true
	}
	reported := 0
	for _, list := range ids {
		for _, id := range list {
			reported++
			if !byID[id] {
				t.Errorf("reported id %s is not in the vault", id)
			}
		}
	}
	if reported != writers*each || len(mems) != writers*each || len(byID) != writers*each {
		t.Fatalf("reported %d, files %d, distinct ids %d; want %d each", reported, len(mems), len(byID), writers*each)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "memory", vault.TempPrefix+"*")); len(tmp) > 0 {
		t.Errorf("temp files left: %v", tmp)
	}
}

// TestRebuildWaitsForAnother holds the index lock longer than the vault's
// 5 s lock timeout, as a long rebuild does: a second `rebuild-index --full`
// waits for it (docs/index.md), naming the holder, and exits 0.
func TestRebuildWaitsForAnother(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, err := exec.Command("mem", "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("init: %v\n%s", err, out)
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	unlock, err := v.LockWait(context.Background(), "index", 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	second := exec.Command("mem", "--vault", dir, "rebuild-index", "--full")
	second.Stderr = &stderr
	if err := second.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- second.Wait() }()
	select {
	case err := <-exited:
		unlock()
		t.Fatalf("the second rebuild did not wait: %v\n%s", err, stderr.String())
	case <-time.After(6 * time.Second):
	}
	unlock()
	if err := <-exited; err != nil {
		t.Fatalf("the second rebuild: %v\n%s", err, stderr.String())
	}
	want := fmt.Sprintf("mem: waiting for another rebuild (pid %d) to finish updating the index", os.Getpid())
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr: want %q, got\n%s", want, stderr.String())
	}
}
