package rules

import (
	"os"
	"strings"
	"testing"
)

// The true-negative corpus (testdata/corpus.txt): sentences in the scripts
// of obsidian-help's languages, with the invisible characters those
// scripts need (RLM in Hebrew and Arabic, ZWNJ in Persian and Indic text,
// U+200B in Khmer, Thai, Lao, Myanmar and Tibetan), emoji sequences, URLs,
// permalinks, hashes, UUIDs, identifiers and code. No rule finds anything
// in any line, nor in the whole text.
func TestCorpusPasses(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("testdata/corpus.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		n++
		for _, f := range Text(line) {
			t.Errorf("%s at %d: %q", f.Rule, f.Off, line)
		}
	}
	if n < 70 {
		t.Fatalf("%d lines, want the whole corpus", n)
	}
	for _, f := range File(string(raw), 0) {
		t.Errorf("the whole corpus: %s at %d", f.Rule, f.Off)
	}
}
