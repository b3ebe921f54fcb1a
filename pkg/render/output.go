package render

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// sameButTime reports whether two rendered documents differ at most in
// their second line, the render time. Rewriting a file for that alone would
// churn its mtime, wake file watchers and dirty git for nothing.
func sameButTime(old, doc []byte) bool {
	o1, o2, ok1 := cutTimeLine(old)
	n1, n2, ok2 := cutTimeLine(doc)
	return ok1 && ok2 && bytes.Equal(o1, n1) && bytes.Equal(o2, n2)
}

// cutTimeLine splits a document around its time line: the first line and
// everything after the second.
func cutTimeLine(doc []byte) (first, rest []byte, ok bool) {
	i := bytes.IndexByte(doc, '\n')
	if i < 0 || !bytes.HasPrefix(doc[i+1:], []byte(timeLinePre)) {
		return nil, nil, false
	}
	j := bytes.IndexByte(doc[i+1:], '\n')
	if j < 0 {
		return nil, nil, false
	}
	return doc[:i], doc[i+1+j:], true
}

// WriteFile writes doc to path atomically, unless the file already holds
// the same document but for its time line. It refuses to replace a file mem
// did not render (use --splice for those). It reports whether it wrote.
func WriteFile(path string, doc []byte) (bool, error) {
	path, old, perm, err := readTarget(path)
	if err != nil {
		return false, err
	}
	if old != nil {
		if sameButTime(old, doc) {
			return false, nil
		}
		if len(bytes.TrimSpace(old)) > 0 && !viewfmt.MayBeHeader(old) {
			return false, fmt.Errorf("%s: not a file mem rendered (its first line is not %q): mem will not overwrite it; use --splice %s to render into a marked zone of it, or move it away", path, viewfmt.Header+"...", path)
		}
	}
	if err := vault.WriteFileAtomic(path, doc, perm); err != nil {
		return false, err
	}
	return true, nil
}

// SpliceFile renders doc into the zone of the file at path (created if
// missing), unless the zone already holds it but for its time line. It
// reports whether it wrote.
func SpliceFile(path string, doc []byte) (bool, error) {
	path, old, perm, err := readTarget(path)
	if err != nil {
		return false, err
	}
	if start, end, found, err := viewfmt.Zone(old); err != nil {
		return false, fmt.Errorf("%s:%w", path, err)
	} else if found && sameButTime(old[start:end], viewfmt.EndingsOf(old, doc)) {
		return false, nil
	}
	out, err := viewfmt.Splice(old, doc)
	if err != nil {
		return false, fmt.Errorf("%s:%w", path, err)
	}
	if err := vault.WriteFileAtomic(path, out, perm); err != nil {
		return false, err
	}
	return true, nil
}

// readTarget resolves a symlinked output to its target (so the link stays a
// link) and reads the current content and mode; old is nil when the file
// does not exist yet.
func readTarget(path string) (resolved string, old []byte, perm fs.FileMode, err error) {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		path = r
	}
	perm = vault.FileMode()
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		// A view is written beside its folder's other files, never into
		// a folder made for it: a missing one is a moved project or a
		// typo in render.outputs, not something to create.
		dir := filepath.Dir(path)
		if di, err := os.Stat(dir); err != nil || !di.IsDir() {
			return path, nil, perm, fmt.Errorf("%s: its folder %s does not exist: create it, or fix the path (-o, or render.outputs in mem.yaml)", path, dir)
		}
		return path, nil, perm, nil
	case err != nil:
		return path, nil, perm, err
	case fi.IsDir():
		return path, nil, perm, fmt.Errorf("%s: is a directory: give a file path", path)
	}
	old, err = os.ReadFile(path)
	if old == nil && err == nil {
		old = []byte{} // exists but empty: not "missing"
	}
	return path, old, fi.Mode().Perm(), err
}

// restamp moves doc's time line to now: a kept render served again says
// when it was served, like a fresh one.
func restamp(doc []byte, now time.Time) []byte {
	first, rest, ok := cutTimeLine(doc)
	if !ok {
		return doc
	}
	out := make([]byte, 0, len(doc))
	out = append(out, first...)
	out = append(out, '\n')
	out = append(out, timeLinePre...)
	out = now.UTC().AppendFormat(out, time.RFC3339)
	out = append(out, " -->"...)
	return append(out, rest...)
}
