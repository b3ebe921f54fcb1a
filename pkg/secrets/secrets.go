// Package secrets finds API keys, tokens and private keys in text so that
// mem never writes, renders or commits one. The patterns are ported from
// gitleaks' rule set (the field's reference) with the same idea of a
// keyword pre-filter and an entropy floor, without gitleaks' dependency
// tree (see docs/lint.md for why); its one dependency is x/text's Unicode
// normalisation tables, to read a key written in look-alike characters.
//
// A secret is found however it is written: escaped, in full-width or
// look-alike letters, with invisible characters inside, split into parts,
// or in base64 (see Find). Redact removes what Find reports.
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
	"sync"
	"unicode/utf8"
)

// Finding is one secret: its rule, a human name for its kind, its 1-based
// line and column (in characters) in the text, and its byte span there.
// For an obfuscated secret (escaped, split, in base64 …) the position and
// the span are those of the whole obfuscated text.
type Finding struct {
	Rule       string // kebab-case, e.g. secret-aws-key
	What       string // e.g. "an AWS access key id"
	Line       int
	Col        int
	Start, End int // byte offsets: text[Start:End] is the secret
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
	windows func(t *scanned) []span
	// join: a key of this rule may be split into parts (see joined),
	// starting with one of split (lower case; nil: the keywords), short
	// enough to be whole in the first of groups of four. whole is re
	// anchored at both ends; the secret is its whole match.
	join    bool
	split   []string
	joinMax int // bytes: the longest key of the rule (0: maxJoin)
	whole   *regexp.Regexp
	// glueLower: a key glued to a word needs a digit only (see glued).
	glueLower bool
	// always: a rule with no keyword, run on its windows in every text.
	always bool
}

// span is a byte range of a text, [start, end).
type span struct{ start, end int }

