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
	"unicode/utf8"

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
	// What names a secret's kind ("an AWS access key id") and Line is
	// the 1-based line of Off, as the scanner counts them going: set for
	// secrets only, for a report that lists many (a backup's refusal).
	What string `json:"-"`
	Line int    `json:"-"`
	// Minor marks findings lint reports as warnings even in a memory
	// (zero-width characters): every other path still applies them.
	Minor bool `json:"-"`
}

// Compiled once, on first use: checking a text must not compile anything,
// and a command that checks none must not compile them at start-up.
var (
	// Phrases that try to take over the model reading the memory,
	// matched on text folded by secrets.Fold (homoglyphs, confusables,
	// width, math and enclosed letters, marks and invisible characters),
	// so "Ignоre" with a Cyrillic o is the same phrase.
	overridePhrase = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)\b(?:ignore|disregard|forget|override|bypass|pay\s+no\s+attention\s+to)\s+(?:(?:all|any|every|the|your|of|these|those|my|our|everything|previous|prior|above|earlier|preceding|system|existing|original|safety|other|current)\s+)*(?:previous|prior|above|earlier|preceding|system|existing|original|safety|current)\s+(?:instructions?|prompts?|rules|directions|directives|guidelines|guardrails|context|messages?|orders|commands|policies|constraints)\b` +
			// The plain forms: "ignore the instructions above",
			// "disregard all instructions", "ignore your instructions".
			`|\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|the|your|these|those|my|our|of)\s+)+(?:instructions?|prompts?|directives|guardrails)\b` +
			`|\b(?:ignore|disregard|forget|override|bypass)\s+(?:(?:all|any|every|your)\s+)+(?:(?:the|these|those|my|our|of)\s+)*(?:rules|orders|commands|guidelines|constraints|policies)\b` +
			`|\b(?:ignore|disregard|forget)\s+(?:(?:all|any|every|the|your|these|those)\s+)*(?:rules|orders|commands|guidelines|constraints|policies|messages?|context)\s+(?:above|before|earlier|so\s+far)\b` +
			`|\b(?:skip|drop|discard)\s+(?:(?:all|any|every|the|your|these|those|previous|prior|above|earlier|system|original|safety)\s+)*(?:previous|prior|above|earlier|system|original|safety)\s+(?:instructions?|prompts?|directives|guardrails|orders)\b` +
			`|\b(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:above|before|previous|prior|you\s+were\s+told)\b` +
			// "forget what you were told", "ignore everything you've been given"
			`|\b(?:ignore|disregard|forget)\s+(?:what|everything|anything|all\s+that|whatever)\s+(?:you(?:'ve|\s+have|\s+were|\s+had|\s+are)?\s+(?:been\s+)?(?:told|given|instructed|taught|asked)|(?:was|is|were|has\s+been)\s+(?:said|written|stated|told)\s+(?:above|before|earlier))\b` +
			`|\byou\s+are\s+now\s+(?:in\s+)?(?:developer\s+mode|DAN|jailbroken|unrestricted|unfiltered|an?\s+(?:unrestricted|unfiltered|evil))\b|\bnew\s+(?:system\s+)?(?:instructions|directives|rules)\s*:|\bfrom\s+now\s+on,?\s+you\s+(?:will|must|are|should)\b|\b(?:reveal|print|output|show|repeat|leak)\s+(?:me\s+|us\s+)?your\s+(?:system|hidden|initial|original)\s+(?:prompt|instructions|message)\b|\b(?:reveal|leak|repeat)\s+the\s+(?:system|hidden|initial)\s+prompt\b`)
	})
	// The chat-template tokens of the common model families (ChatML,
	// Llama 2 and 3, Gemma, Mistral, Phi, the harmony format, DeepSeek)
	// and the tags models are trained to read as structure: any <|…|>,
	// [INST], <<SYS>>, and a tag named for a turn, a tool or an order,
	// with an underscore (not an HTML name) or from the list.
	roleTag = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)<\|[^|<>\n]{1,40}\|>|\[/?INST\]|\[/?(?:SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS)\]|<<\s*/?SYS\s*>>|</?\s*(?:(?-i:[a-z]+(?:_[a-z]+)+)|system|system-reminder|developer|assistant|user|human|im_start|im_end|instructions?|important|bos|eos|s|start_of_turn|end_of_turn|tool_call|tool_result|function_calls?|function_results|invoke|antml:[a-z_]+|thinking|context|prompt|admin)(?:\s[^<>\n]{0,200})?\s*/?>`)
	})
	comment = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`<!--|(?s)%%.+?%%`) })
	// An image whose address a client fetches when it shows the view: it
	// can carry what the model read to someone else's server. Inline, or
	// by reference: a reference is resolved across the whole view, so a
	// reference image and a remote definition ([ref]: https://…) are each
	// refused in a memory, whichever memory holds the other.
	remoteImage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)!\[[^\]\n]*\]\(\s*<?(?:[a-z][a-z0-9+.-]*:)?//`) })
	refImage    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`!\[[^\[\]\n]*\](?:\[[^\]\n]*\]|[^(\[]|$)`) })
	remoteDef   = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)^[ \t]{0,3}\[[^\]^\n][^\]\n]*\]:[ \t]*<?(?:[a-z][a-z0-9+.-]*:)?//`)
	})
	// An HTML tag as CommonMark reads raw HTML: an open tag with its
	// attributes, a closing tag, a declaration, a processing instruction
	// or CDATA. Comments are hidden-comment's.
	htmlTag = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`<[A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z_:][A-Za-z0-9_.:-]*(?:\s*=\s*(?:[^\s"'=<>` + "`" + `]+|'[^']*'|"[^"]*"))?)*\s*/?>|</[A-Za-z][A-Za-z0-9-]*\s*>|<![A-Za-z][^>]*>|<\?[\s\S]*?\?>|<!\[CDATA\[`)
	})
	// The start of a sentence phrased as an order.
	imperative = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?im)(?:^|[.!?;:][ \t]+)[ \t]*(?:>[ \t]*)?(?:[-*+][ \t]+|\d+[.)][ \t]+)?((?:always|never|you[ \t]+must|you[ \t]+should|you[ \t]+need[ \t]+to|must|do[ \t]+not|don't|dont)\b)`)
	})
)

