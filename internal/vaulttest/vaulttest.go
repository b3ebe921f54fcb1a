// Package vaulttest holds what the tests of several packages do to a vault
// on disk.
package vaulttest

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Write puts content at rel (slash-separated) under root, creating its
// folders.
func Write(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Copy copies the files of the tree src into dst (an example vault, a
// corpus in testdata), so a test can change them.
func Copy(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		Write(t, dst, filepath.ToSlash(rel), string(data))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// GitEnv gives git an identity and shields it from the machine's
// configuration, for tests that commit.
func GitEnv(t testing.TB) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	t.Setenv("GIT_AUTHOR_NAME", "mem test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@example.com")
	t.Setenv("GIT_COMMITTER_NAME", "mem test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@example.com")
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
}

// NoRacyWindow makes files written a moment ago count as settled for the
// rest of the test, so a test of a stamp-trusting cache need not sleep out
// the racy window. window is &vault.RacyWindow, passed in so pkg/vault's own
// tests can use this too. It is global: such a test must not be parallel.
func NoRacyWindow(t testing.TB, window *time.Duration) {
	t.Helper()
	old := *window
	*window = -time.Hour
	t.Cleanup(func() { *window = old })
}
