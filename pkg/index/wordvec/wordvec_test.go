package wordvec

import (
	"strings"
	"testing"
)

// The table as embedded: its notices first, then the 30,000 most frequent words less the
// stop words and one-letter ones, found by their lower-case spelling.
func TestTable(t *testing.T) {
	if !strings.HasPrefix(wordVectors, "Word vectors for mem's search") || !strings.Contains(wordVectors[:strings.IndexByte(wordVectors, 0)], "Public\nDomain Dedication and License") {
		t.Fatal("the table does not open with its notices")
	}
	tb := table()
	if tb.n < 29000 || tb.n > 30000 || tb.dims != 100 {
		t.Fatalf("%d words of %d dimensions", tb.n, tb.dims)
	}
	for _, w := range []string{"city", "orlando", "axiom"} {
		if tb.find(w) < 0 {
			t.Errorf("%q is not found", w)
		}
	}
	// Stop words, one letter, beyond the 30,000 (favoritism is the
	// 30,001st, zucchini the 32,862nd), not a-z.
	for _, w := range []string{"the", "and", "a", "x", "", "favoritism", "zucchini", "Orlando", "café"} {
		if i := tb.find(w); i >= 0 {
			t.Errorf("%q is found (%d)", w, i)
		}
	}
	for i := 1; i < tb.n; i++ {
		if tb.word(i-1) >= tb.word(i) {
			t.Fatalf("words %d and %d out of order: %q, %q", i-1, i, tb.word(i-1), tb.word(i))
		}
	}
}

// A text's words are its runs of a-z after lower case; stop words,
// one-letter words and words not in the table add nothing.
func TestOf(t *testing.T) {
	for _, text := range []string{"", "the and of", "a b c", "1234 — !!", "zzqxv"} {
		if v := Of(text); v != nil {
			t.Errorf("Of(%q) is not nil", text)
		}
	}
	same := [][2]string{
		{"Kevin's cities", "kevin cities"},
		{"ORLANDO, Miami!", "orlando miami"},
		{"the city of Orlando", "city orlando"},
		{"city2orlando", "city orlando"},
		{"x city y", "city"},
	}
	for _, p := range same {
		if c := Cosine(Of(p[0]), Of(p[1])); c < 0.99999 {
			t.Errorf("%q and %q: cosine %v, want 1", p[0], p[1], c)
		}
	}
	// Near in meaning, nearer than what only shares a word's form.
	cities := Of("What cities did Kevin visit?")
	near := Cosine(cities, Of("Kevin visited Orlando and Miami"))
	far := Cosine(cities, Of("Kevin visited the dentist about a spreadsheet"))
	if near <= far {
		t.Errorf("cities ~ Orlando, Miami %v; ~ dentist, spreadsheet %v", near, far)
	}
}

// The index stores a vector in 104 bytes and reads back the same
// direction.
func TestEncode(t *testing.T) {
	v := Of("Kevin visited Orlando and Miami")
	s := Encode(v)
	if len(s) != 104 {
		t.Fatalf("%d bytes", len(s))
	}
	if c := Cosine(v, Decode(s)); c < 0.999 {
		t.Errorf("cosine with its decoding %v", c)
	}
	if Decode("") != nil || Cosine(nil, v) != 0 {
		t.Error("no vector must read as none, at cosine 0")
	}
}

// Vectors that share one strong direction are all close until it is
// removed; then they are as far apart as what else they hold.
func TestRemoveShared(t *testing.T) {
	vs := make([][]float32, 6)
	for i := range vs {
		vs[i] = make([]float32, 100)
		for d := range vs[i] {
			vs[i][d] = 10 // the shared direction
		}
		vs[i][i] += 3 // each its own
	}
	if c := Cosine(vs[0], vs[1]); c < 0.99 {
		t.Fatalf("before: cosine %v", c)
	}
	RemoveShared(append(vs, nil))
	if c := Cosine(vs[0], vs[1]); c > 0.1 {
		t.Errorf("after: cosine %v, want about 0", c)
	}
	RemoveShared([][]float32{nil}) // nothing to remove: no panic
}
