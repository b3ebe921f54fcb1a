package history

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
)

// The commit after a sync's merge takes the merge's blob for a file still
// as the merge wrote it, unread; a file edited since (in place, same size)
// is read, and its new content is what gets committed.
func TestCommitAfterMergeReadsOnlyEditedFiles(t *testing.T) {
	t.Parallel()
	v := newVault(t, "")
	memory(t, v, "memory/one.md", "fact", "", "one")
	commit(t, v, CommitOptions{})
	write := func(rel, text string) writtenFile {
		data := []byte("---\ntype: fact\nprovenance: stated\n---\n" + text + "\n")
		run(t, v.Root, "sh", "-c", "printf '%s' \"$0\" | git hash-object -w --stdin", string(data))
		var b vault.Batch
		fi, err := b.Add(filepath.Join(v.Root, filepath.FromSlash(rel)), data, vault.FileMode())
		if err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(); err != nil {
			t.Fatal(err)
		}
		return writtenFile{hash: gitrepo.HashObject(gitrepo.BlobObject, data), mode: gitrepo.Regular, fi: fi}
	}
	written := map[string]writtenFile{
		"memory/kept.md":   write("memory/kept.md", "kept"),
		"memory/edited.md": write("memory/edited.md", "first"),
	}
	// Edited in place after the merge wrote it: same size, a later mtime.
	p := filepath.Join(v.Root, "memory", "edited.md")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, []byte(string(data[:len(data)-6])+"later\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(time.Second)
	os.Chtimes(p, later, later)
	res := commit(t, v, CommitOptions{written: written})
	if res.Read != 1 {
		t.Errorf("read %d files, want 1 (the edited one; the other as the merge wrote it)", res.Read)
	}
	if got := run(t, v.Root, "git", "show", "HEAD:memory/edited.md"); got != "---\ntype: fact\nprovenance: stated\n---\nlater" {
		t.Errorf("edited.md committed as %q, want the edit", got)
	}
	if got := run(t, v.Root, "git", "show", "HEAD:memory/kept.md"); got != "---\ntype: fact\nprovenance: stated\n---\nkept" {
		t.Errorf("kept.md committed as %q", got)
	}
	fsck(t, v)
}