// Ported from gitleaks' config (cmd/generate/config/rules), loosened where
// vendors have changed lengths, ordered so that a specific rule claims a
// span before the generic assignment rule sees it. Built on first use, not
// at init: compiling them was most of the start-up of every mem command,
// most of which never scans a text.
var rules = sync.OnceValue(func() []rule {
	rs := []rule{
		// Any case and any spacing: a PEM header is still one when
		// written "-----begin rsa private  key-----". Its keyword is a
		// rare part of "private": "begin" and "key" are common words.
		{id: "secret-private-key", what: "a private key block", keywords: []string{"ivate"},
			re: regexp.MustCompile(`(?i)-{3,}[\s+]*BEGIN[ +A-Z0-9_-]{0,100}PRIVATE[ +_-]*KEY(?:[ +_-]*BLOCK)?[\s+]*-{3,}`)},
		{id: "secret-anthropic-key", what: "an Anthropic API key", keywords: []string{"sk-ant-"}, join: true, joinMax: 130, split: []string{"sk-"},
			re: regexp.MustCompile(`sk-ant-[a-z]{2,8}\d{0,2}-[A-Za-z0-9_-]{32,}`), entropy: 3.5, windows: keyWindows("sk-ant-")},
		{id: "secret-openai-key", what: "an OpenAI API key", keywords: []string{"sk-", "t3blbkfj"}, join: true,
			re: regexp.MustCompile(`sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|[A-Za-z0-9]{40,})`), entropy: 3.5,
			// "sk-" is in every "task-" and "disk-": match only from
			// it (glued to a word, only a key that looks random: see glued).
			windows: keyWindows("sk-")},
		// AWS key ids are upper case; one lowered (in a file name made
		// from the text) is still the key, so either case matches, but
		// not a mix, which is a word.
		{id: "secret-aws-key", what: "an AWS access key id", keywords: []string{"akia", "asia", "abia", "acca", "a3t"}, join: true, joinMax: 20,
			re: regexp.MustCompile(`(?i)(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16}\b`), entropy: 3,
			// AWS's documentation key: harmless and quoted everywhere.
			allow: func(s string) bool {
				return strings.HasSuffix(strings.ToUpper(s), "EXAMPLE") || s != strings.ToUpper(s) && s != strings.ToLower(s)
			}},
		{id: "secret-aws-key", what: "an AWS secret access key", keywords: []string{"aws"},
			re: regexp.MustCompile(`(?i)aws.{0,20}?(?:secret|key).{0,20}?[:=]\s*["']?([A-Za-z0-9/+]{40})\b`), group: 1, entropy: 4},
		{id: "secret-github-token", what: "a GitHub token", keywords: []string{"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"}, join: true, joinMax: 100,
			re: regexp.MustCompile(`(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})\b`), entropy: 3},
		// gitleaks gitlab-pat and gitlab-runner-authentication-token.
		{id: "secret-gitlab-token", what: "a GitLab token", keywords: []string{"glpat-", "lrt-"}, join: true, joinMax: 80, split: []string{"glpa", "glrt"},
			re: regexp.MustCompile(`gl(?:pat|rt)-[A-Za-z0-9_-]{20,}`), entropy: 3},
		{id: "secret-slack-token", what: "a Slack token", keywords: []string{"xox"}, join: true, joinMax: 150,
			re: regexp.MustCompile(`xox[abposr]-[A-Za-z0-9-]{10,}`), entropy: 3},
		// gitleaks slack-app-token.
		{id: "secret-slack-token", what: "a Slack app-level token", keywords: []string{"xapp-"}, join: true, joinMax: 150,
			re: regexp.MustCompile(`(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`), entropy: 3},
		{id: "secret-slack-webhook", what: "a Slack webhook URL", keywords: []string{"hooks.slack.com"},
			re: regexp.MustCompile(`https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`)},
		{id: "secret-google-api-key", what: "a Google API key", keywords: []string{"aiza"}, join: true, joinMax: 39,
			re: regexp.MustCompile(`AIza[0-9A-Za-z_-]{35}\b`), entropy: 3},
		{id: "secret-stripe-key", what: "a Stripe key", keywords: []string{"sk_", "rk_"}, join: true, joinMax: 110,
			re: regexp.MustCompile(`(?:sk|rk)_(?:test|live|prod)_[A-Za-z0-9]{16,99}\b`), entropy: 3},
		// Not in gitleaks: Stripe's documented prefix of a webhook signing secret.
		{id: "secret-stripe-key", what: "a Stripe webhook signing secret", keywords: []string{"hsec_"}, join: true, joinMax: 110,
			re: regexp.MustCompile(`whsec_[A-Za-z0-9]{32,99}\b`), entropy: 3},
		{id: "secret-jwt", what: "a JSON web token", keywords: []string{"eyj"},
			re: regexp.MustCompile(`eyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}`), entropy: 3},
		{id: "secret-npm-token", what: "an npm access token", keywords: []string{"npm_"}, join: true, joinMax: 40,
			re: regexp.MustCompile(`npm_[A-Za-z0-9]{36}\b`), entropy: 3},
		{id: "secret-pypi-token", what: "a PyPI upload token", keywords: []string{"pypi-"}, join: true,
			re: regexp.MustCompile(`pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`), entropy: 3},
		{id: "secret-sendgrid-key", what: "a SendGrid API key", keywords: []string{"sg."},
			re: regexp.MustCompile(`SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}\b`), entropy: 3},
		{id: "secret-huggingface-token", what: "a Hugging Face token", keywords: []string{"hf_"}, join: true, joinMax: 37,
			re: regexp.MustCompile(`hf_[A-Za-z]{34}\b`), entropy: 3},
		{id: "secret-digitalocean-token", what: "a DigitalOcean token", keywords: []string{"_v1_"}, join: true, joinMax: 71,
			re: regexp.MustCompile(`do[opr]_v1_[a-f0-9]{64}\b`), entropy: 3, glueLower: true},
		{id: "secret-shopify-token", what: "a Shopify access token", keywords: []string{"shpat_", "shpca_", "shppa_", "shpss_"}, join: true, joinMax: 38,
			re: regexp.MustCompile(`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`), entropy: 3, glueLower: true},
		{id: "secret-telegram-bot-token", what: "a Telegram bot token", keywords: []string{":aa"},
			re: regexp.MustCompile(`\b\d{8,10}:AA[0-9A-Za-z_-]{33}\b`), entropy: 3},
		// gitleaks twilio-api-key.
		{id: "secret-twilio-key", what: "a Twilio API key", always: true,
			re: regexp.MustCompile(`SK[0-9a-fA-F]{32}\b`), entropy: 3, windows: hexWindows("SK")},
		// gitleaks mailgun-private-api-token, without its context: the
		// key- prefix and 32 hex digits are the shape.
		{id: "secret-mailgun-key", what: "a Mailgun API key", always: true,
			re: regexp.MustCompile(`key-[a-f0-9]{32}\b`), entropy: 3, glueLower: true, windows: hexRunWindows("key-")},
		// gitleaks databricks-api-token.
		{id: "secret-databricks-token", what: "a Databricks token", always: true,
			re: regexp.MustCompile(`dapi[a-f0-9]{32}(?:-\d)?\b`), entropy: 3, glueLower: true, windows: hexRunWindows("dapi")},
		// A Discord bot token: base64 of the bot's id (so M, N or O and
		// then one of the pairs below), a timestamp and an HMAC. gitleaks
		// knows Discord keys only by the word "discord" nearby; the shape
		// is GitHub secret scanning's. Its first letters are common pairs,
		// no keyword: its windows alone keep its regexp off most texts.
		{id: "secret-discord-token", what: "a Discord bot token", always: true,
			re: regexp.MustCompile(`[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}\b`), entropy: 3.5, windows: discordWindows},
		// gitleaks age-secret-key.
		{id: "secret-age-key", what: "an age secret key", keywords: []string{"-secret-key-1"},
			re: regexp.MustCompile(`(?i)AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`)},
		// An Azure shared access signature: the sig= of a SAS URL (gitleaks
		// has no SAS rule; the shape is an HMAC-SHA256 in base64).
		{id: "secret-azure-sas", what: "an Azure shared access signature", keywords: []string{"?sig=", "&sig="},
			re: regexp.MustCompile(`(?i)[?&]sig=([A-Za-z0-9%+/]{30,120}={0,2})`), group: 1, entropy: 3.5},
		// A URL that carries a password (postgres://user:pass@host,
		// https://user:pass@…): gitleaks has no rule for it (its
		// generic-api-key misses a URL's userinfo); the shape is RFC 3986's.
		// The password alone is the secret, so a redacted URL still says
		// where it pointed.
		{id: "secret-url-password", what: "a password in a URL", keywords: []string{"://"},
			re:    regexp.MustCompile(`(?i)(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\+srv)?|rediss?|amqps?|mssql|sqlserver|jdbc:[a-z]+|https?|ftps?|smtps?|ldaps?)://[^\s:@/?#]{1,64}:([^\s:@/?#]{1,128})@[^\s@]`),
			group: 1, allow: placeholder, windows: urlWindows},
		// gitleaks' generic-api-key: an assignment to a secret-sounding name
		// whose value is long and random. The value must hold a digit, so a
		// prose sentence like "token: see the vault wiki" never matches.
		{id: "secret-generic", what: "a high-entropy secret assignment", keywords: []string{"key", "token", "secret", "passw", "pwd", "credential", "auth"},
			re:    regexp.MustCompile(`(?i)\b[a-z0-9_.-]{0,40}(?:key|token|secret|passwd|password|pwd|credentials?|auth)\b["']?\s{0,3}(?:=|:|=>|:=)\s{0,3}["']?([A-Za-z0-9_\-+/=.~!@#$%^&*]{16,200})`),
			group: 1, entropy: 3.5,
			// A value holding a password assignment of its own
			// ("token=DB_PASSWORD=…") is the password rule's.
			allow: func(s string) bool {
				return !strings.ContainsAny(s, "0123456789") || strings.HasPrefix(s, "${") || identifier(s) || indexFold(s, "passw") >= 0
			},
			windows: assignmentWindows},
		// A password given in prose or a .env line, however short
		// ("the password is hunter2", PASSWORD=s3cret): gitleaks'
		// generic-api-key without its length and entropy floors, which
		// a short password is under; a value must mix letters with a
		// digit or a symbol, and not be a word, a variable or code.
		{id: "secret-password", what: "a password", keywords: []string{"passw", "pwd", "passp"},
			re:    regexp.MustCompile("(?i)(?:password|passwd|pwd|passphrase)\\b[\"']?[ \\t]{0,3}(?:(?:is|was)[ \\t]{1,3}|(?:=|:|:=|=>)[ \\t]{0,3})[\"'`]?([^\\s\"'`,;]{3,127}[^\\s\"'`,;.!?:)])"),
			group: 1, allow: notPassword, windows: passwordWindows},
	}
	for i := range rs {
		if rs[i].join && rs[i].split == nil {
			rs[i].split = rs[i].keywords
		}
		if rs[i].join && rs[i].joinMax == 0 {
			rs[i].joinMax = maxJoin
		}
		if rs[i].join {
			if rs[i].group != 0 {
				panic("secrets: a joinable rule's secret is its whole match")
			}
			rs[i].whole = regexp.MustCompile(`^(?:` + rs[i].re.String() + `)$`)
		}
	}
	return rs
})

