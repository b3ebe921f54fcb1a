package gitrepo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// HookTop is the top of the work tree holding dir: the nearest folder at
// or above it with a .git folder (a worktree's .git file does not count:
// its hooks are another repository's).
func HookTop(dir string) (string, error) {
	for top := dir; ; {
		if fi, err := os.Stat(filepath.Join(top, ".git")); err == nil && fi.IsDir() {
			return top, nil
		}
		parent := filepath.Dir(top)
		if parent == top {
			return "", fmt.Errorf("%s: not inside a git repository with a .git folder; run git init first", dir)
		}
		top = parent
	}
}

// WriteHook writes script as the hook called name of the repository whose
// work tree's top is top, unless a hook of that name is there: a hook is
// never replaced. It returns the hook's path and, when one was there, its
// bytes (nothing is written then).
func WriteHook(top, name, script string) (path string, existing []byte, err error) {
	path = filepath.Join(top, ".git", "hooks", name)
	if _, err := os.Lstat(path); err == nil {
		old, err := os.ReadFile(path)
		if err != nil {
			old = []byte{} // there, but unreadable: still never replaced
		}
		return path, old, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return path, nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return path, nil, err
	}
	return path, nil, writeReplace(path, []byte(script), 0o755)
}

// writeReplace writes data to a temporary file beside p and renames it over
// p, so a reader sees the old file or the new one, never a part.
func writeReplace(p string, data []byte, perm fs.FileMode) error {
	tmp := p + ".mem-tmp"
	if err := os.WriteFile(tmp, data, perm); err != nil {
		return err
	}
	// WriteFile's mode is filtered by the umask; a hook must be executable.
	if err := os.Chmod(tmp, perm); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, p); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
