//go:build unix

package reliability

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataLoss replays the four data-loss paths an attack found (issue 17,
// items 1–4) with random inputs, through the binary as a user runs it:
//
//  1. folders with random names (spaces, unicode, punctuation) committed
//     twice, then a plain `git commit`: no memory leaves HEAD;
//  2. a symbolic link where a writer's folder should be: the write is
//     refused, nothing lands outside the vault;
//  3. a note over lint.max_file_size: refused, nothing stored;
//  4. a random share of memories emptied, overwritten or renamed away: a
//     commit over the mass-delete share is refused unless allowed.
//
// MEM_DATALOSS_ROUNDS raises the rounds (scripts/soak), MEM_RELIABILITY_SEED
// replays one.
func TestDataLoss(t *testing.T) {
	t.Parallel()
	rng := seeded(t)
	rounds := knob("MEM_DATALOSS_ROUNDS", 1, 3)
	var folders, refusedLinks, refusedNotes, guarded int
	for round := range rounds {
		folders += folderNames(t, rng, round)
		refusedLinks += linkedFolder(t, round)
		refusedNotes += oversizeNote(t, rng)
		guarded += spoiled(t, rng)
	}
	figures(t, "dataloss", "rounds", rounds, "folders", folders, "links_refused", refusedLinks,
		"notes_refused", refusedNotes, "spoils_guarded", guarded, "lost", lost)
}

// lost counts memories a data-loss path lost (or stored out of reach) in
// this run: the figure the soak reports, 0 when every check held.
var lost int

// randomName is a folder name of the kinds people and sync tools make:
// spaces (Obsidian's own "Obsidian Sync"), unicode, punctuation.
func randomName(rng *rand.Rand) string {
	parts := []string{"Obsidian Sync", "a b", "Ünïcode", "日本語", "x-y_z", "dots.in.name", "(paren)", "hash#tag", "tab\tname", "emoji 🧠", "'quote'", "semi;colon"}
	name := parts[rng.IntN(len(parts))]
	if rng.IntN(2) == 0 {
		name += " " + parts[rng.IntN(len(parts))]
	}
	return name
}

func folderNames(t *testing.T, rng *rand.Rand, round int) int {
	v := newVault(t)
	var want []string
	n := 2 + rng.IntN(4)
	for i := range n {
		rel := filepath.Join(randomName(rng), fmt.Sprintf("m%d-%d.md", round, i))
		write(t, filepath.Join(v.dir, rel), memFile(fmt.Sprintf("Memory %d of round %d.", i, round)))
		want = append(want, filepath.ToSlash(rel))
		v.must("commit", "-q")
	}
	// A plain git commit after mem's: mem's index must be git's too.
	write(t, filepath.Join(v.dir, "memory", "plain.md"), memFile("Committed by git itself."))
	v.git("add", "memory/plain.md")
	v.git("commit", "-q", "-m", "plain")
	tree := "\x00" + v.git("ls-tree", "-r", "-z", "--name-only", "HEAD")
	for _, rel := range want {
		if !strings.Contains(tree, "\x00"+rel+"\x00") {
			lost++
			t.Errorf("round %d: %q left HEAD after a plain git commit:\n%q", round, rel, tree)
		}
	}
	if st := v.git("status", "--porcelain"); st != "" {
		t.Errorf("round %d: git status after mem commit and git commit:\n%s", round, st)
	}
	return n
}

func linkedFolder(t *testing.T, round int) int {
	v := newVault(t)
	outside := t.TempDir()
	dir := []string{"memory", "notes"}[round%2]
	if err := os.RemoveAll(filepath.Join(v.dir, dir)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(v.dir, dir)); err != nil {
		t.Fatal(err)
	}
	var r result
	if dir == "memory" {
		r = v.run(nil, "remember", "A memory that must not land outside the vault")
	} else {
		r = v.run([]byte("A long note.\n"), "note", "--title", "Outside")
	}
	if r.code == 0 {
		t.Errorf("a write through a linked %s/ exited 0: %s", dir, r.stdout)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		lost += len(entries)
		t.Errorf("a write through a linked %s/ left %d file(s) outside the vault", dir, len(entries))
	}
	return 1
}

func oversizeNote(t *testing.T, rng *rand.Rand) int {
	v := newVault(t)
	limit := 4096 + rng.IntN(4096)
	write(t, filepath.Join(v.dir, "mem.yaml"), fmt.Sprintf("lint:\n  max_file_size: %d\n", limit))
	body := strings.Repeat("A line of a long note that goes on. ", limit/36+10)
	r := v.run([]byte(body), "note", "--title", "Too big")
	if r.code != 1 {
		t.Errorf("a note over max_file_size %d: exit %d, want 1 (refused)\n%s", limit, r.code, r.stderr)
	}
	if mems := v.load(); len(mems) != 0 {
		for _, m := range mems {
			t.Errorf("a refused note left %s", m.Rel)
		}
	}
	return 1
}

func spoiled(t *testing.T, rng *rand.Rand) int {
	v := newVault(t)
	const n = 40
	v.seed(n)
	v.must("commit", "-q")
	share := 0.3 + 0.4*rng.Float64() // over the default 20% limit
	count := int(share * n)
	for i, idx := range rng.Perm(n)[:count] {
		p := filepath.Join(v.dir, "memory", fmt.Sprintf("seed-%04d.md", idx))
		switch i % 3 {
		case 0:
			os.WriteFile(p, nil, 0o644)
		case 1:
			os.WriteFile(p, []byte("x"), 0o644)
		default:
			os.Rename(p, p+".bak")
		}
	}
	head := v.git("rev-parse", "HEAD")
	if r := v.run(nil, "commit"); r.code != 1 {
		t.Errorf("%d of %d memories spoiled: commit exit %d, want 1 (refused)\n%s%s", count, n, r.code, r.stdout, r.stderr)
	}
	if after := v.git("rev-parse", "HEAD"); after != head {
		lost += count
		t.Errorf("a refused commit moved HEAD")
	}
	v.must("commit", "-q", "--allow-mass-delete")
	return 1
}
