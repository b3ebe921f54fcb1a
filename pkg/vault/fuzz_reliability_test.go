package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzLoadConfig: any mem.yaml either loads, with defaults filled in, or
// fails with an error naming the file; and a vault with whatever loaded
// lists its files without panicking (ignore globs, output paths).
func FuzzLoadConfig(f *testing.F) {
	f.Add([]byte("ignore: [drafts/, '*.tmp.md']\nrender:\n  budget: 4096\n  outputs:\n    - path: MEMORY.md\n      splice: true\n"))
	f.Add([]byte("lint:\n  max_file_size: -1\nbackup:\n  to: ../bk\naudit:\n  max_stale: 3\n"))
	f.Add([]byte("ignore: ['[', '\\\\', '**/x']\n"))
	f.Add([]byte("a: &a [x, x]\nb: &b [*a, *a]\nignore: *b\n"))
	f.Add([]byte("\x00\xff: [\n"))
	f.Add([]byte("render: {outputs: {path: x}}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		root := t.TempDir()
		os.MkdirAll(filepath.Join(root, "memory"), 0o755)
		os.WriteFile(filepath.Join(root, "memory", "a.md"), []byte("---\ntype: fact\nprovenance: stated\n---\nA.\n"), 0o644)
		if err := os.WriteFile(filepath.Join(root, ConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		c, err := loadConfig(root)
		if err != nil {
			if !strings.Contains(err.Error(), ConfigFile) {
				t.Fatalf("error does not name %s: %v", ConfigFile, err)
			}
			return
		}
		if c.Render.Budget == 0 || c.Lint.MaxFileSize == 0 || len(c.DurableTags) == 0 {
			t.Fatalf("defaults not applied: %+v", c)
		}
		v := &Vault{Root: root, Config: c}
		if _, err := v.List(); err != nil {
			t.Fatalf("List: %v", err)
		}
	})
}
