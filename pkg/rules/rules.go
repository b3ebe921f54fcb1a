// Package rules owns the content rules of spec §8: what no path may write,
// render, commit or push. A memory is injected into a model's context
// every session and pushed to backups, so these are not advice: lint
// reports them, the writers refuse them, render skips them, commit leaves
// them out, and every reader redacts secrets. Each caller decides what a
// finding means on its path; the rules themselves live only here.
//
// The checks are pure functions of text (and, for the claim rules, of the
// parsed fields): no vault, no file system.
package rules

import (
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/secrets"
	"github.com/mem-md/mem/pkg/vault"
)

// Kind groups findings by the column of spec §8 they fall under: each path
// treats the columns differently (a commit leaves out a secret but keeps
// an injection, as the file is the truth).
type Kind int

const (
	Secret    Kind = iota + 1 // a credential: never stored, shown or shipped
	Injection                 // text that tries to steer the model or hide from the reader
	Gate                      // a claim that claims more than it earned (§6)
)

func (k Kind) String() string {
	switch k {
	case Secret:
		return "secret"
	case Injection:
		return "injection"
	case Gate:
		return "gate"
	}
	return "unknown"
}

// Finding is one broken rule. Msg says what is wrong and what to do, and
// never quotes a secret.
type Finding struct {
	Rule string `json:"rule"` // lint's rule name, e.g. injection-override
	Kind Kind   `json:"-"`
	Off  int    `json:"-"` // byte offset in the text checked
	Msg  string `json:"message"`
	// Minor marks findings lint reports as warnings even in a memory
	// (zero-width characters): every other path still applies them.
	Minor bool `json:"-"`
}

// Compiled once, on first use: checking a text must not compile anything,
// and a command that checks none must not compile them at start-up.
var (
	// Phrases that try to take over the model reading the memory,
	// matched on text folded by foldForMatch (homoglyphs, width, invisible
	// characters), so "Ignоre" with a Cyrillic o is the same phrase.
	overridePhrase = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override|bypass|pay\s+no\s+attention\s+to)\s+(?:(?:all|any|every|the|your|of|these|those|my|our|everything|previous|prior|above|earlier|preceding|system|existing|original|safety|other|current)\s+)*(?:previous|prior|above|earlier|preceding|system|existing|original|safety|current)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|context|messages?|orders|commands|policies|constraints)\b|\b(?:skip|drop|discard)\s+(?:(?:all|any|every|the|your|these|those|previous|prior|above|earlier|system|original|safety)\s+)*(?:previous|prior|above|earlier|system|original|safety)\s+(?:instructions?|prompts?|directives|guardrails|orders)\b|\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:above|before|previous|prior|you\s+were\s+told)\b|\byou\s+are\s+now\s+(?:in\s+)?(?:developer\s+mode|DAN|jailbroken|unrestricted|unfiltered|an?\s+(?:unrestricted|unfiltered|evil))\b|\bnew\s+(?:system\s+)?(?:instructions|directives|rules)\s*:|\bfrom\s+now\s+on,?\s+you\s+(?:will|must|are|should)\b|\b(?:reveal|print|output|show|repeat|leak)\s+(?:me\s+|us\s+)?your\s+(?:system|hidden|initial|original)\s+(?:prompt|instructions|message)\b|\b(?:reveal|leak|repeat)\s+the\s+(?:system|hidden|initial)\s+prompt\b`)
	})
	// A line that pretends to be a turn of the conversation.
	roleTurn = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^[ \t>*_\-]*(?:#{1,6}[ \t]*)?(?:\*\*|__)?((?:system|developer|assistant)(?:\*\*|__)?[ \t]*:)`)
	})
	roleTag = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<\s*/?\s*(?:system|system-reminder|developer|assistant|im_start|im_end|instructions?|tool_result|function_results)\s*>|<\|im_(?:start|end)\|>|<\|(?:system|assistant|user)\|>|\[/?INST\]|<<\s*/?SYS\s*>>`)
	})
	comment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--|(?s)%%.+?%%`) })
	// An image whose address a client fetches when it shows the view: it
	// can carry what the model read to someone else's server.
	remoteImage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)!\[[^\]\n]*\]\(\s*<?(?:https?:)?//`) })
	// The start of a sentence phrased as an order.
	imperative = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)(?:^|[.!?;:][ \t]+)[ \t]*(?:>[ \t]*)?(?:[-*+][ \t]+|\d+[.)][ \t]+)?((?:always|never|you[ \t]+must|you[ \t]+should|you[ \t]+need[ \t]+to|must|do[ \t]+not|don't|dont)\b)`)
	})
)

