// Package wordvec is the word vectors of mem's rerank by meaning
// (docs/index.md, "The ranking"): a text's vector is the weighted sum of
// its words' vectors (smooth inverse frequency, Arora, Liang and Ma, 2017),
// and texts compared together are as near in meaning as their vectors'
// cosine once the component they share is removed (RemoveShared). The table, vectors.bin, is made by
// scripts/wordvectors from GloVe's vectors (its head names the source and
// the licences) and read in place, with nothing built when mem starts.
package wordvec

import (
	_ "embed"
	"encoding/binary"
	"math"
	"sort"
	"strings"
	"sync"
)

const (
	// sifA and zipf weight a word of rank r (1 the most frequent) by
	// sifA/(sifA + zipf/r): Zipf's law's share of text for its
	// frequency, so a frequent word counts little.
	sifA = 1e-3
	zipf = 0.1
)

// weight is the weight of a word of rank r in a text's vector.
func weight(rank int) float64 { return sifA / (sifA + zipf/float64(rank)) }

// wordVectors is scripts/wordvectors' table (its layout is described
// there), embedded as a string: read in place, nothing built at start.
//
//go:embed vectors.bin
var wordVectors string

// vectorTable is wordVectors' sections, found on the first search that
// ranks by meaning.
type vectorTable struct {
	n, dims int
	offsets string // n+1 uint32
	ranks   string // n uint16
	scales  string // n float32
	vectors string // n×dims int8
	words   string
}

var table = sync.OnceValue(func() *vectorTable {
	s := wordVectors[strings.IndexByte(wordVectors, 0)+1:] // after the notices
	t := &vectorTable{n: int(u32(s, 0)), dims: int(u32(s, 4))}
	s = s[8:]
	cut := func(n int) string { part := s[:n]; s = s[n:]; return part }
	t.offsets = cut(4 * (t.n + 1))
	t.ranks = cut(2 * t.n)
	t.scales = cut(4 * t.n)
	t.vectors = cut(t.n * t.dims)
	t.words = s
	return t
})

// u32 is the little-endian uint32 at s[i:].
func u32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

func (t *vectorTable) word(i int) string {
	return t.words[u32(t.offsets, 4*i):u32(t.offsets, 4*i+4)]
}

// find is w's place in the table, or -1 (a stop word, a one-letter word,
// or not among the 30,000 most frequent).
func (t *vectorTable) find(w string) int {
	i := sort.Search(t.n, func(i int) bool { return t.word(i) >= w })
	if i == t.n || t.word(i) != w {
		return -1
	}
	return i
}

// add adds word i's vector, weighted, to v.
func (t *vectorTable) add(v []float32, i int) {
	rank := int(t.ranks[2*i]) | int(t.ranks[2*i+1])<<8
	scale := math.Float32frombits(u32(t.scales, 4*i))
	w := float32(weight(rank)) * scale
	q := t.vectors[i*t.dims : (i+1)*t.dims]
	for d := range v {
		v[d] += w * float32(int8(q[d]))
	}
}

// Of is text's vector: its words (lower case, cut at anything not
// a–z) weighted and summed (the sum, not the average: only cosines are
// taken). Nil when no word is in the table.
func Of(text string) []float32 {
	t := table()
	v := make([]float32, t.dims)
	found := false
	var buf []byte
	for i := 0; i < len(text); {
		for i < len(text) && !letter(text[i]) {
			i++
		}
		j := i
		for j < len(text) && letter(text[j]) {
			j++
		}
		if j-i > 1 {
			w := text[i:j]
			if strings.ContainsFunc(w, func(r rune) bool { return r < 'a' }) {
				buf = append(buf[:0], w...)
				for k, c := range buf {
					buf[k] = c | 0x20
				}
				w = string(buf)
			}
			if k := t.find(w); k >= 0 {
				t.add(v, k)
				found = true
			}
		}
		i = j
	}
	if !found {
		return nil
	}
	return v
}

// letter says whether c is an ASCII letter: a text's words are its runs
// of a–z after lower case.
func letter(c byte) bool { return 'a' <= c|0x20 && c|0x20 <= 'z' }

