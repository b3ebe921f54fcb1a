package history

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/render"
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
	return r.unlike(data, now)
}

// unlike says how data, the new version of a live memory, no longer is
// one the view shows ("" when it still is).
func (r *Repo) unlike(data []byte, now time.Time) string {
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

// lostIncoming lists the memories of chs (a diff from this machine's head
// to what a merge would make) that the change silences, by path, with how:
// "removed", or how one still there under its name was silenced (emptied,
// retyped, retired, ...).
func (r *Repo) lostIncoming(chs []gitrepo.Change, now time.Time) map[string]string {
	lost := map[string]string{}
	for _, c := range chs {
		rel, ok := r.vaultRel(c.Path)
		if !ok || !r.v.IsMemoryPath(rel) || c.Added() {
			continue
		}
		nh := c.New
		if c.Deleted() {
			nh = gitrepo.ZeroHash
		}
		if how := r.silenced(c.Old, nh, now); how != "" {
			lost[rel] = how
		}
	}
	return lost
}

// leftView lists, by path, the memories this machine's views render at
// head that they no longer render once chs (head to the merge) is applied,
// with why: silencing is removal (spec §9), whatever does it — importance
// lowered under render.min_global_importance, a project that names no
// project, a past stale_after, a newer claim on the same key, a
// supersedes. Both sides are decided by this machine's mem.yaml, so only
// the incoming files make a difference. The memories at head are the
// working tree's (the sync committed it before fetching); the changed
// ones are read from git.
//
// It also refuses an incoming file that takes the id of a different
// memory here (spec §9): two files with one id make show and retire
// ambiguous, and the newcomer could render in the original's place. The
// same imported item (one source) arriving from two machines is not a
// clash.
func (r *Repo) leftView(chs []gitrepo.Change, url string, now time.Time) (map[string]string, error) {
	touched := map[string]gitrepo.Change{}
	for _, c := range chs {
		if rel, ok := r.vaultRel(c.Path); ok && r.v.IsMemoryPath(rel) {
			touched[rel] = c
		}
	}
	if len(touched) == 0 {
		return nil, nil
	}
	before, err := r.v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	after, kept, err := r.withIncoming(before, touched)
	if err != nil {
		return nil, err
	}
	if err := idClash(before, after[kept:], touched, url); err != nil {
		return nil, err
	}
	return leavers(before, after, render.OptionsFor(r.v, nil, 0, now), r.v), nil
}

// withIncoming is the vault's memories (before) with the incoming changes
// touched applied: the untouched ones first (kept of them), then the
// incoming versions in path order.
func (r *Repo) withIncoming(before []*vault.Memory, touched map[string]gitrepo.Change) (after []*vault.Memory, kept int, err error) {
	after = make([]*vault.Memory, 0, len(before)+len(touched))
	for _, m := range before {
		if _, ok := touched[m.Rel]; !ok {
			after = append(after, m)
			kept++
		}
	}
	for _, rel := range slices.Sorted(maps.Keys(touched)) {
		c := touched[rel]
		if c.Deleted() {
			continue
		}
		data, err := r.blob(c.New)
		if err != nil {
			return nil, 0, r.damagedObject("blob", c.New, c.Path, err)
		}
		after = append(after, r.v.Parsed(rel, data))
	}
	return after, kept, nil
}

// leavers are the memories the view selects from before but not from
// after, each with the reason render gives ("removed" when none).
func leavers(before, after []*vault.Memory, opts render.Options, v *vault.Vault) map[string]string {
	was, _ := render.Selected(before, v.Projects(before), opts)
	is, why := render.Selected(after, v.Projects(after), opts)
	inAfter := make(map[string]bool, len(is))
	for m := range is {
		inAfter[m.Rel] = true
	}
	reason := make(map[string]string, len(why))
	for m, w := range why {
		reason[m.Rel] = w
	}
	left := map[string]string{}
	for m := range was {
		if !inAfter[m.Rel] {
			left[m.Rel] = cmp.Or(reason[m.Rel], "removed")
		}
	}
	return left
}

// idClash refuses an incoming memory whose id a different memory here
// holds, at a path the incoming change leaves in place.
func idClash(before, incoming []*vault.Memory, touched map[string]gitrepo.Change, url string) error {
	here := make(map[string]*vault.Memory, len(before))
	for _, m := range before {
		here[m.Rel] = m
	}
	byID := make(map[string]*vault.Memory, len(before))
	for _, m := range before {
		if _, changed := touched[m.Rel]; !changed {
			byID[m.ID] = m
		}
	}
	for _, m := range incoming {
		if was := here[m.Rel]; was != nil && was.ID == m.ID {
			continue // its own id, as before
		}
		o := byID[m.ID]
		if o == nil || m.Doc != nil && o.Doc != nil && m.Doc.Meta.Source != "" && m.Doc.Meta.Source == o.Doc.Meta.Source {
			continue
		}
		return &RefusedError{fmt.Sprintf("refused %s: %s takes the id %q of %s here (two memories with one id make 'mem show' and 'mem retire' ambiguous, and the newcomer could render in its place); nothing here changed: give it an id of its own on the remote, or remove it there, then run 'mem sync' again",
			url, rules.Escape(m.Rel), rules.Escape(m.ID), rules.Escape(o.Rel))}
	}
	return nil
}
