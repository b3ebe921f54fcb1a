package index

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/blevesearch/bleve/v2"

	"github.com/mem-md/mem/pkg/vault"
)

// Reader is the live index held open by a process that answers many
// searches (mem watch), so a search costs no open of bleve and no read of
// the manifest. While it is open, bolt's lock keeps writers of this
// generation waiting, in this process too: close it before an update.
type Reader struct {
	v    *vault.Vault
	name string // of the generation; not its manifest, a few hundred bytes a file
	idx  bleve.Index
}

// OpenReader opens v's live index read-only and keeps it open.
func OpenReader(v *vault.Vault) (*Reader, error) {
	g, idx, err := openLive(v)
	if err != nil {
		return nil, err
	}
	return &Reader{v: v, name: g.name, idx: idx}, nil
}

// Live says whether r is still the live generation: a full build by
// another process swaps in a new one.
func (r *Reader) Live() bool {
	data, err := os.ReadFile(filepath.Join(Dir(r.v), currentFile))
	return err == nil && strings.TrimSpace(string(data)) == r.name
}

// Close releases the index.
func (r *Reader) Close() error { return r.idx.Close() }
