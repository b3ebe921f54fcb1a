package history

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// LogEntry is one commit in the history of the vault or of one file.
type LogEntry struct {
	Commit  string    `json:"commit"`
	Time    time.Time `json:"time"`
	Author  string    `json:"author"`
	Subject string    `json:"subject"`
	// For a file's history: A (added), M (modified) or D (deleted), and the
	// memory's one-line summary as of that commit. A log is a read (spec
	// §8): secrets in the subject and the summary are redacted, and a
	// summary that breaks an injection rule is marked "[flagged: rule] ".
	Status  string `json:"status,omitempty"`
	Summary string `json:"summary,omitempty"`
}

// Log lists, newest first, the commits that changed the vault (rel empty)
// or the vault file rel, following first parents from HEAD. limit <= 0
// means all.
func (r *Repo) Log(rel string, limit int) ([]LogEntry, error) {
	var out []LogEntry
	target := r.prefix
	if rel != "" {
		target = r.repoPath(rel)
	}
	err := r.walkChanges(target, func(c *object.Commit, now, before plumbing.Hash) bool {
		e := LogEntry{Commit: c.Hash.String(), Time: c.Committer.When, Author: c.Author.Name, Subject: rules.Show(strings.SplitN(c.Message, "\n", 2)[0])}
		if rel != "" {
			switch {
			case before.IsZero():
				e.Status = "A"
			case now.IsZero():
				e.Status = "D"
			default:
				e.Status = "M"
			}
			h := now
			if now.IsZero() {
				h = before
			}
			if data, err := r.blob(h); err == nil {
				if doc, err := vault.ParseFile(data); err == nil {
					e.Summary = rules.Show(doc.Summary())
				}
			}
		}
		out = append(out, e)
		return limit <= 0 || len(out) < limit
	})
	return out, err
}

// walkChanges calls fn, newest first along first parents, for each commit
// whose entry at target (a repository path; "" is the whole tree) differs
// from its parent's, with the entry's hash in the commit and in the parent
// (zero where absent). fn returns false to stop.
func (r *Repo) walkChanges(target string, fn func(c *object.Commit, now, before plumbing.Hash) bool) error {
	c, err := r.head()
	if err != nil || c == nil {
		return err
	}
	now, err := r.hashAt(c, target)
	if err != nil {
		return err
	}
	for c != nil {
		var parent *object.Commit
		before := plumbing.ZeroHash
		if len(c.ParentHashes) > 0 {
			if parent, err = r.git.CommitObject(c.ParentHashes[0]); err != nil {
				return fmt.Errorf("commit %s: parent %s: %w", short(c.Hash), short(c.ParentHashes[0]), err)
			}
			if before, err = r.hashAt(parent, target); err != nil {
				return err
			}
		}
		if now != before && !fn(c, now, before) {
			return nil
		}
		c, now = parent, before
	}
	return nil
}

// hashAt is the hash of the tree or blob at p in commit c (zero if absent).
func (r *Repo) hashAt(c *object.Commit, p string) (plumbing.Hash, error) {
	t, err := c.Tree()
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %w", short(c.Hash), err)
	}
	if p == "" {
		return t.Hash, nil
	}
	e, err := t.FindEntry(p)
	if errors.Is(err, object.ErrEntryNotFound) || errors.Is(err, object.ErrDirectoryNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %s: %w", short(c.Hash), p, err)
	}
	return e.Hash, nil
}

// LastCommit is the time and hash of the vault's HEAD commit; ok is false
// when nothing was committed yet.
func (r *Repo) LastCommit() (when time.Time, hash string, ok bool, err error) {
	c, err := r.head()
	if err != nil || c == nil {
		return time.Time{}, "", false, err
	}
	return c.Committer.When, c.Hash.String(), true, nil
}

// LastCommit opens the vault's repository and reports its HEAD commit
// (for the audit's "age of the last commit"). It reads HEAD only and runs
// no git program, so it takes no environment.
func LastCommit(v *vault.Vault) (when time.Time, hash string, ok bool, err error) {
	r, err := Open(v, Env{})
	if err != nil {
		return time.Time{}, "", false, err
	}
	return r.LastCommit()
}