// The words that let the injection regexps run: a text holding none of a
// regexp's words, in any case, is not matched against it. An override
// needs a verb and a noun of instructions (or one of the set phrases):
// gating on the verbs alone ran the case-folding regexp over most notes,
// which say "show" or "print" somewhere.
var (
	injectionWords = secrets.NewKeywords(
		"ignore", "disregard", "forget", "override", "bypass", "attention", "skip", "drop", "discard",
		"reveal", "print", "output", "show", "repeat", "leak", "new",
		"instruction", "prompt", "rules", "direction", "directive", "guideline", "guardrail", "context", "message",
		"orders", "commands", "polic", "constraint",
		"you are now", "from now on",
		"system", "developer", "assistant", "[inst", "[/inst", "sys")
	overrideVerbs = injectionWords.Mask("ignore", "disregard", "forget", "override", "bypass", "attention", "skip", "drop", "discard",
		"reveal", "print", "output", "show", "repeat", "leak", "new")
	overrideNouns = injectionWords.Mask("instruction", "prompt", "rules", "direction", "directive", "guideline", "guardrail", "context", "message",
		"orders", "commands", "polic", "constraint")
	// "ignore everything above" needs no noun; the set phrases need nothing else.
	overrideAlone = injectionWords.Mask("ignore", "disregard", "forget", "you are now", "from now on")
	roleWords     = injectionWords.Mask("system", "developer", "assistant")
	instWords     = injectionWords.Mask("[inst", "[/inst", "sys")
)

// File checks a whole file's text (frontmatter and body; bodyOff is where
// the body starts, or -1 when unknown) for secrets and injection. Offsets
// are into text.
func File(text string, bodyOff int) []Finding { return FileScanned(text, bodyOff, nil) }

// FileScanned is File for a caller that has read the body, text[bodyOff:],
// with markdown.Scan already (lint, for its links): body is what Scan
// found, so the body is not parsed twice. A nil body is read here.
func FileScanned(text string, bodyOff int, body *markdown.Body) []Finding {
	out := Secrets(text)
	return append(out, injection(text, bodyOff, body)...)
}

// Text checks one value — a field, a tag, a tool argument, an imported
// item — as File checks a body.
func Text(text string) []Finding { return File(text, 0) }

// Secrets reports every secret in text, gitleaks-style.
func Secrets(text string) []Finding {
	var out []Finding
	for _, f := range secrets.Find(text) {
		out = append(out, Finding{Rule: f.Rule, Kind: Secret, Off: f.Start,
			Msg: fmt.Sprintf("%s: remove it and rotate it (it may already be in git history); a memory is injected into a model's context and pushed to backups", f.What)})
	}
	return out
}

