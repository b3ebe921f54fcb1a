package daemon

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// PollInterval is how often the polling fallback looks at the files.
const PollInterval = 300 * time.Millisecond

// LimitEnv, when set to N, makes mem watch's watcher behave as if the
// system's watch limit were N folders (Watch's limit), so the polling
// fallback can be tested (the real limit, fs.inotify.max_user_watches,
// needs root to change).
const LimitEnv = "MEM_WATCH_LIMIT"

// Watcher reports that something under a folder changed. Events are only a
// trigger: the caller compares the files with what it knows (the index
// manifest), so a missed or garbled event path costs nothing.
type Watcher struct {
	root    string
	skip    func(rel string) bool
	changes chan struct{}
	queue   atomic.Int64
	gen     atomic.Int64 // changes ever seen
	dirs    atomic.Int64
	mode    string
	why     string
	limit   int
	partial atomic.Bool // the limit was reached after the start
	fsw     *fsnotify.Watcher
	stop    chan struct{}
	done    sync.WaitGroup
}

// Watch watches every folder under root that skip does not reject (skip
// gets the path relative to root, "/"-separated). It uses fsnotify, adding
// folders as they appear, and falls back to polling when the watch limit
// is reached or the file system cannot be watched; Mode says which. A
// limit above 0 stands in for the system's watch limit (see LimitEnv).
func Watch(root string, skip func(rel string) bool, limit int) *Watcher {
	w := &Watcher{root: root, skip: skip, limit: limit, changes: make(chan struct{}, 1), stop: make(chan struct{})}
	fsw, err := fsnotify.NewWatcher()
	if err == nil {
		w.fsw = fsw
		if err = w.addTree(root); err == nil {
			w.mode = "fsnotify"
			w.done.Add(1)
			go w.events()
			return w
		}
		fsw.Close()
		w.fsw = nil
	}
	w.mode = "polling"
	if errors.Is(err, syscall.ENOSPC) {
		w.why = fmt.Sprintf("the system's watch limit was reached at %d folders (raise fs.inotify.max_user_watches, e.g. sysctl fs.inotify.max_user_watches=524288)", w.dirs.Load())
	} else {
		w.why = fmt.Sprintf("the file system cannot be watched (%v)", err)
	}
	w.done.Add(1)
	go w.poll()
	return w
}

// Mode is "fsnotify" or "polling"; Why says why it polls.
func (w *Watcher) Mode() (mode, why string) {
	if w.partial.Load() {
		return w.mode, "the system's watch limit was reached while folders were added: some are not watched (raise fs.inotify.max_user_watches and restart mem watch)"
	}
	return w.mode, w.why
}

// Dirs is how many folders are watched (or walked, when polling).
func (w *Watcher) Dirs() int { return int(w.dirs.Load()) }

// Changes receives a value after one or more changes.
func (w *Watcher) Changes() <-chan struct{} { return w.changes }

// Queue is how many changes were seen since the last Take.
func (w *Watcher) Queue() int { return int(w.queue.Load()) }

// Gen counts every change seen since the start: while it stays the same,
// nothing under root changed (in fsnotify mode, with every folder watched).
func (w *Watcher) Gen() int64 { return w.gen.Load() }

// Complete says whether every change is seen as it happens: fsnotify
// with every folder watched (polling sees a change only at its next look).
func (w *Watcher) Complete() bool { return w.mode == "fsnotify" && !w.partial.Load() }

// Take resets the queue, returning how many changes it held.
func (w *Watcher) Take() int { return int(w.queue.Swap(0)) }

// Close stops watching.
func (w *Watcher) Close() {
	close(w.stop)
	if w.fsw != nil {
		w.fsw.Close()
	}
	w.done.Wait()
}

func (w *Watcher) changed() {
	w.gen.Add(1)
	w.queue.Add(1)
	select {
	case w.changes <- struct{}{}:
	default:
	}
}

func (w *Watcher) rel(path string) string {
	rel, err := filepath.Rel(w.root, path)
	if err != nil {
		return path
	}
	return filepath.ToSlash(rel)
}

// addTree watches dir and every folder below it.
func (w *Watcher) addTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == dir {
				return err
			}
			return nil // vanished or unreadable meanwhile: its parent's events tell
		}
		if !d.IsDir() {
			return nil
		}
		if path != w.root && w.skip(w.rel(path)) {
			return filepath.SkipDir
		}
		if w.limit > 0 && int(w.dirs.Load()) >= w.limit {
			return syscall.ENOSPC
		}
		if err := w.fsw.Add(path); err != nil {
			if errors.Is(err, syscall.ENOSPC) || path == dir {
				return err
			}
			return nil
		}
		w.dirs.Add(1)
		return nil
	})
}

func (w *Watcher) events() {
	defer w.done.Done()
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			rel := w.rel(ev.Name)
			if w.skip(rel) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if fi, err := os.Lstat(ev.Name); err == nil && fi.IsDir() {
					// Files may have landed in it before its watch did; the
					// change signal below makes the caller look at them.
					if err := w.addTree(ev.Name); errors.Is(err, syscall.ENOSPC) {
						w.partial.Store(true)
					}
				}
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				w.dirs.Store(int64(len(w.fsw.WatchList())))
			}
			w.changed()
		case _, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			// An overflowed queue lost events: look at everything.
			w.changed()
		case <-w.stop:
			return
		}
	}
}

// poll fingerprints the tree (every path, size and time) each
// PollInterval and reports a change when the fingerprint moves.
func (w *Watcher) poll() {
	defer w.done.Done()
	last := w.fingerprint()
	t := time.NewTicker(PollInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if fp := w.fingerprint(); fp != last {
				last = fp
				w.changed()
			}
		case <-w.stop:
			return
		}
	}
}

func (w *Watcher) fingerprint() [32]byte {
	h := sha256.New()
	dirs := 0
	filepath.WalkDir(w.root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel := w.rel(path)
		if path != w.root && w.skip(rel) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			dirs++
		}
		fi, err := d.Info()
		if err != nil {
			return nil
		}
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%o\n", rel, fi.Size(), fi.ModTime().UnixNano(), fi.Mode())
		return nil
	})
	w.dirs.Store(int64(dirs))
	var sum [32]byte
	h.Sum(sum[:0])
	return sum
}
