package history

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A tree of HEAD that is truncated or missing stops the commit with an
// error naming the object, where it sits and what to do, not go-git's bare
// "unexpected EOF" or "object not found" (issue 17).
func TestCommitNamesADamagedTree(t *testing.T) {
	t.Parallel()
	for _, damage := range []string{"truncated", "missing"} {
		t.Run(damage, func(t *testing.T) {
			v := newVault(t, "")
			memory(t, v, "memory/sub/a.md", "fact", "", "a")
			commit(t, v, CommitOptions{})
			h := run(t, v.Root, "git", "rev-parse", "HEAD:memory/sub")
			obj := filepath.Join(v.Root, ".git", "objects", h[:2], h[2:])
			data, err := os.ReadFile(obj)
			if err != nil {
				t.Fatal(err)
			}
			os.Remove(obj)
			if damage == "truncated" {
				if err := os.WriteFile(obj, data[:10], 0o444); err != nil {
					t.Fatal(err)
				}
			}
			// Without the index mem reads HEAD's trees.
			os.Remove(filepath.Join(v.Root, ".git", "index"))
			memory(t, v, "memory/sub/b.md", "fact", "", "b")
			_, err = Commit(v, CommitOptions{Env: testEnv(), Now: clock(t)})
			if err == nil {
				t.Fatal("commit over a damaged tree succeeded")
			}
			for _, want := range []string{"tree " + h, "(memory/sub)", "git fsck", "git hash-object -w -t tree"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error lacks %q: %v", want, err)
				}
			}
		})
	}
}
