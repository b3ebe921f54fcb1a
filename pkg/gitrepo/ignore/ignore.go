// Package ignore is the git layer's .gitignore matcher, apart from the
// rest of pkg/gitrepo so the store (mem.yaml's ignore:) links pattern
// matching only: no repository, no objects, no git program.
package ignore

import "github.com/go-git/go-git/v5/plumbing/format/gitignore"

// Patterns are .gitignore lines parsed as git reads them (go-git's
// matcher): mem.yaml's ignore: and the commit path speak one glob dialect.
type Patterns []gitignore.Pattern

// Parse parses lines found in the folder domain (path elements
// from the root, nil at the root); blank lines and comments are the
// caller's to drop.
func Parse(lines, domain []string) Patterns {
	ps := make(Patterns, len(lines))
	for i, l := range lines {
		ps[i] = gitignore.ParsePattern(l, domain)
	}
	return ps
}

// Match reports whether path (its elements from the root) is ignored: the
// last matching pattern wins, and a "!" pattern takes a path back. It is
// go-git's matcher without its per-call wrapper: the commit path's scan
// asks it once a file.
func (ps Patterns) Match(path []string, isDir bool) bool {
	for i := len(ps) - 1; i >= 0; i-- {
		if m := ps[i].Match(path, isDir); m > gitignore.NoMatch {
			return m == gitignore.Exclude
		}
	}
	return false
}
