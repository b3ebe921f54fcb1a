package history

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// spoil ruins the memory file rel the way issue 17 found: emptied,
// overwritten with one character, or renamed out of the memory set.
func spoil(t *testing.T, v *vault.Vault, rel, how string) {
	t.Helper()
	abs := filepath.Join(v.Root, rel)
	switch how {
	case "empty":
		vaulttest.Write(t, v.Root, rel, "")
	case "one-char":
		vaulttest.Write(t, v.Root, rel, "x")
	case "bak":
		if err := os.Rename(abs, abs+".bak"); err != nil {
			t.Fatal(err)
		}
	default:
		t.Fatalf("spoil %q", how)
	}
}

// The mass-delete guard counts memories emptied, overwritten so they no
// longer parse, or renamed out of the memory set, not only deleted files:
// 30 of 100 spoiled is refused (over lint.mass_delete_share, 20%), and
// --allow-mass-delete commits them.
func TestMassDeleteCountsSpoiledMemories(t *testing.T) {
	t.Parallel()
	for _, how := range []string{"empty", "one-char", "bak"} {
		t.Run(how, func(t *testing.T) {
			v := newVault(t, "")
			for i := range 100 {
				memory(t, v, fmt.Sprintf("memory/m%d.md", i), "fact", "", fmt.Sprint("fact ", i))
			}
			first := commit(t, v, CommitOptions{})
			for i := range 30 {
				spoil(t, v, fmt.Sprintf("memory/m%d.md", i), how)
			}
			_, err := Commit(v, CommitOptions{Env: testEnv(), Now: clock(t).Add(time.Minute)})
			var md *MassDeleteError
			if !errors.As(err, &md) || md.Removed != 30 || md.Of != 100 || md.Spoiled != 30 {
				t.Fatalf("err = %v, want a refusal of 30 of 100 (30 spoiled)", err)
			}
			if head := run(t, v.Root, "git", "rev-parse", "HEAD"); head != first.Commit {
				t.Fatalf("HEAD moved after a refused commit")
			}
			if res := commit(t, v, CommitOptions{AllowMassDelete: true}); res.Commit == "" {
				t.Fatalf("--allow-mass-delete did not commit: %+v", res)
			}
		})
	}
}

// The same guard on random spoilings (the reliability soak's random
// truncations): a seeded number of memories, each spoiled a random way or
// cut at a random byte, is refused exactly when it is over the share.
func TestMassDeleteSoakRandomTruncations(t *testing.T) {
	t.Parallel()
	seed := uint64(time.Now().UnixNano())
	if s, err := strconv.ParseUint(os.Getenv("MEM_RELIABILITY_SEED"), 10, 64); err == nil && s != 0 {
		seed = s
	}
	t.Logf("seed %d (MEM_RELIABILITY_SEED=%d replays it)", seed, seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	v := newVault(t, "")
	const n = 50
	body := "---\ntype: fact\nprovenance: stated\n---\n"
	for i := range n {
		vaulttest.Write(t, v.Root, fmt.Sprintf("memory/m%d.md", i), body+fmt.Sprint("fact ", i, "\n"))
	}
	commit(t, v, CommitOptions{})
	for round := range 4 {
		k := 1 + rng.IntN(n/2)
		for _, i := range rng.Perm(n)[:k] {
			rel := fmt.Sprintf("memory/m%d.md", i)
			switch rng.IntN(4) {
			case 0, 1, 2:
				spoil(t, v, rel, []string{"empty", "one-char", "bak"}[rng.IntN(3)])
			default: // cut inside the frontmatter, so it no longer parses
				vaulttest.Write(t, v.Root, rel, body[:1+rng.IntN(len(body)-5)])
			}
		}
		_, err := Commit(v, CommitOptions{Env: testEnv(), Now: clock(t).Add(time.Minute)})
		var md *MassDeleteError
		over := v.Config.Lint.IsMassDeletion(k, n)
		if over != errors.As(err, &md) || over && md.Removed != k {
			t.Fatalf("round %d: %d of %d spoiled: err = %v (want a refusal: %v)", round, k, n, err, over)
		}
		// Restore, and commit the restore when the spoiling went in.
		for i := range n {
			rel := fmt.Sprintf("memory/m%d.md", i)
			os.Remove(filepath.Join(v.Root, rel+".bak"))
			vaulttest.Write(t, v.Root, rel, body+fmt.Sprint("fact ", i, "\n"))
		}
		commit(t, v, CommitOptions{AllowMassDelete: true})
	}
}
