package vault

import (
	"path"
	"strings"
)

// FileTitle is the title a file without one is found by (search indexes
// it as the title): its file name without .md, dashes and underscores read
// as spaces (Steph Ango.md, steph-ango.md).
func FileTitle(rel string) string {
	name := strings.TrimSuffix(path.Base(rel), ".md")
	return strings.Join(strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '_' || r == ' ' }), " ")
}
