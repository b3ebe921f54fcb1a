package rules

import (
	"fmt"
	"path"
	"strings"

	"github.com/mem-md/mem/pkg/vault"
)

// A file name is never built from text that holds a secret (spec §8), and
// a file that arrives with one (by hand, from a remote) is held back: the
// vault's scan leaves it out, so no reader, cache, index, commit or view
// ever holds its name (docs/security.md, "A secret in a file name").
// The store knows no scanner (pkg/rules is the one door to it), so the
// rules hand it this check.
func init() {
	vault.SecretInName = func(rel string) string {
		if found := Name(rel); len(found) > 0 {
			return found[0].Rule
		}
		return ""
	}
}

// Name reports the secrets a vault path holds, the whole path at once (a
// key cut by a folder's slash is one key) without its extension (gitleaks'
// rules want a key to end at a blank, a quote or the line's end, and
// ".md" glued to it is none), each with what to do about a file so named.
func Name(rel string) []Finding {
	found := Secrets(strings.TrimSuffix(rel, path.Ext(rel)))
	for i := range found {
		found[i].Msg = fmt.Sprintf("the file name holds %s: rename the file (the redaction in its path stands for the key) and rotate the key; until then mem reads, shows, commits and pushes nothing of it", found[i].What)
	}
	return found
}

// RedactPath is a slash path as a report may print it: the secret in each
// component that holds one is "[redacted: <rule>]" (the rest of the name
// stays, so a person can still find the file), or the whole path is, when
// only the joined path holds one.
func RedactPath(p string) string {
	ext := path.Ext(p)
	p = strings.TrimSuffix(p, ext)
	whole := Secrets(p)
	if len(whole) == 0 {
		return p + ext
	}
	parts := strings.Split(p, "/")
	hit := false
	for i, c := range parts {
		if len(Secrets(c)) > 0 {
			parts[i], hit = Redact(c), true
		}
	}
	if !hit {
		return Redaction(whole[0].Rule) + ext
	}
	return strings.Join(parts, "/") + ext
}
