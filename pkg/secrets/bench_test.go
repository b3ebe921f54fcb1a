package secrets_test

import (
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/secrets"
)

// benchFiles is a generated 1,000-file vault (what whole-vault lint scans),
// with its first one-line memory and its longest note picked out.
func benchFiles(b *testing.B) (files []string, memory, note string) {
	b.Helper()
	_, err := benchgen.Generate(benchgen.Options{N: 1000, Seed: 1}, func(rel string, data []byte) error {
		files = append(files, string(data))
		if memory == "" && strings.HasPrefix(rel, "memory/") {
			memory = string(data)
		}
		if strings.HasPrefix(rel, "notes/") && len(data) > len(note) {
			note = string(data)
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, memory, note
}

// BenchmarkFind scans clean text, the common case: a one-line memory, a
// long note, and every file of a 1,000-file vault per op.
func BenchmarkFind(b *testing.B) {
	files, memory, note := benchFiles(b)
	for _, c := range []struct {
		name  string
		texts []string
	}{{"memory", []string{memory}}, {"note", []string{note}}, {"vault", files}} {
		b.Run(c.name, func(b *testing.B) {
			n := 0
			for _, t := range c.texts {
				n += len(t)
			}
			b.SetBytes(int64(n))
			for b.Loop() {
				for _, t := range c.texts {
					if f := secrets.Find(t); len(f) > 0 {
						b.Fatalf("clean text has %v", f)
					}
				}
			}
		})
	}
}

// BenchmarkFindPathological scans files near lint's size limit, each one
// unit repeated, built to stress one step: the decoders, the folding, the
// split-key joiner and the base64 pass.
func BenchmarkFindPathological(b *testing.B) {
	const size = 900 << 10
	for _, unit := range []string{
		"%41", `\u0041`, "&#65;", "\u200b", "Ａ", "é", "AKIA2 ", "sk- a1 ", "ghp_ Ab1 ", "sk_live_ 4e ",
		"QUtJQVEz", "aGVsbG8gd29ybGQg", "xoxb-1 ", "sk-ant-", "AKIA-", "AKIA" + "Q3ZRTV5WX7HJ2LNB ", "key=", "a",
	} {
		text := strings.Repeat(unit, size/len(unit))
		b.Run(strings.ToValidUTF8(unit[:min(len(unit), 8)], "?"), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				secrets.Find(text)
			}
		})
	}
}

// BenchmarkEngine builds the rule set as a fresh process does before its
// first scan: gitleaks' configuration parsed and its keywords indexed, no
// rule translated yet (each is on its first run).
func BenchmarkEngine(b *testing.B) {
	for b.Loop() {
		secrets.BuildEngine()
	}
}
