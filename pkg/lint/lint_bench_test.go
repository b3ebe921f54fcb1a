package lint_test

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/lint"
)

var benchNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// BenchmarkRunVault lints a whole 1,000-file vault (what `mem lint` does),
// again and again: after the first run the secrets cache knows every file.
func BenchmarkRunVault(b *testing.B) {
	benchVaultRun(b, false)
}

// BenchmarkRunVaultScan is BenchmarkRunVault without the secrets cache:
// every file is scanned for secrets (a first run, or one under new rules).
func BenchmarkRunVaultScan(b *testing.B) {
	benchVaultRun(b, true)
}

func benchVaultRun(b *testing.B, scan bool) {
	v := benchgen.BenchVault(b, 1000)
	cachePath := filepath.Join(v.StateDir(), "cache", "secrets")
	b.ReportAllocs()
	for b.Loop() {
		if scan {
			b.StopTimer()
			if err := os.Remove(cachePath); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		if _, err := lint.Run(v, lint.Options{Now: benchNow}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRunNamed lints 10 named files of a 1,000-file vault with the
// whole vault as context (what the pre-commit hook does), served by the
// context cache that the whole-vault run before it wrote.
func BenchmarkRunNamed(b *testing.B) {
	benchNamed(b, true)
}

// BenchmarkRunNamedLoad is BenchmarkRunNamed without the context cache:
// every run loads the whole vault (the first run of a new mem binary).
func BenchmarkRunNamedLoad(b *testing.B) {
	benchNamed(b, false)
}

func benchNamed(b *testing.B, cache bool) {
	v := benchgen.BenchVault(b, 1000)
	rels, err := v.List()
	if err != nil {
		b.Fatal(err)
	}
	var paths []string
	for i := 0; i < 10; i++ {
		paths = append(paths, rels[i*len(rels)/10])
	}
	if cache {
		// Stamps vouch for files only once they are older than the racy
		// window; a generated vault is brand new.
		v.RacyWindow = vaulttest.NoRacyWindow
		if _, err := lint.Run(v, lint.Options{Now: benchNow}); err != nil {
			b.Fatal(err)
		}
	}
	cachePath := filepath.Join(v.StateDir(), "cache", "lint")
	b.ReportAllocs()
	for b.Loop() {
		if !cache {
			b.StopTimer()
			if err := os.Remove(cachePath); err != nil && !os.IsNotExist(err) {
				b.Fatal(err)
			}
			b.StartTimer()
		}
		rep, err := lint.Run(v, lint.Options{Now: benchNow, Paths: paths})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Files != 10 {
			b.Fatalf("linted %s files, want 10", strconv.Itoa(rep.Files))
		}
	}
}