// The words that let the override regexp run: a text holding none of its
// words, in any case, is not matched against it. An override needs a verb
// and a noun of instructions (or one of the set phrases): gating on the
// verbs alone ran the case-folding regexp over most notes, which say
// "show" or "print" somewhere. Built on first use: the automaton is
// 186 KB every mem process built at start (GODEBUG=inittrace=1), most of
// them never checking a text.
var overrideWords = sync.OnceValue(func() (k injectionKeywords) {
	k.words = secrets.NewKeywords(
		"ignore", "disregard", "forget", "override", "bypass", "attention", "skip", "drop", "discard",
		"reveal", "print", "output", "show", "repeat", "leak", "new",
		"instruction", "prompt", "rules", "direction", "directive", "guideline", "guardrail", "context", "message",
		"orders", "commands", "polic", "constraint",
		"you are now", "from now on",
		"[inst", "[/inst", "sys", "[system_prompt", "[available_tools", "[tool_")
	k.overrideVerbs = k.words.Mask("ignore", "disregard", "forget", "override", "bypass", "attention", "skip", "drop", "discard",
		"reveal", "print", "output", "show", "repeat", "leak", "new")
	k.overrideNouns = k.words.Mask("instruction", "prompt", "rules", "direction", "directive", "guideline", "guardrail", "context", "message",
		"orders", "commands", "polic", "constraint")
	// "ignore everything above" and "forget what you were told" need no
	// noun; the set phrases need nothing else.
	k.overrideAlone = k.words.Mask("ignore", "disregard", "forget", "you are now", "from now on")
	k.instWords = k.words.Mask("[inst", "[/inst", "sys", "[system_prompt", "[available_tools", "[tool_")
	return k
})

