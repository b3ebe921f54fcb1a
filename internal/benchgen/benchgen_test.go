package benchgen

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

func digest(t *testing.T, opts Options) ([32]byte, map[string][]byte) {
	t.Helper()
	files := map[string][]byte{}
	h := sha256.New()
	_, err := Generate(opts, func(rel string, data []byte) error {
		if _, dup := files[rel]; dup {
			t.Fatalf("%s generated twice", rel)
		}
		files[rel] = data
		h.Write([]byte(rel))
		h.Write(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum, files
}

func TestSameSeedSameBytes(t *testing.T) {
	t.Parallel()
	a, files := digest(t, Options{N: 500, Seed: 1})
	b, _ := digest(t, Options{N: 500, Seed: 1})
	c, _ := digest(t, Options{N: 500, Seed: 2})
	if a != b {
		t.Error("two generations with seed 1 differ")
	}
	if a == c {
		t.Error("seeds 1 and 2 generate the same vault")
	}
	if len(files) != 500 {
		t.Errorf("generated %d files, want 500", len(files))
	}
}

// TestFilesAreValid parses every generated file the way the loader does and
// checks the proportions the issue asks for.
func TestFilesAreValid(t *testing.T) {
	t.Parallel()
	_, files := digest(t, Options{N: 2000, Seed: 42})
	var long, withProject, imports, lessonsWithSignals, pinned, stale, superseding, links int
	types := map[string]int{}
	for rel, data := range files {
		doc, err := vault.ParseFile(data)
		if err != nil {
			t.Fatalf("%s: %v\n%s", rel, err, data)
		}
		if len(doc.Problems) > 0 {
			t.Fatalf("%s: %+v\n%s", rel, doc.Problems, data)
		}
		m := doc.Meta
		if m.ID != strings.TrimSuffix(rel, ".md") && m.Type != frontmatter.TypeProject {
			t.Errorf("%s: id %q is not the path", rel, m.ID)
		}
		if !bytes.Equal(doc.Marshal(), data) {
			t.Errorf("%s: does not survive a parse and marshal", rel)
		}
		if frontmatter.IsMemoryType(m.Type) {
			if err := vault.CheckBoundary(doc.Body); err != nil {
				t.Errorf("%s: memory too long: %v", rel, err)
			}
		}
		types[m.Type]++
		if m.Type == frontmatter.TypeNote {
			long++
		}
		if m.Project != "" {
			withProject++
			if !vault.ProjectIDPattern().MatchString(m.Project) {
				t.Errorf("%s: bad project %q", rel, m.Project)
			}
		}
		if strings.HasPrefix(m.Source, "import:") {
			imports++
		}
		if m.Type == frontmatter.TypeLesson && len(m.Signals) > 0 {
			lessonsWithSignals++
		}
		if m.Pinned {
			pinned++
		}
		if !m.StaleAfter.IsZero() && !m.StaleAfter.After(now) {
			stale++
		}
		if len(m.Supersedes) > 0 {
			superseding++
		}
		links += strings.Count(doc.Body, "[[")
	}
	n := float64(len(files))
	share := func(name string, got int, lo, hi float64) {
		t.Helper()
		if s := float64(got) / n; s < lo || s > hi {
			t.Errorf("%s: %.3f of files, want %.2f–%.2f", name, s, lo, hi)
		}
	}
	share("long-form notes", long, 0.12, 0.18)
	share("with a project", withProject, 0.30, 0.50)
	share("imports", imports, 0.04, 0.12)
	share("wikilinks per file", links, 0.6, 1.0)
	share("superseding", superseding, 0.01, 0.06)
	share("pinned", pinned, 0.002, 0.03)
	share("stale", stale, 0.01, 0.10)
	if types[frontmatter.TypeProject] != 20 {
		t.Errorf("%d project notes, want 20", types[frontmatter.TypeProject])
	}
	if lessonsWithSignals == 0 {
		t.Error("no lesson carries signals")
	}
}

func TestWriteRefusesNonEmptyDir(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if _, err := Write(dir, Options{N: 50, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil || len(mems) != 50 {
		t.Fatalf("loaded %d files (err %v), want 50", len(mems), err)
	}
	for _, m := range mems {
		if !m.OK() {
			t.Errorf("%s: %v", m.Rel, m.Err)
		}
	}
	if _, err := Write(dir, Options{N: 50, Seed: 1}); err == nil {
		t.Error("Write into a non-empty directory succeeded")
	}
	if _, err := os.Stat(filepath.Join(dir, vault.ConfigFile)); err != nil {
		t.Error(err)
	}
}
