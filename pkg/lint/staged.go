package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// StagedCommit is what Staged read of the commit being made.
type StagedCommit struct {
	Paths    []string  // the vault-relative .md files it adds or changes (to lint)
	Problems []Problem // a mass deletion, an emptied view
	// Removed of Of memories in HEAD the commit deletes; Allowed is the
	// most it may delete (lint.mass_delete_share and mass_delete_min), so
	// the summary says it rather than a count of files linted.
	Removed, Of, Allowed int
}

// Staged reads the commit being made in the vault's git repository: the
// files it adds or changes, and problems for a commit that deletes more
// than lint.mass_delete_share of the memories in HEAD or empties a
// rendered view.
//
// It runs the git program (gitrepo.Program.InWorkTree, in the vault folder)
// rather than go-git: a hook runs inside `git commit`, which may point
// GIT_INDEX_FILE at a temporary index (`git commit -a`, `git commit PATH`);
// git honours that and every index extension, go-git reads .git/index only.
// env is the hook's environment, which holds that GIT_INDEX_FILE.
func Staged(v *vault.Vault, env []string) (*StagedCommit, error) {
	git := gitrepo.Program{Env: env}
	_, err := git.InWorkTree(v.Root, "rev-parse", "--verify", "-q", "HEAD")
	hasHead := err == nil
	sc := &StagedCommit{}
	deleted, err := sc.staged(v, git, hasHead)
	if err != nil {
		return nil, err
	}
	if !hasHead {
		return sc, nil
	}
	if err := sc.massDeletion(v, git, deleted); err != nil {
		return nil, err
	}
	sc.emptiedViews(v, git)
	return sc, nil
}

// staged lists the memories the commit adds or changes into sc.Paths and
// returns those it deletes.
func (sc *StagedCommit) staged(v *vault.Vault, git gitrepo.Program, hasHead bool) (deleted []string, err error) {
	args := []string{"diff", "--cached", "--name-status", "-z", "--no-renames", "--relative"}
	if hasHead {
		args = append(args, "HEAD")
	}
	out, err := git.InWorkTree(v.Root, args...)
	if err != nil {
		return nil, err
	}
	fields := strings.Split(strings.TrimSuffix(out, "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		status, rel := fields[i], fields[i+1]
		if !v.IsMemoryPath(rel) {
			continue
		}
		switch status[0] {
		case 'D':
			deleted = append(deleted, rel)
		case 'A', 'C', 'M', 'R', 'T':
			sc.Paths = append(sc.Paths, rel)
		}
	}
	return deleted, nil
}

// massDeletion weighs the deleted memories against those in HEAD, and
// adds a problem when they are more than the share allows.
func (sc *StagedCommit) massDeletion(v *vault.Vault, git gitrepo.Program, deleted []string) error {
	tree, err := git.InWorkTree(v.Root, "ls-tree", "-r", "--name-only", "-z", "HEAD")
	if err != nil {
		return err
	}
	total := 0
	for _, rel := range strings.Split(tree, "\x00") {
		if v.IsMemoryPath(rel) {
			total++
		}
	}
	gone, share := len(deleted), v.Config.Lint.MassDeleteShare
	// The most IsMassDeletion lets through: under the minimum, or within the share.
	sc.Removed, sc.Of, sc.Allowed = gone, total, max(v.Config.Lint.MassDeleteMin-1, int(share*float64(total)))
	if v.Config.Lint.IsMassDeletion(gone, total) {
		// Pointed at the first file it deletes, which the message names
		// with the rest: mem.yaml:1:1 is not where the problem is.
		slices.Sort(deleted)
		sc.Problems = append(sc.Problems, Problem{Path: deleted[0], Line: 1, Column: 1, Severity: Error, Rule: "mass-deletion",
			Message: fmt.Sprintf("this commit deletes %d of the %d memories in HEAD (%s; %.0f%%), more than lint.mass_delete_share %.0f%%: if that is meant, raise the share in mem.yaml or commit with --no-verify; otherwise restore them with 'git restore --staged --worktree .'", gone, total, capList(deleted, 3), 100*float64(gone)/float64(total), 100*share)})
	}
	return nil
}

// emptiedViews adds a problem for each view mem rendered in HEAD that the
// commit empties.
func (sc *StagedCommit) emptiedViews(v *vault.Vault, git gitrepo.Program) {
	for _, rel := range v.ViewRels() {
		before, err := git.InWorkTree(v.Root, "show", "HEAD:./"+rel)
		if err != nil || strings.TrimSpace(viewText([]byte(before))) == "" {
			continue // not tracked, or already empty
		}
		if !viewfmt.IsView([]byte(before)) {
			continue // a MEMORY.md mem did not render: the user's to empty
		}
		after, err := git.InWorkTree(v.Root, "show", ":./"+rel)
		if err == nil && strings.TrimSpace(viewText([]byte(after))) != "" {
			continue
		}
		sc.Problems = append(sc.Problems, Problem{Path: rel, Line: 1, Column: 1, Severity: Error, Rule: "render-emptied",
			Message: "this commit empties a rendered memory view that HEAD has: re-run 'mem render' (or restore it with 'git restore --staged --worktree " + rel + "')"})
	}
}

// viewText is what mem renders in a file: the spliced zone when there is
// one, else the whole file.
func viewText(data []byte) string {
	doc, _, _ := viewfmt.Doc(data)
	return string(doc)
}
