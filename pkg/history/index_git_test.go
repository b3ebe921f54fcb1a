package history

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// The index codec against the git program: for folder and file names with
// spaces, unicode, newlines, tabs and every other byte git allows in a path,
// the index mem writes after a commit must be the one git writes after
// 'git add -A && git commit' of the same files (entries and cached trees),
// 'git write-tree' must trust it, and 'git status' must be clean. A second
// round adds a file to every folder, so mem reads its own cached trees back
// (issue 17: "Obsidian Sync" broke exactly that).
func TestIndexDifferentialAgainstGit(t *testing.T) {
	names := []string{
		"Obsidian Sync", "two  spaces", " lead", "trail ", "Über naïve 日本語", "tab\there",
		"new\nline", `back\slash`, `quote"s`, "semi;colon", "#hash", "-dash", "~tilde", "emoji 🧠",
	}
	// Every byte but NUL and '/' (the only two a POSIX name cannot hold),
	// in names of at most 64 bytes (ext4 allows 255).
	var all []byte
	for c := 1; c < 256; c++ {
		if c != '/' {
			all = append(all, byte(c))
		}
	}
	for i := 0; i < len(all); i += 60 {
		names = append(names, "b"+string(all[i:min(i+60, len(all))]))
	}
	diffAgainstGit(t, names)
}

// TestIndexSoakRandomFolderNames runs the differential test on folder
// names drawn from a seeded RNG: a reliability check, as the crash suite's
// seeds are. MEM_RELIABILITY_SEED replays a run; MEM_INDEX_SOAK_ROUNDS
// raises the count (the soak does).
func TestIndexSoakRandomFolderNames(t *testing.T) {
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("MEM_RELIABILITY_SEED"), 10, 64); err == nil && s != 0 {
		seed = s
	}
	rounds := 2
	if n, err := strconv.Atoi(os.Getenv("MEM_INDEX_SOAK_ROUNDS")); err == nil && n > 0 {
		rounds = n
	}
	t.Logf("seed %d (MEM_RELIABILITY_SEED=%d replays it), %d rounds", seed, seed, rounds)
	rng := rand.New(rand.NewPCG(seed, 0))
	for round := range rounds {
		var names []string
		for range 8 {
			names = append(names, randomName(rng))
		}
		t.Run(fmt.Sprint(round), func(t *testing.T) { diffAgainstGit(t, names) })
	}
}

// randomName is a folder name git accepts: 1–40 bytes of anything but NUL
// and '/', weighted towards the spaces and separators real names hold,
// never "." or ".." and never ".git" in any case.
func randomName(rng *rand.Rand) string {
	const common = "  -_.()[]{}'\"\t\n\\#%&+,;=@~äö日本🧠"
	for {
		n := 1 + rng.IntN(40)
		var b []byte
		for len(b) < n {
			switch rng.IntN(3) {
			case 0:
				b = append(b, byte(1+rng.IntN(255)))
			case 1:
				b = append(b, common[rng.IntN(len(common))])
			default:
				b = append(b, byte('a'+rng.IntN(26)))
			}
		}
		s := strings.ReplaceAll(string(b), "/", "_")
		if s != "." && s != ".." && !strings.EqualFold(s, ".git") {
			return s
		}
	}
}

// diffAgainstGit commits a vault holding the folders names (each with a
// memory and a nested folder) with mem, the same files with git in a copy,
// and compares the two, twice.
func diffAgainstGit(t *testing.T, names []string) {
	t.Helper()
	v := newVault(t, "")
	other := t.TempDir()
	run(t, other, "git", "init", "-q", "-b", "main")
	write := func(rel, content string) {
		for _, root := range []string{v.Root, other} {
			vaulttest.Write(t, root, rel, content)
		}
	}
	for _, f := range []string{".gitignore", vault.ConfigFile} {
		data, err := os.ReadFile(filepath.Join(v.Root, f))
		if err != nil {
			t.Fatal(err)
		}
		vaulttest.Write(t, other, f, string(data))
	}
	for round := range 2 {
		for i, n := range names {
			write(n+"/m"+strconv.Itoa(round)+".md", fmt.Sprintf("---\ntype: fact\n---\nfact %d in %q\n", i, n))
			write(n+"/"+n+"/x"+strconv.Itoa(round), "nested")
		}
		write("root"+strconv.Itoa(round)+".md", "---\ntype: fact\n---\nroot\n")
		// git's racy-clean rule: a file written in the same second as the
		// index is re-read by git status; step past it so both sides match.
		time.Sleep(10 * time.Millisecond)
		commit(t, v, CommitOptions{})
		run(t, other, "git", "add", "-A")
		run(t, other, "git", "commit", "-q", "-m", "git")

		if st := run(t, v.Root, "git", "status", "--porcelain", "-z"); st != "" {
			t.Fatalf("round %d: git status after mem commit: %q", round, st)
		}
		head := run(t, v.Root, "git", "rev-parse", "HEAD^{tree}")
		if want := run(t, other, "git", "rev-parse", "HEAD^{tree}"); head != want {
			t.Fatalf("round %d: mem's tree %s, git's %s", round, head, want)
		}
		if wt := run(t, v.Root, "git", "write-tree"); wt != head {
			t.Fatalf("round %d: git write-tree on mem's index %s, HEAD %s", round, wt, head)
		}
		if got, want := lsStage(t, v.Root), lsStage(t, other); got != want {
			t.Fatalf("round %d: git ls-files --stage differs:\nmem %q\ngit %q", round, got, want)
		}
		mine, theirs := readIdx(t, v.Root), readIdx(t, other)
		if !reflect.DeepEqual(mine.Cache, theirs.Cache) {
			t.Fatalf("round %d: cached trees differ:\nmem %+v\ngit %+v", round, mine.Cache, theirs.Cache)
		}
		if len(mine.Entries) != len(theirs.Entries) {
			t.Fatalf("round %d: %d entries, git %d", round, len(mine.Entries), len(theirs.Entries))
		}
		for i, e := range mine.Entries {
			if g := theirs.Entries[i]; e.Name != g.Name || e.Hash != g.Hash || e.Mode != g.Mode {
				t.Fatalf("round %d: entry %d: mem %q %s, git %q %s", round, i, e.Name, e.Hash, g.Name, g.Hash)
			}
		}
	}
	fsck(t, v)
}