func injection(text string, bodyOff int, body *markdown.Body) []Finding {
	var out []Finding
	add := func(rule string, off int, format string, args ...any) {
		out = append(out, Finding{Rule: rule, Kind: Injection, Off: off, Msg: fmt.Sprintf(format, args...)})
	}
	folded, orig := foldForMatch(text)
	at := func(off int) int {
		if orig == nil {
			return off
		}
		return orig[off]
	}
	// Cheap substring tests keep the regexps off the common, clean text:
	// one pass finds the words, case-insensitively; the punctuation needs
	// no folding.
	words := injectionWords.Find(folded)
	if words&overrideVerbs != 0 && words&overrideNouns != 0 || words&overrideAlone != 0 {
		if loc := overridePhrase().FindStringIndex(folded); loc != nil {
			add("injection-override", at(loc[0]), "text that tries to override a model's instructions: memory is injected into every session; state the fact instead")
		}
	}
	if bodyOff >= 0 && words&roleWords != 0 {
		body := 0
		if orig == nil {
			body = bodyOff
		} else {
			for body < len(orig) && orig[body] < bodyOff {
				body++
			}
		}
		if loc := roleTurn().FindStringSubmatchIndex(folded[body:]); loc != nil {
			add("injection-role", at(body+loc[2]), "a line posing as a system, developer or assistant turn: rewrite it as plain text (\"the system prompt says ...\")")
		}
	}
	if strings.IndexByte(folded, '<') >= 0 || words&instWords != 0 {
		if loc := roleTag().FindStringIndex(folded); loc != nil {
			add("injection-role", at(loc[0]), "a chat-role tag (%s): it can make a model treat the memory as instructions; remove it", folded[loc[0]:loc[1]])
		}
	}
	if strings.Contains(text, "<!--") || strings.Contains(text, "%%") {
		if off := hiddenComment(text, bodyOff, body); off >= 0 {
			add("hidden-comment", off, "a comment hidden in Obsidian's reading view but read by the model: move the text into the visible body or delete it")
		}
	}
	if strings.Contains(text, "](") {
		if loc := remoteImage().FindStringIndex(text); loc != nil {
			add("injection-exfil-link", loc[0], "an image from a remote address: a client that shows it sends a request the text chose (a way to leak context); link to it without the '!' or keep the image in the vault")
		}
	}
	if start, n := base64Run(text); n > 0 {
		add("base64-blob", start, "a %d-character base64 blob: encoded text hides what a model will read; store a link to the data instead", n)
	}
	return append(out, invisible(text)...)
}

// hiddenComment is the offset of the first comment of text a reader does
// not see, or -1. The body (from bodyOff) is read as markdown by the parse
// lint's links come from (markdown.Scan; scanned is what the caller's
// found, nil to scan here): a %% or <!-- --> comment anywhere but in code,
// inside HTML blocks too; when the parse finds none, the regexp on the body
// with its code blanked still may. Text before the body (frontmatter), a text whose
// body is not known (bodyOff -1) and a body past the parser's limits are
// matched by the regexp, the last with fences and code spans blanked.
func hiddenComment(text string, bodyOff int, scanned *markdown.Body) int {
	head, body := text, ""
	if bodyOff >= 0 && bodyOff <= len(text) {
		head, body = text[:bodyOff], text[bodyOff:]
	}
	if loc := comment().FindStringIndex(head); loc != nil {
		return loc[0]
	}
	if !markdown.Safe([]byte(body)) {
		if loc := comment().FindStringIndex(markdown.MaskFences(body)); loc != nil {
			return len(head) + loc[0]
		}
		return -1
	}
	if scanned == nil {
		b := markdown.Scan(body, 0)
		scanned = &b
	}
	off := -1
	for _, c := range scanned.Comments {
		if off < 0 || c.Start < off {
			off = c.Start
		}
	}
	if off < 0 {
		// The parse follows Obsidian's extension rules, which a reader's
		// app may not (a %% opened mid-paragraph and closed in a later
		// one). A missed comment is hidden text reaching the model, a
		// false one a rare warning: outside code, the regexp decides too.
		if loc := comment().FindStringIndex(markdown.MaskCode(body)); loc != nil {
			off = loc[0]
		}
	}
	if off < 0 {
		return -1
	}
	return len(head) + off
}

