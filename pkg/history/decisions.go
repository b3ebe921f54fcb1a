package history

import (
	"errors"
	"fmt"
	"path"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// decisionsHeader opens the list of decisions in the message of a merge
// commit mem sync makes; the decisions are read back from there, so the
// machine whose version lost is told (docs/sync.md).
const decisionsHeader = "Decided memory by memory (docs/sync.md; the losing versions stay in this commit's other parent):"

// The labels mergeFile gives the two sides in a decision, from the view
// of the machine that merged: its own head is the merge's first parent.
const (
	labelOurs   = "this machine"
	labelRemote = "the remote"
)

// Decision is one decision a sync's merge commit records, with the
// parent that holds the version that lost.
type Decision struct {
	Merge string    `json:"merge"`
	Time  time.Time `json:"time"`
	Path  string    `json:"path"`     // vault-relative
	Line  string    `json:"decision"` // as the merge commit records it
	Lost  string    `json:"lost"`     // the merge's parent whose version lost
	won   gitrepo.Hash
	// Summary is the losing version's one-line summary, as a read shows it
	// (§8: redacted, an injection marked); empty when it does not parse.
	Summary string `json:"summary,omitempty"`
}

// decisionsOf reads the decisions the message of merge c records; a line
// whose losing side cannot be told (a message not written by mem) is left
// out.
func decisionsOf(c *gitrepo.Commit) []Decision {
	_, list, ok := strings.Cut(c.Message, decisionsHeader+"\n")
	if !ok || len(c.ParentHashes) != 2 {
		return nil
	}
	var out []Decision
	for _, line := range strings.Split(list, "\n") {
		line, ok := strings.CutPrefix(line, "- ")
		if !ok {
			break
		}
		rel, text, ok := strings.Cut(line, ": ")
		lost, known := losingParent(text)
		if !ok || !known {
			continue
		}
		out = append(out, Decision{Merge: c.Hash.String(), Time: c.Committer.When, Path: rel, Line: line,
			Lost: c.ParentHashes[lost].String(), won: c.ParentHashes[1-lost]})
	}
	return out
}

// losingParent is the index of the merge parent whose version a decision
// (the text after its path) turned down.
func losingParent(text string) (int, bool) {
	switch {
	case strings.Contains(text, "kept "+labelOurs+"'s"), strings.Contains(text, "edited on "+labelOurs):
		return 1, true
	case strings.Contains(text, "kept "+labelRemote+"'s"), strings.Contains(text, "edited on "+labelRemote):
		return 0, true
	}
	return 0, false
}

// LostVersions lists, newest first, the decisions recorded in the sync
// merges of HEAD's history that turned down a version of the vault file
// rel, each with the parent that holds that version (mem show).
func (r *Repo) LostVersions(rel string) ([]Decision, error) {
	out, err := r.env.Git().Run(r.gitDir, "rev-list", "--merges", "--fixed-strings", "--grep", decisionsHeader, "HEAD", "--")
	var ge *gitrepo.Error
	if errors.As(err, &ge) && strings.Contains(ge.Stderr, "unknown revision") {
		return nil, nil // no commit yet
	}
	if err != nil {
		return nil, err
	}
	var list []Decision
	for _, h := range strings.Fields(out) {
		c, err := r.git.Commit(gitrepo.NewHash(h))
		if err != nil {
			return nil, r.damagedObject("commit", gitrepo.NewHash(h), "a sync merge", err)
		}
		for _, d := range decisionsOf(c) {
			if d.Path != rel {
				continue
			}
			if data, _ := r.fileAt(gitrepo.NewHash(d.Lost), r.repoPath(rel)); data != nil {
				if doc, err := vault.ParseFile(data); err == nil && doc != nil {
					d.Summary = rules.Show(doc.Summary())
				}
			}
			list = append(list, d)
		}
	}
	return list, nil
}

// tellOverruled adds to res.Overruled the decisions that merges another
// machine made, which head lacks and remote brings, turned against this
// machine: the version that lost is in head's history and the one that
// won is not (a merge of two versions this machine had already merged
// itself tells it nothing new). It is how the machine whose edit lost is
// told (spec §9). in are the commits remote brings (checkFetched): when no
// merge among them records a decision, there is nothing to tell and git
// is not asked which of them it finds.
func (r *Repo) tellOverruled(head, remote gitrepo.Hash, in []string, res *SyncResult) error {
	if head.IsZero() || remote.IsZero() || head == remote || !anyDecision(r.git, in) {
		return nil
	}
	out, err := r.env.Git().Run(r.gitDir, "rev-list", "--merges", "--fixed-strings", "--grep", decisionsHeader, head.String()+".."+remote.String(), "--")
	if err != nil {
		return err
	}
	var ds []Decision
	for _, h := range strings.Fields(out) {
		c, err := r.git.Commit(gitrepo.NewHash(h))
		if err != nil {
			return r.damagedObject("commit", gitrepo.NewHash(h), "the remote's history", err)
		}
		ds = append(ds, decisionsOf(c)...)
	}
	if len(ds) == 0 {
		return nil
	}
	// Which sides head holds, asked of git once for all (a side is a
	// merge's parent: each merge's two are asked once): rev-list lists what
	// the sides hold and head does not, so a side it does not list is in
	// head's history, as git merge-base --is-ancestor would say.
	args, asked := []string{"rev-list"}, map[gitrepo.Hash]bool{}
	for _, d := range ds {
		for _, side := range []gitrepo.Hash{gitrepo.NewHash(d.Lost), d.won} {
			if !asked[side] {
				asked[side] = true
				args = append(args, side.String())
			}
		}
	}
	out, err = r.env.Git().Run(r.gitDir, append(args, "--not", head.String(), "--")...)
	if err != nil {
		return err
	}
	outside := map[gitrepo.Hash]bool{}
	for _, h := range strings.Fields(out) {
		outside[gitrepo.NewHash(h)] = true
	}
	for _, d := range ds {
		if !outside[gitrepo.NewHash(d.Lost)] && outside[d.won] {
			res.Overruled = append(res.Overruled, toldLine(d))
		}
	}
	return nil
}

// anyDecision reports whether a commit of list records a decision
// (decisionsOf): the commits git's search for them can return are among
// them, and only their decisions are told.
func anyDecision(g *gitrepo.Repo, list []string) bool {
	for _, h := range list {
		if c, err := g.Commit(gitrepo.NewHash(h)); err != nil || len(decisionsOf(c)) > 0 {
			return true // unreadable: the search and its reads say what
		}
	}
	return false
}

// toldLine words d for the machine whose version lost: the labels of the
// machine that merged are turned round ("this machine" is the loser here).
func toldLine(d Decision) string {
	_, text, _ := strings.Cut(d.Line, ": ")
	winner := labelRemote
	if l, _ := losingParent(text); l == 1 {
		winner = labelOurs
	}
	loser := labelOurs
	if winner == labelOurs {
		loser = labelRemote
	}
	text = strings.NewReplacer(loser, labelOurs, winner, "the other machine").Replace(text)
	see := fmt.Sprintf("'git show %s:%s' shows this machine's version", short(gitrepo.NewHash(d.Lost)), d.Path)
	if strings.HasSuffix(d.Path, ".md") {
		see = fmt.Sprintf("'mem show %s' lists this machine's version", strings.TrimSuffix(path.Base(d.Path), ".md"))
	}
	return fmt.Sprintf("%s: merged by another machine on %s in %s: %s; %s", d.Path, d.Time.UTC().Format("2006-01-02"), short(gitrepo.NewHash(d.Merge)), text, see)
}
