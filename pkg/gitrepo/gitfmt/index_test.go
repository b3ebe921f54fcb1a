package gitfmt

import (
	"bytes"
	"crypto/sha1"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/index"
)

// Entries round-trip through EncodeIndex and go-git's decoder, including
// extended flags and names longer than the 12-bit length field.
func TestEncodeIndexRoundTrip(t *testing.T) {
	long := strings.Repeat("n", 5000)
	ents := []*index.Entry{
		{Name: "a.md", Size: 3, ModifiedAt: time.Unix(1700000000, 5), CreatedAt: time.Unix(1700000001, 6), Dev: 1, Inode: 2, UID: 3, GID: 4, Mode: 0o100644},
		{Name: "b/" + long, Mode: 0o100755, SkipWorktree: true},
		{Name: "c", Mode: 0o120000, IntentToAdd: true},
	}
	for i := range ents {
		ents[i].Hash[0] = byte(i + 1)
	}
	var b strings.Builder
	if err := EncodeIndex(&b, ents, &CacheTree{Entries: 3, Hash: ents[0].Hash}); err != nil {
		t.Fatal(err)
	}
	var gg index.Index
	if err := index.NewDecoder(strings.NewReader(b.String())).Decode(&gg); err != nil {
		t.Fatal(err)
	}
	if gg.Version != 3 || !reflect.DeepEqual(gg.Entries, ents) {
		t.Fatalf("go-git reads version %d:\n%s", gg.Version, fmt.Sprint(gg.Entries))
	}
	mine, err := DecodeIndex([]byte(b.String()))
	if err != nil || !reflect.DeepEqual(mine.Entries, ents) || !reflect.DeepEqual(mine.Cache, gg.Cache) {
		t.Fatalf("decodeIndex: %v %+v", err, mine)
	}
}

// FuzzDecodeIndex: no input makes the decoder panic, hang or allocate
// without bound; the input is also tried with a valid checksum appended,
// so the fuzzer gets past the checksum into the entries and extensions.
func FuzzDecodeIndex(f *testing.F) {
	var b bytes.Buffer
	ents := []*index.Entry{{Name: "Obsidian Sync/a.md", Mode: 0o100644}, {Name: "new\nline/ b", Mode: 0o100644}}
	root := &CacheTree{Entries: 2, Subs: []*CacheTree{{Name: "Obsidian Sync", Entries: 1}, {Name: "new\nline", Entries: 1}}}
	if err := EncodeIndex(&b, ents, root); err != nil {
		f.Fatal(err)
	}
	f.Add(b.Bytes())
	f.Add(b.Bytes()[:len(b.Bytes())-20])
	f.Add([]byte("DIRC\x00\x00\x00\x02\xff\xff\xff\xff"))
	f.Add([]byte("\x00 1\n"))
	f.Add([]byte("a b\x001 0\n01234567890123456789"))
	f.Fuzz(func(t *testing.T, data []byte) {
		DecodeIndex(data)
		sum := sha1.Sum(data)
		if idx, err := DecodeIndex(append(data[:len(data):len(data)], sum[:]...)); err == nil {
			CachedTrees(idx.Cache)
		}
		if tr, err := decodeCacheTree(data); err == nil {
			CachedTrees(tr)
		}
	})
}

// FuzzIndexRoundTrip: any set of paths (NUL-separated in the input), with
// a cached tree for every folder, decodes to exactly what was encoded.
func FuzzIndexRoundTrip(f *testing.F) {
	f.Add([]byte("Obsidian Sync/a.md\x00Obsidian Sync/b.md\x00top.md"))
	f.Add([]byte("a b/c d/e f\x00new\nline/x\x00\xff\xfe/\x01"))
	f.Add([]byte(strings.Repeat("n", 5000) + "/x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		seen := map[string]bool{}
		var ents []*index.Entry
		root := &CacheTree{}
		for _, p := range strings.Split(string(data), "\x00") {
			comps := strings.Split(p, "/")
			if p == "" || seen[p] || strings.Contains("/"+p+"/", "//") {
				continue
			}
			// A path cannot also be a folder of another path.
			clash := false
			for q := range seen {
				if strings.HasPrefix(q, p+"/") || strings.HasPrefix(p, q+"/") {
					clash = true
				}
			}
			if clash {
				continue
			}
			seen[p] = true
			e := &index.Entry{Name: p, Mode: 0o100644, Size: uint32(len(p))}
			e.Hash = plumbing.Hash(sha1.Sum([]byte(p)))
			ents = append(ents, e)
			n := root
			n.Entries++
			for _, c := range comps[:len(comps)-1] {
				var sub *CacheTree
				for _, s := range n.Subs {
					if s.Name == c {
						sub = s
					}
				}
				if sub == nil {
					sub = &CacheTree{Name: c, Hash: plumbing.Hash(sha1.Sum([]byte(c)))}
					n.Subs = append(n.Subs, sub)
				}
				sub.Entries++
				n = sub
			}
		}
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
		var b bytes.Buffer
		if err := EncodeIndex(&b, ents, root); err != nil {
			t.Fatal(err)
		}
		idx, err := DecodeIndex(b.Bytes())
		if err != nil {
			t.Fatalf("decode what was encoded: %v", err)
		}
		if len(idx.Entries) != len(ents) {
			t.Fatalf("%d entries, encoded %d", len(idx.Entries), len(ents))
		}
		for i, e := range idx.Entries {
			if !reflect.DeepEqual(e, ents[i]) {
				t.Fatalf("entry %d: %+v, encoded %+v", i, e, ents[i])
			}
		}
		var want []index.TreeEntry
		var flat func(n *CacheTree) // appendCacheTree sorted the subs in place
		flat = func(n *CacheTree) {
			want = append(want, index.TreeEntry{Path: n.Name, Entries: n.Entries, Trees: len(n.Subs), Hash: n.Hash})
			for _, s := range n.Subs {
				flat(s)
			}
		}
		flat(root)
		if idx.Cache == nil || !reflect.DeepEqual(idx.Cache.Entries, want) {
			t.Fatalf("cached trees:\n got %+v\nwant %+v", idx.Cache, want)
		}
	})
}
