package vault

import (
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// A claim's status: whether it still stands. The words are those of
// mem list --status and of every search hit; a file that does not parse
// is broken. Superseded is decided across claims (pkg/gate's reconciler),
// the rest by OwnStatus from the claim's own fields.
const (
	StatusCurrent    = "current"
	StatusStale      = "stale"
	StatusSuperseded = "superseded"
	StatusRetired    = "retired"
	StatusDeprecated = "deprecated"
	StatusImport     = "import"
	StatusBroken     = "broken"
)

// OwnStatus is m's status from its own fields alone, at now.
func OwnStatus(m *Memory, now time.Time) string {
	if fe, ok := m.Err.(*frontmatter.Error); ok && fe.Rule == "frontmatter-missing" && !m.View {
		return StatusCurrent // a plain note (spec §2) is not broken
	}
	if !m.OK() {
		return StatusBroken
	}
	meta := m.Meta()
	switch {
	case meta.IsDeprecated():
		return StatusDeprecated
	case meta.IsRetired(now):
		return StatusRetired
	case strings.HasPrefix(meta.Source, "import:"):
		return StatusImport
	case meta.IsStale(now):
		return StatusStale
	}
	return StatusCurrent
}
