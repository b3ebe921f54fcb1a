package secrets

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// kinds are the secrets of the obfuscation table: one key of each kind
// that a rule knows by its shape, assembled at run time (see fakeAWS).
var kinds = []struct{ rule, secret string }{
	{"secret-aws-access-token", fakeAWS},
	{"secret-github-pat", fakeGH},
	{"secret-slack-bot-token", fakeSlk},
	{"secret-stripe-access-token", "sk_" + "live_" + "4eC39HqLyjWDarjtT1zdp7dc"},
	{"secret-openai-api-key", fakeOAI},
	{"secret-anthropic-api-key", fakeAnt},
	{"secret-gcp-api-key", "AIza" + "SyD8x2Kq9Lm4Vt7Rw1Zp3Nc6Hb5Jf0Ga2Ue"},
	{"secret-gitlab-pat", "glpat-" + "x7Kq2Lm9Vt4Rw8Zp1Nc6"},
	{"secret-npm-access-token", "npm_" + "a9Kx3Lq7Vm2Rt8Wz4Np6Hc1Jd5Fb0Gs3Ye7Q"},
	{"secret-huggingface-access-token", "hf_" + "aKxLqVmRtWzNpHcJdFbGsYeQuPiOlMkNjB"},
}

// obfuscation hides secret in text; it returns the text and the span of
// the hidden secret in it, which Find must report and Redact remove.
type obfuscation struct {
	name string
	hide func(secret string) (text string, start, end int)
}

// inSentence puts an obfuscated secret in a sentence.
func inSentence(obf func(string) string) func(string) (string, int, int) {
	return func(secret string) (string, int, int) {
		o := obf(secret)
		before := "the deploy uses "
		return before + o + " for now", len(before), len(before) + len(o)
	}
}

// wrapped puts a secret between before and after.
func wrapped(before, after string) func(string) (string, int, int) {
	return func(secret string) (string, int, int) {
		return before + secret + after, len(before), len(before) + len(secret)
	}
}

// each rewrites every character of s with f.
func each(s string, f func(r rune) string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteString(f(r))
	}
	return b.String()
}

// at inserts ins into s at byte i.
func at(s string, i int, ins string) string { return s[:i] + ins + s[i:] }

// groups splits s into groups of n separated by sep.
func groups(s string, n int, sep string) string {
	var parts []string
	for len(s) > n {
		parts = append(parts, s[:n])
		s = s[n:]
	}
	return strings.Join(append(parts, s), sep)
}

