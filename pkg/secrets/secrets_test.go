package secrets

import (
	"strings"
	"testing"
)

// Fake secrets are assembled at run time so that this file itself never
// holds a string that secret scanners (ours, GitHub's) flag.
var (
	random40 = "q8Zr2LmV9xT4bN7cK1pW6yH3sD5fG0jA8uE2iO4k"
	fakeAWS  = "AKIA" + "Q3ZRTV5WX7HJ2LNB"
	fakeGH   = "ghp" + "_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
	fakeAnt  = "sk-" + "ant-api03-" + random40 + random40 + "AA"
	fakeOAI  = "sk-" + "proj-" + random40
	fakeSlk  = "xox" + "b-2748392011-" + "8Hc7Wq2Zr5Lp"
	fakeJWT  = "eyJ" + "hbGciOiJIUzI1NiJ9.eyJ" + "zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	fakePEM  = "-----BEGIN " + "RSA PRIVATE KEY-----"
)

func TestFind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name, text string
		want       []Finding // What is not compared
	}{
		{"aws", "key is " + fakeAWS + " ok", []Finding{{Rule: "secret-aws-key", Line: 1, Col: 8}}},
		{"aws documentation key is allowed", "AKIA" + "IOSFODNN7EXAMPLE", nil},
		{"aws secret", "aws_secret_access_key = " + "wJalrXUtnFEMI/K7MDENG/bPxRfiCYz9Rk2LmQ0p", []Finding{{Rule: "secret-aws-key", Line: 1, Col: 25}}},
		{"github on line 2", "first\n  token " + fakeGH, []Finding{{Rule: "secret-github-token", Line: 2, Col: 9}}},
		{"anthropic wins over openai", fakeAnt, []Finding{{Rule: "secret-anthropic-key", Line: 1, Col: 1}}},
		{"openai", "use " + fakeOAI, []Finding{{Rule: "secret-openai-key", Line: 1, Col: 5}}},
		{"slack", fakeSlk, []Finding{{Rule: "secret-slack-token", Line: 1, Col: 1}}},
		{"jwt", "Bearer " + fakeJWT, []Finding{{Rule: "secret-jwt", Line: 1, Col: 8}}},
		{"pem", "x\n" + fakePEM + "\nMIIE...", []Finding{{Rule: "secret-private-key", Line: 2, Col: 1}}},
		{"generic", `api_key: "Zx81kQ2mVt7pLr4nWc9s"`, []Finding{{Rule: "secret-generic", Line: 1, Col: 11}}},
		{"columns count characters", "é " + fakeAWS, []Finding{{Rule: "secret-aws-key", Line: 1, Col: 3}}},
		{"placeholder has no entropy", "sk-" + "ant-api03-" + strings.Repeat("x", 90), nil},
		{"generic without digits is prose", "token: see-the-team-wiki-page-for-it", nil},
		{"generic low entropy", "password=aaaaaaaaaaaaaaaa1", nil},
		{"a git sha is not a secret", "fixed in commit 3f786850e387550fdab836ed7e6dc881de23001b", nil},
		{"plain prose", "The key insight: tokens expire after 1 hour.", nil},
		{"two secrets", fakeAWS + " and " + fakeGH, []Finding{{Rule: "secret-aws-key", Line: 1, Col: 1}, {Rule: "secret-github-token", Line: 1, Col: 26}}},
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

// The generic rule's windows are an optimisation only: matching within
// them must find exactly what the regexp finds in the whole text.
func TestGenericWindowsMatchWholeText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		`api_key: "Zx81kQ2mVt7pLr4nWc9s"`,
		"token\n\n\n=Zx81kQ2mVt7pLr4nWc9s and password :=  'Zx81kQ2mVt7pLr4nWc9s'",
		"token    = Zx81kQ2mVt7pLr4nWc9s", // 4 spaces: no match
		"my.service-name_with_a_very_long_prefix_of_forty_chars_key=Zx81kQ2mVt7pLr4nWc9s",
		"xkey=Zx81kQ2mVt7pLr4nWc9s key=Zx81kQ2mVt7pLr4nWc9s" + strings.Repeat("a1", 150) + " auth=b",
		"é_key=Zx81kQ2mVt7pLr4nWc9s, αkey: Zx81kQ2mVt7pLr4nWc9s",
		"\u212aEY=Zx81kQ2mVt7pLr4nWc9s", // Kelvin sign folds to k
		"secret=>Zx81kQ2mVt7pLr4nWc9s\"credentials\": \"Zx81kQ2mVt7pLr4nWc9s\"",
		strings.Repeat("key=", 100) + "Zx81kQ2mVt7pLr4nWc9s",
	} {
		checkGenericWindows(t, s)
	}
}

func checkGenericWindows(t *testing.T, s string) {
	t.Helper()
	for i := range rules() {
		if r := &rules()[i]; r.id == "secret-generic" {
			checkWindows(t, r, s)
			return
		}
	}
	t.Fatal("no secret-generic rule")
}

func checkWindows(t *testing.T, r *rule, s string) {
	t.Helper()
	want := r.re.FindAllStringSubmatchIndex(s, -1)
	got := r.matches(s)
	if len(got) != len(want) {
		t.Fatalf("%s: %q: windows found %v, the whole text %v", r.id, s, got, want)
	}
	for i := range want {
		for j := range want[i] {
			if got[i][j] != want[i][j] {
				t.Fatalf("%s: %q: windows found %v, the whole text %v", r.id, s, got, want)
			}
		}
	}
}

// The windows of the rules that match a word starting with "sk-" likewise.
func TestKeyWindowsMatchWholeText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		fakeOAI, fakeAnt, "task-" + fakeOAI[3:], "ask-" + fakeOAI + " and " + fakeAnt,
		"é" + fakeOAI + "é", "x" + fakeAnt, fakeOAI + fakeOAI, "sk-", "sk-sk-" + fakeAnt[3:],
	} {
		checkKeyWindows(t, s)
	}
}

func checkKeyWindows(t *testing.T, s string) {
	t.Helper()
	for i := range rules() {
		if r := &rules()[i]; r.windows != nil && r.id != "secret-generic" {
			checkWindows(t, r, s)
		}
	}
}

func FuzzKeyWindows(f *testing.F) {
	f.Add("ask-" + fakeOAI + " disk-" + fakeAnt)
	f.Fuzz(checkKeyWindows)
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
	got := gate().words.Find(s)
	for n, w := range gate().words.words {
		if want := strings.Contains(lower, w); want != (got&(1<<n) != 0) {
			t.Fatalf("%q: keyword %q found %v, in the lowered text %v", s, w, !want, want)
		}
	}
}

func FuzzKeywords(f *testing.F) {
	f.Add("The API KEY and the \u212aEY token sk-ANT-")
	f.Fuzz(checkKeywords)
}
