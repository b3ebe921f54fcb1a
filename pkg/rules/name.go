package rules

import (
	"fmt"
	"path"
	"strings"
)

// NameRule is the rule of the first secret a vault path holds, "" when it
// holds none: what cmd/mem hands the vault (vault.Options.SecretInName),
// so that a file whose name holds a secret (by hand, from a remote) is
// held back and no reader, cache, index, commit or view ever holds its
// name (docs/security.md, "A secret in a file name").
func NameRule(rel string) string {
	if found := Name(rel); len(found) > 0 {
		return found[0].Rule
	}
	return ""
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
// stays, so a person can still find the file), or the key in the whole
// path, when only the joined path holds one (a key cut by a folder's
// slash).
func RedactPath(p string) string {
	ext := path.Ext(p)
	p = strings.TrimSuffix(p, ext)
	if len(Secrets(p)) == 0 {
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
		return Redact(p) + ext
	}
	return strings.Join(parts, "/") + ext
}
