//go:build !linux

package gitfmt

// SyncFS is a no-op where syncfs is not available: objects are still
// published by rename before the ref moves, so a crashed process leaves a
// valid repository; only a power loss could drop them.
func SyncFS(string) error { return nil }
