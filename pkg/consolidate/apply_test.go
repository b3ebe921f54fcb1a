package consolidate

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// commits records what a batch asked its Commit for, in place of git.
type commits struct {
	subjects []string
	paths    [][]string
	err      error
}

func (c *commits) commit(paths []string, subject string) (string, error) {
	c.subjects = append(c.subjects, subject)
	c.paths = append(c.paths, paths)
	return "c0ffee0123456789", c.err
}

func duplicateVault(t *testing.T) (*vault.Vault, map[string]string) {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"memory/d1.md": "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-01\n---\nUses Go for services.\n",
		"memory/d2.md": "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-01-02\n---\nuses  go for SERVICES\n",
	}
	vaulttest.Write(t, root, vault.ConfigFile, "")
	for rel, data := range files {
		vaulttest.Write(t, root, rel, data)
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v, files
}

func unattended(t *testing.T, v *vault.Vault, now time.Time) []Proposal {
	t.Helper()
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, err := Find(v, mems, Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	props := r.Unattended()
	if len(props) != 1 || props[0].Kind != KindDuplicate {
		t.Fatalf("proposals = %+v", r.Proposals)
	}
	return props
}

// A batch is committed through the Commit its caller hands it: once, with
// the files it changed and no other, and undone through it too, every
// file put back byte for byte. No git runs.
func TestApplyAndUndoCommitThroughTheCaller(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	v, files := duplicateVault(t)
	var c commits
	outs, b, err := Apply(v, writer.Front{}, unattended(t, v, now), now, c.commit, nil)
	if err != nil || b == nil || len(outs) != 1 || outs[0].Result != "applied" {
		t.Fatalf("apply: %v, batch %+v, outcomes %+v", err, b, outs)
	}
	if len(c.subjects) != 1 || c.subjects[0] != fmt.Sprintf("mem consolidate: 1 changes, %d files", len(b.Files)) || b.Commit != "c0ffee0123456789" {
		t.Fatalf("commits %q, batch commit %q", c.subjects, b.Commit)
	}
	// The merge writes a new claim and supersedes a member: both are
	// committed, and only they.
	var created []string
	for _, rel := range c.paths[0] {
		if _, ok := files[rel]; !ok {
			created = append(created, rel)
		}
	}
	if !slices.Equal(c.paths[0], b.paths()) || len(c.paths[0]) != 2 || len(created) != 1 {
		t.Errorf("committed %v, batch %v", c.paths[0], b.paths())
	}

	u, err := Undo(v, c.commit)
	if err != nil || u.Commit != b.Commit {
		t.Fatalf("undo: %v %+v", err, u)
	}
	if len(c.subjects) != 2 || !strings.HasPrefix(c.subjects[1], "mem consolidate --undo: batch c0ffee012345, ") {
		t.Errorf("undo commit %q", c.subjects)
	}
	for rel, want := range files {
		if got, err := os.ReadFile(filepath.Join(v.Root, rel)); err != nil || string(got) != want {
			t.Errorf("%s after undo: %v %q", rel, err, got)
		}
	}
	for _, rel := range created {
		if _, err := os.Stat(filepath.Join(v.Root, rel)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s, which the batch created, after undo: %v", rel, err)
		}
	}
	if _, err := Undo(v, c.commit); fail.Of(err) != fail.Check {
		t.Errorf("a second undo: %v, want the check failure of no batch", err)
	}
}

// A commit that fails fails the batch: no record is kept for an undo.
func TestApplyCommitFails(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	v, _ := duplicateVault(t)
	c := commits{err: errors.New("git: no")}
	if _, b, err := Apply(v, writer.Front{}, unattended(t, v, now), now, c.commit, nil); err == nil || b != nil {
		t.Fatalf("apply with a failing commit: %v, batch %+v", err, b)
	}
	if _, err := Undo(v, c.commit); fail.Of(err) != fail.Check {
		t.Errorf("undo after a failed commit: %v, want no batch", err)
	}
}
