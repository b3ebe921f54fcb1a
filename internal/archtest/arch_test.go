// Package archtest holds the "never" arrows of docs/architecture.md as a
// test over the real import graph and the source, so a change that
// crosses one fails.
package archtest

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

const module = "github.com/mem-md/mem/"

// gitignoreFormat is go-git's .gitignore pattern matcher: pure matching of
// path elements, no repository, no objects, no git program. The git
// layer's pkg/gitrepo/ignore wraps it for the store (mem.yaml's ignore:),
// so a package that loads a vault reaches it and is not "touching git".
const gitignoreFormat = "github.com/go-git/go-git/v5/plumbing/format/gitignore"

// gitLayer reports whether p is the git layer, pkg/gitrepo or one of its
// sub-packages: the one importer of go-git and runner of the git program.
func gitLayer(p string) bool { return p == "pkg/gitrepo" || strings.HasPrefix(p, "pkg/gitrepo/") }

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
			// to is a full import path: comparing it with the trimmed
			// name let every arrow into the module hold vacuously.
			if strings.HasPrefix(imp, to) {
				return true
			}
			if name, ok := strings.CutPrefix(imp, module); ok && walk(name) {
				return true
			}
		}
		return false
	}
	return walk(from)
}

func TestNeverArrows(t *testing.T) {
	t.Parallel()
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
		{"pkg/viewfmt", module + "pkg/", "the view format is a leaf: the store and render both take it"},
		{"pkg/markdown", module + "pkg/", "the body reader is a leaf"},
		{"pkg/claimtext", module + "pkg/", "what a claim's text states (the same fact, a contradiction) is read with no vault: a leaf"},
		{"pkg/merge", module + "pkg/history", "the memory merge takes bytes and knows no git"},
		{"pkg/merge", "github.com/go-git/", "the memory merge takes bytes and knows no git"},
		{"pkg/writer", module + "pkg/lint", "every write (the MCP tools' too) links no linter: an edit takes lint's verdict from its caller (writer.Lint)"},
		{"pkg/lint", module + "pkg/history", "lint --staged runs git through pkg/gitrepo, so linting links no git owner"},
	} {
		if reaches(g, c.from, c.to) {
			t.Errorf("%s imports %s: %s", c.from, c.to, c.why)
		}
	}
	// What judges or changes a vault by pure functions links neither the
	// index nor the git layer: what it needs of them its caller hands it
	// (pkg/wiring: audit.State, consolidate.Commit), so its tests link
	// in seconds, not beside bleve and go-git.
	for _, from := range []string{"pkg/audit", "pkg/consolidate", "pkg/stores"} {
		for _, to := range []string{module + "pkg/index", module + "pkg/history", "github.com/blevesearch/", "github.com/go-git/"} {
			if reaches(g, from, to) {
				t.Errorf("%s imports %s: the audit, consolidate and stores take the index's and git's state and commits from their caller (pkg/wiring)", from, to)
			}
		}
	}
	for p, imps := range g {
		for _, imp := range imps {
			switch {
			case imp == module+"pkg/secrets" && p != "pkg/rules":
				t.Errorf("%s imports pkg/secrets: pkg/rules is the one door to the scanner (rules.Secrets, rules.Redact, rules.Redaction), so every path redacts and refuses alike", p)
			case !strings.HasPrefix(p, "cmd/") && strings.HasPrefix(imp, module+"cmd/"):
				t.Errorf("%s imports %s: no package knows the command layer", p, imp)
			case gitLayer(p) && strings.HasPrefix(imp, module) && !gitLayer(strings.TrimPrefix(imp, module)):
				t.Errorf("%s imports %s: the git layer knows no vault, it imports only its own packages", p, imp)
			case strings.HasPrefix(imp, "github.com/go-git/") && !gitLayer(p):
				t.Errorf("%s imports go-git: only the git layer (pkg/gitrepo and its sub-packages) does", p)
			case strings.HasPrefix(imp, "github.com/blevesearch/") && p != "pkg/index" && p != "pkg/index/tokens" && !strings.HasPrefix(p, "internal/benchgen"):
				t.Errorf("%s imports bleve: pkg/index (with its analyzer, pkg/index/tokens) is the one index owner", p)
			}
		}
	}
}