var obfuscations = []obfuscation{
	{"plain", inSentence(func(s string) string { return s })},
	{"zero-width space inside", inSentence(func(s string) string { return at(at(s, len(s)/2, "\u200b"), 4, "\u200b") })},
	{"soft hyphen inside", inSentence(func(s string) string { return at(s, len(s)/2, "\u00ad") })},
	{"word joiner and BOM inside", inSentence(func(s string) string { return at(at(s, len(s)/2, "\u2060"), 3, "\ufeff") })},
	{"ZWJ between every character", inSentence(func(s string) string {
		return strings.Join(strings.Split(s, ""), "\u200d")
	})},
	{"bidi controls inside", inSentence(func(s string) string { return at(at(s, len(s)/2, "\u202e"), 2, "\u2066") + "\u202c" })},
	{"fullwidth letters", inSentence(func(s string) string {
		return each(s, func(r rune) string {
			if r > ' ' && r < 0x7f {
				return string(r - 0x21 + 0xff01)
			}
			return string(r)
		})
	})},
	{"mathematical bold letters", inSentence(func(s string) string {
		return each(s, func(r rune) string {
			switch {
			case r >= 'A' && r <= 'Z':
				return string(r - 'A' + 0x1d400)
			case r >= 'a' && r <= 'z':
				return string(r - 'a' + 0x1d41a)
			case r >= '0' && r <= '9':
				return string(r - '0' + 0x1d7ce)
			}
			return string(r)
		})
	})},
	{"Cyrillic and Greek homoglyphs", inSentence(func(s string) string {
		swaps := map[rune]string{'A': "А", 'K': "К", 'a': "а", 'o': "о", 'e': "е", 'p': "р", 'c': "с", 'x': "х", 'B': "Β", 'H': "Н", 'T': "Т", 'M': "М"}
		return each(s, func(r rune) string {
			if h, ok := swaps[r]; ok {
				return h
			}
			return string(r)
		})
	})},
	{"combining marks", inSentence(func(s string) string { return at(at(s, len(s)-2, "\u0301"), 5, "\u0308") })},
	{"split by a space", inSentence(func(s string) string { return at(s, len(s)/2, " ") })},
	{"groups of four", inSentence(func(s string) string { return groups(s, 4, " ") })},
	{"a hyphen inside", inSentence(func(s string) string { return at(s, len(s)/2+1, "-") })},
	{"URL-encoded", inSentence(func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf("%%%02X", r) }) })},
	{"URL-encoded in part", inSentence(func(s string) string { return fmt.Sprintf("%%%02X%%%02x", s[0], s[1]) + s[2:] })},
	{"JSON \\u escapes", inSentence(func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf(`\u%04x`, r) }) })},
	{"\\x escapes", inSentence(func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf(`\x%02X`, r) }) })},
	{"HTML decimal entities", inSentence(func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf("&#%d;", r) }) })},
	{"HTML hex entities", inSentence(func(s string) string { return each(s, func(r rune) string { return fmt.Sprintf("&#x%x;", r) }) })},
	{"base64", inSentence(func(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) })},
	{"base64 of a sentence", inSentence(func(s string) string {
		return base64.StdEncoding.EncodeToString([]byte("the staging key is " + s + ", rotate monthly"))
	})},
	{"base64url", inSentence(func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) })},
	{"base64 of URL-encoded", inSentence(func(s string) string {
		return base64.StdEncoding.EncodeToString([]byte(each(s, func(r rune) string { return fmt.Sprintf("%%%02X", r) })))
	})},
	{"backslash-newline line continuation", inSentence(func(s string) string { return at(s, len(s)/2, "\\\n    ") })},
	{"in double quotes", wrapped(`say "`, `" to it`)},
	{"in markdown code", wrapped("run `", "` first")},
	{"in a fenced code block", wrapped("notes:\n```sh\nexport DEPLOY=", "\n```\n")},
	{"YAML folded string over two lines", func(s string) (string, int, int) {
		before := "deploy: >-\n  "
		o := at(s, len(s)/2, "\n  ")
		return before + o + "\nnext: 1\n", len(before), len(before) + len(o)
	}},
	{"JSON string with \\n inside", inSentence(func(s string) string { return at(s, len(s)/2, `\n`) })},
	{"fullwidth and zero-width together", inSentence(func(s string) string {
		return at(each(s, func(r rune) string { return string(r - 0x21 + 0xff01) }), 6, "\u200b")
	})},
}

// TestFindSeesThroughObfuscation is the evasion table: every kind of key,
// hidden every way, is found at the hidden text's place and redacted whole.
func TestFindSeesThroughObfuscation(t *testing.T) {
	t.Parallel()
	for _, k := range kinds {
		for _, o := range obfuscations {
			t.Run(k.rule+"/"+o.name, func(t *testing.T) {
				if unjoinable(k.secret, o.name) {
					t.Skip()
				}
				text, start, end := o.hide(k.secret)
				found := Find(text)
				if len(found) != 1 {
					t.Fatalf("Find(%q) = %+v, want one %s", text, found, k.rule)
				}
				f := found[0]
				line, col := Position(text, start)
				if f.Rule != k.rule || f.Start != start || f.End != end || f.Line != line || f.Col != col {
					t.Errorf("Find(%q) = %+v, want %s at [%d,%d) %d:%d", text, f, k.rule, start, end, line, col)
				}
				if !has(text) {
					t.Errorf("Has(%q) = false", text)
				}
				red := Redact(text)
				want := text[:start] + "[redacted: " + k.rule + "]" + text[end:]
				if red != want {
					t.Errorf("Redact(%q) = %q, want %q", text, red, want)
				}
			})
		}
	}
}

