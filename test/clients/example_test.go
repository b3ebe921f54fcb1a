package clients

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
)

// TestInitExampleCarriesNoMem: the README's first command writes
// examples/vault/.mem/; a mem built afterwards must not carry it, so
// `mem init --example` makes the same .mem/ as a plain `mem init`. The
// test plants a file there, builds mem, and looks for it in a new vault.
func TestInitExampleCarriesNoMem(t *testing.T) {
	planted := filepath.Join(root, "examples", "vault", ".mem", "cache", "planted-by-test-clients")
	// Leave the source tree as it was: remove the folders made here too.
	made := planted
	for d := filepath.Dir(planted); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		made = d
	}
	if err := os.MkdirAll(filepath.Dir(planted), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(made) })
	if err := os.WriteFile(planted, []byte("from the build machine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "mem")
	home := t.TempDir()
	if err := vaulttest.BuildMem(bin); err != nil {
		t.Fatal(err)
	}
	dotMem := func(args ...string) []string {
		t.Helper()
		dir := filepath.Join(home, args[len(args)-1])
		if _, stderr, err := run(t, home, clientEnv(home), bin, args...); err != nil {
			t.Fatalf("mem %v: %v\n%s", args, err, stderr)
		}
		var files []string
		filepath.WalkDir(filepath.Join(dir, ".mem"), func(p string, d fs.DirEntry, err error) error {
			if err == nil {
				rel, _ := filepath.Rel(dir, p)
				files = append(files, rel)
			}
			return nil
		})
		return files
	}
	example, plain := dotMem("init", "-q", "--example", "ex"), dotMem("init", "-q", "plain")
	if !slices.Equal(example, plain) {
		t.Errorf("mem init --example made .mem content %v; a plain init makes %v", example, plain)
	}
}
