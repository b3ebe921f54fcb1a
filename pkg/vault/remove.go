package vault

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Remove deletes the file rel (vault-relative, slash-separated) and syncs
// its folder, so the removal survives a crash as a WriteFileAtomic does. A
// file already gone is not an error: the caller wanted it absent. A path
// that leads out of the vault is refused, touching nothing.
func Remove(v *Vault, rel string) error {
	p := filepath.Join(v.Root, filepath.FromSlash(rel))
	if !within(v.Root, p) {
		return fmt.Errorf("%s: not a file of the vault %s", rel, v.Root)
	}
	if err := os.Remove(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	return syncDir(filepath.Dir(p))
}
