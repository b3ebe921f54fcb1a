// Package vault finds a vault, loads every memory in it through one loader,
// resolves projects, and writes files through one atomic writer.
package vault

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Vault is an opened vault: its root and configuration.
type Vault struct {
	Root   string // absolute, symlinks resolved
	Config Config
}

// ErrNoVault is returned by Find when no vault can be located.
var ErrNoVault = errors.New("no vault found")

// Find locates the vault root: flagDir (--vault), else env ($MEM_VAULT), else
// the nearest ancestor of cwd holding mem.yaml.
func Find(flagDir, env, cwd string) (string, error) {
	for _, c := range []struct{ dir, from string }{{flagDir, "--vault"}, {env, "$MEM_VAULT"}} {
		if c.dir == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(c.dir, ConfigFile)); err != nil {
			return "", fmt.Errorf("%s %s: no %s there (run 'mem init %s' to create a vault)", c.from, c.dir, ConfigFile, c.dir)
		}
		return filepath.Abs(c.dir)
	}
	dir, err := filepath.Abs(cwd)
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, ConfigFile)); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("%w: pass --vault DIR, set $MEM_VAULT, or run mem inside a directory with %s above it (create one with 'mem init DIR')", ErrNoVault, ConfigFile)
}

// Open reads the configuration of the vault at root.
func Open(root string) (*Vault, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	cfg, err := LoadConfig(abs)
	if err != nil {
		return nil, err
	}
	return &Vault{Root: abs, Config: cfg}, nil
}

// StateDir is the git-ignored machine state directory (.mem).
func (v *Vault) StateDir() string { return filepath.Join(v.Root, ".mem") }

// Rel returns path relative to the vault root, slash-separated.
func (v *Vault) Rel(path string) string {
	if r, err := filepath.Rel(v.Root, path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}