// placeholder reports a URL password that stands for one: a variable
// (${DB_PASS}, $PASS, %s, <password>) or a mask (****, xxxx).
func placeholder(s string) bool {
	return strings.ContainsAny(s[:1], "${<%[") || strings.Trim(s, "*xX.") == ""
}

// identifier reports a value made of words joined by hyphens, underscores
// or dots, with at most short version-like parts ("samguk-network-v1",
// "release_2024_q3"): a name, not a secret, whatever its entropy.
func identifier(s string) bool {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' })
	if len(parts) < 2 {
		return false
	}
	for _, p := range parts {
		if len(p) > 4 && !word(p) {
			return false
		}
	}
	return true
}

// word reports a run of letters in one case, or capitalised.
func word(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || i == 0 && c >= 'A' && c <= 'Z') {
			return strings.ToUpper(s) == s && strings.Trim(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
		}
	}
	return true
}

// notPassword reports a value of the password rule that is not one: no
// letter, or letters only (a word: "the password is stored …"), a
// placeholder or a variable, code (a call, a field) or an identifier.
func notPassword(s string) bool {
	letter, other := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letter = true
		case c >= 0x80:
			return true // prose in another language
		default:
			other = true
		}
	}
	return !letter || !other || entropy(s) < 2 || placeholder(s) || strings.ContainsAny(s, "(){}<>[]") || identifier(s)
}

