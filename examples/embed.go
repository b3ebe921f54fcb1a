// Package examples ships the example vault inside the mem binary, so
// `mem init --example` works from any install.
package examples

import (
	"embed"
	"io/fs"
)

// Each entry of vault/ by name, never the whole folder: running mem in the
// example vault writes vault/.mem/ (caches naming the builder's paths),
// which `all:vault` would build into every binary and `mem init --example`
// would copy. TestEmbedsEveryEntry keeps this list complete.
//
//go:embed vault/mem.yaml all:vault/code all:vault/imports all:vault/memory all:vault/notes all:vault/projects
var files embed.FS

// Vault is the example vault's file tree.
func Vault() fs.FS {
	sub, err := fs.Sub(files, "vault")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}
