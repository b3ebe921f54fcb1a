package index

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestManifestRoundTrip(t *testing.T) {
	t.Parallel()
	files := map[string]entry{
		"memory/a.md":              {size: 10, mTime: 1764412800000000000, hash: strings.Repeat("ab", 32)},
		"notes/with space\t.md":    {size: 0, mTime: 1},
		"notes/ünïcode \"q\".md":   {size: 7, mTime: -5, hash: "x"},
		"notes/new\nline/weird.md": {size: 1, mTime: 2, hash: "y"},
		`"starts with a quote.md`:  {size: 3, mTime: 4, hash: "z"},
		"trailing space .md ":      {size: 5, mTime: 6, hash: "w"},
	}
	m := withFiles(&manifest{schema: schemaVersion, seq: 42, scanned: time.Unix(0, 1764412800123456789)}, files)
	got, err := decodeManifest(string(m.encode()))
	if err != nil {
		t.Fatal(err)
	}
	if !got.scanned.Equal(m.scanned) || !reflect.DeepEqual(filesOf(got), files) || got.seq != m.seq || got.schema != m.schema {
		t.Fatalf("round trip:\n got %+v\nwant %+v", got, m)
	}
}

func TestManifestRejectsDamage(t *testing.T) {
	t.Parallel()
	good := string(withFiles(&manifest{schema: 1, seq: 1}, map[string]entry{"a.md": {size: 1, mTime: 2, hash: "h"}}).encode())
	for name, data := range map[string]string{
		"empty":           "",
		"wrong magic":     strings.Replace(good, "mem-index-manifest 1", "something else", 1),
		"missing seq":     strings.Replace(good, "seq 1\n", "", 1),
		"truncated":       good[:len(good)-5],
		"extra entry":     good + "1 2 h \"b.md\"\n",
		"bad size":        strings.Replace(good, "\n1 2 h", "\nx 2 h", 1),
		"bad quoting":     strings.Replace(good, " a.md\n", ` "a.md`+"\n", 1),
		"empty path":      strings.Replace(good, " a.md\n", " \n", 1),
		"too few columns": strings.Replace(good, "1 2 h ", "1 2 ", 1),
		// compare walks the entries beside the sorted listing
		"repeated path": strings.Replace(good, "files 1\n1 2 h a.md\n", "files 2\n1 2 h a.md\n1 2 h a.md\n", 1),
		"out of order":  strings.Replace(good, "files 1\n1 2 h a.md\n", "files 2\n1 2 h b.md\n1 2 h a.md\n", 1),
	} {
		if _, err := decodeManifest(data); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// FuzzDecodeManifest: any bytes either fail cleanly or decode to a
// manifest that encodes and decodes to itself.
func FuzzDecodeManifest(f *testing.F) {
	f.Add(string(withFiles(&manifest{schema: 1, seq: 3}, map[string]entry{"a.md": {size: 1, mTime: 2, hash: "h"}, "b c.md": {}}).encode()))
	f.Add("mem-index-manifest 1\nschema 1\nseq 1\nscanned 0\nfiles 0\n")
	f.Fuzz(func(t *testing.T, data string) {
		m, err := decodeManifest(data)
		if err != nil {
			return
		}
		again, err := decodeManifest(string(m.encode()))
		if err != nil {
			t.Fatalf("re-decode: %v", err)
		}
		if !reflect.DeepEqual(filesOf(again), filesOf(m)) || again.seq != m.seq || again.schema != m.schema {
			t.Fatalf("not stable:\n%+v\n%+v", m, again)
		}
	})
}

// TestManifestChangesMergeAsTheMapWould: a run's sets and drops on a
// decoded manifest, merged into its sorted lists, encode byte for byte as
// the same changes made to the map of every file, and drop reports what
// the map held.
func TestManifestChangesMergeAsTheMapWould(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		files := map[string]entry{}
		for range rng.IntN(40) {
			files[fmt.Sprintf("memory/%02d.md", rng.IntN(60))] = entry{size: rng.Int64N(100), mTime: rng.Int64(), hash: "h"}
		}
		data := string(withFiles(&manifest{schema: schemaVersion, seq: 3, scanned: time.Unix(0, 99)}, files).encode())
		merged, err := decodeManifest(data)
		if err != nil {
			t.Fatal(err)
		}
		viaMap, _ := decodeManifest(data)
		want := filesOf(viaMap)
		for range rng.IntN(30) {
			rel := fmt.Sprintf("memory/%02d.md", rng.IntN(60))
			if rng.IntN(3) == 0 {
				_, held := want[rel]
				delete(want, rel)
				if got := merged.drop(rel); got != held {
					t.Fatalf("round %d: drop(%s) = %v, the map held it: %v", round, rel, got, held)
				}
				continue
			}
			e := entry{size: rng.Int64N(100), mTime: rng.Int64(), hash: "n"}
			want[rel] = e
			merged.set(rel, e)
		}
		if got, wantData := merged.encode(), withFiles(viaMap, want).encode(); string(got) != string(wantData) {
			t.Fatalf("round %d: merged encode\n%s\nwant\n%s", round, got, wantData)
		}
		if !reflect.DeepEqual(filesOf(merged), want) {
			t.Fatalf("round %d: the files after the merge differ from the map", round)
		}
	}
}

// withFiles gives m the files of a map, sorted as a build records them.
func withFiles(m *manifest, files map[string]entry) *manifest {
	m.order = slices.Sorted(maps.Keys(files))
	m.entries = make([]entry, len(m.order))
	for i, rel := range m.order {
		m.entries[i] = files[rel]
	}
	m.pending = nil
	return m
}

// filesOf is m's files as a map.
func filesOf(m *manifest) map[string]entry {
	order, entries := m.sorted()
	files := make(map[string]entry, len(order))
	for i, rel := range order {
		files[rel] = entries[i]
	}
	return files
}

// TestReadHeader: the header alone gives what the manifest's whole read
// gives of schema, seq and scanned, however many files follow it; a cut
// header is an error.
func TestReadHeader(t *testing.T) {
	t.Parallel()
	files := map[string]entry{}
	for i := range 5000 {
		files[fmt.Sprintf("memory/%05d.md", i)] = entry{size: int64(i), mTime: int64(i) << 20, hash: "0123456789abcdef"}
	}
	data := withFiles(&manifest{schema: schemaVersion, seq: 12, scanned: time.Unix(0, 1796610602104450542)}, files).encode()
	path := filepath.Join(t.TempDir(), manifestFile)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	whole, err := readManifest(path)
	if err != nil {
		t.Fatal(err)
	}
	head, err := readHeader(path)
	if err != nil {
		t.Fatal(err)
	}
	if head.schema != whole.schema || head.seq != whole.seq || !head.scanned.Equal(whole.scanned) || len(whole.order) != 5000 || head.order != nil {
		t.Errorf("header %+v, whole manifest schema %d seq %d scanned %v with %d files", head, whole.schema, whole.seq, whole.scanned, len(whole.order))
	}
	if err := os.WriteFile(path, data[:40], 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := readHeader(path); err == nil {
		t.Error("a header cut after 40 bytes was read")
	}
}
