package vault

import (
	"fmt"
	"path/filepath"
)

// Remove deletes the file rel (vault-relative, slash-separated) as
// RemoveFile does, durably, a file already gone being no error. A path
// that leads out of the vault is refused, touching nothing: rel may come
// from a record on disk (consolidate's batch).
func Remove(v *Vault, rel string) error {
	p := filepath.Join(v.Root, filepath.FromSlash(rel))
	if !within(v.Root, p) {
		return fmt.Errorf("%s: not a file of the vault %s", rel, v.Root)
	}
	return RemoveFile(p)
}
