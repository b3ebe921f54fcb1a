// Package secrets finds API keys, tokens and private keys in text so that
// mem never writes, renders or commits one. It has no dependencies: the
// patterns are ported from gitleaks' rule set (the field's reference) with
// the same idea of a keyword pre-filter and an entropy floor, without
// gitleaks' dependency tree (see docs/lint.md for why).
//
// A Finding never carries the secret itself, only where it is and what kind
// it is, so callers can report it without leaking it into logs or CI output.
package secrets

import (
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Finding is one secret: its rule, a human name for its kind, and its
// 1-based line and column (in characters) in the text.
type Finding struct {
	Rule string // kebab-case, e.g. secret-aws-key
	What string // e.g. "an AWS access key id"
	Line int
	Col  int
}

// rule is one detector. keywords (lower case) gate the regexp: a text that
// holds none of them is never matched, which keeps a scan of a one-line
// memory to a few substring searches. group selects the submatch that is
// the secret (0 = the whole match); entropy is the Shannon entropy floor
// (bits per character) of that secret, which turns away placeholders like
// sk-ant-xxxxxxxx and words like "password=changemechangeme".
type rule struct {
	id       string
	what     string
	keywords []string
	re       *regexp.Regexp
	group    int
	entropy  float64
	allow    func(secret string) bool
	// windows, when set, returns the spans of text outside which re cannot
	// match, so that re runs on them only; nil means the whole text.
	windows func(text string) []span
}

// span is a byte range of a text, [start, end).
type span struct{ start, end int }

// Ported from gitleaks' config (cmd/generate/config/rules), loosened where
// vendors have changed lengths, ordered so that a specific rule claims a
// span before the generic assignment rule sees it.
var rules = []rule{
	{id: "secret-private-key", what: "a private key block", keywords: []string{"private key"},
		re: regexp.MustCompile(`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`)},
	{id: "secret-anthropic-key", what: "an Anthropic API key", keywords: []string{"sk-ant-"},
		re: regexp.MustCompile(`\bsk-ant-[a-z]{2,8}\d{0,2}-[A-Za-z0-9_-]{32,}`), entropy: 3.5},
	{id: "secret-openai-key", what: "an OpenAI API key", keywords: []string{"sk-", "t3blbkfj"},
		re: regexp.MustCompile(`\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{40,})`), entropy: 3.5},
	{id: "secret-aws-key", what: "an AWS access key id", keywords: []string{"akia", "asia", "abia", "acca", "a3t"},
		re: regexp.MustCompile(`\b(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`), entropy: 3,
		// AWS's documentation key: harmless and quoted everywhere.
		allow: func(s string) bool { return strings.HasSuffix(s, "EXAMPLE") }},
	{id: "secret-aws-key", what: "an AWS secret access key", keywords: []string{"aws"},
		re: regexp.MustCompile(`(?i)aws.{0,20}?(?:secret|key).{0,20}?[:=]\s*["']?([A-Za-z0-9/+]{40})\b`), group: 1, entropy: 4},
	{id: "secret-github-token", what: "a GitHub token", keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"},
		re: regexp.MustCompile(`\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})\b`), entropy: 3},
	{id: "secret-gitlab-token", what: "a GitLab token", keywords: []string{"glpat-"},
		re: regexp.MustCompile(`\bglpat-[A-Za-z0-9_-]{20,}`), entropy: 3},
	{id: "secret-slack-token", what: "a Slack token", keywords: []string{"xox"},
		re: regexp.MustCompile(`\bxox[abposr]-[A-Za-z0-9-]{10,}`), entropy: 3},
	{id: "secret-slack-webhook", what: "a Slack webhook URL", keywords: []string{"hooks.slack.com"},
		re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`)},
	{id: "secret-google-api-key", what: "a Google API key", keywords: []string{"aiza"},
		re: regexp.MustCompile(`\bAIza[0-9A-Za-z_-]{35}\b`), entropy: 3},
	{id: "secret-stripe-key", what: "a Stripe key", keywords: []string{"sk_", "rk_"},
		re: regexp.MustCompile(`\b(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{16,99}\b`), entropy: 3},
	{id: "secret-jwt", what: "a JSON web token", keywords: []string{"eyj"},
		re: regexp.MustCompile(`\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`), entropy: 3},
	// gitleaks' generic-api-key: an assignment to a secret-sounding name
	// whose value is long and random. The value must hold a digit, so a
	// prose sentence like "token: see the vault wiki" never matches.
	{id: "secret-generic", what: "a high-entropy secret assignment", keywords: []string{"key", "token", "secret", "passw", "pwd", "credential", "auth"},
		re:    regexp.MustCompile(`(?i)\b[a-z0-9_.-]{0,40}(?:key|token|secret|passwd|password|pwd|credentials?|auth)\b["']?\s{0,3}(?:=|:|=>|:=)\s{0,3}["']?([A-Za-z0-9_\-+/=.~!@#$%^&*]{16,200})`),
		group: 1, entropy: 3.5,
		allow:   func(s string) bool { return !strings.ContainsAny(s, "0123456789") || strings.HasPrefix(s, "${") },
		windows: assignmentWindows},
}

// Find returns every secret in text, in order of position. Overlapping
// matches of different rules are reported once, by the first rule.
func Find(text string) []Finding {
	present := keywords.Find(text)
	type found struct{ start, end, rule int }
	var spans []found
	for i := range rules {
		r := &rules[i]
		if present&ruleMasks[i] == 0 {
			continue
		}
		for _, m := range r.matches(text) {
			s, e := m[2*r.group], m[2*r.group+1]
			if s < 0 {
				continue
			}
			secret := text[s:e]
			if r.entropy > 0 && Entropy(secret) < r.entropy {
				continue
			}
			if r.allow != nil && r.allow(secret) {
				continue
			}
			overlaps := false
			for _, o := range spans {
				if s < o.end && o.start < e {
					overlaps = true
					break
				}
			}
			if !overlaps {
				spans = append(spans, found{s, e, i})
			}
		}
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	out := make([]Finding, 0, len(spans))
	for _, s := range spans {
		line, col := Position(text, s.start)
		out = append(out, Finding{Rule: rules[s.rule].id, What: rules[s.rule].what, Line: line, Col: col})
	}
	return out
}

// matches is r.re.FindAllStringSubmatchIndex(text, -1), run only on the
// windows where a match can lie when the rule knows them.
func (r *rule) matches(text string) [][]int {
	if r.windows == nil {
		return r.re.FindAllStringSubmatchIndex(text, -1)
	}
	var out [][]int
	for _, w := range r.windows(text) {
		for _, m := range r.re.FindAllStringSubmatchIndex(text[w.start:w.end], -1) {
			for j := range m {
				if m[j] >= 0 {
					m[j] += w.start
				}
			}
			out = append(out, m)
		}
	}
	return out
}

// genericReach bounds how far a match of the generic assignment rule lies
// from its operator (the first byte of =, :, => or :=): at most a
// 40-character name prefix, an 11-byte keyword, a quote and 3 spaces
// before it, and the 2-byte operator, 3 spaces, a quote and a 200-byte
// value from it. All of those are ASCII bytes, so characters are bytes.
const (
	genericBefore = 40 + len("credentials") + 1 + 3
	genericAfter  = 2 + 3 + 1 + 200
)

// assignmentWindows finds the spans of text where the generic assignment
// rule can match, so that its regexp, unanchored and case-insensitive
// (the most expensive of the set: it ran over every note that says "key"
// or "auth"), runs on a few hundred bytes around each assignment instead of
// the whole text. A match holds an operator right after a keyword, an
// optional quote and at most 3 spaces; each such operator gives a window
// of the match's reach around it, widened on the left to a byte that is
// not a word character so that the regexp's leading \b sees what it would
// in the whole text, and overlapping windows are merged. Every match of
// the whole text then lies in exactly one window and is found there, in
// the same order: the result is identical, not approximate.
//
// Two non-ASCII characters fold to ASCII letters under (?i): the Kelvin
// sign (k) and the long s (ſ). A text holding either is matched whole.
func assignmentWindows(text string) []span {
	if strings.Contains(text, "\u212a") || strings.Contains(text, "\u017f") {
		return []span{{0, len(text)}}
	}
	var out []span
	for i := 0; i < len(text); i++ {
		n := strings.IndexAny(text[i:], ":=")
		if n < 0 {
			break
		}
		i += n
		if !afterKeyword(text[:i]) {
			continue
		}
		start := max(i-genericBefore, 0)
		for start > 0 && !nonWordASCII(text[start-1]) {
			start--
		}
		end := min(i+genericAfter, len(text))
		if k := len(out) - 1; k >= 0 && start <= out[k].end {
			out[k].end = end
			continue
		}
		out = append(out, span{start, end})
	}
	return out
}

// genericKeywords are the keyword endings of the generic rule's regexp
// (key|token|secret|passwd|password|pwd|credentials?|auth), lower case.
var genericKeywords = []string{"key", "token", "secret", "passwd", "password", "pwd", "credential", "credentials", "auth"}

// afterKeyword reports whether before ends like the text ahead of the
// generic rule's operator: a keyword (any case), an optional quote, and
// at most 3 spaces (the regexp's \s: tab, newline, form feed, return,
// space).
func afterKeyword(before string) bool {
	end := len(before)
	for n := 0; end > 0 && isSpace(before[end-1]); n++ {
		if n == 3 {
			return false
		}
		end--
	}
	if end > 0 && (before[end-1] == '"' || before[end-1] == '\'') {
		end--
	}
	for _, kw := range genericKeywords {
		if end >= len(kw) && strings.EqualFold(before[end-len(kw):end], kw) {
			return true
		}
	}
	return false
}

func isSpace(b byte) bool {
	return b == ' ' || b == '\t' || b == '\n' || b == '\f' || b == '\r'
}

// nonWordASCII reports whether b is an ASCII byte that is not a word
// character for the regexp's \b (letters, digits, underscore).
func nonWordASCII(b byte) bool {
	return b < 0x80 && !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_')
}

// keywords holds every rule's keywords; ruleMasks[i] has a bit for each
// keyword of rules[i], so a rule runs only when Find's one pass found one.
var keywords, ruleMasks = func() (*Keywords, []uint64) {
	var all []string
	for _, r := range rules {
		all = append(all, r.keywords...)
	}
	k := NewKeywords(all...)
	masks := make([]uint64, len(rules))
	for i, r := range rules {
		masks[i] = k.Mask(r.keywords...)
	}
	return k, masks
}()

// Keywords finds which of up to 64 lower-case ASCII words (two bytes or
// longer) a text holds, in one pass over it, with the answer of
// strings.Contains(strings.ToLower(text), word) for each: the cheap gate
// that keeps regexps off texts that cannot match. One strings.Contains per
// word over a lowered copy of each note was most of what Find and lint's
// injection checks spent on a vault of short notes.
type Keywords struct {
	words []string
	index map[string]int
	// pairs maps the first two bytes of the words to 1 + their index in
	// starts (0: no word starts so), turning most positions away with one
	// load.
	pairs [1 << 16]uint8
	// starts lists the words that begin with each pair.
	starts [][]int
}

// NewKeywords indexes words (duplicates are kept once). It panics on a
// word that is not lower-case ASCII of at least two bytes, or on more than
// 64 words: the word lists are constants of the program.
func NewKeywords(words ...string) *Keywords {
	k := &Keywords{index: map[string]int{}}
	for _, w := range words {
		if _, ok := k.index[w]; ok {
			continue
		}
		if len(w) < 2 || strings.ToLower(w) != w || !isASCII(w) || len(k.words) == 64 {
			panic("secrets.NewKeywords: " + strconv.Quote(w) + ": need at most 64 lower-case ASCII words of two bytes or more")
		}
		k.index[w] = len(k.words)
		k.words = append(k.words, w)
		p := pair(w[0], w[1])
		if k.pairs[p] == 0 {
			k.starts = append(k.starts, nil)
			k.pairs[p] = uint8(len(k.starts))
		}
		k.starts[k.pairs[p]-1] = append(k.starts[k.pairs[p]-1], len(k.words)-1)
	}
	return k
}

// Mask is the set of bits Find uses for words, which must have been given
// to NewKeywords.
func (k *Keywords) Mask(words ...string) uint64 {
	var m uint64
	for _, w := range words {
		n, ok := k.index[w]
		if !ok {
			panic("secrets.Keywords.Mask: " + strconv.Quote(w) + " was not indexed")
		}
		m |= 1 << n
	}
	return m
}

// Find returns the words text holds, as bits to test against Mask.
//
// Folding ASCII letters in place gives the same answer as lowering the
// text, because every other character lowers to non-ASCII bytes and so can
// be no part of a word, except two: İ (U+0130) lowers to i and the Kelvin
// sign (U+212A) to k. A text holding either is lowered first.
func (k *Keywords) Find(text string) uint64 {
	if strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a") {
		text = strings.ToLower(text)
	}
	var found uint64
	for i := 0; i+1 < len(text); i++ {
		g := k.pairs[pair(text[i], text[i+1])]
		if g == 0 {
			continue
		}
		for _, n := range k.starts[g-1] {
			if w := k.words[n]; len(text)-i >= len(w) && equalASCIIFold(text[i:i+len(w)], w) {
				found |= 1 << n
			}
		}
	}
	return found
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func pair(a, b byte) uint16 { return uint16(foldASCII[a])<<8 | uint16(foldASCII[b]) }

// foldASCII lowers ASCII letters and keeps every other byte: a table load
// per byte, no branch, in Find's loop over every byte of the vault.
var foldASCII = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

// equalASCIIFold reports whether s lowers (ASCII letters only) to lower.
func equalASCIIFold(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		if foldASCII[s[i]] != lower[i] {
			return false
		}
	}
	return true
}

// Entropy is the Shannon entropy of s in bits per character.
func Entropy(s string) float64 {
	if s == "" {
		return 0
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	var h float64
	for _, c := range counts {
		p := float64(c) / float64(n)
		h -= p * math.Log2(p)
	}
	return h
}

// Position converts a byte offset in text to a 1-based line and a 1-based
// column counted in characters, the way editors count.
func Position(text string, offset int) (line, col int) {
	offset = min(max(offset, 0), len(text))
	before := text[:offset]
	line = 1 + strings.Count(before, "\n")
	start := strings.LastIndexByte(before, '\n') + 1
	return line, 1 + utf8.RuneCountInString(before[start:])
}
