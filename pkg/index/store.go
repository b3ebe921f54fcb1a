package index

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"
	bolterrors "go.etcd.io/bbolt/errors"

	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/vault"
)

// On disk, .mem/index holds generations of the index and a pointer to the
// live one:
//
//	.mem/index/CURRENT          the live generation's name, replaced atomically
//	.mem/index/<gen>/bleve/     the bleve (scorch) index
//	.mem/index/<gen>/manifest   the files it was built from
//
// A full build fills a new generation and then rewrites CURRENT, so a
// reader sees the old index or the new one, never half of one. Anything
// else under .mem/index is left over from a crashed or superseded build and
// is removed by the next writer.
const (
	currentFile  = "CURRENT"
	manifestFile = "manifest"
	bleveDir     = "bleve"
	genPrefix    = "gen-"
)

// Timeouts for bbolt's file lock on root.bolt. Without one, a second open
// of a scorch index waits forever. Readers share the lock; a writer needs
// it alone, and only ever updates the live generation in place.
const (
	readTimeout  = "2s"
	writeTimeout = "3s"
)

// errBusy means another process holds the index in a way that excludes us.
var errBusy = errors.New("the index is in use by another mem process")

// Dir is where the index of v lives.
func Dir(v *vault.Vault) string { return filepath.Join(v.StateDir(), "index") }

// generation is one complete index and the manifest it was built from.
type generation struct {
	name string
	dir  string
	man  *manifest // from current, the header alone
}

func (g *generation) blevePath() string { return filepath.Join(g.dir, bleveDir) }

// noIndex is live's reason when no index was ever built.
const noIndex = "no index yet"

// live reads the live generation and its manifest. It returns (nil,
// reason) when there is none to use, reason saying why in words fit to
// print before rebuilding.
func live(v *vault.Vault) (*generation, string) {
	return liveWith(v, readManifest)
}

// current is live with the manifest's header alone (no files): which
// generation is live, its schema and seq. Opening the index to search
// needs no more.
func current(v *vault.Vault) (*generation, string) {
	return liveWith(v, readHeader)
}

func liveWith(v *vault.Vault, read func(path string) (*manifest, error)) (*generation, string) {
	data, err := os.ReadFile(filepath.Join(Dir(v), currentFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, noIndex
	}
	name := strings.TrimSpace(string(data))
	if err != nil || !strings.HasPrefix(name, genPrefix) || strings.ContainsAny(name, `/\`) {
		return nil, fmt.Sprintf("%s is damaged", filepath.Join(Dir(v), currentFile))
	}
	g := &generation{name: name, dir: filepath.Join(Dir(v), name)}
	g.man, err = read(filepath.Join(g.dir, manifestFile))
	if err != nil {
		return nil, fmt.Sprintf("the index in %s is incomplete (%v)", g.dir, err)
	}
	if g.man.schema != schemaVersion {
		return nil, fmt.Sprintf("the index was built with schema %d and this mem uses %d", g.man.schema, schemaVersion)
	}
	return g, ""
}

// newGeneration names a fresh generation directory; only the holder of the
// index lock creates one, so time plus pid is unique.
func newGeneration(v *vault.Vault) *generation {
	name := genPrefix + strconv.FormatInt(clock.Now().UnixNano(), 36) + "-" + strconv.Itoa(os.Getpid())
	return &generation{name: name, dir: filepath.Join(Dir(v), name)}
}

// publish makes g the live generation. The rename inside WriteFileAtomic is
// the moment of the swap.
func publish(v *vault.Vault, g *generation) error {
	return vault.WriteFileAtomic(filepath.Join(Dir(v), currentFile), []byte(g.name+"\n"), vault.StateFileMode)
}

// sweep removes everything under .mem/index but CURRENT and the live
// generation: crashed builds, superseded generations, stray temp files.
// Callers hold the index lock. A reader still searching a removed
// generation keeps its open files (POSIX); one that was about to open it
// re-reads CURRENT (see openReader).
func sweep(v *vault.Vault, keep string) {
	entries, err := os.ReadDir(Dir(v))
	if err != nil {
		return
	}
	for _, e := range entries {
		if n := e.Name(); n != currentFile && n != keep {
			os.RemoveAll(filepath.Join(Dir(v), n))
		}
	}
}

// open opens g's bleve index and checks that it holds what g's manifest
// says.
func open(g *generation, readOnly bool) (bleve.Index, error) {
	idx, err := openBleve(g.blevePath(), readOnly)
	if err != nil {
		return nil, err
	}
	if err := checkSeq(idx, g); err != nil {
		idx.Close()
		return nil, err
	}
	return idx, nil
}

// openBleve opens a bleve index, turning a panic from a damaged file (bbolt
// panics on some torn pages) into an error, since the index is a cache we
// can always rebuild.
func openBleve(path string, readOnly bool) (idx bleve.Index, err error) {
	defer func() {
		if r := recover(); r != nil {
			idx, err = nil, fmt.Errorf("%s: damaged index: %v", path, r)
		}
	}()
	// unsafe_batch: a fresh build's config (freshConfig) is stored with
	// the index; an in-place update must be persisted before Batch returns.
	cfg := map[string]any{"bolt_timeout": writeTimeout, "unsafe_batch": false}
	if readOnly {
		cfg = map[string]any{"read_only": true, "bolt_timeout": readTimeout}
	}
	idx, err = bleve.OpenUsing(path, cfg)
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("%s: %w", path, errBusy)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return idx, nil
}

// seqKey is where a run's last batch records the manifest's seq inside
// the index, atomically with the documents it indexed.
var seqKey = []byte("mem-seq")

// checkSeq fails when idx is not the index g's manifest describes. The
// index may be one run ahead (killed between its last batch and the
// manifest): the next run redoes that work, which is harmless. Behind
// means scorch fell back to an older snapshot after a torn write, and
// the index silently lacks what the manifest says it holds.
func checkSeq(idx bleve.Index, g *generation) error {
	raw, err := idx.GetInternal(seqKey)
	if err != nil {
		return fmt.Errorf("%s: %w", g.blevePath(), err)
	}
	seq, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || seq != g.man.seq && seq != g.man.seq+1 {
		return fmt.Errorf("%s: holds update %q but its manifest is at %d: it lost writes", g.blevePath(), raw, g.man.seq)
	}
	return nil
}

// lockIndex takes the vault's index lock, held by every writer of
// .mem/index. wait < 0 waits as long as the holder runs, calling onWait
// with its pid after a second so the user knows why nothing happens;
// otherwise it gives up after wait and returns ok=false. A done ctx ends
// the wait with ErrInterrupted.
func lockIndex(ctx context.Context, v *vault.Vault, wait time.Duration, onWait func(pid int)) (unlock func(), ok bool, err error) {
	if ctx == nil {
		ctx = context.Background()
	}
	unlock, err = v.LockWait(ctx, "index", wait, onWait)
	var held *vault.LockedError
	switch {
	case err == nil:
		return unlock, true, nil
	case ctx.Err() != nil:
		return nil, false, fmt.Errorf("%w while waiting for the index lock", ErrInterrupted)
	case wait >= 0 && errors.As(err, &held) && held.Waited > 0:
		return nil, false, nil
	}
	return nil, false, err
}
