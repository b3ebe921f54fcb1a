// Package vaulttest holds what the tests of several packages do to a vault
// on disk.
package vaulttest

import (
	"io/fs"
	"os"
	"path/filepath"
	"sync"
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

// CopyBuilt copies the tree src, built once for several tests, into dst
// with its files' modes and modification times, so whatever src holds that
// compares them (an index's manifest, a cache) finds the copy unchanged.
func CopyBuilt(t testing.TB, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(to, info.Mode().Perm()|0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(to, info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Once returns get, which builds a tree into a new temporary folder
// (named from prefix) on its first call and gives that folder on every
// call, for the tests of a package to copy (CopyBuilt); and remove, which
// deletes the folder, for TestMain after m.Run.
func Once(prefix string, build func(dir string) error) (get func() (string, error), remove func()) {
	var dir string
	get = sync.OnceValues(func() (string, error) {
		d, err := os.MkdirTemp("", prefix)
		if err != nil {
			return "", err
		}
		dir = d
		return d, build(d)
	})
	return get, func() {
		if dir != "" {
			os.RemoveAll(dir)
		}
	}
}

// GitEnv gives git an identity and shields it from the machine's
// configuration, for tests that commit.
func GitEnv(t testing.TB) {
	t.Helper()
	t.Setenv("HOME", t.TempDir())
	for _, kv := range gitIdentity {
		t.Setenv(kv[0], kv[1])
	}
}

// ProcessGitEnv is GitEnv for the whole test process, from a TestMain:
// t.Setenv forbids t.Parallel, so a package whose tests commit in
// parallel sets them once; home is an empty folder the caller removes.
func ProcessGitEnv(home string) {
	os.Setenv("HOME", home)
	for _, kv := range gitIdentity {
		os.Setenv(kv[0], kv[1])
	}
}

// gitIdentity is the identity every test commit is made with, and no
// system configuration.
var gitIdentity = [][2]string{
	{"GIT_AUTHOR_NAME", "mem test"}, {"GIT_AUTHOR_EMAIL", "test@example.com"},
	{"GIT_COMMITTER_NAME", "mem test"}, {"GIT_COMMITTER_EMAIL", "test@example.com"},
	{"GIT_CONFIG_NOSYSTEM", "1"},
}

// NoRacyWindow is a vault's Options.RacyWindow that counts files written a
// moment ago as settled, so a test of a stamp-trusting cache need not sleep
// out the racy window. It is the vault's own: such a test may be parallel.
const NoRacyWindow = -time.Hour

// OddNames are file and folder names git must store byte for byte, for
// differential tests against the git program: spaces, unicode, a newline,
// a tab, quotes, and every byte but NUL and '/' (the only two a POSIX name
// cannot hold) in names of at most 61 bytes (ext4 allows 255).
func OddNames() []string {
	names := []string{
		"Obsidian Sync", "two  spaces", " lead", "trail ", "Über naïve 日本語", "tab\there",
		"new\nline", `back\slash`, `quote"s`, "semi;colon", "#hash", "-dash", "~tilde", "emoji 🧠",
	}
	var all []byte
	for c := 1; c < 256; c++ {
		if c != '/' {
			all = append(all, byte(c))
		}
	}
	for i := 0; i < len(all); i += 60 {
		names = append(names, "b"+string(all[i:min(i+60, len(all))]))
	}
	return names
}
