package history

import (
	"fmt"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/gitrepo"
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
	err := r.walkChanges(target, func(c *gitrepo.Commit, before gitrepo.Hash) (bool, error) {
		e := LogEntry{Commit: c.Hash.String(), Time: c.Committer.When, Author: c.Author.Name, Subject: rules.Show(strings.SplitN(c.Message, "\n", 2)[0])}
		if rel != "" {
			chs, err := r.git.Diff(before, c.TreeHash, target)
			if err != nil {
				return false, fmt.Errorf("commit %s: %w", short(c.Hash), err)
			}
			if len(chs) == 0 || chs[0].Old == chs[0].New {
				return true, nil // a mode change: the file's content is as before
			}
			ch, h := chs[0], chs[0].New
			switch {
			case ch.Added():
				e.Status = "A"
			case ch.Deleted():
				e.Status, h = "D", ch.Old
			default:
				e.Status = "M"
			}
			if data, err := r.blob(h); err == nil {
				if doc, err := vault.ParseFile(data); err == nil {
					e.Summary = rules.Show(doc.Summary())
				}
			}
		}
		out = append(out, e)
		return limit <= 0 || len(out) < limit, nil
	})
	return out, err
}

// walkChanges calls fn, newest first along first parents, for each commit
// whose tree differs from its parent's at target (a repository path, a
// folder or a file; "" is the whole tree), with the parent's tree (zero
// for a root commit). fn returns false to stop.
func (r *Repo) walkChanges(target string, fn func(c *gitrepo.Commit, before gitrepo.Hash) (bool, error)) error {
	c, err := r.head()
	if err != nil || c == nil {
		return err
	}
	for c != nil {
		var parent *gitrepo.Commit
		before := gitrepo.ZeroHash
		if len(c.ParentHashes) > 0 {
			if parent, err = r.git.Commit(c.ParentHashes[0]); err != nil {
				return fmt.Errorf("commit %s: parent %s: %w", short(c.Hash), short(c.ParentHashes[0]), err)
			}
			before = parent.TreeHash
		}
		changed, err := r.git.Changed(before, c.TreeHash, target)
		if err != nil {
			return fmt.Errorf("commit %s: %w", short(c.Hash), err)
		}
		if changed {
			if more, err := fn(c, before); err != nil || !more {
				return err
			}
		}
		c = parent
	}
	return nil
}

// LastCommit is the time and hash of the vault's HEAD commit; ok is false
// when nothing was committed yet.
//
// The age counts from mem's first commit in the vault: a HEAD whose tree
// holds no mem.yaml is the owner's history from before mem (a vault just
// initialised in an old repository), reported with ok false and its hash,
// so the audit says "run mem commit" instead of failing on a commit mem
// never made.
func (r *Repo) LastCommit() (when time.Time, hash string, ok bool, err error) {
	c, err := r.head()
	if err != nil || c == nil {
		return time.Time{}, "", false, err
	}
	if _, has, err := r.git.Entry(c.TreeHash, r.repoPath(vault.ConfigFile)); err != nil || !has {
		return c.Committer.When, c.Hash.String(), false, err
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
