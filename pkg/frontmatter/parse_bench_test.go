package frontmatter_test

import (
	"testing"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// generated returns n files of a generated vault: the mix of one-line
// memories, long notes and project notes the loader parses in practice.
func generated(b *testing.B, n int) (files [][]byte, size int64) {
	b.Helper()
	_, err := benchgen.Generate(benchgen.Options{N: n, Seed: 1}, func(_ string, data []byte) error {
		files = append(files, data)
		size += int64(len(data))
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return files, size
}

// BenchmarkParse parses 200 generated files per iteration.
func BenchmarkParse(b *testing.B) {
	files, size := generated(b, 200)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range files {
			if _, err := frontmatter.Parse(data); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkMarshal writes 200 parsed documents back per iteration (the
// cost of every write path).
func BenchmarkMarshal(b *testing.B) {
	files, size := generated(b, 200)
	docs := make([]*frontmatter.Document, len(files))
	for i, data := range files {
		var err error
		if docs[i], err = frontmatter.Parse(data); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range docs {
			d.Marshal()
		}
	}
}
