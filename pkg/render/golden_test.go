package render

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGoldenExampleVault renders examples/vault for three working
// directories — none, a project, and the project nested inside it — and
// compares with the hand-reviewed goldens (go test -update rewrites them;
// review the diff for tier order before committing).
func TestGoldenExampleVault(t *testing.T) {
	t.Parallel()
	v, err := vault.Open(filepath.Join("..", "..", "examples", "vault"))
	if err != nil {
		t.Fatal(err)
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	projects := v.Projects(mems)
	cases := []struct {
		golden, cwd, project string
	}{
		{"no-project.md", "code/scratch", ""},
		{"webshop.md", "code/webshop", "proj_webshop"},
		{"payments.md", "code/webshop/payments", "proj_payments"},
	}
	for _, tc := range cases {
		t.Run(tc.golden, func(t *testing.T) {
			p := vault.ResolveProject(projects, filepath.Join(v.Root, tc.cwd))
			switch {
			case p == nil && tc.project != "":
				t.Fatalf("%s resolved to no project, want %s", tc.cwd, tc.project)
			case p != nil && p.ID != tc.project:
				t.Fatalf("%s resolved to %s, want %q", tc.cwd, p.ID, tc.project)
			}
			r, err := Render(mems, Options{
				Vault: "examples/vault", Project: p, Budget: v.Config.Render.Budget, Now: testNow,
				Sections: v.Config.Render.Sections, DurableTags: v.Config.DurableTags,
				MinGlobalImportance: v.Config.Render.MinGlobalImportance,
			})
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Warnings) > 0 {
				t.Errorf("the example vault should render without warnings: %q", r.Warnings)
			}
			path := filepath.Join("testdata", "golden", tc.golden)
			if *update {
				if err := os.WriteFile(path, r.Doc, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Doc) != string(want) {
				t.Errorf("render for %s differs from %s (run go test ./pkg/render -run Golden -update and review):\n%s", tc.cwd, path, r.Doc)
			}
		})
	}
}
