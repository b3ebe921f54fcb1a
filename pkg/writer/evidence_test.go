package writer

import (
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// TestNeedsEvidence: an agent's observed claim, or its report of an action
// as done, needs evidence; a description of the world does not, and a
// person is never refused for it.
func TestNeedsEvidence(t *testing.T) {
	t.Parallel()
	agent, person := Front{Agent: "a"}, Front{}
	for _, c := range []struct {
		f          Front
		provenance string
		text       string
		evidence   string
		refused    bool
	}{
		{agent, frontmatter.Observed, "The deploy finished.", "", true},
		{agent, frontmatter.Observed, "The deploy finished.", "ci run 5: green", false},
		{agent, frontmatter.Inferred, "I set a reminder for Friday.", "", true},
		{agent, frontmatter.Inferred, "I've just fixed the flaky test.", "", true},
		{agent, frontmatter.Stated, "Cron job 0c466bb8 registered.", "", true},
		{agent, frontmatter.Inferred, "Cron job 0c466bb8 registered.", "crontab -l shows it", false},
		{agent, frontmatter.Inferred, "The app is deployed on Fly.", "", false},
		{agent, frontmatter.Inferred, "Settings live in config.toml.", "", false},
		{person, frontmatter.Observed, "I fixed the build.", "", false},
	} {
		r := needsEvidence(c.f, &frontmatter.Meta{Provenance: c.provenance, Evidence: c.evidence}, c.text)
		if (r != nil) != c.refused {
			t.Errorf("%+v: refused = %v, want %v", c, r != nil, c.refused)
		}
	}
}