// unjoinable reports a key the obfuscation named cuts beyond repair: a
// key whose own hyphens are part of its shape (gitleaks' sk-…-…) is not
// put back together from parts at hyphens, and a keyword (glpat-) cut by
// a group leaves no keyword to start joining the parts at.
func unjoinable(secret, obfuscation string) bool {
	return obfuscation == "a hyphen inside" && strings.Contains(secret[3:], "-") || strings.Contains(secret, "T3Blbk") ||
		obfuscation == "groups of four" && strings.HasPrefix(secret, "glpat-")
}

// Not every rule is a key of one shape: a private key header, an AWS secret
// key and a generic assignment are found through the normalisation too.
func TestFindOtherKindsObfuscated(t *testing.T) {
	t.Parallel()
	pem := fakePEM
	for _, c := range []struct{ name, rule, text string }{
		{"pem lower case", "secret-private-key", strings.ToLower(pem)},
		{"pem mixed case and spaces", "secret-private-key", "-----Begin Rsa Private  Key-----"},
		{"pem zero-width", "secret-private-key", at(pem, 14, "\u200b")},
		{"pem fullwidth", "secret-private-key", each(pem, func(r rune) string {
			if r >= 'A' && r <= 'Z' {
				return string(r - 0x21 + 0xff01)
			}
			return string(r)
		})},
		{"pem URL-encoded", "secret-private-key", strings.ReplaceAll(pem, " ", "%20")},
		{"pem HTML entities", "secret-private-key", strings.ReplaceAll(pem, "-", "&#45;")},
		{"pem base64", "secret-private-key", base64.StdEncoding.EncodeToString([]byte(pem + "\nMIIEpAIBAAKCAQEA"))},
		{"pem JSON-escaped in a string", "secret-private-key", `{"key": "` + strings.ReplaceAll(pem, " ", `\u0020`) + `\nMIIE"}`},
		{"jwt zero-width", "secret-jwt", at(fakeJWT, 30, "\u200b")},
		{"jwt URL-encoded", "secret-jwt", strings.ReplaceAll(fakeJWT, ".", "%2E")},
		{"generic JSON-escaped", "secret-password", `{"password": "\u005a\u0078\u0038\u0031kQ2mVt7pLr4nWc9s"}`},
		{"generic zero-width", "secret-generic-api-key", "api_key = Zx81kQ2m\u200bVt7pLr4nWc9s"},
		{"aws secret fullwidth", "secret-generic-api-key", "aws_secret_access_key = " + each("wJalrXUtnFEMI/K7MDENG/bPxRfiCYz9Rk2LmQ0p", func(r rune) string { return string(r - 0x21 + 0xff01) })},
		// A word glued before a semi-generic rule's value, a key glued
		// past its own fence, a key ended by a URL's '&', a key wrapped
		// with one piece in letters or digits alone, and one whose match
		// takes the byte after it (it once ran past the text's end).
		{"glued before a named value", "secret-adobe-client-id", "adobeToken=deploy4a22f46ba95791c334ce6f0ecb9c2e76"},
		{"glued after its own fence", "secret-openshift-user-token", "sha256~mhTxSi2gJtk_4zBkkYRXZIebsrf5GEBrWUVxhbtVqa2now"},
		{"in a URL's query", "secret-azure-ad-client-secret", "see https://example.com/cb?next=QtT8Q~9C-_Ij~RouHVpD2Tuf3oHWGh.DQ3kcjbAn&v=1"},
		{"wrapped, digits alone", "secret-asana-client-id", "asanaToken=74844579\n94783442"},
		{"wrapped, letters alone after", "secret-slack-legacy-workspace-token", `"access_token2": "xoxa-7o8` + "\n" + `qfhejzccf"`},
		{"wrapped, the match past the key", "secret-sentry-org-token", "sentryToken=sntrys_eyJpYXQiOjE2ODczMzY1NDMuNjk4NTksInVybCI6bnVsbCwicmVnaW9uX3VybCI6Imh0dHA6Ly9s\nb2NhbGhvc3Q6ODAwMCIsIm9yZyI6InNlbnRyeSJ9_NzJkYzA3NzMyZTRjNGE2NmJlNjBjOWQxNGRjOTZiNmI"},
		{"double-encoded: base64 of base64", "secret-aws-access-token", base64.StdEncoding.EncodeToString([]byte(base64.StdEncoding.EncodeToString([]byte("id " + fakeAWS))))},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := Find(c.text)
			if len(found) == 0 || found[0].Rule != c.rule {
				t.Fatalf("Find(%q) = %+v, want %s", c.text, found, c.rule)
			}
			if red := Redact(c.text); !strings.Contains(red, "[redacted: "+c.rule+"]") || has(red) {
				t.Errorf("Redact(%q) = %q", c.text, red)
			}
		})
	}
}

