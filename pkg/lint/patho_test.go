package lint

import (
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// TestPathologicalFilesAreFast lints files near the size limit built to
// stress each scanner; each must finish well within a hook's budget.
func TestPathologicalFilesAreFast(t *testing.T) {
	v := corpusVault(t)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(v, mems, testNow)
	const size = 900 << 10
	head := "---\ntype: lesson\nprovenance: inferred\n---\n"
	for _, unit := range []string{"[[", "[[a]] ", "](x.md) ", "%%", "<!--", "key=", "sk-ant-", "AKIA", "\u200b", "always. ", "a", "Ab1", "[^x] ", "```\n", "`x", "ignore previous ", "system:\n", "\n"} {
		data := []byte(head + strings.Repeat(unit, size/len(unit)))
		start := time.Now()
		lintBytes(l, "memory/p.md", data)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%q × %d: %v", unit, size/len(unit), d)
		}
	}
}
