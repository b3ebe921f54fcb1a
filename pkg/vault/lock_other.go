//go:build !unix && !windows

package vault

import "os"

// tryLock: this platform has no advisory file locks; mem runs unlocked.
func tryLock(*os.File) (bool, error) { return true, nil }

func unlockFile(*os.File) {}

func ProcessState(int) string { return "" }
