package vault_test

import (
	"testing"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/vault"
)

// benchVault writes a generated vault of n files and opens it.
func benchVault(b *testing.B, n int) *vault.Vault {
	b.Helper()
	dir := b.TempDir()
	if _, err := benchgen.Write(dir, benchgen.Options{N: n, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

func load(b *testing.B, v *vault.Vault, opts vault.LoadOptions, want int) {
	b.Helper()
	mems, err := v.Load(opts)
	if err != nil {
		b.Fatal(err)
	}
	if len(mems) != want {
		b.Fatalf("loaded %d files, want %d", len(mems), want)
	}
}

// BenchmarkLoad loads a 1,000-file vault: the walk, a stat and a read of
// every file, and the parse (what every view pays at start-up).
func BenchmarkLoad(b *testing.B) {
	v := benchVault(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		load(b, v, vault.LoadOptions{}, 1000)
	}
}

// BenchmarkLoadRaw is Load keeping every file's bytes, as lint asks.
func BenchmarkLoadRaw(b *testing.B) {
	v := benchVault(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		load(b, v, vault.LoadOptions{Raw: true}, 1000)
	}
}

// BenchmarkList is the walk alone (what a freshness check costs).
func BenchmarkList(b *testing.B) {
	v := benchVault(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if rels, err := v.List(); err != nil || len(rels) != 1000 {
			b.Fatalf("listed %d files (err %v), want 1000", len(rels), err)
		}
	}
}

// BenchmarkScan is the walk with a stat of every file: what a freshness
// check, a kept render and a named-file lint start with.
func BenchmarkScan(b *testing.B) {
	v := benchVault(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		if snap, err := v.Scan(); err != nil || len(snap.Rels) != 1000 {
			b.Fatalf("scanned %d files (err %v), want 1000", len(snap.Rels), err)
		}
	}
}