// discordWindows are the runs of 24 to 26 base64 characters that a dot
// ends, 6 characters and a second dot after it, where a Discord bot token
// can lie: found by runs' skip-ahead scan, as the rule's first letters are
// common pairs and it has no keyword.
func discordWindows(t *scanned) []span {
	var out []span
	text := t.text
	for _, r := range t.b64Runs() {
		if r.end+8 > len(text) || text[r.end] != '.' || text[r.end+7] != '.' {
			continue
		}
		out = append(out, span{max(r.start, r.end-26), min(r.end+8+38+1, len(text))})
	}
	return out
}

// urlWindows are the spans around each "://" where a URL with a password
// can lie (the longest scheme is 15 bytes, then the userinfo and one
// byte of the host): the case-insensitive alternation of schemes has no
// literal prefix, and "://" is in every URL.
func urlWindows(t *scanned) []span {
	text := t.text
	var out []span
	for i := 0; ; {
		n := strings.Index(text[i:], "://")
		if n < 0 {
			return out
		}
		at := i + n
		i = at + 3
		// Most URLs have no userinfo: the host ends at '/', '?', '#', a
		// blank or the end before any '@'.
		user, colon, end := 0, -1, at+3
		for ; end < len(text) && end < at+3+64+1+128; end++ {
			c := text[end]
			if c == '@' || c == '/' || c == '?' || c == '#' || c <= ' ' {
				break
			}
			if c == ':' && colon < 0 {
				colon = end
			}
			user++
		}
		if colon < 0 || end >= len(text) || text[end] != '@' {
			continue
		}
		w := span{max(at-16, 0), min(end+2, len(text))}
		if k := len(out) - 1; k >= 0 && w.start <= out[k].end {
			out[k].end = w.end
		} else {
			out = append(out, w)
		}
		i = end
	}
}

