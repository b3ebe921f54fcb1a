// Package archtest holds the "never" arrows of docs/architecture.md as a
// test over the real import graph, so a change that crosses one fails.
package archtest

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/mem-md/mem/"

// gitignoreFormat is go-git's .gitignore pattern matcher: pure matching of
// path elements, no repository, no objects, no git program. pkg/vault may
// import it so mem.yaml's ignore: and the commit path speak one glob
// dialect (docs/architecture.md); it is not "touching git".
const gitignoreFormat = "github.com/go-git/go-git/v5/plumbing/format/gitignore"

type pkg struct {
	ImportPath string
	Imports    []string
}

func graph(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json", module+"...")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	g := map[string][]string{}
	dec := json.NewDecoder(out)
	for {
		var p pkg
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		g[strings.TrimPrefix(p.ImportPath, module)] = p.Imports
	}
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	return g
}

// reaches reports whether from imports to, directly or not.
func reaches(g map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	var walk func(string) bool
	walk = func(p string) bool {
		if seen[p] {
			return false
		}
		seen[p] = true
		for _, imp := range g[p] {
			if imp == gitignoreFormat {
				continue
			}
			name := strings.TrimPrefix(imp, module)
			if strings.HasPrefix(name, to) {
				return true
			}
			if strings.HasPrefix(imp, module) && walk(name) {
				return true
			}
		}
		return false
	}
	return walk(from)
}

func TestNeverArrows(t *testing.T) {
	g := graph(t)
	if len(g) < 10 {
		t.Fatalf("go list found %d packages", len(g))
	}
	for _, c := range []struct{ from, to, why string }{
		{"pkg/frontmatter", module + "pkg/", "the parser knows no vault"},
		{"pkg/vault", module + "pkg/render", "the store knows no views"},
		{"pkg/vault", module + "pkg/index", "the store knows no views"},
		{"pkg/vault", module + "pkg/lint", "the store knows no views"},
		{"pkg/render", module + "pkg/history", "session boot never touches git"},
		{"pkg/render", "github.com/go-git/", "session boot never touches git"},
		{"pkg/render", module + "pkg/index", "session boot never opens the index"},
		{"pkg/rules", module + "pkg/writer", "the rules are pure: they write nothing"},
		{"pkg/secrets", module + "pkg/", "the scanner is a leaf"},
	} {
		if reaches(g, c.from, c.to) {
			t.Errorf("%s imports %s: %s", c.from, c.to, c.why)
		}
	}
	for p, imps := range g {
		for _, imp := range imps {
			switch {
			case !strings.HasPrefix(p, "cmd/") && strings.HasPrefix(imp, module+"cmd/"):
				t.Errorf("%s imports %s: no package knows the command layer", p, imp)
			case imp == gitignoreFormat && p == "pkg/vault":
				// allowed: pattern matching only (gitignoreFormat)
			case strings.HasPrefix(imp, "github.com/go-git/") && p != "pkg/history" && p != "pkg/history/gitfmt":
				t.Errorf("%s imports go-git: pkg/history (with its file formats, pkg/history/gitfmt) is the one git owner", p)
			case strings.HasPrefix(imp, "github.com/blevesearch/") && p != "pkg/index" && !strings.HasPrefix(p, "internal/benchgen"):
				t.Errorf("%s imports bleve: pkg/index is the one index owner", p)
			}
		}
	}
}
