package history

import (
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/format/index"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
	"github.com/mem-md/mem/pkg/vault"
)

// mem commit against the git program: for folder and file names with
// spaces, unicode, newlines, tabs and every other byte git allows in a path,
// the index mem writes after a commit must be the one git writes after
// 'git add -A && git commit' of the same files (entries and cached trees),
// 'git write-tree' must trust it, and 'git status' must be clean. A second
// round adds a file to every folder, so mem reads its own cached trees back
// (issue 17: "Obsidian Sync" broke exactly that).
func TestIndexDifferentialAgainstGit(t *testing.T) {
	t.Parallel()
	diffAgainstGit(t, vaulttest.OddNames())
}

// TestIndexSoakRandomFolderNames runs the differential test on folder
// names drawn from a seeded RNG: a reliability check, as the crash suite's
// seeds are. MEM_RELIABILITY_SEED replays a run; MEM_INDEX_SOAK_ROUNDS
// raises the count (the soak does).
func TestIndexSoakRandomFolderNames(t *testing.T) {
	t.Parallel()
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
	for _, f := range []string{".gitignore", ".gitattributes", vault.ConfigFile} {
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
		// git's racy-clean rule: a file stamped in the same instant as the
		// index is re-read by git status; step past it so both sides match.
		stampedAfter(t, filepath.Join(v.Root, "root"+strconv.Itoa(round)+".md"), filepath.Join(other, "root"+strconv.Itoa(round)+".md"))
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
	data, err := os.ReadFile(filepath.Join(dir, ".git", "index"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := gitfmt.DecodeIndex(data)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	return idx
}
