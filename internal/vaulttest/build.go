package vaulttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// BuildMem puts the mem binary, built from this module's source as `go
// build` builds it, at dst, for the tests that start mem as users do. It
// is `go run -exec cp`: go run keeps the linked executable in the build
// cache (Go 1.24+), so the packages that need mem in one `go test ./...`
// link it once instead of each relinking it (`go build -o` links every
// time: ~3.5 CPU-s warm, against ~0.9 for a cached run and the copy).
// The cache is keyed on every input, embedded files included, so a change
// to the source still gives a new binary. Call it before moving HOME (go
// keeps its caches under it).
func BuildMem(dst string) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	out, err := exec.Command("go", "run", "-exec", "cp", "github.com/mem-md/mem/cmd/mem", dst).CombinedOutput()
	if err != nil {
		return fmt.Errorf("building mem: %v\n%s", err, out)
	}
	return nil
}
