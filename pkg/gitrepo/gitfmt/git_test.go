package gitfmt

import (
	"bytes"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/index"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-md/mem/internal/vaulttest"
)

// The formats against the git program, on names with spaces, newlines,
// tabs, unicode and every other byte git allows in a path.

// git runs git in dir and returns its stdout, trimmed.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// newRepo is a fresh repository holding two files in each odd folder (one
// in a nested folder of the same name), committed by git.
func newRepo(t *testing.T) string {
	t.Helper()
	vaulttest.GitEnv(t)
	dir := t.TempDir()
	git(t, dir, "init", "-q", "-b", "main")
	for i, n := range vaulttest.OddNames() {
		vaulttest.Write(t, dir, n+"/m.md", strings.Repeat("x", i))
		vaulttest.Write(t, dir, n+"/"+n+"/x", "nested")
	}
	vaulttest.Write(t, dir, "top.md", "top")
	// A folder sorts as "sort/": after "sort-x" and "sort.md", before "sort0".
	for _, f := range []string{"sort.md", "sort-x", "sort/in", "sort0"} {
		vaulttest.Write(t, dir, f, f)
	}
	git(t, dir, "add", "-A")
	git(t, dir, "commit", "-q", "-m", "git")
	return dir
}

// cacheTree rebuilds the nested form of a decoded cached-tree extension.
func cacheTree(t *testing.T, entries []index.TreeEntry) *CacheTree {
	t.Helper()
	i := 0
	var walk func() *CacheTree
	walk = func() *CacheTree {
		e := entries[i]
		i++
		c := &CacheTree{Name: e.Path, Entries: e.Entries, Hash: e.Hash}
		for range e.Trees {
			c.Subs = append(c.Subs, walk())
		}
		return c
	}
	root := walk()
	if i != len(entries) {
		t.Fatalf("cached tree: %d of %d entries in the root's", i, len(entries))
	}
	return root
}

// The index git writes decodes exactly as go-git's decoder reads it, its
// cached trees name the trees git committed, and EncodeIndex writes it back
// byte for byte.
func TestIndexAgainstGit(t *testing.T) {
	dir := newRepo(t)
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	mine, err := DecodeIndex(data)
	if err != nil {
		t.Fatal(err)
	}
	var gg index.Index
	if err := index.NewDecoder(bytes.NewReader(data)).Decode(&gg); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(mine.Entries, gg.Entries) || !reflect.DeepEqual(mine.Cache, gg.Cache) {
		t.Fatalf("DecodeIndex differs from go-git's decoder:\nmine %+v\ngo-git %+v", mine.Cache, gg.Cache)
	}
	if len(mine.Entries) != 2*len(vaulttest.OddNames())+5 {
		t.Fatalf("%d entries", len(mine.Entries))
	}
	trees := CachedTrees(mine.Cache)
	for _, n := range append(vaulttest.OddNames(), "") {
		p, rev := "", "HEAD^{tree}"
		if n != "" {
			p = n + "/" + n
			rev = "HEAD:" + p
		}
		if want := git(t, dir, "rev-parse", rev); trees[p].String() != want {
			t.Errorf("cached tree of %q: %s, git %s", p, trees[p], want)
		}
	}
	var b bytes.Buffer
	if err := EncodeIndex(&b, mine.Entries, cacheTree(t, mine.Cache.Entries)); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), data) {
		t.Fatalf("EncodeIndex of git's index differs from it (%d bytes, git %d)", b.Len(), len(data))
	}
}

