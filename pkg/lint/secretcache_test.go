package lint

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

func lintVault(t *testing.T, v *vault.Vault, paths ...string) *Report {
	t.Helper()
	rep, err := Run(v, Options{Now: testNow, Paths: paths})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A second whole-vault run recalls every file's secrets from the cache
// instead of scanning it, with the same report; a changed file is scanned
// again, and every file is when the rules change.
func TestSecretsCacheScansOnlyWhatChanged(t *testing.T) {
	t.Parallel()
	v := corpusVault(t)
	first := lintVault(t, v)
	if first.secretScans < 20 {
		t.Fatalf("the first run scanned %d files for secrets", first.secretScans)
	}
	if !strings.Contains(fmt.Sprint(byFile(first)), "secret-github-pat") {
		t.Fatal("the corpus's GitHub token is not reported")
	}
	second := lintVault(t, v)
	if second.secretScans != 0 {
		t.Errorf("the second run scanned %d files for secrets, want 0", second.secretScans)
	}
	if !reflect.DeepEqual(first.Problems, second.Problems) {
		t.Errorf("recalled findings differ:\n%v\n%v", byFile(first), byFile(second))
	}

	vaulttest.Write(t, v.Root, "memory/clean.md", "---\ntype: fact\nprovenance: observed\nevidence: read it\nvalid_at: 2026-11-01\n---\nThe build uses "+placeholders.Replace("{{AWS}}")+" now.\n")
	third := lintVault(t, v)
	if third.secretScans != 1 {
		t.Errorf("after one file changed, %d files were scanned, want 1", third.secretScans)
	}
	if got := byFile(third)["memory/clean.md"]; !strings.Contains(fmt.Sprint(got), "secret-aws-access-token") {
		t.Errorf("the key written into memory/clean.md is not reported: %v", got)
	}

	// Rules changed: the cache was written under another fingerprint.
	// The payload starts with the rule set's fingerprint, a string of 64
	// hex digits behind its length.
	payload, ok := vault.ReadCache(secretsPath(v), secretsMagic)
	if !ok || len(payload) < 65 || payload[0] != 64 {
		t.Fatal("no secrets cache with the rules' fingerprint")
	}
	other := append([]byte{64}, strings.Repeat("0", 64)...)
	if err := vault.WriteCache(secretsPath(v), secretsMagic, append(other, payload[65:]...)); err != nil {
		t.Fatal(err)
	}
	fourth := lintVault(t, v)
	if !reflect.DeepEqual(third.Problems, fourth.Problems) {
		t.Errorf("findings differ after a rescan:\n%v\n%v", byFile(third), byFile(fourth))
	}
	if again := lintVault(t, v); again.secretScans != 0 {
		t.Errorf("the rewritten cache left %d files to scan", again.secretScans)
	}
	if err := os.Remove(secretsPath(v)); err != nil {
		t.Fatal(err)
	}
	if all := lintVault(t, v); fourth.secretScans != all.secretScans {
		t.Errorf("under other rules %d files were scanned, want all %d", fourth.secretScans, all.secretScans)
	}
}

// A damaged or foreign cache is ignored, every file scanned, the report
// the same, and the cache rewritten.
func TestSecretsCacheCorruptIsIgnored(t *testing.T) {
	t.Parallel()
	v := corpusVault(t)
	want := lintVault(t, v)
	good, err := os.ReadFile(secretsPath(v))
	if err != nil {
		t.Fatal(err)
	}
	payload, _ := vault.ReadCache(secretsPath(v), secretsMagic)
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	for name, write := range map[string]func() error{
		"truncated": func() error { return os.WriteFile(secretsPath(v), good[:len(good)/2], 0o600) },
		"flipped":   func() error { return os.WriteFile(secretsPath(v), flipped, 0o600) },
		"empty":     func() error { return os.WriteFile(secretsPath(v), nil, 0o600) },
		"garbage":   func() error { return os.WriteFile(secretsPath(v), bytes.Repeat([]byte{0xff}, 4096), 0o600) },
		// A sound frame around a payload that does not decode.
		"payload cut": func() error {
			return vault.WriteCache(secretsPath(v), secretsMagic, payload[:len(payload)-7])
		},
	} {
		if err := write(); err != nil {
			t.Fatal(err)
		}
		rep := lintVault(t, v)
		if !reflect.DeepEqual(rep.Problems, want.Problems) {
			t.Errorf("%s: the report differs:\n%v\n%v", name, byFile(rep), byFile(want))
		}
		if rep.secretScans == 0 {
			t.Errorf("%s: nothing was scanned", name)
		}
		if again := lintVault(t, v); again.secretScans != 0 {
			t.Errorf("%s: the cache was not rewritten (%d files scanned again)", name, again.secretScans)
		}
	}
}

// Whatever lint caches, no file under .mem holds a secret it found: the
// secrets cache holds offsets and rule numbers, and a file found to hold
// one leaves the parse cache. Caches are 0600 in 0700 folders.
func TestSecretsCacheHoldsNoSecret(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	key := placeholders.Replace("{{GITHUB}}")
	// Past the 256 files under which loads skip the parse cache.
	for i := range 300 {
		vaulttest.Write(t, root, fmt.Sprintf("memory/m%03d.md", i), fmt.Sprintf("---\ntype: fact\nprovenance: observed\nevidence: read it\nvalid_at: 2026-11-01\n---\nFact number %d.\n", i))
	}
	vaulttest.Write(t, root, "memory/leak.md", "---\ntype: fact\nprovenance: observed\nevidence: read it\nvalid_at: 2026-11-01\n---\nThe deploy token is "+key+" for now.\n")
	vaulttest.Write(t, root, "notes/leak.md", "---\ntype: note\n---\nA note with the token\n\n    "+key+"\n")
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	v.RacyWindow = vaulttest.NoRacyWindow // so that the parse cache records every file
	for _, paths := range [][]string{nil, nil, {"memory/leak.md", "notes/leak.md"}, nil} {
		rep := lintVault(t, v, paths...)
		if got := fmt.Sprint(byFile(rep)); strings.Count(got, "secret-github-pat") != 2 {
			t.Fatalf("lint %v: the two keys are not reported: %s", paths, got)
		}
	}
	for _, name := range []string{"parse", "lint", "secrets"} {
		if _, err := os.Stat(filepath.Join(v.StateDir(), "cache", name)); err != nil {
			t.Errorf("no %s cache: %v", name, err)
		}
	}
	err = filepath.WalkDir(v.StateDir(), func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if d.IsDir() {
			if info.Mode().Perm() != 0o700 {
				t.Errorf("%s: mode %o, want 700", p, info.Mode().Perm())
			}
			return nil
		}
		if info.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %o, want 600", p, info.Mode().Perm())
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, part := range []string{key, key[4:20], key[len(key)-16:]} {
			if bytes.Contains(data, []byte(part)) {
				t.Errorf("%s holds the key (%q)", p, part)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
