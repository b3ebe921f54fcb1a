package vault

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
)

func newDoc() *frontmatter.Document {
	return &frontmatter.Document{Meta: frontmatter.Meta{Type: "fact", Provenance: "stated"}, Body: "The CI runs on every push\n", HasFrontmatter: true}
}

// A writer never writes where the loader does not read: through a linked
// folder (the loader never follows one), into a skipped or ignored folder,
// or outside the vault. Each of these reported success before and the
// file was never seen again.
func TestCreateRefusesDestinationsTheLoaderSkips(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	for _, tc := range []struct {
		name, dir, want string
		setup           func(root string)
	}{
		{"linked memory/ leaving the vault", "memory", "symbolic link", func(root string) {
			os.RemoveAll(filepath.Join(root, "memory"))
			os.Symlink(outside, filepath.Join(root, "memory"))
		}},
		{"linked notes/ inside the vault", "notes", "symbolic link", func(root string) {
			os.MkdirAll(filepath.Join(root, "real"), 0o755)
			os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "notes"))
		}},
		{"linked parent", "imports/memory-md", "symbolic link", func(root string) {
			os.Symlink(outside, filepath.Join(root, "imports"))
		}},
		{"ignored folder", "drafts", "never reads", nil},
		{"skipped folder", ".obsidian/x", "never reads", nil},
		{"outside", "../x", "outside the vault", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := newVault(t, map[string]string{"mem.yaml": "ignore: [drafts/]\n", "memory/.keep": ""})
			if tc.setup != nil {
				tc.setup(v.Root)
			}
			_, err := v.Create(tc.dir, "the ci runs", newDoc(), testNow)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 0 {
				t.Fatalf("a file landed outside the vault: %v", entries)
			}
		})
	}
}

// A memory file with a second name (a hard link: /etc/passwd linked into
// memory/) is not read, and the loader says why and what to do.
func TestLoadRefusesHardLinkedFiles(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"memory/a.md": "---\ntype: fact\nprovenance: stated\n---\nA\n"})
	secret := filepath.Join(t.TempDir(), "passwd")
	os.WriteFile(secret, []byte("root:x:0:0:root:/root:/bin/bash\n"), 0o644)
	if err := os.Link(secret, filepath.Join(v.Root, "memory", "passwd.md")); err != nil {
		t.Skip("no hard links here:", err)
	}
	mems, err := v.Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var found bool
	for _, m := range mems {
		if m.Rel != "memory/passwd.md" {
			if !m.OK() {
				t.Errorf("%s: %v", m.Rel, m.Err)
			}
			continue
		}
		found = true
		if m.OK() || m.Doc != nil || !strings.Contains(m.Err.Error(), "file-hard-linked") && !strings.Contains(m.Err.Error(), "hard links") {
			t.Errorf("hard-linked file read: err %v, doc %v", m.Err, m.Doc)
		}
	}
	if !found {
		t.Fatal("the hard-linked file was not listed")
	}
	// A file mem writes never has a second name, even while it is written.
	m, err := v.Create("memory", "fresh", newDoc(), testNow)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(m.Path)
	if n := linkCount(fi); n != 1 {
		t.Errorf("a created file has %d links", n)
	}
}

// A vault at / or at the home folder itself would read and commit the
// whole disk or home; a linked .mem would put the index and caches
// outside the vault. All three are refused, naming the fix.
func TestOpenRefusesWideRootsAndLinkedState(t *testing.T) {
	t.Parallel()
	if _, err := Open("/"); err == nil || !strings.Contains(err.Error(), "file system's root") {
		t.Errorf("Open(/) = %v", err)
	}
	home := t.TempDir()
	os.WriteFile(filepath.Join(home, ConfigFile), nil, 0o644)
	if _, err := (Options{Home: home}).Open(home); err == nil || !strings.Contains(err.Error(), "home folder") {
		t.Errorf("Open(home) = %v", err)
	}
	if _, err := (Options{Home: home}).Init(home, nil); err == nil {
		t.Error("Init(home) accepted")
	}
	v := newVault(t, nil)
	os.Symlink(t.TempDir(), filepath.Join(v.Root, ".mem"))
	if _, err := Open(v.Root); err == nil || !strings.Contains(err.Error(), ".mem is a symbolic link") {
		t.Errorf("Open with a linked .mem = %v", err)
	}
}

