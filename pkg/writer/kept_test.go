package writer

import (
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// A kept key the writer does not know is checked in every text it holds,
// however deep, and the refusal names that key: a secret in a list item or
// a map of an imported file's frontmatter says where it is, not only
// "file" (which is what the last, whole-file scan can say).
func TestCheckNamesTheKeptKeyThatHoldsASecret(t *testing.T) {
	v := newVault(t)
	for _, tc := range []struct{ name, key, yaml string }{
		{"top level", "cred", "cred: AKIAQX7MZK3V7PLW2RTB\n"},
		{"list item", "creds", "creds:\n  - fine\n  - AKIAQX7MZK3V7PLW2RTB\n"},
		{"map value", "deploy", "deploy:\n  aws:\n    key: AKIAQX7MZK3V7PLW2RTB\n"},
		{"map key", "deploy", "deploy:\n  AKIAQX7MZK3V7PLW2RTB: x\n"},
	} {
		doc, err := frontmatter.Parse([]byte("---\ntype: fact\nprovenance: stated\n" + tc.yaml + "---\nThe deploy uses a role.\n"))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		err = Check(v, Front{}, doc, now)
		if err == nil || !strings.Contains(err.Error(), "refused: "+tc.key+": secret-aws-access-token") {
			t.Errorf("%s: err = %v, want a refusal naming %q", tc.name, err, tc.key)
		}
	}
	clean, _ := frontmatter.Parse([]byte("---\ntype: fact\nprovenance: stated\ncreds:\n  - fine\n---\nThe deploy uses a role.\n"))
	if err := Check(v, Front{}, clean, now); err != nil {
		t.Errorf("a clean kept list was refused: %v", err)
	}
}