// Cosine is the cosine of a and b, 0 when either is nil or zero.
func Cosine(a, b []float32) float64 {
	if a == nil || b == nil {
		return 0
	}
	var ab, aa, bb float64
	for i := range a {
		ab += float64(a[i]) * float64(b[i])
		aa += float64(a[i]) * float64(a[i])
		bb += float64(b[i]) * float64(b[i])
	}
	if aa == 0 || bb == 0 {
		return 0
	}
	return ab / math.Sqrt(aa*bb)
}

// Unit is v scaled to length 1: nil for nil or zero. The cosine of two
// unit vectors is their Dot, for a caller comparing each of many with
// each other.
func Unit(v []float32) []float32 {
	var vv float64
	for _, x := range v {
		vv += float64(x) * float64(x)
	}
	if vv == 0 {
		return nil
	}
	k := float32(1 / math.Sqrt(vv))
	u := make([]float32, len(v))
	for i, x := range v {
		u[i] = x * k
	}
	return u
}

// Dot is the dot product of a and b, summed in float32.
func Dot(a, b []float32) float64 {
	var s float32
	for i := range a {
		s += a[i] * b[i]
	}
	return float64(s)
}

// Encode is v as the index stores it: a float32 scale, then each
// component in int8 steps of it (104 bytes, a quarter of v's).
func Encode(v []float32) string {
	var top float32
	for _, x := range v {
		top = max(top, x, -x)
	}
	b := make([]byte, 4+len(v))
	scale := top / 127
	binary.LittleEndian.PutUint32(b, math.Float32bits(scale))
	if scale > 0 {
		for i, x := range v {
			b[4+i] = byte(int8(math.Round(float64(x / scale))))
		}
	}
	return string(b)
}

// Decode is Encode's vector; nil for a file without one
// (none of its words is in the table).
func Decode(s string) []float32 {
	if len(s) <= 4 {
		return nil
	}
	scale := math.Float32frombits(u32(s, 0))
	v := make([]float32, len(s)-4)
	for i := range v {
		v[i] = scale * float32(int8(s[4+i]))
	}
	return v
}

// RemoveShared projects out of each of vs (nil ones are skipped) their
// first principal component, uncentred, as SIF does: the direction all
// averaged English shares, along which every pair of texts is close, so
// that without it the cosine barely tells texts apart. Found by power
// iteration from the vectors' sum; on the benchmark's windows it was the
// one measured to do better than a fixed component of the table's words
// (docs/index.md, Word vectors shipped).
func RemoveShared(vs [][]float32) {
	var u []float64
	for _, v := range vs {
		if v == nil {
			continue
		}
		if u == nil {
			u = make([]float64, len(v))
		}
		for i, x := range v {
			u[i] += float64(x)
		}
	}
	if u == nil || !normalize(u) {
		return
	}
	next := make([]float64, len(u))
	for range powerSteps {
		clear(next)
		for _, v := range vs {
			if v == nil {
				continue
			}
			d := dot(v, u)
			for i, x := range v {
				next[i] += d * float64(x)
			}
		}
		if !normalize(next) {
			return
		}
		var moved float64
		for i, x := range next {
			moved += (x - u[i]) * (x - u[i])
		}
		u, next = next, u
		if moved < settled {
			break
		}
	}
	for _, v := range vs {
		if v == nil {
			continue
		}
		d := dot(v, u)
		for i := range v {
			v[i] -= float32(d * u[i])
		}
	}
}

// Power iteration stops when a step moves the component by less than
// settled (squared), far below float32's precision, or after powerSteps:
// a window's first component far outweighs its second, and on the
// benchmark's windows it settles in a few steps (50 at most were 0.7 ms a
// search).
const (
	powerSteps = 50
	settled    = 1e-14
)

// dot is v·u, summed in float64.
func dot(v []float32, u []float64) float64 {
	var d float64
	for i, x := range v {
		d += float64(x) * u[i]
	}
	return d
}

// normalize makes x a unit vector; false when it is zero.
func normalize(x []float64) bool {
	var n float64
	for _, v := range x {
		n += v * v
	}
	if n == 0 {
		return false
	}
	n = math.Sqrt(n)
	for i := range x {
		x[i] /= n
	}
	return true
}