// Trees, blobs, a pack, a ref and its reflog written by this package: git
// reads each (cat-file, verify-pack, rev-parse, reflog) and fsck --strict
// accepts the repository, every tree being byte for byte the one git
// committed for the same folder.
func TestObjectsAgainstGit(t *testing.T) {
	dir := newRepo(t)
	// A fresh repository to write into, packs and alternates absent.
	into := t.TempDir()
	git(t, into, "init", "-q", "-b", "main")
	objs := NewObjects(filepath.Join(into, ".git"), nil)

	// Every tree of git's commit, its entries shuffled, encodes to git's bytes.
	rng := rand.New(rand.NewPCG(1, 2))
	var root plumbing.Hash
	for _, line := range strings.Split(git(t, dir, "rev-list", "--objects", "HEAD"), "\n") {
		h := plumbing.NewHash(line[:40])
		if git(t, dir, "cat-file", "-t", h.String()) != "tree" {
			continue
		}
		raw := catFile(t, dir, h)
		ents := parseTree(t, raw)
		rng.Shuffle(len(ents), func(i, j int) { ents[i], ents[j] = ents[j], ents[i] })
		got := EncodeTree(ents)
		if !bytes.Equal(got, raw) || hashObject(plumbing.TreeObject, got) != h {
			t.Fatalf("tree %s: EncodeTree differs from git's", h)
		}
		if strings.TrimSpace(line[40:]) == "" {
			root = h
		}
		if _, err := objs.Write(plumbing.TreeObject, got); err != nil {
			t.Fatal(err)
		}
	}
	// The blobs go into one pack, written concurrently, one twice.
	pack, err := objs.NewPack()
	if err != nil {
		t.Fatal(err)
	}
	defer pack.Abort()
	blobs := strings.Fields(git(t, dir, "ls-tree", "-r", "--format=%(objectname)", "HEAD"))
	distinct := map[string]bool{}
	for _, h := range blobs {
		distinct[h] = true
	}
	errs := make(chan error, len(blobs)+1)
	for _, h := range append(blobs, blobs[0]) {
		data := catFile(t, dir, plumbing.NewHash(h))
		go func() {
			got, err := pack.Write(plumbing.BlobObject, data)
			if err == nil && got.String() != h {
				err = os.ErrInvalid
			}
			errs <- err
		}()
	}
	for range len(blobs) + 1 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if err := pack.Finish(); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(into, ".git", "objects", "pack", "pack-*.idx"))
	if len(packs) != 1 {
		t.Fatalf("packs: %v", packs)
	}
	if n := strings.Count(git(t, into, "verify-pack", "-v", packs[0]), " blob "); n != len(distinct) {
		t.Fatalf("the pack holds %d blobs, want %d, each once", n, len(distinct))
	}

	// A commit object, late, then the ref and its reflog.
	who := object.Signature{Name: "mem test", Email: "test@example.com", When: time.Unix(1700000000, 0).In(time.FixedZone("", 3600))}
	commit := []byte("tree " + root.String() + "\nauthor mem test <test@example.com> 1700000000 +0100\ncommitter mem test <test@example.com> 1700000000 +0100\n\nformat test\n")
	c := objs.WriteLater(plumbing.CommitObject, commit)
	if err := objs.Sync(); err != nil {
		t.Fatal(err)
	}
	lock := filepath.Join(into, ".git", "refs", "heads", "main.lock")
	f, err := os.OpenFile(lock, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := PublishRef(f, lock, c); err != nil {
		t.Fatal(err)
	}
	AppendReflog(filepath.Join(into, ".git"), "refs/heads/main", plumbing.ZeroHash, c, who, "commit (initial): format test\nbody")
	if got := git(t, into, "rev-parse", "main"); got != c.String() {
		t.Fatalf("main is %s, want %s", got, c)
	}
	if got := git(t, into, "reflog", "-1", "--format=%H %gs", "main"); got != c.String()+" commit (initial): format test" {
		t.Fatalf("reflog: %q", got)
	}
	if got := git(t, into, "reflog", "-1", "--format=%H", "HEAD"); got != c.String() {
		t.Fatalf("HEAD's reflog: %q", got)
	}
	git(t, into, "fsck", "--strict", "--no-progress")
	if got, want := git(t, into, "rev-parse", "HEAD^{tree}"), git(t, dir, "rev-parse", "HEAD^{tree}"); got != want {
		t.Fatalf("tree %s, git's %s", got, want)
	}
}

// catFile is the raw content of object h.
func catFile(t *testing.T, dir string, h plumbing.Hash) []byte {
	t.Helper()
	typ := git(t, dir, "cat-file", "-t", h.String())
	cmd := exec.Command("git", "cat-file", typ, h.String())
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("cat-file %s: %v", h, err)
	}
	return out
}

// parseTree reads git's tree format back into entries.
func parseTree(t *testing.T, b []byte) []object.TreeEntry {
	t.Helper()
	var ents []object.TreeEntry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || len(b) < nul+21 {
			t.Fatalf("malformed tree at %q", b)
		}
		m, err := filemode.New(string(b[:sp]))
		if err != nil {
			t.Fatal(err)
		}
		var h plumbing.Hash
		copy(h[:], b[nul+1:nul+21])
		ents = append(ents, object.TreeEntry{Name: string(b[sp+1 : nul]), Mode: m, Hash: h})
		b = b[nul+21:]
	}
	return ents
}
