package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// Staged reads the commit being made in the vault's git repository: the
// vault-relative .md files it adds or changes (to lint), and problems for a
// commit that deletes more than lint.mass_delete_share of the memories in
// HEAD or empties a rendered view.
//
// It runs the git program (gitrepo.Program.InWorkTree, in the vault folder)
// rather than go-git: a hook runs inside `git commit`, which may point
// GIT_INDEX_FILE at a temporary index (`git commit -a`, `git commit PATH`);
// git honours that and every index extension, go-git reads .git/index only.
func Staged(v *vault.Vault) (paths []string, problems []Problem, err error) {
	_, err = gitrepo.Program{}.InWorkTree(v.Root, "rev-parse", "--verify", "-q", "HEAD")
	hasHead := err == nil
	args := []string{"diff", "--cached", "--name-status", "-z", "--no-renames", "--relative"}
	if hasHead {
		args = append(args, "HEAD")
	}
	out, err := gitrepo.Program{}.InWorkTree(v.Root, args...)
	if err != nil {
		return nil, nil, err
	}
	var deleted []string
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
			paths = append(paths, rel)
		}
	}
	if !hasHead {
		return paths, nil, nil
	}
	tree, err := gitrepo.Program{}.InWorkTree(v.Root, "ls-tree", "-r", "--name-only", "-z", "HEAD")
	if err != nil {
		return nil, nil, err
	}
	total := 0
	for _, rel := range strings.Split(tree, "\x00") {
		if v.IsMemoryPath(rel) {
			total++
		}
	}
	gone, share := len(deleted), v.Config.Lint.MassDeleteShare
	if v.Config.Lint.IsMassDeletion(gone, total) {
		// Pointed at the first file it deletes, which the message names
		// with the rest: mem.yaml:1:1 is not where the problem is.
		slices.Sort(deleted)
		problems = append(problems, Problem{Path: deleted[0], Line: 1, Column: 1, Severity: Error, Rule: "mass-deletion",
			Message: fmt.Sprintf("this commit deletes %d of the %d memories in HEAD (%s; %.0f%%), more than lint.mass_delete_share %.0f%%: if that is meant, raise the share in mem.yaml or commit with --no-verify; otherwise restore them with 'git restore --staged --worktree .'", gone, total, capList(deleted, 3), 100*float64(gone)/float64(total), 100*share)})
	}
	for _, rel := range views(v) {
		before, err := gitrepo.Program{}.InWorkTree(v.Root, "show", "HEAD:./"+rel)
		if err != nil || strings.TrimSpace(viewText([]byte(before))) == "" {
			continue // not tracked, or already empty
		}
		if !viewfmt.IsView([]byte(before)) {
			continue // a MEMORY.md mem did not render: the user's to empty
		}
		after, err := gitrepo.Program{}.InWorkTree(v.Root, "show", ":./"+rel)
		if err == nil && strings.TrimSpace(viewText([]byte(after))) != "" {
			continue
		}
		problems = append(problems, Problem{Path: rel, Line: 1, Column: 1, Severity: Error, Rule: "render-emptied",
			Message: "this commit empties a rendered memory view that HEAD has: re-run 'mem render' (or restore it with 'git restore --staged --worktree " + rel + "')"})
	}
	return paths, problems, nil
}

// views are the rendered outputs inside the vault: MEMORY.md and the
// configured render outputs.
func views(v *vault.Vault) []string {
	out := []string{"MEMORY.md"}
	for _, rel := range v.OutputRels() {
		if rel != "MEMORY.md" {
			out = append(out, rel)
		}
	}
	return out
}

// viewText is what mem renders in a file: the spliced zone when there is
// one, else the whole file.
func viewText(data []byte) string {
	doc, _, _ := viewfmt.Doc(data)
	return string(doc)
}