// passwordWindows are the spans from each keyword of the password rule
// to the longest match from it.
func passwordWindows(t *scanned) []span {
	text := t.text
	var out []span
	// One pass finds passw…, passphrase and pwd from their 'p'.
	for at := 0; at+3 <= len(text); at++ {
		if foldASCII[text[at]] != 'p' {
			continue
		}
		var rest string
		switch {
		case equalASCIIFold(text[at+1:at+3], "wd"):
			rest = text[at+3:]
		case at+5 <= len(text) && equalASCIIFold(text[at+1:at+5], "assw"):
			rest = text[at+4:]
		case at+10 <= len(text) && equalASCIIFold(text[at+1:at+10], "assphrase"):
			rest = text[at+10:]
		default:
			continue
		}
		end := min(at+len("passphrase")+1+3+3+3+1+128, len(text))
		if assigned(rest[:end-(len(text)-len(rest))]) {
			out = append(out, span{at, end})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	merged := out[:0]
	for _, w := range out {
		if k := len(merged) - 1; k >= 0 && w.start <= merged[k].end {
			merged[k].end = max(merged[k].end, w.end)
			continue
		}
		merged = append(merged, w)
	}
	return merged
}

// assigned reports whether s, the text after a password keyword, can go on
// to a value as the rule's regexp wants: the rest of the keyword's word, a
// quote, at most 3 blanks, then "is", "was" or an operator.
func assigned(s string) bool {
	i := 0
	for i < len(s) && i < 6 && (s[i]|0x20 >= 'a' && s[i]|0x20 <= 'z') {
		i++
	}
	if i < len(s) && (s[i] == '"' || s[i] == '\'') {
		i++
	}
	for n := 0; i < len(s) && n < 3 && (s[i] == ' ' || s[i] == '\t'); n++ {
		i++
	}
	rest := s[i:]
	return strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, ":") ||
		len(rest) > 3 && equalASCIIFold(rest[:3], "is ") || len(rest) > 3 && equalASCIIFold(rest[:3], "is\t") ||
		len(rest) > 4 && (equalASCIIFold(rest[:4], "was ") || equalASCIIFold(rest[:4], "was\t"))
}

// hexWindows returns a windows function for a rule whose key is prefix
// and 32 or more hex digits: the windows are each prefix that 32 hex
// digits follow, so the rule needs no keyword. The prefix is found from
// its last byte, a byte search (for a prefix that ends in a rare byte,
// "SK"); hexRunWindows is for the others.
func hexWindows(prefix string) func(*scanned) []span {
	last := prefix[len(prefix)-1]
	return func(t *scanned) []span {
		text := t.text
		var out []span
		for i := 0; ; {
			n := strings.IndexByte(text[i:], last)
			if n < 0 {
				return out
			}
			at := i + n + 1 - len(prefix)
			i += n + 1
			if at < 0 || text[at:i] != prefix {
				continue
			}
			if end := hexEnd(text, i); end-i >= 32 {
				// A digit suffix (-1) and the byte \b looks at go too.
				out = append(out, span{at, min(end+3, len(text))})
				i = end
			}
		}
	}
}

// hexRunWindows is hexWindows for a prefix that ends in a common letter
// ("dapi"): the runs of 32 hex digits are found by runs' skip-ahead scan,
// and those right after prefix kept.
func hexRunWindows(prefix string) func(*scanned) []span {
	return func(t *scanned) []span {
		var out []span
		text := t.text
		for _, r := range t.hexRuns() {
			if r.start >= len(prefix) && text[r.start-len(prefix):r.start] == prefix {
				out = append(out, span{r.start - len(prefix), min(r.end+3, len(text))})
			}
		}
		return out
	}
}

// hexEnd is the end of the run of hex digits at text[i:].
func hexEnd(text string, i int) int {
	for i < len(text) && hexDigits[text[i]] != 0 {
		i++
	}
	return i
}

// glued reports whether a match at text[start:] is glued to the word
// before it ("keyAKIA…", "tokenghp_…"): a key is found anywhere in a
// token, but one glued to a word must look random, with a digit and an
// upper-case letter (a digit only, for the rules whose keys are lower-case
// hex after a prefix no word ends with: glueLower), so that "task-" and a
// lower-case hash after it, or a long word that happens to hold a prefix,
// are not keys.
func (r *rule) glued(text string, start int, secret string) bool {
	return start > 0 && wordByte(text[start-1]) && wordByte(text[start]) &&
		!(strings.ContainsAny(secret, "0123456789") && (r.glueLower || strings.ContainsAny(secret, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")))
}

// accept reports whether a match of r is a secret: random enough and not
// allowed.
func (r *rule) accept(secret string) bool {
	return (r.entropy == 0 || entropy(secret) >= r.entropy) && (r.allow == nil || !r.allow(secret))
}

// hit is a secret found by rules()[rule] at text[start:end].
type hit struct{ start, end, rule int }

// Find returns every secret in text, in order of position. Overlapping
// matches of different rules are reported once, by the first rule.
//
// It sees through obfuscation: the text is matched as a reader would read
// it (escapes decoded, compatibility forms, lookalikes and invisible
// characters folded, a key split into parts joined, base64 decoded), and
// each finding is reported at its place in text as given.
func Find(text string) []Finding {
	hits := scanFile(text)
	out := make([]Finding, 0, len(hits))
	// Hits are in order: count lines and columns on from the last one, so
	// a file of many secrets stays linear.
	line, col, last := 1, 1, 0
	for _, h := range hits {
		if nl := strings.LastIndexByte(text[last:h.start], '\n'); nl >= 0 {
			line += strings.Count(text[last:h.start], "\n")
			col, last = 1, last+nl+1
		}
		col += utf8.RuneCountInString(text[last:h.start])
		last = h.start
		out = append(out, Finding{Rule: rules()[h.rule].id, What: rules()[h.rule].what, Line: line, Col: col, Start: h.start, End: h.end})
	}
	return out
}

// has reports whether text holds a secret: len(Find(text)) > 0 without
// computing positions.
func has(text string) bool { return len(scanFile(text)) > 0 }

// scanFile is scan, and when it finds nothing, a key split between a
// field of the frontmatter and the body (seam).
func scanFile(text string) []hit {
	if hits := scan(text, 0); len(hits) > 0 {
		return hits
	}
	return seam(text)
}

// Redact returns text with every secret Find reports replaced by
// "[redacted: <rule>]", an obfuscated one whole: what search snippets,
// show and log print. The result holds no secret Find reports: should
// replacing one make another (two halves of a key around a first), it is
// redacted in turn, and a text that keeps making new ones is replaced
// whole.
func Redact(text string) string {
	for range 4 {
		hits := scanFile(text)
		if len(hits) == 0 {
			return text
		}
		var b strings.Builder
		last := 0
		for _, h := range hits {
			b.WriteString(text[last:h.start])
			b.WriteString(Redaction(rules()[h.rule].id))
			last = h.end
		}
		b.WriteString(text[last:])
		text = b.String()
	}
	if hits := scanFile(text); len(hits) > 0 {
		return Redaction(rules()[hits[0].rule].id)
	}
	return text
}

// Redaction is what stands in for a secret of the rule named: the one
// spelling of "[redacted: <rule>]", for Redact and for a caller that
// replaces a whole value (a path, a line of a commit message).
func Redaction(rule string) string { return "[redacted: " + rule + "]" }

// scan returns the secrets of text in order, without overlaps. Clean ASCII
// text, the common case, costs the keyword pass, three byte searches and a
// skip over base64-like runs; only text that holds an escape or a non-ASCII
// character is normalised (depth counts base64 levels).
func scan(text string, depth int) []hit {
	s := text
	var maps []offmap
	var inputs []int // the length of each map's input
	if hasEscape(s) {
		if u, m := unescape(s); m != nil {
			s, maps, inputs = u, append(maps, m), append(inputs, len(s))
		}
	}
	ascii := isASCII(s)
	if !ascii {
		if f, m := fold(s); m != nil {
			s, maps, inputs = f, append(maps, m), append(inputs, len(s))
		}
	}
	if u, m := ungroup(s); m != nil {
		s, maps, inputs = u, append(maps, m), append(inputs, len(s))
	}
	t := &scanned{text: s}
	hits := match(t, ascii)
	if depth < maxDepth {
		var found []hit
		t.base64Runs(func(start, end int) {
			if overlaps(hits, start, end) {
				return
			}
			if dec, ok := DecodeBase64(s[start:end]); ok {
				if sub := scan(dec, depth+1); len(sub) > 0 {
					// The padding goes with the run.
					pad := end
					for pad < len(s) && pad-end < 2 && s[pad] == '=' {
						pad++
					}
					found = append(found, hit{start, pad, sub[0].rule})
				}
			}
		})
		hits = merge(hits, found)
		found = nil
		t.encodedRuns(func(start, end int, dec string) {
			if overlaps(hits, start, end) || len(found) > 0 && start < found[len(found)-1].end {
				return
			}
			if sub := scan(dec, depth+1); len(sub) > 0 {
				found = append(found, hit{start, end, sub[0].rule})
			}
		})
		sort.Slice(found, func(i, j int) bool { return found[i].start < found[j].start })
		hits = merge(hits, found)
	}
	for i := len(maps) - 1; i >= 0; i-- {
		for j := range hits {
			hits[j].start, hits[j].end = maps[i].start(hits[j].start), maps[i].end(hits[j].end, inputs[i])
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].start < hits[j].start })
	// Spans apart in the normalised text may meet in the original (two
	// matches in one decoded escape): merge them.
	out := hits[:0]
	for _, h := range hits {
		if k := len(out) - 1; k >= 0 && h.start < out[k].end {
			out[k].end = max(out[k].end, h.end)
			continue
		}
		out = append(out, h)
	}
	return out
}

// match runs the rules over text, then joins split keys where no rule
// matched. ascii says text is ASCII (false: it may not be). The hits come
// back in order and apart; every step is a merge or a binary search, so a
// file of many secrets stays near linear.
func match(t *scanned, ascii bool) []hit {
	text := t.text
	rs, g := rules(), gate()
	present := g.words.find(text, ascii)
	var hits, add []hit
	for i := range rs {
		r := &rs[i]
		if present&g.rules[i] == 0 && !r.always {
			continue
		}
		add = add[:0]
		for _, m := range r.matchesIn(t) {
			s, e := m[2*r.group], m[2*r.group+1]
			if s < 0 || overlaps(hits, s, e) || len(add) > 0 && s < add[len(add)-1].end || !r.accept(text[s:e]) || r.group == 0 && r.glued(text, s, text[s:e]) {
				continue
			}
			add = append(add, hit{s, e, i})
		}
		hits = merge(hits, add)
	}
	var joins []hit
	for i := range rs {
		r := &rs[i]
		if !r.join || present&g.split[i] == 0 {
			continue
		}
		for _, sp := range r.joined(text) {
			joins = append(joins, hit{sp.start, sp.end, i})
		}
	}
	if len(joins) == 0 {
		return hits
	}
	// A rule may have matched the first part of a key cut in two alone:
	// a joined span replaces the hits it covers whole, and is dropped if
	// it overlaps one in part or an earlier joined span.
	sort.Slice(joins, func(i, j int) bool { return joins[i].start < joins[j].start })
	covered := make([]bool, len(hits))
	var kept []hit
	for _, h := range joins {
		if len(kept) > 0 && h.start < kept[len(kept)-1].end {
			continue
		}
		first := sort.Search(len(hits), func(k int) bool { return hits[k].end > h.start })
		k := first
		for k < len(hits) && hits[k].start < h.end && h.start <= hits[k].start && hits[k].end <= h.end {
			k++
		}
		if k < len(hits) && hits[k].start < h.end {
			continue // overlaps a hit in part
		}
		for c := first; c < k; c++ {
			covered[c] = true
		}
		kept = append(kept, h)
	}
	out := kept
	for k, h := range hits {
		if !covered[k] {
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// merge returns the hits of a and b, each in order and apart, in order.
func merge(a, b []hit) []hit {
	if len(b) == 0 {
		return a
	}
	out := make([]hit, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if a[0].start < b[0].start {
			out, a = append(out, a[0]), a[1:]
		} else {
			out, b = append(out, b[0]), b[1:]
		}
	}
	return append(append(out, a...), b...)
}

// overlaps reports whether [start, end) overlaps one of hits, which are in
// order and apart.
func overlaps(hits []hit, start, end int) bool {
	k := sort.Search(len(hits), func(k int) bool { return hits[k].end > start })
	return k < len(hits) && hits[k].start < end
}

// matches is r.re.FindAllStringSubmatchIndex(text, -1), run only on the
// windows where a match can lie when the rule knows them.
func (r *rule) matches(text string) [][]int { return r.matchesIn(&scanned{text: text}) }

// matchesIn is matches of a text being scanned.
func (r *rule) matchesIn(t *scanned) [][]int {
	text := t.text
	if r.windows == nil {
		return r.re.FindAllStringSubmatchIndex(text, -1)
	}
	var out [][]int
	for _, w := range r.windows(t) {
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

// keyWindows returns a windows function for a rule whose regexp matches
// only a run of key characters ([A-Za-z0-9_-]) that starts with prefix
// (case-sensitive): the windows are those runs, from each prefix on, glued
// to a word or not (match drops a glued one that does not look random).
func keyWindows(prefix string) func(t *scanned) []span {
	return func(t *scanned) []span {
		text := t.text
		var out []span
		for i := 0; ; {
			n := strings.Index(text[i:], prefix)
			if n < 0 {
				return out
			}
			at := i + n
			end := at + len(prefix)
			for end < len(text) && keyChar(text[end], false) {
				end++
			}
			out = append(out, span{at, end})
			i = end
		}
	}
}

// wordByte reports whether b is a word character for the regexp's \b
// (ASCII letters, digits and underscore).
func wordByte(b byte) bool { return b < 0x80 && !nonWordASCII(b) }

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
func assignmentWindows(t *scanned) []span {
	text := t.text
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

// ruleGate holds every rule's keywords and split prefixes; rules[i] has a
// bit for each keyword of rules()[i], so a rule runs only when Find's one
// pass found one, and split[i] one for each of its split prefixes.
type ruleGate struct {
	words        *Keywords
	rules, split []uint64
}

// gate is built with rules, on first use.
var gate = sync.OnceValue(func() ruleGate {
	rs := rules()
	var all []string
	for _, r := range rs {
		all = append(all, r.keywords...)
		all = append(all, r.split...)
	}
	g := ruleGate{words: NewKeywords(all...), rules: make([]uint64, len(rs)), split: make([]uint64, len(rs))}
	for i, r := range rs {
		g.rules[i] = g.words.Mask(r.keywords...)
		g.split[i] = g.words.Mask(r.split...)
	}
	return g
})

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
func (k *Keywords) Find(text string) uint64 { return k.find(text, isASCII(text)) }

// find is Find for a text known to be ASCII or not.
//
// Folding ASCII letters in place gives the same answer as lowering the
// text, because every other character lowers to non-ASCII bytes and so can
// be no part of a word, except two: İ (U+0130) lowers to i and the Kelvin
// sign (U+212A) to k. A text holding either is lowered first.
func (k *Keywords) find(text string, ascii bool) uint64 {
	if !ascii && (strings.Contains(text, "\u0130") || strings.Contains(text, "\u212a")) {
		text = strings.ToLower(text)
	}
	if len(text) < 2 {
		return 0
	}
	var found uint64
	// p is the folded pair ending at text[i], rolled on a byte at a time:
	// one table load per byte.
	p := uint16(foldASCII[text[0]])
	for i := 1; i < len(text); i++ {
		p = p<<8 | uint16(foldASCII[text[i]])
		g := k.pairs[p]
		if g == 0 {
			continue
		}
		at := i - 1
		for _, n := range k.starts[g-1] {
			if w := k.words[n]; len(text)-at >= len(w) && equalASCIIFold(text[at:at+len(w)], w) {
				found |= 1 << n
			}
		}
	}
	return found
}

// isASCII tests eight bytes at a time (as utf8.ValidString does): Find
// asks it of every file.
func isASCII(s string) bool {
	for len(s) >= 8 {
		first := uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
		second := uint32(s[4]) | uint32(s[5])<<8 | uint32(s[6])<<16 | uint32(s[7])<<24
		if (first|second)&0x80808080 != 0 {
			return false
		}
		s = s[8:]
	}
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

// entropy is the Shannon entropy of s in bits per character.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var h float64
	add := func(c, n int) {
		if c > 0 {
			p := float64(c) / float64(n)
			h -= p * math.Log2(p)
		}
	}
	if isASCII(s) { // every secret a rule matches: no map to allocate
		var counts [128]int
		for i := 0; i < len(s); i++ {
			counts[s[i]]++
		}
		for _, c := range counts {
			add(c, len(s))
		}
		return h
	}
	counts := map[rune]int{}
	n := 0
	for _, r := range s {
		counts[r]++
		n++
	}
	for _, c := range counts {
		add(c, n)
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
