package writer

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// field is one string a document carries, named as a refusal names it.
type field struct{ name, value string }

// fields lists every string of doc a person or model could read: each
// frontmatter value (Document.Texts) and the body. The names are the
// writer's own (the MCP tools' arguments); Front.Name turns them into a
// front end's.
func fields(doc *frontmatter.Document) []field {
	var out []field
	for _, t := range doc.Texts() {
		out = append(out, field{t.Name, t.Value})
	}
	return append(out, field{bodyField(doc), doc.Body})
}

// bodyField names a document's body: a memory's text or a note's body.
func bodyField(doc *frontmatter.Document) string {
	if doc.Meta.Type == frontmatter.TypeNote {
		return "body"
	}
	return "text"
}

// finding is a broken rule keyed by what broke it, so an edit can be told
// apart from what the file already held.
type finding struct {
	rules.Finding
	field, value string
}

func (f finding) key() string { return f.Rule + "\x00" + f.field + "\x00" + f.value }

// standing reports a rule an edit may not leave broken even when the file
// broke it before: a memory's YAML aliases and a file over the size limit
// (issue 28: a rewrite that kept them grew a note to 80 MB).
func (f finding) standing() bool { return f.Rule == "frontmatter-alias" || f.Rule == "file-too-large" }

// Check applies every rule of spec §8 to doc as the writer would store it
// at now: the secret scan and the injection rules on every field and the
// body, the gate and provenance rules, the boundary of a memory and the
// file size limit. It returns the first broken rule as a *Refusal naming
// the field the way f's front end does; nil when doc may be written.
func Check(v *vault.Vault, f Front, doc *frontmatter.Document, now time.Time) error {
	if found := check(v, doc, now); len(found) > 0 {
		return f.refusal(found[0])
	}
	return nil
}

func check(v *vault.Vault, doc *frontmatter.Document, now time.Time) []finding {
	// Invalid UTF-8 first: the loader refuses such a file (file-encoding),
	// so it would never be read, and yaml.v3 cannot encode it at all.
	if out := notUTF8(doc); len(out) > 0 {
		return out
	}
	var out []finding
	data := doc.Marshal()
	if limit := v.Config.Lint.MaxFileSize; int64(len(data)) > limit {
		out = append(out, finding{Finding: rules.Finding{Rule: "file-too-large", Msg: fmt.Sprintf(
			"the file would be %d bytes, over lint.max_file_size (%d): mem never reads a file that large; split it into smaller notes or raise lint.max_file_size in mem.yaml",
			len(data), limit)}, field: bodyField(doc)})
		return out // every other rule would read text no reader ever sees
	}
	for _, p := range doc.Problems {
		if p.Kind == frontmatter.Alias {
			out = append(out, finding{rules.Finding{Rule: "frontmatter-alias", Msg: fmt.Sprintf("line %d: %s", p.Line, p.Msg)}, "file", ""})
		}
	}
	for _, fl := range fields(doc) {
		if strings.TrimSpace(fl.value) == "" {
			continue
		}
		for _, r := range rules.Text(fl.value) {
			out = append(out, finding{r, fl.name, fl.value})
		}
	}
	out = append(out, claimFindings(v, doc, now)...)
	if frontmatter.IsMemoryType(doc.Meta.Type) {
		if err := vault.CheckBoundary(foldBreaks(doc.Body)); err != nil {
			out = append(out, finding{rules.Finding{Rule: "memory-too-long", Msg: err.Error()}, "text", doc.Body})
		}
	}
	// The whole file as lint will read it: a rule no single value breaks
	// (a pattern the YAML encoding completes) is still never written.
	if len(out) == 0 {
		raw := string(data)
		for _, r := range rules.File(raw, len(raw)-len(doc.Body)) {
			out = append(out, finding{r, "file", ""})
		}
	}
	return out
}

// notUTF8 are the fields of doc that are not valid UTF-8.
func notUTF8(doc *frontmatter.Document) []finding {
	var out []finding
	for _, fl := range fields(doc) {
		if !utf8.ValidString(fl.value) {
			out = append(out, finding{rules.Finding{Rule: "file-encoding", Msg: "not valid UTF-8: give the text as UTF-8"}, fl.name, fl.value})
		}
	}
	return out
}

// claimFindings are the gate's and provenance's rules (rules.Claim) doc
// breaks, each named by the field that breaks it.
func claimFindings(v *vault.Vault, doc *frontmatter.Document, now time.Time) []finding {
	var out []finding
	for _, r := range rules.Claim(&doc.Meta, doc.Body, now, v.Config.Gate) {
		name := bodyField(doc)
		switch r.Rule {
		case "gate-unearned":
			name = "type"
		case "valid-at-future":
			name = "valid_at"
		}
		out = append(out, finding{r, name, doc.Meta.ValidAt.String()})
	}
	return out
}

// foldBreaks turns every line break some reader honours (a bare CR,
// U+2028, U+0085…) into '\n', so the boundary counts the lines a model
// or a terminal would show.
func foldBreaks(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.Map(func(r rune) rune {
		if rules.LineBreak(r) {
			return '\n'
		}
		return r
	}, s)
}
