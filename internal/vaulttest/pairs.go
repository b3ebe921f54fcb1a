package vaulttest

import (
	"bufio"
	"os"
	"strings"
	"testing"
)

// Pair is one line of a claim-pair set (pkg/claimtext/testdata): two
// claims about one subject and whether they cannot both be true.
type Pair struct {
	Line     int
	Conflict bool
	A, B     string
}

// ReadPairs reads a pair set (LABEL | CLAIM A | CLAIM B per line, LABEL
// conflict or compatible; blank lines and # comments skipped), for the
// extraction's test and the one through 'mem consolidate' alike.
func ReadPairs(t testing.TB, path string) []Pair {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Pair
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("%s:%d: want LABEL | CLAIM | CLAIM", path, n)
		}
		label := strings.TrimSpace(parts[0])
		if label != "conflict" && label != "compatible" {
			t.Fatalf("%s:%d: label %q is neither conflict nor compatible", path, n, label)
		}
		out = append(out, Pair{Line: n, Conflict: label == "conflict", A: strings.TrimSpace(parts[1]), B: strings.TrimSpace(parts[2])})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return out
}
