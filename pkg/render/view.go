package render

import (
	"strconv"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// Lines of a rendered document's header, as header writes them.
const (
	headPre  = viewfmt.Header
	headPost = viewfmt.HeaderEnd
	timePost = " -->"
)

// View is what a file mem render wrote says of itself: the vault and the
// render time in its header, and the rendered document — the whole file,
// or the zone between the splice markers. It is the one reader of the view
// format; lint (hand-edit check, staged views), audit and doctor use it.
type View struct {
	Vault   string
	At      time.Time
	Doc     []byte // the rendered document, header first
	Line    int    // the file's 1-based line where Doc starts
	Spliced bool
}

// ReadView reads the view in file; ok is false when the file (or its
// zone) does not start with the header mem render writes.
func ReadView(file []byte) (v View, ok bool) {
	v.Doc, v.Line, v.Spliced = viewfmt.Doc(file)
	lines := strings.SplitN(string(v.Doc), "\n", 3)
	if len(lines) < 3 {
		return v, false
	}
	name, ok1 := strings.CutPrefix(lines[0], headPre)
	name, ok2 := strings.CutSuffix(name, headPost)
	ts, ok3 := strings.CutPrefix(lines[1], timeLinePre)
	ts, ok4 := strings.CutSuffix(ts, timePost)
	if !(ok1 && ok2 && ok3 && ok4) {
		return v, false
	}
	t, err := frontmatter.ParseTime(ts)
	if err != nil {
		return v, false
	}
	if u, err := strconv.Unquote(`"` + name + `"`); err == nil {
		name = u // headerVault's escapes
	}
	v.Vault, v.At = name, t.Time
	return v, true
}