// TestOneOwnerInTheSource holds the arrows an import graph cannot show,
// over every non-test Go file of the module: only pkg/viewfmt spells the
// view format's lines (header and splice markers), only the git layer
// (pkg/gitrepo) runs the git program, only the edge (cmd/mem) reads the
// working directory or the environment, and only the two YAML owners
// import yaml.v3 (yamlOwner). Tests may quote the format to check it, and
// the benchmark harness times git as a reference.
func TestOneOwnerInTheSource(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	viewLines := []string{"<!-- generated by mem render", "<!-- mem:begin", "<!-- mem:end"}
	files := 0
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			if strings.HasPrefix(d.Name(), ".") && rel != "." || d.Name() == "testdata" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(rel, ".go") || strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		files++
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			return err
		}
		dir := path.Dir(rel)
		for _, imp := range f.Imports {
			if imp.Path.Value == `"`+yamlV3+`"` && !yamlOwner(rel) {
				t.Errorf("%s imports %s: only pkg/frontmatter reads a note's YAML (ask its Document and Value) and only pkg/vault's config.go mem.yaml's", rel, yamlV3)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BasicLit:
				if n.Kind != token.STRING || dir == "pkg/viewfmt" {
					break
				}
				for _, l := range viewLines {
					if strings.Contains(n.Value, l) {
						t.Errorf("%s spells %q: only pkg/viewfmt defines the view format's lines; use its constants", rel, l)
					}
				}
			case *ast.SelectorExpr:
				if x, _ := n.X.(*ast.Ident); x == nil || x.Name != "os" || !envReaders[n.Sel.Name] || edge(dir) {
					break
				}
				t.Errorf("%s reads os.%s: only cmd/mem reads the working directory and the environment; take them as an option", rel, n.Sel.Name)
			case *ast.CallExpr:
				sel, ok := n.Fun.(*ast.SelectorExpr)
				if !ok {
					break
				}
				if x, _ := sel.X.(*ast.Ident); x == nil || x.Name != "exec" || !strings.HasPrefix(sel.Sel.Name, "Command") {
					break
				}
				if gitLayer(dir) || strings.HasPrefix(dir, "internal/benchgen") {
					break
				}
				// The program must be a literal other than git: a variable
				// could name git.
				prog := 0
				if sel.Sel.Name == "CommandContext" {
					prog = 1
				}
				if lit, ok := n.Args[prog].(*ast.BasicLit); !ok || lit.Value == `"git"` || strings.HasSuffix(lit.Value, `/git"`) {
					t.Errorf("%s runs a program that is git or not named by a literal: only the git layer (pkg/gitrepo, gitrepo.Program) runs the git program", rel)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d Go files under %s: the walk missed the module", files, root)
	}
}

const yamlV3 = "gopkg.in/yaml.v3"

// yamlOwner reports whether the file rel may import yaml.v3. pkg/frontmatter
// owns a note's YAML: every other package reads kept keys through
// frontmatter.Value, so the parser's node shapes, anchors and aliases stay
// one package's concern. pkg/vault's config.go owns mem.yaml's: Config is
// decoded by its struct tags, and SetConfig and MergeConfig (mem sync) edit
// its nodes so that comments and key order stay, which no frontmatter
// operation does.
func yamlOwner(rel string) bool {
	return path.Dir(rel) == "pkg/frontmatter" || rel == "pkg/vault/config.go"
}

// envReaders are the os functions that read the process's working
// directory or environment (os.UserHomeDir reads $HOME).
var envReaders = map[string]bool{"Getwd": true, "Getenv": true, "LookupEnv": true, "Environ": true, "UserHomeDir": true}

// edge reports whether the package in dir may read the environment: mem's
// commands, which hand it to the packages as options, and the benchmark
// harness and the end-to-end tests, which run mem. The git layer and
// history are not: every caller hands them the environment git runs with.
func edge(dir string) bool {
	for _, p := range []string{"cmd/mem", "internal/benchgen", "test"} {
		if dir == p || strings.HasPrefix(dir, p+"/") {
			return true
		}
	}
	return false
}

// TestNoPackageHooks holds issue 32's "no mutable package globals that
// tests overwrite" in its hook shape: no non-test package-level variable of
// pkg/ or cmd/mem has a func type (a named one too), so what a package
// calls back is always handed to it (an option, a field), never set for the
// whole process. The packages are type-checked against the export data of
// their imports, so `var now = time.Now` counts as well as `var Hook func()`.
// A value computed once on first use (sync.OnceValue, OnceValues,
// OnceFunc: a compiled regexp, the executable's version) is a func only in
// its type, and is allowed.
func TestNoPackageHooks(t *testing.T) {
	cmd := exec.Command("go", "list", "-export", "-deps", "-json=ImportPath,Dir,GoFiles,Export", module+"pkg/...", module+"cmd/mem")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	type listed struct {
		ImportPath, Dir, Export string
		GoFiles                 []string
	}
	var checked []listed
	exports := map[string]string{}
	dec := json.NewDecoder(out)
	for {
		var p listed
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		exports[p.ImportPath] = p.Export
		if rel, ok := strings.CutPrefix(p.ImportPath, module); ok && (strings.HasPrefix(rel, "pkg/") || rel == "cmd/mem") {
			checked = append(checked, p)
		}
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("go list -export: %v\n%s", err, stderr.String())
	}
	if len(checked) < 10 {
		t.Fatalf("go list found %d packages under pkg/ and cmd/mem", len(checked))
	}
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		if exports[path] == "" {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(exports[path])
	})
	for _, p := range checked {
		var files []*ast.File
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, name), nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, f)
		}
		info := &types.Info{Uses: map[*ast.Ident]types.Object{}}
		pkg, err := (&types.Config{Importer: imp}).Check(p.ImportPath, fset, files, info)
		if err != nil {
			t.Fatalf("type-checking %s: %v", p.ImportPath, err)
		}
		lazy := map[*types.Var]bool{}
		for _, in := range info.InitOrder {
			if len(in.Lhs) == 1 && onceValue(info, in.Rhs) {
				lazy[in.Lhs[0]] = true
			}
		}
		scope := pkg.Scope()
		for _, name := range scope.Names() {
			v, ok := scope.Lookup(name).(*types.Var)
			if !ok || lazy[v] {
				continue
			}
			if _, isFunc := v.Type().Underlying().(*types.Signature); isFunc {
				t.Errorf("%s: package variable %s is a %s: a hook set for the whole process; hand it in as an option or a field", fset.Position(v.Pos()), name, v.Type())
			}
		}
	}
}

// onceValue reports whether e is a call of sync.OnceValue, OnceValues or
// OnceFunc.
func onceValue(info *types.Info, e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	fun := call.Fun
	if ix, ok := fun.(*ast.IndexExpr); ok { // sync.OnceValue[T](...)
		fun = ix.X
	}
	sel, ok := fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	f, ok := info.Uses[sel.Sel].(*types.Func)
	return ok && f.Pkg().Path() == "sync" && strings.HasPrefix(f.Name(), "Once")
}
