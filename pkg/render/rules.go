package render

import (
	"os"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// refused applies every content rule of spec §8 (pkg/rules) to a memory
// the budget fill reached, and reports whether it must not render: the
// view is injected into a model's context at every session start, so a
// secret, an injection or an unearned rule is skipped, with a warning
// naming the file and the rule (never the secret) and a drop reason.
//
// Only the memories the fill reaches are checked (a few hundred at most,
// whatever the vault's size): their raw bytes are read here when the load
// did not keep them.
func (r *Result) refused(m *vault.Memory, opts Options) bool {
	text := m.Raw
	if text == "" {
		raw, err := os.ReadFile(m.Path)
		if err != nil {
			r.Warnings = append(r.Warnings, m.Rel+":1:1: cannot read it to check it: not rendered ("+err.Error()+")")
			r.Dropped = append(r.Dropped, Drop{m.ID, reasonUnchecked})
			return true
		}
		text = string(raw)
	}
	found := rules.Memory(text, m.Doc, opts.Now, opts.gate)
	if !strings.HasSuffix(text, m.Doc.Body) {
		// The file changed since it was loaded (or its CRLFs were
		// normalised): check the text that would render as well.
		found = append(found, rules.File(m.Doc.Body, 0)...)
	}
	r.noteRuleDeadlines(m.Meta(), found, opts.Now)
	if len(found) == 0 {
		return false
	}
	names := rules.Names(found)
	f := found[0]
	line, col := rules.Position(text, min(f.Off, len(text)))
	if pos, ok := m.Doc.Keys[claimKey[f.Rule]]; ok {
		line, col = pos.Line, pos.Col
	}
	also := ""
	if len(names) > 1 {
		also = "also breaks " + strings.Join(names[1:], ", ") + "; "
	}
	r.Warnings = append(r.Warnings, m.Rel+":"+strconv.Itoa(line)+":"+strconv.Itoa(col)+": "+f.Rule+": not rendered: "+f.Msg+
		" ("+also+"run 'mem lint "+m.Rel+"')")
	r.Dropped = append(r.Dropped, Drop{m.ID, "breaks " + strings.Join(names, ", ") + " (docs/security.md): never rendered; run 'mem lint " + m.Rel + "'"})
	return true
}

// claimKey is the field a claim rule's finding is about, as lint points.
var claimKey = map[string]string{"gate-unearned": "type", "valid-at-future": "valid_at"}

// noteRuleDeadlines moves r.Until to when time alone changes a rule's
// verdict on a checked memory, so a kept render is never served past it: a
// claim dated ahead stops being ahead, and an inferred rule's signals age
// (or come due) at UTC midnight, which moves its gate weight either way.
func (r *Result) noteRuleDeadlines(meta *frontmatter.Meta, found []rules.Finding, now time.Time) {
	for _, f := range found {
		if f.Rule == "valid-at-future" {
			r.until(rules.FutureUntil(meta.ValidAt), now)
		}
	}
	if meta.Type == frontmatter.TypeRule && gate.NeedsGate(meta) && len(meta.Signals) > 0 {
		y, mo, d := now.UTC().Date()
		r.until(time.Date(y, mo, d+1, 0, 0, 0, 0, time.UTC), now)
	}
}

// until moves r.Until to t when t comes after now and before it.
func (r *Result) until(t, now time.Time) {
	if t.After(now) && (r.Until.IsZero() || t.Before(r.Until)) {
		r.Until = t
	}
}

// lineText is a summary as the view prints it (spec §5.4): one line
// whatever the file holds, and nothing in it can open a heading, a code
// fence, an HTML comment or a splice marker. Every line break (a bare CR,
// U+2028, U+0085, VT, FF …) and every other control character becomes a
// space, bytes that are not UTF-8 become U+FFFD, a leading '#' and runs of
// three backticks or tildes are backslash-escaped, and "<!--" and "-->"
// are broken with a backslash, which markdown shows as the same text.
// Rule-breaking memories never get here (refused skips them); this is
// what keeps the list a list for the rest, hand-written files included.
func lineText(s string) string {
	if plainLine(s) {
		return s // the common case: printable ASCII with nothing to escape
	}
	s = strings.ToValidUTF8(s, "\uFFFD")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case rules.LineBreak(r) || unicode.IsControl(r):
			b.WriteByte(' ')
		case r == '`' || r == '~':
			size = escapeRun(&b, s, i)
		case r == '<' && strings.HasPrefix(s[i:], "<!--"):
			b.WriteString(`<\!`)
			size = 2
		case r == '-' && strings.HasPrefix(s[i:], "-->"):
			b.WriteString(`--\>`)
			size = 3
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	out := strings.TrimSpace(b.String())
	if strings.HasPrefix(out, "#") {
		out = `\` + out
	}
	return out
}

// escapeRun writes the run of backticks or tildes at s[i], each
// backslash-escaped when the run is three or longer (a fence run, wherever
// it stands), and returns its length.
func escapeRun(b *strings.Builder, s string, i int) int {
	n := 1
	for i+n < len(s) && s[i+n] == s[i] {
		n++
	}
	for range n {
		if n >= 3 {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return n
}

// plainLine reports a summary lineText leaves as it is.
func plainLine(s string) bool {
	if s != "" && s[0] == '#' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < ' ' || c >= utf8.RuneSelf:
			return false
		case c == '<' || c == '`' || c == '~' || c == '-' && strings.HasPrefix(s[i:], "-->"):
			return false
		}
	}
	return true
}
