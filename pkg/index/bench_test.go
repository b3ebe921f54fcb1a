package index

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"

	"github.com/mem-md/mem/pkg/vault"
)

var benchWords = strings.Fields(`deploy pipeline database postgres cache redis tabs spaces gofmt
review merge branch release rollback incident alert latency budget migration schema index
query vector memory agent session project decision lesson rule correction preference fact
observed inferred stated weekly friday staging production canary flag config secret token`)

// genVault fills v with n synthetic notes shaped like real ones: a
// frontmatter of the usual keys and a body of 20–120 words.
func genVault(t testing.TB, v *vault.Vault, n int) {
	t.Helper()
	r := rand.New(rand.NewPCG(1, 2))
	types := []string{"fact", "preference", "decision", "lesson", "note"}
	provs := []string{"stated", "observed", "inferred"}
	for i := range n {
		words := make([]string, 20+r.IntN(100))
		for j := range words {
			words[j] = benchWords[r.IntN(len(benchWords))]
		}
		body := fmt.Sprintf("Note %d: %s.", i, strings.Join(words, " "))
		typ := types[i%len(types)]
		extra := []string{fmt.Sprintf("tags: [%s, %s]", benchWords[i%7], benchWords[i%11]), fmt.Sprintf("importance: %d", 1+i%10)}
		dir := "memory"
		if typ == "note" {
			dir = "notes"
			extra = append(extra, "title: "+strings.Join(words[:4], " "))
		}
		write(t, v, fmt.Sprintf("%s/%03d/n%06d.md", dir, i%100, i), memory(typ, provs[i%3], fmt.Sprintf("2026-%02d-%02d", 1+i%12, 1+i%28), body, extra...))
	}
}

// BenchmarkIndexBatch is a full build of 500 notes: load, map, batch,
// persist, manifest, swap. Compare with BenchmarkPlainBleveBatch.
func BenchmarkIndexBatch(b *testing.B) {
	v := newVault(b)
	genVault(b, v, 500)
	for b.Loop() {
		if _, err := Update(v, Options{Full: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPlainBleveBatch is the baseline for BenchmarkIndexBatch: the
// same files read and indexed by a plain bleve program (default mapping,
// the same batch size), without manifest or swap.
func BenchmarkPlainBleveBatch(b *testing.B) {
	v := newVault(b)
	genVault(b, v, 500)
	rels, err := v.List()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		dir := filepath.Join(b.TempDir(), "idx")
		idx, err := bleve.New(dir, bleve.NewIndexMapping())
		if err != nil {
			b.Fatal(err)
		}
		batch := idx.NewBatch()
		for i, rel := range rels {
			data, err := os.ReadFile(filepath.Join(v.Root, rel))
			if err != nil {
				b.Fatal(err)
			}
			batch.Index(rel, map[string]any{"body": string(data)})
			if (i+1)%batchSize == 0 || i == len(rels)-1 {
				if err := idx.Batch(batch); err != nil {
					b.Fatal(err)
				}
				batch.Reset()
			}
		}
		idx.Close()
		os.RemoveAll(dir)
	}
}

// BenchmarkNoOpUpdate is the hourly run with nothing to do, on 2000 notes.
func BenchmarkNoOpUpdate(b *testing.B) {
	v := newVault(b)
	genVault(b, v, 2000)
	if _, err := Update(v, Options{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if st, err := Update(v, Options{}); err != nil || st.Changed != 0 {
			b.Fatal(st, err)
		}
	}
}

// BenchmarkSearch is one search (freshness check included) on 2000 notes.
func BenchmarkSearch(b *testing.B) {
	v := newVault(b)
	genVault(b, v, 2000)
	if _, err := Update(v, Options{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		res, err := Search(context.Background(), v, Query{Text: "postgres rollback", Type: "fact"})
		if err != nil || len(res.Hits) == 0 {
			b.Fatal(res, err)
		}
	}
}

// BenchmarkSearchNoRefresh is the same search answering without refreshing.
func BenchmarkSearchNoRefresh(b *testing.B) {
	v := newVault(b)
	genVault(b, v, 2000)
	if _, err := Update(v, Options{}); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := Search(context.Background(), v, Query{Text: "postgres rollback", Type: "fact", NoRefresh: true}); err != nil {
			b.Fatal(err)
		}
	}
}