// A project root of / or the home folder resolves nothing.
func TestProjectRootTooWideResolvesNothing(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"projects/all.md": "---\nid: proj_all\ntype: project\nroots: [/, ~]\n---\nAll.\n"})
	v.Home = t.TempDir()
	mems, _ := v.Load(LoadOptions{})
	if p := ResolveProject(v.Projects(mems), t.TempDir()); p != nil {
		t.Errorf("a root of / claimed a directory for %s", p.ID)
	}
}

// A crash between a note and its pointer leaves the journal; the next
// writer completes the pointer when the note was published, and drops the
// entry when it was not: both or neither.
func TestCreatePairCompletesAfterACrash(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	pointer := func(id string) *frontmatter.Document {
		d := newDoc()
		d.Body = PointerText("Retry design", id) + "\n"
		return d
	}
	note := &frontmatter.Document{Meta: frontmatter.Meta{Type: "note", Title: "Retry design"}, Body: "Backs off.\n", HasFrontmatter: true}
	nm, pm, err := v.CreatePair("notes", "Retry design", note, "memory", "Retry design see", pointer, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if entries, _ := os.ReadDir(v.pendingDir()); len(entries) != 0 {
		t.Fatalf("journal left after a whole write: %v", entries)
	}
	ptrData, _ := os.ReadFile(pm.Path)
	if !strings.Contains(string(ptrData), "[["+nm.ID+"]]") {
		t.Fatalf("pointer:\n%s", ptrData)
	}
	// Replay the two crash points from the journal the write kept.
	os.Remove(pm.Path)
	journal := filepath.Join(v.pendingDir(), "a.pending")
	os.WriteFile(journal, append([]byte(nm.Rel+"\n"+pm.Rel+"\n"), ptrData...), 0o644)
	if err := v.CompletePending(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(pm.Path); string(got) != string(ptrData) {
		t.Errorf("the pointer was not completed: %q", got)
	}
	os.Remove(pm.Path)
	os.Remove(nm.Path)
	os.WriteFile(journal, append([]byte(nm.Rel+"\n"+pm.Rel+"\n"), ptrData...), 0o644)
	if err := v.CompletePending(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(pm.Path); err == nil {
		t.Error("a pointer was written for a note that never was")
	}
	if _, err := os.Stat(journal); err == nil {
		t.Error("the journal entry was kept")
	}
}

// An empty Raw is an empty file or a refused one, and Unread tells them
// apart: an MCP get of an empty note returns its (empty) text, of a file
// over lint.max_file_size the refusal.
func TestUnreadTellsARefusedFileFromAnEmptyOne(t *testing.T) {
	v := newVault(t, map[string]string{
		"mem.yaml":         "lint:\n  max_file_size: 64\n",
		"notes/empty.md":   "",
		"notes/big.md":     strings.Repeat("many words ", 20),
		"memory/parsed.md": "---\ntype: fact\nprovenance: stated\n---\nA\n",
	})
	got := map[string]*Memory{}
	for _, m := range v.LoadFiles([]string{"notes/empty.md", "notes/big.md", "memory/parsed.md"}, LoadOptions{Raw: true}) {
		got[m.Rel] = m
	}
	if m := got["notes/empty.md"]; m.Unread() || m.Raw != "" {
		t.Errorf("empty file: unread %v, raw %q, err %v; want read, empty", m.Unread(), m.Raw, m.Err)
	}
	if m := got["notes/big.md"]; !m.Unread() || m.Raw != "" {
		t.Errorf("file over the limit: unread %v, raw %d bytes, err %v; want unread", m.Unread(), len(m.Raw), m.Err)
	}
	if m := got["memory/parsed.md"]; m.Unread() || !strings.HasSuffix(m.Raw, "A\n") {
		t.Errorf("memory: unread %v, raw %q", m.Unread(), m.Raw)
	}
}
