package lint

import (
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// pathological are files near the size limit, each built to stress one
// scanner: a quadratic column count once took 37-85 s on such a file.
// How long they take is BenchmarkPathologicalFiles' to measure (no test
// asserts a time); the test checks what lint says about them.
func pathological() map[string][]byte {
	const size = 900 << 10
	head := "---\ntype: lesson\nprovenance: inferred\n---\n"
	out := map[string][]byte{}
	for _, unit := range []string{"[[", "[[a]] ", "](x.md) ", "%%", "<!--", "key=", "sk-ant-", "AKIA", "\u200b", "always. ", "a", "Ab1", "[^x] ", "```\n", "`x", "ignore previous ", "system:\n", "\n"} {
		out[unit] = []byte(head + strings.Repeat(unit, size/len(unit)))
	}
	return out
}

func pathoLinter(tb testing.TB) *Linter {
	v := corpusVault(tb)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return New(v, mems, testNow)
}

// TestPathologicalFiles: every problem lint reports on such a file points
// inside it, with a rule and a severity.
func TestPathologicalFiles(t *testing.T) {
	l := pathoLinter(t)
	for unit, data := range pathological() {
		lines := strings.Count(string(data), "\n") + 1
		for _, p := range lintBytes(l, "memory/p.md", data) {
			if p.Line < 1 || p.Line > lines || p.Column < 1 || p.Rule == "" || p.Severity == "" {
				t.Errorf("%q: problem outside the file or unnamed: %+v", unit, p)
			}
		}
	}
}

func BenchmarkPathologicalFiles(b *testing.B) {
	l := pathoLinter(b)
	files := pathological()
	for b.Loop() {
		for _, data := range files {
			lintBytes(l, "memory/p.md", data)
		}
	}
}
