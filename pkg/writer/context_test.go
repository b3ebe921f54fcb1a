package writer

import (
	"context"
	"os"
	"testing"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/vault"
)

// TestStoppedWriteChangesNothing: a write whose Front.Context is done
// (Ctrl-C, a daemon's shutdown) fails as interrupted (exit 130) and leaves
// every file as it was.
func TestStoppedWriteChangesNothing(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	m, err := Remember(v, Front{}, vault.NewMemory{Text: "The db listens on 5432"}, now)
	if err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(m.Path)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	f := Front{Context: ctx, Person: "human:ann"}
	for name, write := range map[string]func() error{
		"remember": func() error {
			_, err := Remember(v, f, vault.NewMemory{Text: "The db listens on 5433"}, now)
			return err
		},
		"note": func() error {
			_, _, err := Note(v, f, "Runbook", "Restart the db first.", vault.NewMemory{}, now)
			return err
		},
		"pin": func() error {
			_, _, err := Pin(v, f, m.ID, "", true, "", now)
			return err
		},
		"accept all": func() error {
			_, err := AcceptAll(v, f, []string{m.ID}, now)
			return err
		},
		"add project": func() error {
			_, err := AddProject(v, f, NewProject{ID: "proj_x", Roots: []string{t.TempDir()}}, now)
			return err
		},
	} {
		if err := write(); fail.Of(err) != fail.Interrupted {
			t.Errorf("%s with a done context: %v, want an interrupted error", name, err)
		}
	}
	if n := count(t, v); n != 1 {
		t.Errorf("%d files after the stopped writes, want the 1 written before", n)
	}
	if after, err := os.ReadFile(m.Path); err != nil || string(after) != string(before) {
		t.Errorf("%s changed by a stopped write: %v\n%s", m.Rel, err, after)
	}
}