func lsStage(t *testing.T, dir string) string {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "--stage", "-z")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func readIdx(t *testing.T, dir string) *index.Index {
	t.Helper()
	idx, err := readIndex(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return idx
}

// FuzzDecodeIndex: no input makes the decoder panic, hang or allocate
// without bound; the input is also tried with a valid checksum appended,
// so the fuzzer gets past the checksum into the entries and extensions.
func FuzzDecodeIndex(f *testing.F) {
	var b bytes.Buffer
	ents := []*index.Entry{{Name: "Obsidian Sync/a.md", Mode: 0o100644}, {Name: "new\nline/ b", Mode: 0o100644}}
	root := &cacheNode{entries: 2, subs: []*cacheNode{{name: "Obsidian Sync", entries: 1}, {name: "new\nline", entries: 1}}}
	if err := encodeIndex(&b, ents, root); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:len(b.Bytes())-20])
	f.Add([]byte("DIRC\x00\x00\x00\x02\xff\xff\xff\xff"))
	f.Add([]byte("\x00 1\n"))
	f.Add([]byte("a b\x001 0\n01234567890123456789"))
	f.Fuzz(func(t *testing.T, data []byte) {
		decodeIndex(data)
		sum := sha1.Sum(data)
		if idx, err := decodeIndex(append(data[:len(data):len(data)], sum[:]...)); err == nil {
			cachedTrees(idx.Cache)
		}
		if tr, err := decodeCacheTree(data); err == nil {
			cachedTrees(tr)
		}
	})
}

// FuzzIndexRoundTrip: any set of paths (NUL-separated in the input), with
// a cached tree for every folder, decodes to exactly what was encoded.
func FuzzIndexRoundTrip(f *testing.F) {
	f.Add([]byte("Obsidian Sync/a.md\x00Obsidian Sync/b.md\x00top.md"))
	f.Add([]byte("a b/c d/e f\x00new\nline/x\x00\xff\xfe/\x01"))
	f.Add([]byte(strings.Repeat("n", 5000) + "/x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		seen := map[string]bool{}
		var ents []*index.Entry
		root := &cacheNode{}
		for _, p := range strings.Split(string(data), "\x00") {
			comps := strings.Split(p, "/")
			if p == "" || seen[p] || strings.Contains("/"+p+"/", "//") {
				continue
			}
			// A path cannot also be a folder of another path.
			clash := false
			for q := range seen {
				if strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") {
					clash = true
				}
			}
			if clash {
				continue
			}
			seen[p] = true
			e := &index.Entry{Name: p, Mode: 0o100644, Size: uint32(len(p))}
			e.Hash = plumbing.Hash(sha1.Sum([]byte(p)))
			ents = append(ents, e)
			n := root
			n.entries++
			for _, c := range comps[:len(comps)-1] {
				var sub *cacheNode
				for _, s := range n.subs {
					if s.name == c {
						sub = s
					}
				}
				if sub == nil {
					sub = &cacheNode{name: c, hash: plumbing.Hash(sha1.Sum([]byte(c)))}
					n.subs = append(n.subs, sub)
				}
				sub.entries++
				n = sub
			}
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
		var b bytes.Buffer
		if err := encodeIndex(&b, ents, root); err != nil {
			t.Fatal(err)
		}
		idx, err := decodeIndex(b.Bytes())
		if err != nil {
			t.Fatalf("decode what was encoded: %v", err)
		}
		if len(idx.Entries) != len(ents) {
			t.Fatalf("%d entries, encoded %d", len(idx.Entries), len(ents))
		}
		for i, e := range idx.Entries {
			if !reflect.DeepEqual(e, ents[i]) {
				t.Fatalf("entry %d: %+v, encoded %+v", i, e, ents[i])
			}
		}
		var want []index.TreeEntry
		var flat func(n *cacheNode) // appendCacheTree sorted the subs in place
		flat = func(n *cacheNode) {
			want = append(want, index.TreeEntry{Path: n.name, Entries: n.entries, Trees: len(n.subs), Hash: n.hash})
			for _, s := range n.subs {
				flat(s)
			}
		}
		flat(root)
		if idx.Cache == nil || !reflect.DeepEqual(idx.Cache.Entries, want) {
			t.Fatalf("cached trees:\n got %+v\nwant %+v", idx.Cache, want)
		}
	})
}
