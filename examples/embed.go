// Package examples ships the example vault inside the mem binary, so
// `mem init --example` works from any install.
package examples

import (
	"embed"
	"io/fs"
)

//go:embed all:vault
var files embed.FS

// Vault is the example vault's file tree.
func Vault() fs.FS {
	sub, err := fs.Sub(files, "vault")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}
