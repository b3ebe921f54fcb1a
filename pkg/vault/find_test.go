package vault

import (
	"path/filepath"
	"testing"
)

// The vault you stand in wins over $MEM_VAULT (spec §2): a rebuild run
// inside a test vault must not index the personal one.
func TestFindStandingInsideBeatsEnv(t *testing.T) {
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
