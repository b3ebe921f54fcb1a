package render

import (
	"strconv"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// nestedProjects is code/acme holding code/acme/billing, and an unrelated
// project beside them, as vault.Projects links them.
func nestedProjects(t *testing.T) []vault.Project {
	t.Helper()
	v := &vault.Vault{Root: t.TempDir()}
	note := func(id, title, root string) *vault.Memory {
		return mem(t, "projects/"+id+".md", "---\nid: "+id+"\ntype: project\ntitle: "+title+"\nroots: ["+root+"]\n---\n")
	}
	return v.Projects([]*vault.Memory{
		note("proj_acme", "Acme", "code/acme"),
		note("proj_billing", "Billing", "code/acme/billing"),
		note("proj_other", "Other", "code/other"),
	})
}

// typed is fact with another type.
func typed(t *testing.T, name, typ, text string, fm ...string) *vault.Memory {
	t.Helper()
	return mem(t, "memory/"+name+".md", "---\ntype: "+typ+"\nprovenance: stated\n"+strings.Join(append(fm, ""), "\n")+"---\n"+text+"\n")
}

// From code/acme/billing the session belongs to billing and to acme:
// billing's tier, then acme's, and acme's pinned rule renders pinned
// (spec §5.1, §5.3).
func TestNestedProjectRendersEnclosingTiers(t *testing.T) {
	t.Parallel()
	ps := nestedProjects(t)
	billing := vault.FindProject(ps, "proj_billing")
	if len(billing.Enclosing) != 1 || billing.Enclosing[0].ID != "proj_acme" {
		t.Fatalf("billing's enclosing projects: %v", billing.Enclosing)
	}
	o := opts()
	o.Project = billing
	r := mustRender(t, []*vault.Memory{
		typed(t, "acme-rule", "decision", "Acme releases need a changelog entry", "project: proj_acme", "pinned: true"),
		fact(t, "acme-deploy", "Acme deploys with make ship", "project: proj_acme"),
		fact(t, "billing-fact", "Invoices are numbered per year", "project: proj_billing"),
		fact(t, "other-fact", "Other uses Rust", "project: proj_other"),
	}, o)
	doc := string(r.Doc)
	order := []string{"## Decisions", "Acme releases need", "## Project: Billing", "Invoices are numbered", "## Project: Acme", "Acme deploys"}
	at := 0
	for _, want := range order {
		i := strings.Index(doc[at:], want)
		if i < 0 {
			t.Fatalf("%q missing or out of order in:\n%s", want, doc)
		}
		at += i
	}
	if it := itemOf(r, "memory/acme-deploy"); it == nil || it.Tier != tierProject || it.Section != "Project: Acme" {
		t.Fatalf("acme's deploy command: %+v", it)
	}
	if got, want := reasonOf(r, "memory/other-fact"), "belongs to proj_other, not this session's proj_billing / proj_acme"; got != want {
		t.Fatalf("drop reason %q, want %q", got, want)
	}
	// From acme itself, billing's memories are not this session's.
	o.Project = vault.FindProject(ps, "proj_acme")
	r = mustRender(t, []*vault.Memory{fact(t, "billing-fact", "Invoices are numbered per year", "project: proj_billing")}, o)
	if got, want := reasonOf(r, "memory/billing-fact"), "belongs to proj_billing, not this session's proj_acme"; got != want {
		t.Fatalf("drop reason %q, want %q", got, want)
	}
}

// Spec §5.3: the pinned sections hold pinned memories; an unpinned
// preference of importance 8 is a global memory.
func TestPreferenceSections(t *testing.T) {
	t.Parallel()
	r := mustRender(t, []*vault.Memory{
		typed(t, "pinned-pref", "preference", "Prefers tabs", "importance: 8", "pinned: true"),
		typed(t, "loose-pref", "preference", "Prefers dark mode", "importance: 8"),
	}, opts())
	if it := itemOf(r, "memory/pinned-pref"); it == nil || it.Section != "Preferences" {
		t.Fatalf("pinned preference: %+v", it)
	}
	if it := itemOf(r, "memory/loose-pref"); it == nil || it.Section != "Global" {
		t.Fatalf("unpinned preference: %+v", it)
	}
}

// A view the budget cut says how much it left out, when that fits the
// budget; the output never exceeds it (mustRender checks).
func TestBudgetCutSaysHowManyMore(t *testing.T) {
	t.Parallel()
	var mems []*vault.Memory
	for _, n := range []string{"a", "b", "c"} {
		mems = append(mems, typed(t, n, "identity", "Identity line "+n+" with enough words to be longer than the note about what was left out", "pinned: true"))
	}
	o := opts()
	full := mustRender(t, mems, o)
	line := len(full.Items[2].Line) + 1

	o.Budget = len(full.Doc) - 1
	r := mustRender(t, mems, o)
	if want := "\n(1 more not shown: over the " + strconv.Itoa(o.Budget) + "-byte budget)\n"; len(r.Items) != 2 || !strings.HasSuffix(string(r.Doc), want) {
		t.Fatalf("budget %d: %d items, want 2 and the note %q:\n%s", o.Budget, len(r.Items), want, r.Doc)
	}
	o.Budget = len(full.Doc) - line // exactly two lines: no room for the note
	if r := mustRender(t, mems, o); strings.Contains(string(r.Doc), "more not shown") {
		t.Fatalf("budget %d: a note that does not fit:\n%s", o.Budget, r.Doc)
	}
}
