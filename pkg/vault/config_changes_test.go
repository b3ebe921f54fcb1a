package vault

import (
	"slices"
	"testing"
)

// ConfigChanges names what a remote's mem.yaml would change here, key by
// key: comments and order are no change, a section one side adds is named
// by its keys, a list is one value.
func TestConfigChanges(t *testing.T) {
	local := []byte("# mine\nsync:\n  remote: /srv/mem.git\nrender:\n  budget: 4000\n")
	for _, c := range []struct {
		name     string
		incoming string
		want     []string
	}{
		{"same values, new comments and order", "render:\n  budget: 4000 # kept\nsync:\n  remote: /srv/mem.git\n", nil},
		{"one key moved", "sync:\n  remote: /tmp/evil.git\nrender:\n  budget: 4000\n", []string{"sync.remote"}},
		{"a section added", "sync:\n  remote: /srv/mem.git\nrender:\n  budget: 4000\nbackup:\n  to: /tmp/b.git\nauthor:\n  name: M\n", []string{"backup.to", "author.name"}},
		{"a list", "sync:\n  remote: /srv/mem.git\nrender:\n  budget: 4000\n  outputs:\n    - {path: ~/.gitconfig, splice: true}\n", []string{"render.outputs"}},
		{"a key removed", "sync:\n  remote: /srv/mem.git\n", []string{"render.budget"}},
		{"okf only", "okf: true\nsync:\n  remote: /srv/mem.git\nrender:\n  budget: 4000\n", []string{"okf"}},
	} {
		got, ok := ConfigChanges(local, []byte(c.incoming))
		if !ok || !slices.Equal(got, c.want) {
			t.Errorf("%s: got %v (ok %v), want %v", c.name, got, ok, c.want)
		}
	}
	if _, ok := ConfigChanges(local, []byte("lint: [\n")); ok {
		t.Error("a mem.yaml that does not parse: ok, want not ok")
	}
}
