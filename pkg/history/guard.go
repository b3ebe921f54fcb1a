package history

import (
	"strings"
	"time"
	"unicode"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// The guards of a sync are this machine's (spec §9): the mass-delete share
// and minimum and the size limit are read from the local mem.yaml, and an
// incoming mem.yaml is held back (held.go), so a remote cannot switch a
// guard off in one sync and wipe the memories in the next.

// fileAt reads the file at repository path p in commit h (nil when the
// commit or the file is absent).
func (r *Repo) fileAt(h gitrepo.Hash, p string) ([]byte, error) {
	if h.IsZero() {
		return nil, nil
	}
	c, err := r.git.Commit(h)
	if err != nil {
		return nil, r.damagedObject("commit", h, "", err)
	}
	f, ok, err := r.git.Entry(c.TreeHash, p)
	if err != nil || !ok || f.Mode == gitrepo.Dir || f.Mode == gitrepo.Submodule {
		return nil, nil
	}
	data, err := r.blob(f.Hash)
	if err != nil {
		return nil, r.damagedObject("blob", f.Hash, p, err)
	}
	return data, nil
}

// silenced says how the change from old to new (zero: deleted) takes a
// memory out of the views, or "" when it does not: the rule a mass change
// counts (spec §9) so that a wipe in disguise is a wipe. old must have been
// a live memory: a claim that parses, of a memory type, not retired or
// deprecated, with text, clean by the content rules.
func (r *Repo) silenced(old, new gitrepo.Hash, now time.Time) string {
	data, err := r.blob(old)
	if err != nil {
		return ""
	}
	was, err := vault.ParseFile(data)
	if err != nil || was == nil || !live(was) || blocked(data, was, now, r.v.Config.Gate) {
		return ""
	}
	if new.IsZero() {
		return "removed"
	}
	if data, err = r.blob(new); err != nil {
		return "unreadable"
	}
	is, err := vault.ParseFile(data)
	switch {
	case err != nil || is == nil || !is.HasFrontmatter:
		return "no longer parses"
	case !frontmatter.IsMemoryType(frontmatter.EffectiveType(is.Meta.Type)):
		return "retyped"
	case !is.Meta.InvalidAt.IsZero():
		return "retired"
	case is.Meta.IsDeprecated():
		return "deprecated"
	case blank(is.Body):
		return "emptied"
	case blocked(data, is, now, r.v.Config.Gate):
		return "rewritten so the rules refuse it"
	}
	return ""
}

func live(d *frontmatter.Document) bool {
	return d.HasFrontmatter && frontmatter.IsMemoryType(frontmatter.EffectiveType(d.Meta.Type)) &&
		d.Meta.InvalidAt.IsZero() && !d.Meta.IsDeprecated() && !blank(d.Body)
}

// blank is a body with no letter or digit: nothing a view would show.
func blank(body string) bool {
	return strings.IndexFunc(body, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) }) < 0
}

// blocked reports a memory the content rules keep out of every view.
func blocked(raw []byte, d *frontmatter.Document, now time.Time, cfg vault.GateConfig) bool {
	for _, f := range rules.Memory(string(raw), d, now, cfg) {
		if !f.Minor {
			return true
		}
	}
	return false
}

// lostIncoming counts the memories of chs (a diff from this machine's head
// to what a merge would make) that the change silences, and of those the
// ones still there under their name (emptied, retyped, retired, ...).
func (r *Repo) lostIncoming(chs []gitrepo.Change, now time.Time) (lost, disguised int) {
	for _, c := range chs {
		rel, ok := r.vaultRel(c.Path)
		if !ok || !r.v.IsMemoryPath(rel) || c.Added() {
			continue
		}
		nh := c.New
		if c.Deleted() {
			nh = gitrepo.ZeroHash
		}
		switch r.silenced(c.Old, nh, now) {
		case "":
		case "removed":
			lost++
		default:
			lost++
			disguised++
		}
	}
	return lost, disguised
}
