package lint

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// The rule of a field problem follows the parser's kind, not its message:
// values that quote another rule's wording keep their own rule.
func TestFieldProblemRules(t *testing.T) {
	v := corpusVault(t)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(v, mems, testNow)
	data := "---\ntype: note\nvalid_at: \"appears twice\"\npinned: \"is not a date\"\nstale_after: \"appears twice\"\ntags: a\ntags: b\n---\nBody.\n"
	want := map[string]string{"valid_at": "date-invalid", "pinned": "key-type", "stale_after": "stale-after-invalid", "tags": "key-duplicate"}
	got := map[string]string{}
	for _, p := range lintBytes(l, "notes/fields.md", []byte(data)) {
		if key, _, _ := strings.Cut(p.Message, ": "); want[key] != "" {
			got[key] = p.Rule
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rules by key = %v, want %v", got, want)
	}
}
