package vault

import (
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// ProjectIDPattern is the shape of a project id (spec §3).
var ProjectIDPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^proj_[a-z0-9_-]+$`) })

// Project is a project note: its id, display name and resolved roots.
type Project struct {
	ID    string
	Name  string
	Rel   string   // the project note's path
	Roots []string // absolute, cleaned, symlinks resolved where they exist
	// Enclosing are the projects with a root strictly containing one of
	// this project's roots, nearest (longest such root) first: a session of
	// a nested project belongs to each of them too (spec §5.1). They point
	// into the slice Projects returned.
	Enclosing []*Project
}

// IsProjectMemory reports Claude Code's type: project file, a memory
// about a project: neither a proj_ id nor roots, so it is no project note
// (lint's project-memory). mem reads it as another tool's note.
func IsProjectMemory(m *Memory) bool {
	meta := m.Meta()
	return m.OK() && meta.Type == frontmatter.TypeProject && !ProjectIDPattern().MatchString(m.ID) && len(meta.Roots) == 0
}

// Projects collects the project notes (type: project) of a loaded vault,
// sorted by id. Relative roots are relative to the vault root; ~ is the
// user's home directory.
func (v *Vault) Projects(mems []*Memory) []Project {
	var out []Project
	for _, m := range mems {
		if !m.OK() || m.Meta().Type != frontmatter.TypeProject {
			continue
		}
		p := Project{ID: m.ID, Name: m.Meta().Title, Rel: m.Rel}
		if p.Name == "" {
			p.Name = strings.TrimSuffix(filepath.Base(m.Rel), ".md")
		}
		for _, r := range m.Meta().Roots {
			// A root of / or the home folder would claim every directory:
			// it resolves nothing.
			if abs := resolveRoot(v.Root, v.Home, r); v.CheckRoot(abs, "a project root") == nil {
				p.Roots = append(p.Roots, abs)
			}
		}
		out = append(out, p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	linkEnclosing(out)
	return out
}

// linkEnclosing fills each project's Enclosing. Roots are compared by whole
// path components, as ResolveProject compares a directory.
func linkEnclosing(ps []Project) {
	type outer struct {
		p     *Project
		depth int // the length of its longest root holding one of ours
	}
	for i := range ps {
		var outers []outer
		for j := range ps {
			o := outer{p: &ps[j]}
			for _, out := range ps[j].Roots {
				for _, in := range ps[i].Roots {
					if i != j && in != out && within(out, in) {
						o.depth = max(o.depth, len(out))
					}
				}
			}
			if o.depth > 0 {
				outers = append(outers, o)
			}
		}
		sort.Slice(outers, func(a, b int) bool {
			if outers[a].depth != outers[b].depth {
				return outers[a].depth > outers[b].depth
			}
			return outers[a].p.ID < outers[b].p.ID
		})
		for _, o := range outers {
			ps[i].Enclosing = append(ps[i].Enclosing, o.p)
		}
	}
}

func resolveRoot(vaultRoot, home, r string) string {
	return canonical(expandPath(vaultRoot, home, r))
}

// Path reads a path written in mem.yaml or a project note: ~ is the user's
// home directory (Options.Home), and a relative path is relative to the
// vault root.
func (v *Vault) Path(p string) string {
	if p == "" {
		return ""
	}
	return expandPath(v.Root, v.Home, p)
}

// expandPath reads r; with no home known, a ~ path is taken as written
// (relative to the vault root), never as the file system's root.
func expandPath(vaultRoot, home, r string) string {
	switch {
	case home == "" && (r == "~" || strings.HasPrefix(r, "~/")):
		return filepath.Join(vaultRoot, r)
	case r == "~":
		return home
	case strings.HasPrefix(r, "~/"):
		return filepath.Join(home, r[2:])
	case !filepath.IsAbs(r):
		return filepath.Join(vaultRoot, r)
	}
	return r
}

// canonical cleans a path and resolves its symlinks where it exists.
func canonical(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// ResolveProject returns the project whose root is the longest prefix of dir
// by whole path components, or nil. Ties go to the smaller id.
func ResolveProject(projects []Project, dir string) *Project {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = canonical(abs)
	}
	var best *Project
	bestLen := -1
	for i := range projects {
		for _, root := range projects[i].Roots {
			if (dir == root || strings.HasPrefix(dir, strings.TrimSuffix(root, string(filepath.Separator))+string(filepath.Separator))) && len(root) > bestLen {
				best, bestLen = &projects[i], len(root)
			}
		}
	}
	return best
}

// FindProject returns the project with the given id, or nil.
func FindProject(projects []Project, id string) *Project {
	for i := range projects {
		if projects[i].ID == id {
			return &projects[i]
		}
	}
	return nil
}
