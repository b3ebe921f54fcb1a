package rules

import (
	"fmt"
	"path"
	"slices"
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
// ".md" glued to it is none), and the file's name again on a line of its
// own (as a listing shows it: a rule that wants a key to start a line or
// follow a blank does not take a slash), each with what to do about a file
// so named. The two are scanned apart: joined by a line break, the
// scanner's pass for a key split over two lines tried the path's end and
// the name as one wrapped key, and a name cost 9 times both scans (a cold
// render of 50,000 generated files spent 40% of its CPU there).
func Name(rel string) []Finding {
	text := strings.TrimSuffix(rel, path.Ext(rel))
	found := Secrets(text)
	if i := strings.LastIndexByte(text, '/'); i >= 0 {
		found = append(found, Secrets(text[i+1:])...)
	}
	// The name is scanned twice over: a rule found in both is one finding.
	seen := map[string]bool{}
	found = slices.DeleteFunc(found, func(f Finding) bool {
		dup := seen[f.Rule]
		seen[f.Rule] = true
		return dup
	})
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
	found := Name(p)
	if len(found) == 0 {
		return p
	}
	ext := path.Ext(p)
	p = strings.TrimSuffix(p, ext)
	parts := strings.Split(p, "/")
	hit := false
	for i, c := range parts {
		if len(Secrets(c)) > 0 {
			parts[i], hit = Redact(c), true
		}
	}
	if hit {
		return strings.Join(parts, "/") + ext
	}
	if r := Redact(p); r != p {
		return r + ext
	}
	return Redaction(found[0].Rule) + ext
}

// NameControl is the offset of the first control byte (C0 or DEL) in a
// path, or -1: a name no sync takes from a remote (a tree entry so named
// is refused), so lint refuses it here before a commit makes it one that
// every other machine would refuse.
func NameControl(p string) int {
	for i := 0; i < len(p); i++ {
		if c := p[i]; c < 0x20 || c == 0x7f {
			return i
		}
	}
	return -1
}
