package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

var kebab = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// lintBytes lints data as if it were the file rel of the corpus vault.
func lintBytes(l *Linter, rel string, data []byte) []Problem {
	m := &vault.Memory{Rel: rel, ID: rel[:len(rel)-len(".md")], Raw: string(data), Size: int64(len(data))}
	m.Doc, m.Err = vault.ParseFile(data)
	if m.Doc != nil && m.Doc.Meta.ID != "" {
		m.ID = m.Doc.Meta.ID
	}
	return l.File(m)
}

// FuzzLintFile feeds whole files to the linter: no input may panic, hang,
// or produce a problem without a rule, a severity and a position.
func FuzzLintFile(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/corpus/*/*.md")
	for _, p := range seeds {
		if data, err := os.ReadFile(p); err == nil {
			f.Add([]byte(placeholders.Replace(string(data))))
		}
	}
	v := corpusVault(f)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		f.Fatal(err)
	}
	l := New(v, mems, testNow)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, p := range lintBytes(l, "memory/fuzz.md", data) {
			if !kebab.MatchString(p.Rule) || (p.Severity != Error && p.Severity != Warning) || p.Line < 1 || p.Column < 1 || p.Message == "" {
				t.Fatalf("malformed problem %+v", p)
			}
		}
	})
}

// BenchmarkLintFile is the per-file cost of a hook run: parse one memory
// and run every check against the vault-wide knowledge built once.
func BenchmarkLintFile(b *testing.B) {
	v := corpusVault(b)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	l := New(v, mems, testNow)
	data := []byte("---\nid: memory/bench\ntype: lesson\nprovenance: inferred\nproject: proj_mem\nvalid_at: 2026-11-01\nstale_after: 2027-11-01T00:00:00Z\ntags: [go, ci]\nsignals:\n  - {session: s1, at: 2026-11-20, evidence: build broke}\ngenerated: {by: mem/0.1.0, at: 2026-11-20T10:00:00Z}\n---\nWhen the build broke after the Go upgrade, pinning the toolchain in [[projects/mem]] helped.\n")
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if ps := lintBytes(l, "memory/bench.md", data); len(ps) != 0 {
			b.Fatalf("benchmark file has problems: %+v", ps)
		}
	}
}
