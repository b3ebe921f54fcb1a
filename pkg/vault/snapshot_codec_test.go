package vault

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
)

func TestSnapshotRoundTrip(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 40)
	snap, err := v.Scan()
	if err != nil {
		t.Fatal(err)
	}
	prefix := []byte("head")
	data, err := snap.AppendBinary(slices.Clone(prefix))
	if err != nil {
		t.Fatal(err)
	}
	data = append(data, "tail"...)
	got, n, err := DecodeSnapshot(data[len(prefix):])
	if err != nil {
		t.Fatal(err)
	}
	if string(data[len(prefix)+n:]) != "tail" {
		t.Errorf("DecodeSnapshot took %d bytes, leaving %q; want the tail", n, data[len(prefix)+n:])
	}
	if !reflect.DeepEqual(got.Rels, snap.Rels) || !reflect.DeepEqual(got.stamps, snap.stamps) || !got.started.Equal(snap.started) {
		t.Fatal("the decoded snapshot differs from the scan")
	}
	for i := range data[len(prefix) : len(prefix)+n] {
		if _, _, err := DecodeSnapshot(data[len(prefix) : len(prefix)+i]); err == nil {
			t.Fatalf("a snapshot cut at byte %d of %d decoded", i, n)
		}
	}
}

// TestSnapshotChanged: every kind of change to a file shows, and so does a
// file whose recorded stamp cannot vouch for it.
func TestSnapshotChanged(t *testing.T) {
	t.Parallel()
	v := cacheVault(t, 20)
	v.RacyWindow = vaulttest.NoRacyWindow
	scan := func() *Snapshot {
		t.Helper()
		s, err := v.Scan()
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	mem := func(name string) string { return filepath.Join(v.Root, "memory", name) }
	old := scan()
	if changed, removed := scan().Changed(old); !slices.Equal(changed, []string{"notes/link.md"}) || removed != nil {
		t.Fatalf("unchanged vault: changed %q removed %q; want only the symlink (its stamp never vouches)", changed, removed)
	}
	data, _ := os.ReadFile(mem("m0001.md"))
	data[len(data)-2] ^= 1
	for _, err := range []error{
		os.WriteFile(mem("m0001.md"), data, 0o644), // same size
		os.WriteFile(mem("new.md"), data, 0o644),
		os.Rename(mem("m0002.md"), mem("m0002-renamed.md")),
		os.Remove(mem("m0003.md")),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	changed, removed := scan().Changed(old)
	want := []string{"memory/m0001.md", "memory/m0002-renamed.md", "memory/new.md", "notes/link.md"}
	if !slices.Equal(changed, want) || !slices.Equal(removed, []string{"memory/m0002.md", "memory/m0003.md"}) {
		t.Errorf("changed %q removed %q; want changed %q and removed m0002, m0003", changed, removed, want)
	}

	v.RacyWindow = 1 << 62 // every file was written just before old's scan
	now := scan()
	if changed, _ := now.Changed(old); !slices.Equal(changed, now.Rels) {
		t.Errorf("racy stamps: %d changed, want every file (%d)", len(changed), len(now.Rels))
	}
}

func FuzzDecodeSnapshot(f *testing.F) {
	snap := &Snapshot{
		Rels:    []string{"a.md", "memory/b.md", "memory/c.md"},
		stamps:  []fileStamp{{12, 1e18, 1e18 + 5, 77}, {}, {-1, -2, -3, 1 << 63}},
		started: time.Unix(0, 1e18+9),
	}
	good, _ := snap.AppendBinary(nil)
	f.Add(good)
	f.Add(good[:len(good)/2])
	f.Add([]byte{snapshotFormat, 0, 2, 2, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		s, n, err := DecodeSnapshot(data)
		if err != nil {
			return
		}
		if n > len(data) || !slices.IsSorted(s.Rels) || len(s.stamps) != len(s.Rels) {
			t.Fatalf("decoded %d bytes of %d, %d stamps for %d paths, sorted %v", n, len(data), len(s.stamps), len(s.Rels), slices.IsSorted(s.Rels))
		}
		again, _ := s.AppendBinary(nil)
		s2, n2, err := DecodeSnapshot(again)
		if err != nil || n2 != len(again) || !reflect.DeepEqual(s2.Rels, s.Rels) || !reflect.DeepEqual(s2.stamps, s.stamps) {
			t.Fatalf("a decoded snapshot does not survive re-encoding: %v", err)
		}
		s.Changed(snap)
		snap.Changed(s)
	})
}