// TestFindFalsePositives: text that merely looks technical holds no secret,
// normalised or not.
func TestFindFalsePositives(t *testing.T) {
	t.Parallel()
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00\x00\x00\x01\x00\x08\x06\x00\x00\x00\x5c\x72\xa8\x66"))
	texts := []string{
		"The key insight: tokens expire after 1 hour; rotate the secret monthly.",
		"fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b (short 3f78685)",
		"request id 123e4567-e89b-12d3-a456-426614174000 and 9B2E1A44-0C3D-4E5F-8A6B-7C8D9E0F1A2B",
		"sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		"sha512 cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
		"![logo](data:image/png;base64," + png + ")",
		"icon: " + png,
		"Our AWS key ids start with AKIA and then sixteen characters.",
		"AKIA PLUS SIXTEEN CHARS is the shape of an AWS key id.",
		"ghp_ tokens are what GitHub calls personal access tokens, see the docs.",
		"sk- is the prefix, sk-ant- too; sk_live_ keys are Stripe's.",
		"Asia Pacific region, Arabia, the Accademia, a task-force on disk-space.",
		"We moved the team to Asia and the ASIA-PACIFIC-REGION-2026 rollout is next.",
		"---\nid: memory/deploy-key-rotation-4f6b61\ntype: fact\nprovenance: stated\nvalid_at: 2025-01-06T14:39:42Z\n---\nThe deploy key is in 1Password under \"Deploy\".\n",
		"Meeting notes — café “ideas” ½ price, naïve résumé, 日本語のメモ, Ελληνικά, русский текст.",
		"Use %20 for spaces in URLs; escape & as &amp; and < as &lt; in HTML.",
		`In JSON write "\u00e9" or "\n"; in Go "\x41" is A; C:\new\table is a path.`,
		"[[projects/webshop]] links to [[notes/checkout-incident-2026-09|the incident]] #tag/sub-tag",
		"> [!note] Obsidian callout\n> - [ ] task with a due date 📅 2026-09-01",
		"password: see the team wiki page, token: ask Dana",
		"The word Zm9vYmFyYmF6cXV1eA looks like base64 but is a made-up name.",
		"aGVsbG8gd29ybGQgdGhpcyBpcyBqdXN0IGEgbm9ybWFsIHNlbnRlbmNl",
		"pip install requests==2.31.0 && npm install react@18.2.0",
		"LINE ONE\\\nLINE TWO continues the shell command",
		"A K I A is how you spell the prefix out loud.",
		"The adobe_id = release-notes-for-the-summer-2026 page, the asana: https://app.asana.com/0/12/list",
		"rotate the deploy token\nevery month via the runbook v2.1, see\nnotes/rotation-2026.md",
	}
	for _, text := range texts {
		if f := Find(text); len(f) > 0 {
			t.Errorf("Find(%q) = %+v, want nothing", text, f)
		}
		if r := Redact(text); r != text {
			t.Errorf("Redact(%q) changed it to %q", text, r)
		}
	}
	// The example vault and lint's corpus of valid files hold no secret
	// (its bad files hold placeholders that lint's tests fill in).
	checked := 0
	for _, dir := range []string{"../../examples/vault", "../lint/testdata/corpus"} {
		err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() && d.Name() == "bad" {
				return cmp.Or(err, filepath.SkipDir)
			}
			if d.IsDir() || !strings.HasSuffix(path, ".md") && !strings.HasSuffix(path, ".yaml") {
				return nil
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if f := Find(string(data)); len(f) > 0 {
				t.Errorf("%s: Find = %+v, want nothing", path, f)
			}
			checked++
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 40 {
		t.Errorf("checked %d files of the example vault and the corpus, want 40 or more", checked)
	}
}

func FuzzRedact(f *testing.F) {
	for _, k := range kinds[:3] {
		for _, o := range obfuscations {
			text, _, _ := o.hide(k.secret)
			f.Add(text)
		}
	}
	f.Add("AKIA2 AKIA2 AKIA2 AKIA2 AKIA2 " + fakeAWS)
	// A wrapped key whose rule's match takes the byte after it (its span
	// once ran past the text).
	f.Add("sentryToken=sntrys_eyJpYXQiOjE2ODczMzY1NDMuNjk4NTksInVybCI6bnVsbCwicmVnaW9uX3VybCI6Imh0dHA6Ly9s\nb2NhbGhvc3Q6ODAwMCIsIm9yZyI6InNlbnRyeSJ9_NzJkYzA3NzMyZTRjNGE2NmJlNjBjOWQxNGRjOTZiNmI")
	// Keys the unglue, query and wrap passes find: a word taken out of a
	// token, an '&' ending a value, a wrap before a keyword's line.
	f.Add(teamsHook("deploytrko-"))
	f.Add(`curl -u deploy":d2LkV78z` + `Lx!t" https://localhost:9200 and curl -u deploy:changemenow x`)
	f.Add("see https://example.com/cb?next=creds%20%3D%20" + genericKey + "&v=1&w=creds%3D" + genericKey + "&")
	f.Add(`BUNDLE_GEMS__CONTRIBSYS__COM: "cafebabe` + "\n" + `:deadbeef"` + "\nhttp://cafebabe\n:deadbeef@gems.contribsys.com")
	f.Fuzz(func(t *testing.T, s string) {
		found := Find(s)
		checkSpans(t, s, found)
		if has(s) != (len(found) > 0) {
			t.Fatalf("Has(%q) disagrees with Find", s)
		}
		r := Redact(s)
		if f := Find(r); len(f) > 0 {
			t.Fatalf("Redact(%q) = %q still holds %+v", s, r, f)
		}
		if len(found) == 0 && r != s {
			t.Fatalf("Redact(%q) changed a clean text", s)
		}
		if utf8.ValidString(s) && !utf8.ValidString(r) {
			t.Fatalf("Redact(%q) = %q is not UTF-8", s, r)
		}
	})
}

// checkSpans fails unless found are in order, apart, inside s and at the
// line and column they say.
func checkSpans(t *testing.T, s string, found []Finding) {
	t.Helper()
	for i, x := range found {
		if x.Start < 0 || x.End > len(s) || x.Start >= x.End || i > 0 && x.Start < found[i-1].End {
			t.Fatalf("Find(%q): bad span %+v", s, x)
		}
		if line, col := Position(s, x.Start); line != x.Line || col != x.Col {
			t.Fatalf("Find(%q): %+v is not at %d:%d", s, x, line, col)
		}
	}
}