type injectionKeywords struct {
	words                                                  *secrets.Keywords
	overrideVerbs, overrideNouns, overrideAlone, instWords uint64
}

// roleNames are the speakers of a conversation a line may pose as
// ("User:", "**Assistant:**", "## System:"), lower case.
var roleNames = map[string]bool{
	"system": true, "developer": true, "assistant": true, "human": true, "user": true, "ai": true,
	"bot": true, "chatbot": true, "claude": true, "chatgpt": true, "gpt": true, "gemini": true, "copilot": true,
}

// roleTurn is the offset of the first line of text that starts like a
// turn of a conversation — list, quote, heading and emphasis marks, then a
// speaker's name and a colon — or -1. Whatever follows the colon, the line
// would read to a model as a new turn.
func roleTurn(text string) int {
	for line := 0; line < len(text); {
		end := strings.IndexByte(text[line:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += line
		}
		if w := turnStart(text[line:end]); w >= 0 {
			return line + w
		}
		line = end + 1
	}
	return -1
}

// turnStart is the offset in line of the speaker's name that opens it as
// a turn, or -1.
func turnStart(line string) int {
	w := skipAny(line, 0, " \t>*_-#+")
	i := w
	for i < len(line) && (line[i]|0x20 >= 'a' && line[i]|0x20 <= 'z') {
		i++
	}
	if !isRole(line[w:i]) {
		return -1
	}
	// "Human: hi" is a turn; "human:alice" (an actor) is not.
	i = skipAny(line, i, " \t*_")
	if i == len(line) || line[i] != ':' {
		return -1
	}
	i = skipAny(line, i+1, "*_")
	if i == len(line) || line[i] == ' ' || line[i] == '\t' || line[i] == '\r' {
		return w
	}
	return -1
}

// skipAny is the offset of the first byte of s from i on that is not in set.
func skipAny(s string, i int, set string) int {
	for i < len(s) && strings.IndexByte(set, s[i]) >= 0 {
		i++
	}
	return i
}

// isRole reports whether name (ASCII letters) is one of roleNames in any
// case, lower-casing it without allocating.
func isRole(name string) bool {
	var lower [9]byte
	if name == "" || len(name) > len(lower) {
		return false
	}
	for k := range len(name) {
		lower[k] = name[k] | 0x20
	}
	return roleNames[string(lower[:len(name)])]
}

// File checks a whole file's text (frontmatter and body; bodyOff is where
// the body starts, or -1 when unknown) for secrets and injection. Offsets
// are into text.
func File(text string, bodyOff int) []Finding { return FileScanned(text, bodyOff, nil, nil) }

// FileScanned is File for a caller that has read the body, text[bodyOff:],
// with markdown.Scan already (lint, for its links): body is what Scan
// found, so the body is not parsed twice. A nil body is read here. memo,
// when not nil, recalls the secrets of a text it has seen (lint's whole-
// vault runs keep one, so that an unchanged file is not scanned again).
func FileScanned(text string, bodyOff int, body *markdown.Body, memo *Memo) []Finding {
	find := secrets.Find
	if memo != nil {
		find = memo.Find
	}
	return scan(text, bodyOff, body, false, find)
}

// Memo is the secret scan with a memory of the texts it has scanned, by
// their SHA-256 (secrets.Memo: rule numbers and offsets, never a secret).
type Memo = secrets.Memo

// NewMemo returns an empty Memo.
func NewMemo() *Memo { return secrets.NewMemo() }

// DecodeMemo reads a Memo's AppendBinary; one of another rule set decodes
// empty, a malformed one is an error.
func DecodeMemo(b []byte) (*Memo, error) { return secrets.DecodeMemo(b) }

// scan is every content rule over text. A stray NUL in a file that is
// read is lint's file-nul warning (a healthy note stays readable), so only
// a value being written (Text) counts it as a control character.
func scan(text string, bodyOff int, body *markdown.Body, nul bool, find func(string) []secrets.Finding) []Finding {
	out := secretFindings(find(text))
	out = append(out, injection(text, bodyOff, body)...)
	return append(out, controls(text, nul)...)
}

// Text checks one value — a field, a tag, a tool argument, an imported
// item — as File checks a body.
func Text(text string) []Finding { return scan(text, 0, nil, true, secrets.Find) }

// Secrets reports every secret in text, gitleaks-style.
func Secrets(text string) []Finding { return secretFindings(secrets.Find(text)) }

// SecretsRecalled is Secrets through memo (nil: none), which recalls a
// text it has scanned and keeps the scan of one it has not.
func SecretsRecalled(text string, memo *Memo) []Finding {
	if memo == nil {
		return Secrets(text)
	}
	return secretFindings(memo.Find(text))
}

func secretFindings(found []secrets.Finding) []Finding {
	var out []Finding
	for _, f := range found {
		out = append(out, Finding{Rule: f.Rule, Kind: Secret, Off: f.Start, What: f.What, Line: f.Line,
			Msg: fmt.Sprintf("%s: remove it and rotate it (it may already be in git history); a memory is injected into a model's context and pushed to backups", f.What)})
	}
	return out
}

func injection(text string, bodyOff int, scanned *markdown.Body) []Finding {
	var out []Finding
	add := func(rule string, off int, format string, args ...any) {
		out = append(out, Finding{Rule: rule, Kind: Injection, Off: off, Msg: fmt.Sprintf(format, args...)})
	}
	// Phrases, turns and tags are matched on the folded text.
	f := secrets.Fold(text)
	foldedInjection(f, foldedBody(text, f.Text, bodyOff), add)
	markupInjection(text, bodyOff, scanned, add)
	return append(out, invisible(text)...)
}

// foldedBody is where the body (at bodyOff in text, -1 when unknown)
// starts in folded. The folding is of each character alone, so it is the
// length of the folded head.
func foldedBody(text, folded string, bodyOff int) int {
	if bodyOff < 0 || bodyOff > len(text) {
		return -1
	}
	if len(folded) == len(text) && folded == text {
		return bodyOff
	}
	// The head is folded whole characters at a time: from the start of
	// the character bodyOff falls in (a caller's offset is a line start; a
	// fuzzer's need not be).
	start := bodyOff
	for start > 0 && start < len(text) && !utf8.RuneStart(text[start]) {
		start--
	}
	return min(len(secrets.Fold(text[:start]).Text), len(folded))
}

// foldedInjection checks the folded text (its body from body on, -1: not
// known) for override phrases, turns of a conversation and role tags.
func foldedInjection(f secrets.Folded, body int, add func(rule string, off int, format string, args ...any)) {
	folded := f.Text
	// Cheap substring tests keep the regexps off the common, clean text:
	// one pass finds the words, case-insensitively.
	k := overrideWords()
	words := k.words.Find(folded)
	if words&k.overrideVerbs != 0 && words&k.overrideNouns != 0 || words&k.overrideAlone != 0 {
		if loc := overridePhrase().FindStringIndex(folded); loc != nil {
			add("injection-override", f.Orig(loc[0]), "text that tries to override a model's instructions: memory is injected into every session; state the fact instead")
		}
	}
	if body >= 0 {
		if off := roleTurn(folded[body:]); off >= 0 {
			add("injection-role", f.Orig(body+off), "a line posing as a turn of the conversation (system:, user:, assistant: …): whatever follows, a model may read it as one; rewrite it as plain text (\"the system prompt says ...\")")
		}
	}
	if strings.IndexByte(folded, '<') >= 0 || words&k.instWords != 0 {
		if loc := roleTag().FindStringIndex(folded); loc != nil {
			add("injection-role", f.Orig(loc[0]), "a chat-template token or role tag (%s): it can make a model treat the memory as a turn or an instruction; remove it", folded[loc[0]:min(loc[1], loc[0]+40)])
		}
	}
}

// markupInjection checks the text as written for what hides or fetches:
// hidden comments, HTML, remote images, base64 blobs.
func markupInjection(text string, bodyOff int, scanned *markdown.Body, add func(rule string, off int, format string, args ...any)) {
	if strings.Contains(text, "<!--") || strings.Contains(text, "%%") {
		if off := hiddenComment(text, bodyOff, scanned); off >= 0 {
			add("hidden-comment", off, "a comment hidden in Obsidian's reading view but read by the model: move the text into the visible body or delete it")
		}
	}
	if strings.IndexByte(text, '<') >= 0 {
		if off := html(text, bodyOff, scanned); off >= 0 {
			add("injection-html", off, "an HTML tag: it can hide text from a reader, load a remote image or change the structure of the view; write it as plain markdown (or in `code` to show it)")
		}
	}
	if off := remoteImg(text); off >= 0 {
		add("injection-exfil-link", off, "an image from a remote address: a client that shows it sends a request the text chose (a way to leak context); link to it without the '!' or keep the image in the vault")
	}
	if start, n := base64Run(text); n > 0 {
		add("base64-blob", start, "a %d-character base64 blob of text: encoded text hides what a model will read; store a link to the data instead", n)
	}
}

// remoteImg is the offset of the first image of text with a remote
// address, inline or by reference, or -1. Code is not prose: an image
// shown as code is not fetched.
func remoteImg(text string) int {
	if !strings.Contains(text, "![") && !strings.Contains(text, "]:") {
		return -1
	}
	masked := markdown.MaskFences(text)
	off := -1
	for _, re := range []*regexp.Regexp{remoteImage(), refImage(), remoteDef()} {
		if loc := re.FindStringIndex(masked); loc != nil && (off < 0 || loc[0] < off) {
			off = loc[0]
		}
	}
	return off
}

// html is the offset of the first HTML tag (not a comment) in text, or -1:
// in the body as the parse read it (markdown.Scan, scanned when the
// caller's is nil), in the head and a body past the parser's limits by
// the regexp, code blanked.
func html(text string, bodyOff int, scanned *markdown.Body) int {
	head, body := "", text
	if bodyOff >= 0 && bodyOff <= len(text) {
		head, body = text[:bodyOff], text[bodyOff:]
	}
	if loc := htmlTag().FindStringIndex(head); loc != nil {
		return loc[0]
	}
	if !markdown.Safe([]byte(body)) {
		if loc := htmlTag().FindStringIndex(markdown.MaskFences(body)); loc != nil {
			return len(head) + loc[0]
		}
		return -1
	}
	if scanned == nil {
		b := markdown.Scan(body, 0)
		scanned = &b
	}
	for _, h := range scanned.HTML {
		if !strings.HasPrefix(body[h.Start:], "<!--") {
			return len(head) + h.Start
		}
	}
	return -1
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
// displays without being seen: bidirectional embeddings, overrides and
// isolates (Trojan Source), Unicode tag characters (ASCII smuggling),
// every other default-ignorable character (zero-width, format characters,
// variation selectors, fillers) that no script around it needs, and line
// breaks other than '\n' (a bare CR, U+2028, U+0085…), which escape a
// rendered list line. What scripts need is allowed (spec §8): see needed.
func invisible(text string) []Finding {
	var hits [len(invisibleKinds)]struct{ off, n int }
	prev := rune(-1)
	for off, r := range text {
		if r >= 0x80 || r == '\r' || r == '\v' || r == '\f' {
			if k := invisibleKind(text, off, prev, r); k >= 0 {
				if hits[k].n == 0 {
					hits[k].off = off
				}
				hits[k].n++
			}
		}
		prev = r
	}
	var out []Finding
	for k, h := range hits {
		if h.n > 0 {
			kind := invisibleKinds[k]
			out = append(out, Finding{Rule: kind.rule, Kind: Injection, Off: h.off, Minor: kind.minor, Msg: fmt.Sprintf(kind.msg, h.n)})
		}
	}
	return out
}

// invisibleKinds are what invisible reports, in its order; msg takes the
// count.
var invisibleKinds = [...]struct {
	rule  string
	minor bool
	msg   string
}{
	invisibleBidi:  {"unicode-bidi", false, "%d bidirectional embedding, override or isolate character(s): they reorder how text displays, so a reader and a model see different things; delete them"},
	invisibleTag:   {"unicode-tag", false, "%d invisible Unicode tag character(s): they smuggle text a model reads and a person cannot see; delete them"},
	invisibleOther: {"unicode-invisible", true, "%d invisible character(s) no script here needs (zero-width, format characters, variation selectors, fillers): invisible text can hide words from a reader; delete them"},
	invisibleBreak: {"injection-linebreak", false, "%d line break(s) other than a newline (a bare CR, U+2028, U+0085…): they can start a new line of the rendered view that the file does not show; use a plain newline"},
}

const (
	invisibleBidi = iota
	invisibleTag
	invisibleOther
	invisibleBreak
)

// invisibleKind is which of invisibleKinds r at text[off] (after prev)
// is, or -1 for a character that shows or that a script needs.
func invisibleKind(text string, off int, prev, r rune) int {
	switch {
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return invisibleBidi
	case r >= 0xE0000 && r <= 0xE007F:
		if !flagTag(text, off, prev) {
			return invisibleTag
		}
	case LineBreak(r):
		if !(r == '\r' && off+1 < len(text) && text[off+1] == '\n') {
			return invisibleBreak
		}
	case ignorable(r):
		next, _ := utf8.DecodeRuneInString(text[off+utf8.RuneLen(r):])
		if !needed(text, off, prev, r, next) {
			return invisibleOther
		}
	}
	return -1
}

// ignorable reports a default-ignorable character (Unicode's
// Default_Ignorable_Code_Point, with the Hangul and braille blanks that
// render as nothing): format characters other than the visible ones
// (Arabic number signs and the like), variation selectors, fillers.
func ignorable(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x061C, r == 0x115F, r == 0x1160, r == 0x17B4, r == 0x17B5,
		r >= 0x180B && r <= 0x180F, r >= 0x200B && r <= 0x200F, r >= 0x2060 && r <= 0x206F,
		r == 0x3164, r >= 0xFE00 && r <= 0xFE0F, r == 0xFEFF, r == 0xFFA0, r >= 0xFFF0 && r <= 0xFFFB,
		r == 0x2800, r >= 0x1BCA0 && r <= 0x1BCA3, r >= 0x1D173 && r <= 0x1D17A, r >= 0xE0100 && r <= 0xE01EF:
		return true
	case r >= 0x0600 && r <= 0x0605, r == 0x06DD, r == 0x070F, r == 0x0890, r == 0x0891, r == 0x08E2,
		r == 0x110BD, r == 0x110CD, r >= 0x13430 && r <= 0x1345F:
		return false // format characters that show (Arabic number signs, hieroglyph controls)
	}
	return r >= 0x80 && unicode.Is(unicode.Cf, r)
}

// needed reports whether the ignorable r at text[off], between prev and
// next (-1 or RuneError at the ends), is how a script is written:
// ZWNJ/ZWJ next to Arabic, Persian, Syriac, Indic, Sinhala, Mongolian,
// Khmer or Myanmar letters (a Latin word and a Persian suffix, "URL‌ها",
// included) and ZWJ between emoji; U+200B at a word of a script written
// without spaces (Khmer, Thai, Lao, Myanmar, Tibetan), between its letters
// or before punctuation, never against a Latin letter; LRM, RLM
// and ALM on a line with right-to-left text; variation selectors after
// emoji, symbols, keycap digits and Han; Mongolian selectors after
// Mongolian; the Hangul fillers in conjoining jamo; the blank braille
// pattern in braille; a byte-order mark at the start.
func needed(text string, off int, prev, r, next rune) bool {
	switch {
	case r == 0x200C, r == 0x200D:
		return joiner(prev, r, next)
	case r == 0x200B:
		return wordBreak(prev, next)
	case r == 0x200E, r == 0x200F, r == 0x061C:
		return rtlLine(text, off)
	case r >= 0xFE00 && r <= 0xFE0F:
		return selects(prev, r, next)
	case r >= 0xE0100 && r <= 0xE01EF:
		return han(prev)
	case r >= 0x180B && r <= 0x180F:
		return unicode.Is(unicode.Mongolian, prev)
	case r == 0x115F, r == 0x1160:
		return jamo(prev) || jamo(next)
	case r == 0x2800:
		return braille(prev) || braille(next)
	case r == 0xFEFF:
		return off == 0
	}
	return false
}

// joiner reports whether ZWNJ or ZWJ (r) between prev and next chooses a
// letter's form in a joining script, or (ZWJ) joins two emoji.
func joiner(prev, r, next rune) bool {
	return joining(prev) || joining(next) || r == 0x200D && emoji(prev) && emoji(next)
}

// wordBreak reports whether U+200B between prev and next is a word break
// at a word of an unspaced script: next to a letter of it, and not against
// a letter or digit of another script.
func wordBreak(prev, next rune) bool {
	return unspaced(prev) && !alien(next) || unspaced(next) && !alien(prev)
}

// selects reports whether the variation selector r after prev (before
// next) picks a form: of an emoji or Han, a keycap's digit (text or emoji
// presentation before U+20E3), or a mathematical or Myanmar character's
// standardized variant.
func selects(prev, r, next rune) bool {
	if prev < 0 {
		return false
	}
	keycap := r >= 0xFE0E && strings.ContainsRune("0123456789#*", prev) && next == 0x20E3
	variant := r <= 0xFE0D && unicode.In(prev, unicode.Sm, unicode.Myanmar)
	return emoji(prev) || han(prev) || keycap || variant
}

// braille: a braille pattern other than the blank one.
func braille(r rune) bool { return r > 0x2800 && r <= 0x28FF }

// joining: scripts whose letters join or conjoin, where ZWNJ and ZWJ
// choose a letter's form.
func joining(r rune) bool { return joiningScripts.has(r) }

var joiningScripts = spans{
	{0x0600, 0x08FF}, {0xFB50, 0xFDFF}, {0xFE70, 0xFEFC}, // Arabic, Syriac, Thaana, N'Ko
	{0x0900, 0x0DFF}, // Devanagari … Sinhala
	{0x0F00, 0x109F}, {0x1780, 0x18AF}, {0xA8E0, 0xA8FF}, {0x11000, 0x111FF},
}

// spans are ranges of code points, both ends included.
type spans [][2]rune

func (s spans) has(r rune) bool {
	for _, sp := range s {
		if r >= sp[0] && r <= sp[1] {
			return true
		}
	}
	return false
}

// unspaced: scripts written without spaces between words, where U+200B
// marks a word break.
func unspaced(r rune) bool {
	return r >= 0x0E00 && r <= 0x0FFF || r >= 0x1000 && r <= 0x109F || r >= 0x1780 && r <= 0x17FF || r >= 0x19E0 && r <= 0x19FF ||
		r >= 0xA9E0 && r <= 0xA9FF || r >= 0xAA60 && r <= 0xAA7F
}

// alien: a letter or digit of a script that spaces its words.
func alien(r rune) bool { return r >= 0 && !unspaced(r) && (unicode.IsLetter(r) || unicode.IsDigit(r)) }

// emoji: pictographs and symbols that take emoji presentation, and the
// parts of emoji sequences.
func emoji(r rune) bool { return emojiSpans.has(r) || r >= 0 && unicode.Is(unicode.So, r) }

var emojiSpans = spans{
	{0x1F000, 0x1FAFF}, {0x2190, 0x2BFF}, // pictographs (skin tones among them), arrows and symbols
	{0xFE0F, 0xFE0F}, {0x20E3, 0x20E3}, // emoji presentation, keycap
	{0x00A9, 0x00A9}, {0x00AE, 0x00AE}, {0x203C, 0x203C}, {0x2049, 0x2049}, {0x2122, 0x2122},
	{0x2139, 0x2139}, {0x3030, 0x3030}, {0x303D, 0x303D}, {0x3297, 0x3297}, {0x3299, 0x3299},
}

func han(r rune) bool { return r >= 0 && (unicode.Is(unicode.Han, r) || r >= 0x3000 && r <= 0x303F) }

func jamo(r rune) bool {
	return r >= 0x1100 && r <= 0x11FF || r >= 0xA960 && r <= 0xA97F || r >= 0xD7B0 && r <= 0xD7FF
}

// rtlLine reports whether the line of text around off holds a letter of a
// right-to-left script, where the directional marks order the neutrals.
func rtlLine(text string, off int) bool {
	start := strings.LastIndexByte(text[:off], '\n') + 1
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text)
	} else {
		end += off
	}
	for _, r := range text[start:end] {
		if r >= 0x0590 && r <= 0x08FF || r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFC || r >= 0x10800 && r <= 0x10FFF || r >= 0x1E800 && r <= 0x1EFFF {
			return true
		}
	}
	return false
}

