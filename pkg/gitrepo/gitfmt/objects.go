package gitfmt

import (
	"bufio"
	"cmp"
	"compress/zlib"
	"crypto/sha1"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/go-git/go-git/v5/plumbing"
)

// Objects stores loose objects itself instead of through go-git's
// storer: go-git compresses at zlib's default level, goes through a billy
// chroot (an lstat per path component) and is not safe for concurrent use.
// Objects is safe for concurrent use, compresses at level 1 (git's own
// default for loose objects, core.looseCompression) and publishes each
// object as git does: a temp file in the object's folder renamed into place,
// so a crash never leaves a torn object under an object's name. Sync makes
// what was written durable before a ref may name it.
type Objects struct {
	gitDir  string
	dir     string                   // .git/objects
	stored  func(plumbing.Hash) bool // asks packs and alternates; nil when there are none
	storeMu sync.Mutex
	tmp     atomic.Uint64
	dirs    sync.Map // made object folders
	zpool   sync.Pool
	mu      sync.Mutex
	written []plumbing.Hash // new loose objects since the last Sync
	packs   int             // packs published since the last Sync
	// background holds the writes WriteLater started; lateErr is the
	// first of them to fail (guarded by mu).
	background sync.WaitGroup
	lateErr    error
}

// NewObjects writes into the object store of the repository at gitDir.
// stored reports whether the repository holds an object in a pack or an
// alternate (go-git's storer); it is called only when the repository has
// either, and never concurrently.
func NewObjects(gitDir string, stored func(plumbing.Hash) bool) *Objects {
	w := &Objects{gitDir: gitDir, dir: filepath.Join(gitDir, "objects")}
	packs, _ := filepath.Glob(filepath.Join(w.dir, "pack", "*.idx"))
	_, err := os.Stat(filepath.Join(w.dir, "info", "alternates"))
	if len(packs) > 0 || err == nil {
		w.stored = stored
	}
	return w
}

// hashObject is git's object name: SHA-1 of "<type> <size>\0" and the content.
func hashObject(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := sha1.New()
	h.Write(objectHeader(nil, t, len(data)))
	h.Write(data)
	var out plumbing.Hash
	h.Sum(out[:0])
	return out
}

func objectHeader(b []byte, t plumbing.ObjectType, size int) []byte {
	b = append(b, t.String()...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(size), 10)
	return append(b, 0)
}

// has reports whether the repository already holds h.
func (w *Objects) has(h plumbing.Hash) bool {
	hex := h.String()
	if _, err := os.Lstat(filepath.Join(w.dir, hex[:2], hex[2:])); err == nil {
		return true
	}
	if w.stored == nil {
		return false
	}
	w.storeMu.Lock() // go-git's storer is not goroutine-safe
	defer w.storeMu.Unlock()
	return w.stored(h)
}

// Write stores an object unless the repository already has it and returns
// its name.
func (w *Objects) Write(t plumbing.ObjectType, data []byte) (plumbing.Hash, error) {
	h := hashObject(t, data)
	if w.has(h) {
		return h, nil
	}
	return h, w.store(h, t, data)
}

// WriteLater is Write with the compression and the file left to a
// goroutine, for objects whose name is needed at once but whose bytes only
// before the next sync: a 10-file commit of a 50k vault spends ~40 ms
// compressing its biggest folder's tree, which now overlaps diffing,
// summarising and encoding the commit. data must not change afterwards;
// Wait reports how the writes went.
func (w *Objects) WriteLater(t plumbing.ObjectType, data []byte) plumbing.Hash {
	h := hashObject(t, data)
	if w.has(h) {
		return h
	}
	w.background.Go(func() {
		if err := w.store(h, t, data); err != nil {
			w.mu.Lock()
			w.lateErr = cmp.Or(w.lateErr, err)
			w.mu.Unlock()
		}
	})
	return h
}

