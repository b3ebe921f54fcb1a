package main

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// A process's first collection waits for 16 MiB of heap; after it the
// collector runs at Go's default target, or at the one the command chose.
func TestPutOffFirstGC(t *testing.T) {
	t.Setenv("GOGC", "") // the test's own environment must not keep the user's
	prev := debug.SetGCPercent(100)
	t.Cleanup(func() {
		gcMu.Lock()
		gcSet = false
		gcMu.Unlock()
		debug.SetGCPercent(prev)
	})
	for _, chosen := range []int{0, wholeVaultGC} {
		gcMu.Lock()
		gcSet = false
		gcMu.Unlock()
		putOffFirstGC()
		if got := debug.SetGCPercent(firstGC); got != firstGC {
			t.Fatalf("before the first collection the target is %d, want %d", got, firstGC)
		}
		if chosen != 0 {
			setGC(chosen)
			runtime.GC() // the sentinel's finalizer runs after it, and must keep the choice
			runtime.GC()
			time.Sleep(50 * time.Millisecond)
			if got := debug.SetGCPercent(chosen); got != chosen {
				t.Fatalf("after the first collection the target is %d, want the command's %d", got, chosen)
			}
			continue
		}
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
			runtime.GC()
			got := debug.SetGCPercent(firstGC)
			debug.SetGCPercent(got)
			if got == 100 {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("after the first collection the target is %d, want 100", got)
			}
		}
	}
}