// flagTag reports whether the tag character at text[off] is part of an
// emoji tag sequence (the flags of England, Scotland, Wales): a black
// flag, tag letters and digits, then CANCEL TAG.
func flagTag(text string, off int, prev rune) bool {
	if prev != 0x1F3F4 && !(prev >= 0xE0020 && prev <= 0xE007E) {
		return false
	}
	for _, r := range text[off:] {
		switch {
		case r == 0xE007F:
			return true
		case r < 0xE0020 || r > 0xE007E:
			return false
		}
	}
	return false
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
		masked := maskCode(body)
		if m := imperative().FindStringSubmatchIndex(masked); m != nil {
			out = append(out, Finding{Rule: "lesson-imperative", Kind: Gate, Off: m[2], Msg: fmt.Sprintf("an inferred %s phrased as a command (%q): lessons are data, not orders; rewrite it as \"when X happened, Y helped\"", meta.Type, masked[m[2]:m[3]])})
		}
	}
	if future(meta.ValidAt, now) {
		out = append(out, Finding{Rule: "valid-at-future", Kind: Gate, Msg: fmt.Sprintf("valid_at %s is in the future: it would win every newest-wins tie; give when the claim became true", meta.ValidAt)})
	}
	return out
}

// future reports whether t lies ahead of now by more than the clock skew
// allows (a bare date: after today in the easternmost time zone).
func future(t frontmatter.Time, now time.Time) bool {
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
	return MemoryRecalled(raw, doc, now, cfg, nil)
}

