package vault

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// The vault you stand in wins over $MEM_VAULT (spec §2): a rebuild run
// inside a test vault must not index the personal one.
func TestFindStandingInsideBeatsEnv(t *testing.T) {
	t.Parallel()
	inner := newVault(t, map[string]string{"mem.yaml": "", "sub/.keep": ""})
	other := newVault(t, map[string]string{"mem.yaml": ""})
	got, err := Find("", other.Root, filepath.Join(inner.Root, "sub"))
	if err != nil || got != inner.Root {
		t.Fatalf("inside %s with $MEM_VAULT=%s: got %q, %v", inner.Root, other.Root, got, err)
	}
	// Outside any vault, $MEM_VAULT is the default.
	if got, err := Find("", other.Root, t.TempDir()); err != nil || got != other.Root {
		t.Fatalf("outside a vault: got %q, %v", got, err)
	}
	// --vault beats both.
	if got, err := Find(other.Root, "", inner.Root); err != nil || got != other.Root {
		t.Fatalf("--vault: got %q, %v", got, err)
	}
}

func TestFindMemoryShortIDs(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{
		"memory/db-port-2a3ee3.md":    fact,
		"memory/db-host-2a9f00.md":    fact,
		"memory/deploy-cmd-77c1d0.md": fact,
		"notes/db-port.md":            "---\ntype: note\n---\nLong\n",
	})
	mems := mustLoad(t, v)
	for ref, want := range map[string]string{
		"2a3e":                  "memory/db-port-2a3ee3.md", // the random suffix, as git takes a short hash
		"memory/deploy":         "memory/deploy-cmd-77c1d0.md",
		"deploy-cmd":            "memory/deploy-cmd-77c1d0.md", // the base name
		"db-host":               "memory/db-host-2a9f00.md",
		"notes/db-port":         "notes/db-port.md", // exact beats the prefix of memory/db-port-…
		"memory/db-port-2a3ee3": "memory/db-port-2a3ee3.md",
	} {
		if m, err := v.FindMemory(mems, ref); err != nil || m.Rel != want {
			t.Errorf("FindMemory(%q) = %v, %v; want %s", ref, m, err, want)
		}
	}
	_, err := v.FindMemory(mems, "2a")
	if !errors.Is(err, ErrAmbiguous) || !strings.Contains(err.Error(), "memory/db-host-2a9f00.md, memory/db-port-2a3ee3.md") {
		t.Errorf("ambiguous prefix: %v", err)
	}
	if _, err := v.FindMemory(mems, "zz"); !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"zz"`) {
		t.Errorf("unknown prefix: %v", err)
	}
}

// An absolute path outside the vault is quoted back as it was given, not
// as a climb out of the vault ("../../etc/passwd").
func TestFindMemoryQuotesTheRefAsGiven(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"memory/a.md": fact})
	_, err := v.FindMemory(mustLoad(t, v), "/etc/passwd")
	if !errors.Is(err, ErrNotFound) || !strings.Contains(err.Error(), `"/etc/passwd"`) || strings.Contains(err.Error(), "..") {
		t.Errorf("FindMemory(/etc/passwd): %v", err)
	}
}