// Wait waits for the writes WriteLater started and returns the first
// failure among them.
func (w *Objects) Wait() error {
	w.background.Wait()
	w.mu.Lock()
	defer w.mu.Unlock()
	err := w.lateErr
	w.lateErr = nil
	return err
}

// store writes object h (t, data) as a loose object.
func (w *Objects) store(h plumbing.Hash, t plumbing.ObjectType, data []byte) error {
	hex := h.String()
	dir := filepath.Join(w.dir, hex[:2])
	if _, ok := w.dirs.Load(dir); !ok {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("%s: %w", dir, err)
		}
		w.dirs.Store(dir, true)
	}
	tmp, f, err := w.tempFile(dir)
	if err != nil {
		return err
	}
	err = w.compress(f, t, data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, hex[2:]))
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: write %s object %s: %w", w.gitDir, t, hex, err)
	}
	w.mu.Lock()
	w.written = append(w.written, h)
	w.mu.Unlock()
	return nil
}

// tempFile creates a fresh temp file next to where the object goes (the
// same folder, so the rename is atomic), read-only as git makes objects.
func (w *Objects) tempFile(dir string) (string, *os.File, error) {
	for {
		p := filepath.Join(dir, "tmp_obj_"+strconv.Itoa(os.Getpid())+"_"+strconv.FormatUint(w.tmp.Add(1), 10))
		f, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o444)
		if errors.Is(err, fs.ErrExist) {
			continue // left by a crashed run with the same pid
		}
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", p, err)
		}
		return p, f, nil
	}
}

type zwriter struct {
	buf *bufio.Writer
	z   *zlib.Writer
	hdr []byte
}

func (w *Objects) compress(f *os.File, t plumbing.ObjectType, data []byte) error {
	zw, _ := w.zpool.Get().(*zwriter)
	if zw == nil {
		b := bufio.NewWriterSize(f, 32<<10)
		z, _ := zlib.NewWriterLevel(b, zlib.BestSpeed)
		zw = &zwriter{buf: b, z: z}
	} else {
		zw.buf.Reset(f)
		zw.z.Reset(zw.buf)
	}
	defer w.zpool.Put(zw)
	zw.hdr = objectHeader(zw.hdr[:0], t, len(data))
	if _, err := zw.z.Write(zw.hdr); err != nil {
		return err
	}
	if _, err := zw.z.Write(data); err != nil {
		return err
	}
	if err := zw.z.Close(); err != nil {
		return err
	}
	return zw.buf.Flush()
}

// maxObjectFsyncs is where fsyncing each new loose object stops paying
// off against one syncfs of the whole filesystem.
const maxObjectFsyncs = 256

// Sync waits for the writes WriteLater started and makes every object
// written since the last Sync durable, before a ref points at them. An
// hourly commit writes a handful, each fsynced with its folder (like git's
// core.fsync=loose-object); a first commit of a large vault writes
// thousands or a pack, and one filesystem sync is cheaper.
func (w *Objects) Sync() error {
	if err := w.Wait(); err != nil {
		return err
	}
	written, packs := w.written, w.packs
	defer func() { w.written, w.packs = nil, 0 }()
	if len(written) > maxObjectFsyncs || packs > 0 {
		return SyncFS(w.gitDir)
	}
	// The fsyncs run in parallel so the filesystem can fold them into one
	// journal commit instead of one per object.
	var wg sync.WaitGroup
	errs := make([]error, len(written))
	dirs := map[string]bool{}
	for i, h := range written {
		hex := h.String()
		p := filepath.Join(w.dir, hex[:2], hex[2:])
		dirs[filepath.Dir(p)] = true
		wg.Go(func() {
			f, err := os.Open(p)
			if err == nil {
				err = f.Sync()
				f.Close()
			}
			if err != nil {
				errs[i] = fmt.Errorf("%s: %w", p, err)
			}
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return err
	}
	for d := range dirs {
		SyncDir(d)
	}
	return nil
}
