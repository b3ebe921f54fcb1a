package vault

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/internal/wire"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// cacheFiles are the shapes the cache must give back exactly, or refuse.
var cacheFiles = []string{
	// every key, times in every form time.Parse gives a location to
	"---\nid: memory/full-%d\ntype: lesson\ntitle: T\ndescription: D\nprovenance: inferred\nstatus: stable\nproject: proj_a\npinned: true\nsection: Notes\nimportance: 7\nkey: k\nvalid_at: 2026-01-02T03:04:05.123456789+02:00\nstale_after: 2027-01-02\ninvalid_at: 2027-02-03T04:05:06Z\nsupersedes: [memory/old]\ntags: [a, b]\naliases: []\nroots: [\"~/src/a\"]\nsource: native\nsession: s1\ngenerated: {by: human:dana, at: 2026-01-02T03:04:05}\nverified: [{by: process:ci, at: 2026-01-03T00:00:00+00:00}]\nsources: [{resource: r, id: i, title: t, author: a, last_modified: 2026-01-01}]\nsignals:\n  - {session: s1, at: 2026-01-02, evidence: e}\n---\nWhen it broke, a retry fixed it %d.\n",
	"---\ntype: fact\nprovenance: stated\ntags: x\nvalid_at: 2026-03-04 05:06\n---\n\nFirst line %d.\nsecond line\n",
	"---\n---\nempty frontmatter %d\n",
	"---\ntype: note\n...\n# Title %d\n\nbody\n",
	// not cacheable: an unknown key, a CRLF file, a broken file, no frontmatter
	"---\ntype: fact\nprovenance: stated\ncssclasses: [wide]\n---\nextra %d\n",
	"---\r\ntype: fact\r\nprovenance: stated\r\n---\r\ncrlf %d\r\n",
	"---\ntype: [fact\n---\nbroken %d\n",
	"no frontmatter %d\n",
}

// cacheVault writes n files cycling through cacheFiles, plus a symlink.
func cacheVault(t *testing.T, n int) *Vault {
	t.Helper()
	dir := t.TempDir()
	if _, err := Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		p := filepath.Join(dir, "memory", fmt.Sprintf("m%04d.md", i))
		if err := os.WriteFile(p, fmt.Appendf(nil, cacheFiles[i%len(cacheFiles)], i, i), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(dir, "memory", "m0000.md"), filepath.Join(dir, "notes", "link.md")); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// same checks that a load equals a direct read of every file.
func same(t *testing.T, v *Vault, opts LoadOptions, got []*Memory) {
	t.Helper()
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	want := v.loadDirect(context.Background(), rels, opts)
	if len(got) != len(want) {
		t.Fatalf("loaded %d files, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("%s differs from a direct read:\ngot  %+v\n     %+v\nwant %+v\n     %+v", want[i].Rel, got[i], got[i].Doc, want[i], want[i].Doc)
		}
	}
}

func TestCacheIsTransparent(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 400)
	v.RacyWindow = vaulttest.NoRacyWindow
	for _, opts := range []LoadOptions{{}, {Raw: true}} {
		for round := range 2 { // the first load writes the cache, the second reads it
			mems, err := v.Load(opts)
			if err != nil {
				t.Fatal(err)
			}
			same(t, v, opts, mems)
			c := v.openCache()
			if c == nil {
				t.Fatalf("round %d: no cache after a whole-vault load", round)
			}
			// Four of the eight shapes are cacheable; the symlink never is.
			if want := 200; len(c.entries) != want {
				t.Errorf("round %d: %d cache entries, want %d", round, len(c.entries), want)
			}
		}
	}
	rels, _ := v.List()
	same(t, v, LoadOptions{Raw: true}, v.LoadFiles(rels, LoadOptions{Raw: true}))
}