// foldForMatch folds what makes one phrase look like another to a reader
// but not to a regexp: full-width and compatibility forms (NFKC-like, for
// the ranges attackers use), Latin look-alikes from Cyrillic and Greek,
// and invisible characters, which are dropped. It returns nil offsets for
// text it leaves as is (all ASCII: most files); otherwise orig[i] is the
// offset in text of folded's byte i, with one extra entry for the end.
func foldForMatch(text string) (string, []int) {
	ascii := true
	for i := 0; i < len(text); i++ {
		if text[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return text, nil
	}
	var b strings.Builder
	orig := make([]int, 0, len(text)+1)
	for off, r := range text {
		switch {
		case isInvisible(r):
			continue
		case r >= 0xFF01 && r <= 0xFF5E: // full-width ASCII
			r -= 0xFEE0
		case r == 0x3000:
			r = ' '
		default:
			if l, ok := lookalike[r]; ok {
				r = l
			} else if unicode.IsSpace(r) {
				r = ' '
			}
		}
		n := b.Len()
		b.WriteRune(r)
		for i := n; i < b.Len(); i++ {
			orig = append(orig, off)
		}
	}
	orig = append(orig, len(text))
	return b.String(), orig
}

// lookalike maps Cyrillic and Greek letters that display as Latin ones.
var lookalike = map[rune]rune{
	'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c', 'т': 't',
	'у': 'y', 'х': 'x', 'і': 'i', 'ї': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ԛ': 'q', 'ԝ': 'w', 'ɡ': 'g', 'ո': 'n',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'У': 'Y',
	'Х': 'X', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S', 'Ԁ': 'D', 'Ԛ': 'Q', 'Ԝ': 'W',
	'α': 'a', 'ε': 'e', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't', 'υ': 'u', 'χ': 'x',
	'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P',
	'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
	'ı': 'i', 'ℓ': 'l', '‐': '-', '‑': '-', '–': '-', '—': '-',
}

// isInvisible: characters that take no space on screen.
func isInvisible(r rune) bool {
	return r == 0x00AD || r == 0x034F || r == 0x061C || r == 0x180E || (r >= 0x200B && r <= 0x200F) ||
		(r >= 0x202A && r <= 0x202E) || (r >= 0x2060 && r <= 0x2069) || r == 0xFEFF || (r >= 0xE0000 && r <= 0xE007F)
}

// LineBreak reports whether r ends a line for some reader: a model, a
// terminal or a markdown renderer. Only '\n' is mem's own line break; the
// rest would let one memory open a new line of the rendered view.
func LineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', 0x85, 0x2028, 0x2029:
		return true
	}
	return false
}

// invisible reports, once per kind, characters that change how text
// displays without being seen: bidirectional overrides (Trojan Source),
// Unicode tag characters (ASCII smuggling), zero-width characters, and
// line breaks other than '\n' (a bare CR, U+2028, U+0085…), which escape
// a rendered list line. A zero-width joiner or non-joiner after a
// non-ASCII letter or emoji is how emoji sequences and several scripts are
// written, so it is allowed.
func invisible(text string) []Finding {
	type hit struct{ off, n int }
	var bidi, tag, zw, brk hit
	var prev rune
	mark := func(h *hit, off int) {
		if h.n == 0 {
			h.off = off
		}
		h.n++
	}
	for off, r := range text {
		switch {
		case r < 0x80 && r != '\r' && r != '\v' && r != '\f':
		case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069, r == 0x061C, r == 0x200E, r == 0x200F:
			mark(&bidi, off)
		case r >= 0xE0000 && r <= 0xE007F:
			mark(&tag, off)
		case r == 0x200B || r == 0x2060 || r == 0xFEFF || r == 0x00AD || r == 0x180E || (r >= 0x2061 && r <= 0x2064),
			(r == 0x200C || r == 0x200D) && (prev < 0x80 || unicode.IsSpace(prev)):
			mark(&zw, off)
		case LineBreak(r) && !(r == '\r' && off+1 < len(text) && text[off+1] == '\n'):
			mark(&brk, off)
		}
		prev = r
	}
	var out []Finding
	if bidi.n > 0 {
		out = append(out, Finding{Rule: "unicode-bidi", Kind: Injection, Off: bidi.off, Msg: fmt.Sprintf("%d bidirectional control character(s): they reorder how text displays, so a reader and a model see different things; delete them", bidi.n)})
	}
	if tag.n > 0 {
		out = append(out, Finding{Rule: "unicode-tag", Kind: Injection, Off: tag.off, Msg: fmt.Sprintf("%d invisible Unicode tag character(s): they smuggle text a model reads and a person cannot see; delete them", tag.n)})
	}
	if zw.n > 0 {
		out = append(out, Finding{Rule: "unicode-invisible", Kind: Injection, Off: zw.off, Minor: true, Msg: fmt.Sprintf("%d zero-width character(s): invisible text can hide words from a reader; delete them", zw.n)})
	}
	if brk.n > 0 {
		out = append(out, Finding{Rule: "injection-linebreak", Kind: Injection, Off: brk.off, Msg: fmt.Sprintf("%d line break(s) other than a newline (a bare CR, U+2028, U+0085…): they can start a new line of the rendered view that the file does not show; use a plain newline", brk.n)})
	}
	return out
}

// Skew is how far in the future a valid_at may lie before it counts as
// dated ahead: clocks of the machines sharing a vault disagree a little.
// A bare date may be today anywhere on Earth (UTC+14).
const Skew = 5 * time.Minute

