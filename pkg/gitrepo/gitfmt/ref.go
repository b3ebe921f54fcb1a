package gitfmt

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// PublishRef finishes git's lock-file protocol for a ref: the caller
// created f at lockPath ("<ref>.lock") exclusively and checked the ref;
// PublishRef writes h into it, fsyncs and closes it and renames it over
// the ref. A crash leaves either the old ref or the new one (and at worst
// the stale lock). On failure the caller closes f and removes the lock.
func PublishRef(f *os.File, lockPath string, h plumbing.Hash) error {
	if _, err := io.WriteString(f, h.String()+"\n"); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	p := strings.TrimSuffix(lockPath, ".lock")
	if err := os.Rename(lockPath, p); err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	SyncDir(filepath.Dir(p))
	return nil
}

// AppendReflog adds git's reflog line for name moving from old to new to
// name's reflog and to HEAD's. The reflog is a convenience (git fsck does
// not need it), so a failure here is not reported.
func AppendReflog(gitDir string, name plumbing.ReferenceName, old, new plumbing.Hash, who object.Signature, msg string) {
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, new, who.Name, who.Email, who.When.Unix(), who.When.Format("-0700"), strings.SplitN(msg, "\n", 2)[0])
	logs := []string{name.String()}
	if name != plumbing.HEAD {
		logs = append(logs, "HEAD")
	}
	for _, l := range logs {
		appendLine(filepath.Join(gitDir, "logs", filepath.FromSlash(l)), line)
	}
}

func appendLine(p, line string) {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	f.WriteString(line)
	f.Close()
}
