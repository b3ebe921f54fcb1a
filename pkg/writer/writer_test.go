package writer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

var now = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// initialized is the vault newVault copies, made by vault.Init on first
// use; TestMain removes it.
var initialized, removeInitialized = vaulttest.Once("mem-writer-vault-", func(dir string) error {
	_, err := vault.Init(dir, nil)
	return err
})

func TestMain(m *testing.M) {
	code := m.Run()
	removeInitialized()
	os.Exit(code)
}

// newVault is a fresh vault as vault.Init leaves it: a copy of one Init
// made for the whole package, since Init's fsync'd writes were half the
// CPU of the ~3,300 poison cases, each of which needs its own vault.
func newVault(t *testing.T) *vault.Vault {
	t.Helper()
	template, err := initialized()
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	vaulttest.CopyBuilt(t, template, root)
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func count(t *testing.T, v *vault.Vault) int {
	t.Helper()
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	return len(rels)
}

func TestRememberRefusalsAndRequestErrors(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	old, err := Remember(v, Front{}, vault.NewMemory{Text: "The db listens on 5432", ValidAt: mustDate(t, "2026-11-20"), Key: "db-port"}, now)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		n       vault.NewMemory
		refusal bool
		want    string
	}{
		{"too long", vault.NewMemory{Text: strings.Repeat("x", 300)}, true, "mem note"},
		{"secret", vault.NewMemory{Text: "token ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"}, true, "secret-github-pat"},
		{"supersedes nothing", vault.NewMemory{Text: "x", Supersedes: []string{"memory/nope"}}, true, "no memory has id or path"},
		{"backwards", vault.NewMemory{Text: "The db listens on 6000", ValidAt: mustDate(t, "2026-11-01"), Supersedes: []string{old.ID}}, true, "refused"},
		{"bad enum", vault.NewMemory{Text: "x", Provenance: "rumour"}, false, "provenance"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := count(t, v)
			_, err := Remember(v, Front{}, tc.n, now)
			var r *Refusal
			if err == nil || errors.As(err, &r) != tc.refusal || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v (refusal %v), want refusal=%v mentioning %q", err, errors.As(err, &r), tc.refusal, tc.want)
			}
			if count(t, v) != before {
				t.Fatal("a refused write left a file")
			}
		})
	}
	// A forward supersession is stored by id and inherits the target's key.
	m, err := Remember(v, Front{}, vault.NewMemory{Text: "The db listens on 6432", Supersedes: []string{old.Rel}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Meta(); got.Supersedes[0] != old.ID || got.Key != "db-port" {
		t.Fatalf("supersedes %v key %q", got.Supersedes, got.Key)
	}
}

func TestNoteWritesNoteAndPointer(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	note, pointer, err := Note(v, Front{}, "Retry design", "# Retry\n\nBack off.\n", vault.NewMemory{Project: "none", Tags: []string{"design"}}, now)
	if err != nil {
		t.Fatal(err)
	}
	if note.Meta().Type != "note" || note.Meta().Title != "Retry design" || note.Meta().Provenance != "" {
		t.Errorf("note meta %+v", note.Meta())
	}
	if want := "Retry design: see [[" + note.ID + "]]"; pointer.Summary() != want || pointer.Meta().Provenance != "stated" {
		t.Errorf("pointer %q (%s), want %q", pointer.Summary(), pointer.Meta().Provenance, want)
	}
	data, _ := os.ReadFile(filepath.Join(v.Root, pointer.Rel))
	if !strings.Contains(string(data), "[["+note.ID+"]]") {
		t.Errorf("pointer file does not link the note:\n%s", data)
	}
}

func TestNoteRefusedPointerLeavesNoOrphan(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	_, _, err := Note(v, Front{}, "Orphan", "body", vault.NewMemory{Supersedes: []string{"memory/nope"}}, now)
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if n := count(t, v); n != 0 {
		t.Fatalf("%d files written", n)
	}
	for _, bad := range [][2]string{{"", "body"}, {"two\nlines", "body"}, {"Title", "  "}} {
		if _, _, err := Note(v, Front{}, bad[0], bad[1], vault.NewMemory{}, now); err == nil {
			t.Errorf("Note(%q, %q) accepted", bad[0], bad[1])
		}
	}
}

func TestDates(t *testing.T) {
	t.Parallel()
	valid, stale, err := Dates(Front{}, "2026-01-02", "", "30d", now)
	if err != nil || valid.String() != "2026-01-02" || stale.String() != "2026-12-29T00:00:00Z" {
		t.Fatalf("%v %v %v", valid, stale, err)
	}
	if _, stale, _ := Dates(Front{}, "", "2027-01-01T10:00:00Z", "", now); stale.String() != "2027-01-01T10:00:00Z" {
		t.Errorf("stale_after is OKF's instant, kept as given, got %v", stale)
	}
	if _, stale, _ := Dates(Front{}, "", "2027-01-01", "", now); stale.String() != "2027-01-01T00:00:00Z" {
		t.Errorf("a bare stale_after date is its midnight UTC, got %v", stale)
	}
	for _, in := range [][3]string{{"yesterday", "", ""}, {"", "2027-01-01", "30d"}, {"", "soon", ""}, {"", "", "3h"}} {
		if _, _, err := Dates(Front{}, in[0], in[1], in[2], now); err == nil {
			t.Errorf("Dates%v accepted", in)
		}
	}
}

func mustDate(t *testing.T, s string) frontmatter.Time {
	t.Helper()
	d, err := frontmatter.ParseTime(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBuildValidates(t *testing.T) {
	t.Parallel()
	projects := []vault.Project{{ID: "proj_x"}}
	for _, tc := range []struct {
		name string
		n    vault.NewMemory
		want string
	}{
		{"bad type", vault.NewMemory{Text: "x", Type: "opinion"}, "type"},
		{"bad provenance", vault.NewMemory{Text: "x", Provenance: "rumour"}, "provenance"},
		{"bad importance", vault.NewMemory{Text: "x", Importance: 11}, "importance"},
		{"junk project", vault.NewMemory{Text: "x", Project: "changed"}, "proj_"},
		{"unknown project", vault.NewMemory{Text: "x", Project: "proj_y"}, "names no project note"},
		{"stale before valid", vault.NewMemory{Text: "x", StaleAfter: frontmatter.NewDate(now.AddDate(0, 0, -1))}, "not after valid_at"},
		{"empty", vault.NewMemory{Text: "  "}, "empty"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := build(Front{}, tc.n, projects, now)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want it to mention %q", err, tc.want)
			}
		})
	}
	doc, err := build(Front{}, vault.NewMemory{Text: "two\nlines", Project: "proj_x"}, projects, now)
	if err != nil || doc.Meta.Project != "proj_x" || doc.Meta.Type != "fact" || doc.Meta.Provenance != "stated" || !doc.Meta.ValidAt.Equal(now) {
		t.Fatalf("defaults: %+v, %v", doc, err)
	}
}

// A note over lint.max_file_size is refused (it would never be read back),
// naming the rule and the field; nothing is written.
func TestNoteOverTheSizeLimitIsRefused(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	v.Config.Lint.MaxFileSize = 4096
	_, _, err := Note(v, Front{}, "Big", strings.Repeat("word ", 1000), vault.NewMemory{}, now)
	var r *Refusal
	if !errors.As(err, &r) || r.Rule != "file-too-large" || r.Field != "body" {
		t.Fatalf("err = %v, want a file-too-large refusal of the body", err)
	}
	if n := count(t, v); n != 0 {
		t.Fatalf("%d files written", n)
	}
}

// A writer refuses a memory/ that is a link: the loader never follows it.
func TestRememberThroughALinkedFolderIsRefused(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	outside := t.TempDir()
	os.RemoveAll(filepath.Join(v.Root, "memory"))
	if err := os.Symlink(outside, filepath.Join(v.Root, "memory")); err != nil {
		t.Skip(err)
	}
	if _, err := Remember(v, Front{}, vault.NewMemory{Text: "The CI runs on every push"}, now); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Fatalf("err = %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("written outside the vault: %v", entries)
	}
}
