package rules

import (
	"slices"
	"strings"

	"github.com/mem-md/mem/pkg/secrets"
)

// Show is text as a read prints it (spec §8: search snippets, show, list,
// log, MCP reads): every secret redacted ("[redacted: secret-aws-access-token]"),
// and, when the text breaks an injection rule, a "[flagged: <rule>, …] "
// prefix, so a reader still sees it but cannot take it for plain data.
func Show(text string) string {
	return Flag(Text(text)) + Redact(text)
}

// Redact is text with every secret replaced by "[redacted: <rule>]", an
// obfuscated one whole (secrets.Redact): what a read prints and what the
// index stores, so that no key leaves the file it is in.
func Redact(text string) string { return secrets.Redact(text) }

// Redaction is what a read prints in place of a whole value (a path, a
// line) that holds a secret of the rule named: "[redacted: <rule>]".
func Redaction(rule string) string { return secrets.Redaction(rule) }

// Position is the 1-based line and column (in characters) of a byte
// offset of text, as a finding's Off is: how a report names the place.
func Position(text string, off int) (line, col int) { return secrets.Position(text, off) }

// Flag is the "[flagged: <rule>, …] " mark a read puts before text that
// breaks the injection or gate rules found, or "" when none does. Secrets
// are not flagged: a read redacts them.
func Flag(found []Finding) string {
	names := Names(Unredacted(found))
	if len(names) == 0 {
		return ""
	}
	return "[flagged: " + strings.Join(names, ", ") + "] "
}

// Unredacted are the findings other than secrets: what a read shows, marked.
func Unredacted(found []Finding) []Finding {
	return slices.DeleteFunc(slices.Clone(found), func(f Finding) bool { return f.Kind == Secret })
}

// Names lists the rules found, each once, in the order found.
func Names(found []Finding) []string {
	var names []string
	for _, f := range found {
		if !slices.Contains(names, f.Rule) {
			names = append(names, f.Rule)
		}
	}
	return names
}