// Claim applies the gate and provenance rules (spec §6, §8) to a claim's
// fields and body: no unearned rule, no inferred lesson phrased as a
// command, no valid_at in the future.
func Claim(meta *frontmatter.Meta, body string, now time.Time, cfg vault.GateConfig) []Finding {
	var out []Finding
	if meta.Type == frontmatter.TypeRule && gate.NeedsGate(meta) {
		if v := gate.Evaluate(meta, now, cfg); !v.Eligible {
			out = append(out, Finding{Rule: "gate-unearned", Kind: Gate, Msg: fmt.Sprintf("an inferred rule whose signals do not pass the promotion gate (weight %.1f from %d session(s)): it %s; make it a lesson until it does", v.Weight, v.Sessions, v.Missing)})
		}
	}
	if gate.NeedsGate(meta) {
		masked := MaskCode(body)
		if m := imperative().FindStringSubmatchIndex(masked); m != nil {
			out = append(out, Finding{Rule: "lesson-imperative", Kind: Gate, Off: m[2], Msg: fmt.Sprintf("an inferred %s phrased as a command (%q): lessons are data, not orders; rewrite it as \"when X happened, Y helped\"", meta.Type, masked[m[2]:m[3]])})
		}
	}
	if Future(meta.ValidAt, now) {
		out = append(out, Finding{Rule: "valid-at-future", Kind: Gate, Msg: fmt.Sprintf("valid_at %s is in the future: it would win every newest-wins tie; give when the claim became true", meta.ValidAt)})
	}
	return out
}

// Future reports whether t lies ahead of now by more than the clock skew
// allows (a bare date: after today in the easternmost time zone).
func Future(t frontmatter.Time, now time.Time) bool {
	return !t.IsZero() && now.Before(FutureUntil(t))
}

// FutureUntil is the first instant at which t no longer lies in the
// future: a view that skipped a claim dated ahead must change then.
func FutureUntil(t frontmatter.Time) time.Time {
	if t.DateOnly {
		y, m, d := t.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Add(-14 * time.Hour)
	}
	return t.Add(-Skew)
}

// Memory applies every rule to a file: File on its raw text, Claim on its
// fields. Offsets of Claim's body findings are into the body.
func Memory(raw string, doc *frontmatter.Document, now time.Time, cfg vault.GateConfig) []Finding {
	bodyOff := -1
	if doc != nil && len(doc.Body) <= len(raw) {
		bodyOff = len(raw) - len(doc.Body)
	}
	out := File(raw, bodyOff)
	if doc != nil && doc.HasFrontmatter {
		for _, f := range Claim(&doc.Meta, doc.Body, now, cfg) {
			if bodyOff >= 0 {
				f.Off += bodyOff
			}
			out = append(out, f)
		}
	}
	return out
}

// minBase64 is the shortest run reported: longer than a SHA-256 in hex (64)
// and than the ids and slugs mem writes.
const minBase64 = 100

// base64Run finds the first run of at least minBase64 base64 characters
// (standard or URL alphabet, with padding) that mixes upper case, lower
// case and digits, as encoded data does and hex hashes and words do not.
func base64Run(s string) (start, n int) {
	for i := 0; i < len(s); {
		if !isB64[s[i]] {
			i++
			continue
		}
		j := i
		for j < len(s) && isB64[s[j]] {
			j++
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		if j-i >= minBase64 && mixedCase(s[i:j]) {
			return i, end - i
		}
		i = j
	}
	return 0, 0
}

// isB64 marks the bytes of the standard and URL base64 alphabets (a table:
// base64Run looks at every byte of every file).
var isB64 = func() (t [256]bool) {
	for _, b := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-") {
		t[b] = true
	}
	return t
}()

func mixedCase(s string) bool {
	var up, low, digit bool
	for _, r := range s {
		switch {
		case r >= 'A' && r <= 'Z':
			up = true
		case r >= 'a' && r <= 'z':
			low = true
		case r >= '0' && r <= '9':
			digit = true
		}
	}
	return up && low && digit
}

// MaskCode blanks fenced code blocks and inline code spans by pairing
// fence lines, keeping every offset and newline in place: code is not
// prose, so the prose rules skip it (markdown.MaskFences).
func MaskCode(s string) string { return markdown.MaskFences(s) }