// MemoryRecalled is Memory with its secret scan through memo (nil: none),
// as FileScanned's.
func MemoryRecalled(raw string, doc *frontmatter.Document, now time.Time, cfg vault.GateConfig, memo *Memo) []Finding {
	bodyOff := -1
	if doc != nil && len(doc.Body) <= len(raw) {
		bodyOff = len(raw) - len(doc.Body)
	}
	out := FileScanned(raw, bodyOff, nil, memo)
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
// case and digits, as encoded data does and hex hashes and words do not,
// and that is base64 of text.
func base64Run(s string) (start, n int) {
	secrets.Base64Runs(s, minBase64, func(i, j int) {
		if n > 0 || !mixedCase(s[i:j]) || !encodesText(s[i:j]) {
			return
		}
		end := j
		for end < len(s) && end-j < 2 && s[end] == '=' {
			end++
		}
		start, n = i, end-i
	})
	return start, n
}

// encodesText reports whether a run of base64 starts with base64 of text
// (its first 30 bytes printable): what a model can read and a person
// cannot. A path with a commit hash in it (a GitHub permalink), a hash or
// binary data decodes to bytes that are not.
func encodesText(run string) bool {
	_, ok := secrets.DecodeBase64(run[:40])
	return ok
}

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

// maskCode blanks fenced code blocks and inline code spans by pairing
// fence lines, keeping every offset and newline in place: code is not
// prose, so the prose rules skip it (markdown.MaskFences).
func maskCode(s string) string { return markdown.MaskFences(s) }
