package secrets

import (
	"fmt"
	"strings"
	"testing"
)

// Fake secrets are assembled at run time so that this file itself never
// holds a string that secret scanners (ours, GitHub's) flag.
var (
	random40 = "q8Zr2LmV9xT4bN7cK1pW6yH3sD5fG0jA8uE2iO4k"
	fakeAWS  = "AKIA" + "Q3ZRTV5WX7HJ2LNB"
	fakeGH   = "ghp" + "_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	fakeAnt  = "sk-" + "ant-api03-" + random40 + random40 + random40[:13] + "AA"
	fakeOAI  = "sk-" + random40[:20] + "T3Blbk" + "FJ" + random40[20:]
	fakeSlk  = "xox" + "b-2748392011-4820193847-" + "Qm8RtZkLw2Xp9Vn4Bc7Hs1Jd"
	fakeJWT  = "eyJ" + "hbGciOiJIUzI1NiJ9.eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	fakePEM  = "-----BEGIN " + "RSA PRIVATE KEY-----"
)

func TestFind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []Finding // What is not compared
	}{
		{"aws", "key is " + fakeAWS + " ok", []Finding{{Rule: "secret-aws-access-token", Line: 1, Col: 8}}},
		{"aws documentation key is allowed", "AKIA" + "IOSFODNN7EXAMPLE", nil},
		{"aws secret", "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz9Rk2LmQ0p", []Finding{{Rule: "secret-generic-api-key", Line: 1, Col: 25}}},
		{"github on line 2", "first\n  token " + fakeGH, []Finding{{Rule: "secret-github-pat", Line: 2, Col: 9}}},
		{"anthropic wins over openai", fakeAnt, []Finding{{Rule: "secret-anthropic-api-key", Line: 1, Col: 1}}},
		{"openai", "use " + fakeOAI, []Finding{{Rule: "secret-openai-api-key", Line: 1, Col: 5}}},
		{"slack", fakeSlk, []Finding{{Rule: "secret-slack-bot-token", Line: 1, Col: 1}}},
		{"jwt", "Bearer " + fakeJWT, []Finding{{Rule: "secret-jwt", Line: 1, Col: 8}}},
		{"pem", "x\n" + fakePEM + "\nMIIE...", []Finding{{Rule: "secret-private-key", Line: 2, Col: 1}}},
		{"generic", `api_key: "Zx81kQ2mVt7pLr4nWc9s"`, []Finding{{Rule: "secret-generic-api-key", Line: 1, Col: 11}}},
		{"columns count characters", "é " + fakeAWS, []Finding{{Rule: "secret-aws-access-token", Line: 1, Col: 3}}},
		{"placeholder has no entropy", "sk-" + "ant-api03-" + strings.Repeat("x", 90), nil},
		{"generic without digits is prose", "token: see-the-team-wiki-page-for-it", nil},
		{"generic low entropy", "password=aaaaaaaaaaaaaaaa1", nil},
		{"a git sha is not a secret", "fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b", nil},
		{"plain prose", "The key insight: tokens expire after 1 hour.", nil},
		{"two secrets", fakeAWS + " and " + fakeGH, []Finding{{Rule: "secret-aws-access-token", Line: 1, Col: 1}, {Rule: "secret-github-pat", Line: 1, Col: 26}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := Find(c.text)
			if len(got) != len(c.want) {
				t.Fatalf("Find(%q) = %+v, want %+v", c.text, got, c.want)
			}
			for i := range got {
				g, w := got[i], c.want[i]
				if g.Rule != w.Rule || g.Line != w.Line || g.Col != w.Col || g.What == "" {
					t.Errorf("finding %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestFindingNeverHoldsTheSecret(t *testing.T) {
	t.Parallel()
	for _, f := range Find(fakeAWS + " " + fakeGH + " " + fakeAnt) {
		for _, s := range []string{fakeAWS, fakeGH, fakeAnt, "Q3ZRTV"} {
			if strings.Contains(f.What, s) || strings.Contains(f.Rule, s) {
				t.Errorf("finding %+v leaks the secret", f)
			}
		}
	}
}

func TestEntropy(t *testing.T) {
	t.Parallel()
	if e := entropy("aaaa"); e != 0 {
		t.Errorf("Entropy(aaaa) = %v, want 0", e)
	}
	if e := entropy("abcd"); e != 2 {
		t.Errorf("Entropy(abcd) = %v, want 2", e)
	}
}

func FuzzFind(f *testing.F) {
	f.Add(fakeAWS + "\n" + fakeAnt)
	f.Add("api_key = 'Zx81kQ2mVt7pLr4nWc9s'")
	f.Fuzz(func(t *testing.T, s string) {
		for _, x := range Find(s) {
			if x.Line < 1 || x.Col < 1 || x.Line > strings.Count(s, "\n")+1 {
				t.Fatalf("bad position %+v", x)
			}
		}
	})
}

// The windows are an optimisation only: each of gitleaks' rules must find
// within them what it finds in the whole text, as gitleaks runs it.
func TestWindowsMatchWholeText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`api_key: "Zx81kQ2mVt7pLr4nWc9s"`,
		"token\n\n\n=Zx81kQ2mVt7pLr4nWc9s and password :=  'Zx81kQ2mVt7pLr4nWc9s'",
		"my.service-name_with_a_very_long_prefix_of_forty_chars_key=Zx81kQ2mVt7pLr4nWc9s",
		"xkey=Zx81kQ2mVt7pLr4nWc9s key=Zx81kQ2mVt7pLr4nWc9s" + strings.Repeat("a1", 150) + " auth=b",
		"secret=>Zx81kQ2mVt7pLr4nWc9s\"credentials\": \"Zx81kQ2mVt7pLr4nWc9s\"",
		strings.Repeat("key=", 100) + "Zx81kQ2mVt7pLr4nWc9s",
		fakeOAI + "\n" + fakeAnt + " and " + fakeGH + "\n\n" + fakePEM + "\n" + strings.Repeat(random40+"\n", 3) + "-----END RSA PRIVATE KEY-----",
		strings.Repeat("prose line with a key word in it\n", 40) + "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz9Rk2LmQ0p",
	} {
		checkWindows(t, s)
	}
}

func checkWindows(t *testing.T, s string) {
	t.Helper()
	s = normalise(s).text // match's text, as scan hands it over: İ and the Kelvin sign folded, so offsets are the text's
	e := rules()
	var occs []occurrence
	e.words.each(s, func(at, w int) bool { occs = append(occs, occurrence{at, w}); return true })
	for k, w := range e.windows(s, occs) {
		kd := &e.kinds[k]
		if kd.gl == nil {
			continue
		}
		var whole, windowed []span
		e.glMatches(kd.gl, kd.gl.rule().Regex, s, span{0, len(s)}, func(a, b int) { whole = append(whole, span{a, b}) })
		for _, x := range w {
			e.glMatches(kd.gl, kd.gl.rule().Regex, s, x, func(a, b int) { windowed = append(windowed, span{a, b}) })
		}
		if fmt.Sprint(whole) != fmt.Sprint(windowed) {
			t.Errorf("%s: %q: windows found %v, the whole text %v", kd.id, s, windowed, whole)
		}
	}
}

func FuzzWindows(f *testing.F) {
	f.Add("ask-" + fakeOAI + " disk-" + fakeAnt + "\napi_key: 'Zx81kQ2mVt7pLr4nWc9s'")
	f.Fuzz(checkWindows)
}

// Keywords.Find is the rules' gate: it must say exactly what lowering the
// text and searching it for each keyword says.
func TestKeywordsMatchLoweredText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"", "a", "The API KEY and the Token", "AKIA ASIA xoxb sk-ANT- GitHub_PAT_ eyJ",
		"\u0130A and \u212aEY", // İ lowers to i, the Kelvin sign to k
		"ſecret Ⱥws hooks.SLACK.com ends with aut",
		"passw", "private\nkey", "PRIVATE KEY",
	} {
		checkKeywords(t, s)
	}
}

func checkKeywords(t *testing.T, s string) {
	t.Helper()
	lower := strings.ToLower(s)
	k := NewKeywords("api", "key", "token", "akia", "asia", "xoxb", "sk-ant-", "github_pat_", "eyj", "ia", "ecret", "aws", "hooks.slack.com", "aut", "passw", "private", "ey")
	got := k.Find(s)
	for n, w := range k.words.words {
		if want := strings.Contains(lower, w); want != (got&(1<<n) != 0) {
			t.Fatalf("%q: keyword %q found %v, in the lowered text %v", s, w, !want, want)
		}
	}
}

func FuzzKeywords(f *testing.F) {
	f.Add("The API KEY and the \u212aEY token sk-ANT-")
	f.Fuzz(checkKeywords)
}
