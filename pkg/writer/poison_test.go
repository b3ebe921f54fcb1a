package writer

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/poison"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// lesson writes an inferred lesson by hand (as a person would) and
// returns its bytes, for the signal path.
func lesson(t *testing.T, v *vault.Vault) []byte {
	t.Helper()
	data := []byte("---\nid: memory/cold-cache\ntype: lesson\nprovenance: inferred\nvalid_at: 2026-11-01\n---\nWhen the cache was cold, the build took 10 minutes\n")
	if err := os.MkdirAll(filepath.Join(v.Root, "memory"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(v.Root, "memory", "cold-cache.md"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	return data
}

// paths are the writer's doors, each given one hostile value in one field.
type path struct {
	name  string
	field string // the writer's name for where the value goes
	write func(v *vault.Vault, value string) error
}

var paths = []path{
	{"remember", "text", func(v *vault.Vault, s string) error {
		_, err := Remember(v, Front{}, vault.NewMemory{Text: s}, now)
		return err
	}},
	{"remember", "tags", func(v *vault.Vault, s string) error {
		_, err := Remember(v, Front{}, vault.NewMemory{Text: "The CI runs on every push", Tags: []string{"ci", s}}, now)
		return err
	}},
	{"remember", "key", func(v *vault.Vault, s string) error {
		_, err := Remember(v, Front{}, vault.NewMemory{Text: "The CI runs on every push", Key: s}, now)
		return err
	}},
	{"remember", "session", func(v *vault.Vault, s string) error {
		_, err := Remember(v, Front{}, vault.NewMemory{Text: "The CI runs on every push", Session: s}, now)
		return err
	}},
	{"remember", "section", func(v *vault.Vault, s string) error {
		_, err := Remember(v, Front{}, vault.NewMemory{Text: "The CI runs on every push", Pinned: true, Section: s}, now)
		return err
	}},
	{"remember", "sources", func(v *vault.Vault, s string) error {
		_, err := Remember(v, Front{}, vault.NewMemory{Text: "The CI runs on every push", Sources: []frontmatter.Source{{Resource: "ci.yml", Title: s}}}, now)
		return err
	}},
	{"note", "title", func(v *vault.Vault, s string) error {
		_, _, err := Note(v, Front{}, s, "The retry design backs off.\n", vault.NewMemory{}, now)
		return err
	}},
	{"note", "body", func(v *vault.Vault, s string) error {
		_, _, err := Note(v, Front{}, "Retry design", "# Retry\n\n"+s+"\n", vault.NewMemory{}, now)
		return err
	}},
	{"note", "tags", func(v *vault.Vault, s string) error {
		_, _, err := Note(v, Front{}, "Retry design", "Backs off.\n", vault.NewMemory{Tags: []string{s}}, now)
		return err
	}},
	{"signal", "evidence", func(v *vault.Vault, s string) error {
		_, err := Signal(v, Front{}, "memory/cold-cache", "", frontmatter.Signal{Session: "s1", Evidence: s, At: frontmatter.NewTime(now)}, now)
		return err
	}},
	{"signal", "session", func(v *vault.Vault, s string) error {
		_, err := Signal(v, Front{}, "memory/cold-cache", "", frontmatter.Signal{Session: s, Evidence: "ci run 4411 was slow", At: frontmatter.NewTime(now)}, now)
		return err
	}},
}

// refusedUnchanged writes value through p into a fresh vault and asserts
// a refusal naming the field (and, for a secret, never quoting it), with
// the vault's files as they were.
func refusedUnchanged(t *testing.T, p path, value, rule string, secret bool) {
	t.Helper()
	v := newVault(t)
	before := lesson(t, v)
	err := p.write(v, value)
	var r *Refusal
	switch {
	case err == nil:
		t.Fatalf("%s %s: written, want a refusal", p.name, p.field)
	case rule == "":
		// Any refusal will do (an obfuscation may be too long first).
	case !errors.As(err, &r):
		t.Fatalf("%s %s: err = %v, want a refusal", p.name, p.field, err)
	case r.Rule != rule:
		t.Errorf("refused by %s, want %s", r.Rule, rule)
	case r.Field != p.field && r.Field != "file":
		t.Errorf("refusal names %q, want %q: %v", r.Field, p.field, err)
	}
	if secret && strings.Contains(err.Error(), value) {
		t.Errorf("the refusal echoes the secret: %v", err)
	}
	if n := count(t, v); n != 1 {
		t.Errorf("%d files after a refused write, want only the lesson", n)
	}
	if data, _ := os.ReadFile(filepath.Join(v.Root, "memory", "cold-cache.md")); string(data) != string(before) {
		t.Errorf("the lesson changed:\n%s", data)
	}
}

func TestInjectionsRefusedOnEveryPath(t *testing.T) {
	t.Parallel()
	for _, p := range paths {
		if p.field != "text" && p.field != "body" && p.field != "evidence" && p.field != "title" {
			continue // the secrets table covers every field; payloads go where prose goes
		}
		for _, in := range poison.Injections {
			t.Run(p.name+"/"+p.field+"/"+in.Name, func(t *testing.T) {
				t.Parallel() // each case writes into its own vault
				if p.field == "title" && strings.ContainsFunc(in.Line, rules.LineBreak) {
					t.Skip("a title with a line break is a malformed request, refused before the rules")
				}
				refusedUnchanged(t, p, in.Line, "", false)
			})
		}
	}
}

func TestSecretsRefusedInEveryField(t *testing.T) {
	t.Parallel()
	for _, p := range paths {
		for _, s := range poison.Secrets {
			for _, o := range poison.Obfuscations {
				t.Run(p.name+"/"+p.field+"/"+s.Rule+"/"+o.Name, func(t *testing.T) {
					t.Parallel() // each case writes into its own vault
					// A hidden secret may be refused by an injection rule
					// first (zero-width, bidi): any refusal will do, as
					// long as nothing is written and nothing echoed.
					rule := ""
					if o.Name == "plain" {
						rule = s.Rule
					}
					refusedUnchanged(t, p, "see "+o.Hide(s.Value)+" here", rule, true)
				})
			}
		}
	}
}