func TestCacheSeesEveryChange(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 400)
	v.RacyWindow = vaulttest.NoRacyWindow
	if _, err := v.Load(LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	// Same size, different bytes: only the stamp can tell.
	p := filepath.Join(v.Root, "memory", "m0001.md")
	data, _ := os.ReadFile(p)
	if err := os.WriteFile(p, bytes.Replace(data, []byte("First line"), []byte("Fresh line"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(v.Root, "memory", "m0002.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v.Root, "memory", "new.md"), []byte("---\ntype: fact\nprovenance: stated\n---\nnew\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mems, err := v.Load(LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	same(t, v, LoadOptions{}, mems)
	for _, m := range mems {
		if m.Rel == "memory/m0001.md" && m.Summary() != "Fresh line 1." {
			t.Errorf("changed file read from the stale cache: %q", m.Summary())
		}
	}
}

func TestCacheRacyFilesAreNotRecorded(t *testing.T) {
	t.Parallel()            // the default window is the vault's own, no global another test changes
	v := cacheVault(t, 300) // just written: inside the racy window
	if _, err := v.Load(LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	if c := v.openCache(); c != nil && len(c.entries) > 0 {
		t.Errorf("%d files changed within the last second were cached", len(c.entries))
	}
}

func TestCorruptCacheIsIgnoredAndRebuilt(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 300)
	v.RacyWindow = vaulttest.NoRacyWindow
	if _, err := v.Load(LoadOptions{}); err != nil {
		t.Fatal(err)
	}
	good, err := os.ReadFile(v.cachePath())
	if err != nil {
		t.Fatal(err)
	}
	flipped := bytes.Clone(good)
	flipped[len(flipped)/2] ^= 0xff
	for name, bad := range map[string][]byte{
		"flipped byte": flipped,
		"truncated":    good[:len(good)/3],
		"empty":        {},
		"garbage":      []byte("not a cache at all, but long enough to have a checksum"),
	} {
		if err := os.WriteFile(v.cachePath(), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		mems, err := v.Load(LoadOptions{Raw: true})
		if err != nil {
			t.Fatal(err)
		}
		same(t, v, LoadOptions{Raw: true}, mems)
		if v.openCache() == nil {
			t.Errorf("%s: the cache was not rebuilt", name)
		}
	}
}

// FuzzDecodeCache feeds arbitrary bytes, with a valid checksum so they reach
// the decoder, through decoding and every lookup: nothing may panic.
func FuzzDecodeCache(f *testing.F) {
	dir := f.TempDir()
	if _, err := Init(dir, nil); err != nil {
		f.Fatal(err)
	}
	for i := range 4 {
		p := filepath.Join(dir, "memory", fmt.Sprintf("m%04d.md", i))
		if err := os.WriteFile(p, fmt.Appendf(nil, cacheFiles[i], i, i), 0o644); err != nil {
			f.Fatal(err)
		}
	}
	v, err := Options{RacyWindow: vaulttest.NoRacyWindow}.Open(dir)
	if err != nil {
		f.Fatal(err)
	}
	rels, _ := v.List()
	v.loadCached(context.Background(), rels, nil, LoadOptions{}, nil) // a small vault's cache as the seed
	good, err := os.ReadFile(v.cachePath())
	if err != nil {
		f.Fatal(err)
	}
	f.Add(good[:len(good)-4])
	f.Add(good[:len(good)/2])
	f.Fuzz(func(t *testing.T, body []byte) {
		raw := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, crcTable))
		c := decodeCache(raw)
		if c == nil {
			return
		}
		for rel, e := range c.entries {
			c.lookup(&Memory{Rel: rel}, e.stamp, LoadOptions{Raw: true})
		}
	})
}

// TestMetaCodecKeepsEveryField: the hand-written Meta codec must list every
// field of frontmatter.Meta in encodeMeta and decodeMeta in step. Every
// field, nested ones too, is filled by reflection with a value of its own,
// so a field added to Meta and forgotten here comes back zero and fails.
func TestMetaCodecKeepsEveryField(t *testing.T) {
	t.Parallel()
	var want frontmatter.Meta
	n := 0
	fill(t, reflect.ValueOf(&want).Elem(), "Meta", &n)
	var e encoder
	encodeMeta(&e, &want)
	d := &decoder{wire.Decoder{S: string(e.Buf)}}
	var got frontmatter.Meta
	decodeMeta(d, &got)
	if d.Err != nil || d.Off != len(d.S) {
		t.Fatalf("decoding stopped at %d of %d bytes: %v", d.Off, len(d.S), d.Err)
	}
	g, w := reflect.ValueOf(got), reflect.ValueOf(want)
	for i := range w.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("Meta.%s: the cache codec gives back %+v, want %+v (is it in encodeMeta and decodeMeta?)", w.Type().Field(i).Name, g.Field(i), w.Field(i))
		}
	}
}

// fill sets v and every field inside it to a non-zero value distinct from
// the others (n counts them), so fields swapped in the codec fail too.
func fill(t *testing.T, v reflect.Value, path string, n *int) {
	*n++
	if v.Type() == reflect.TypeFor[frontmatter.Time]() {
		// The codec keeps each form apart: a date, UTC, a fixed offset.
		at := time.Date(2026, 1, 2, 3, 4, 5, *n, time.FixedZone("", *n*60))
		forms := []frontmatter.Time{{Time: at}, {Time: at.UTC()}, {Time: time.Date(2026, 1, *n, 0, 0, 0, 0, time.UTC), DateOnly: true}}
		v.Set(reflect.ValueOf(forms[*n%3]))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s-%d", path, *n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int:
		v.SetInt(int64(*n))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(t, v.Elem(), path, n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(t, v.Index(i), fmt.Sprintf("%s[%d]", path, i), n)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			fill(t, v.Field(i), path+"."+v.Type().Field(i).Name, n)
		}
	default:
		t.Fatalf("%s: a %s field; teach fill (and the cache codec) its kind", path, v.Kind())
	}
}

// TestEveryFieldThroughCache: a value in every field of frontmatter.Fields,
// written by Marshal and read by Parse (pkg/frontmatter's
// TestEveryFieldRoundTrips holds those two), comes back from the parse
// cache's codec field for field.
func TestEveryFieldThroughCache(t *testing.T) {
	t.Parallel()
	want := vaulttest.EveryField(t)
	doc, err := frontmatter.Parse((&frontmatter.Document{Meta: want, Body: "Body.\n"}).Marshal())
	if err != nil {
		t.Fatal(err)
	}
	vaulttest.SameFields(t, "parse", doc.Meta, want)
	var e encoder
	encodeMeta(&e, &doc.Meta)
	d := &decoder{wire.Decoder{S: string(e.Buf)}}
	var got frontmatter.Meta
	decodeMeta(d, &got)
	if d.Err != nil || d.Off != len(d.S) {
		t.Fatalf("decoding stopped at %d of %d bytes: %v", d.Off, len(d.S), d.Err)
	}
	vaulttest.SameFields(t, "cache", got, want)
}

// TestKeptKeysNeverCached is the parse cache's part of pkg/frontmatter's
// TestKeptKeysRoundTrip: the codec carries no kept key, so a file with one
// is never recorded and every load parses it again; a load through the
// cache still gives back its kept keys, and every field, as a direct read.
func TestKeptKeysNeverCached(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	plain := &frontmatter.Document{Meta: vaulttest.EveryField(t), Body: "Plain.\n"}
	kept := &frontmatter.Document{Meta: vaulttest.EveryField(t), Body: "Kept.\n"}
	kept.SetKeptText(frontmatter.ImportKey, "claude-code/x")
	kept.SetKeptTime(frontmatter.PromotedAtKey, kept.Meta.ValidAt)
	kept.Extra = append(kept.Extra, frontmatter.KeyValue{Key: "cssclasses", Value: frontmatter.NewList("wide")})
	for name, d := range map[string]*frontmatter.Document{"plain.md": plain, "kept.md": kept} {
		if err := os.WriteFile(filepath.Join(dir, "memory", name), d.Marshal(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := Options{RacyWindow: vaulttest.NoRacyWindow}.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	same(t, v, LoadOptions{}, v.loadCached(context.Background(), rels, nil, LoadOptions{}, nil))
	c := v.openCache()
	if c == nil {
		t.Fatal("no cache written")
	}
	if _, ok := c.entries["memory/kept.md"]; ok || len(c.entries) != 1 {
		t.Fatalf("cache entries %v: want memory/plain.md alone", c.entries)
	}
	mems := v.loadCached(context.Background(), rels, nil, LoadOptions{}, c)
	same(t, v, LoadOptions{}, mems)
	for _, m := range mems {
		if m.Rel != "memory/kept.md" {
			continue
		}
		if got, _ := m.Doc.KeptText(frontmatter.ImportKey); got != "claude-code/x" || len(m.Doc.Extra) != 3 || m.Doc.Extra[2].Value.Kind() != frontmatter.ListValue {
			t.Errorf("kept keys after a cached load: %v", m.Doc.Extra)
		}
		vaulttest.SameFields(t, "cached load", m.Doc.Meta, kept.Meta)
	}
}
