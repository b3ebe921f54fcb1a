package benchgen

import (
	"os"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// BenchVault opens the vault a benchmark runs on: the one named by
// $MEM_BENCH_VAULT (mem-bench gen -n 50000, to measure or profile at
// size), else a generated vault of n files (seed 1) in a temp folder.
func BenchVault(tb testing.TB, n int) *vault.Vault {
	tb.Helper()
	dir := os.Getenv("MEM_BENCH_VAULT")
	if dir == "" {
		dir = tb.TempDir()
		if _, err := Write(dir, Options{N: n, Seed: 1}); err != nil {
			tb.Fatal(err)
		}
	}
	v, err := vault.Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}
