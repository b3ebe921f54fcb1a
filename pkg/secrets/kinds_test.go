package secrets

import (
	"encoding/base32"
	"encoding/hex"
	"strings"
	"testing"
)

// Each kind of issue 29 with a true and a false example (fakes assembled at
// run time), each key glued to a word, and each encoding.
func TestKindsTrueAndFalse(t *testing.T) {
	t.Parallel()
	hex32 := "9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	for _, c := range []struct{ name, text, want string }{
		{"postgres url", "DATABASE_URL=postgres://app:" + "Xq7vR2pL@db.internal:5432/prod", "secret-url-password"},
		{"mysql url", "mysql://root:" + "hunter2@10.0.0.5/shop", "secret-url-password"},
		{"mongodb url", "mongodb+srv://svc:" + "p4ssW0rd@cluster0.mongodb.net/", "secret-url-password"},
		{"redis url", "redis://default:" + "S3cr3tz@cache:6379", "secret-url-password"},
		{"https userinfo", "clone https://user:" + "pass@git.example.com/r.git", "secret-url-password"},
		{"url without password", "postgres://app@db.internal:5432/prod", ""},
		{"url with a variable", "postgres://app:${PGPASSWORD}@db/prod", ""},
		{"url with a port only", "see https://example.com:8443/path@v2", ""},
		{"password in prose", "the staging password is " + "hunter2", "secret-password"},
		{"env password", "DB_PASSWORD=" + "s3cret!", "secret-password"},
		{"password word", "the password is stored in the team vault", ""},
		{"password variable", "PASSWORD=${DB_PASSWORD}", ""},
		{"password code", `password = os.Getenv("DB_PASSWORD")`, ""},
		{"azure sas placeholder", "append &sig=<signature> to the URL", ""},
		{"slack app token", "xapp-1-A0" + "1B2C3D4E5-1234567890123-9f8e7d6c5b4a39281706f5e4d3c2b1a0", "secret-slack-app-token"},
		{"slack app word", "the xapp-level token lives in 1Password", ""},
		{"stripe webhook short", "prefix whsec_ then the secret", ""},
		{"gitlab runner", "glrt-" + "x7Kq2Lm9Vt4Rw8Zp1Nc6Yb", "secret-gitlab-runner-authentication-token"},
		{"gitlab runner word", "register with glrt-<token>", ""},
		{"twilio", "SK" + hex32, "secret-twilio-api-key"},
		{"twilio short", "SK1234 is a part number", ""},
		{"mailgun word", "a key-value store", ""},
		{"databricks", "dapi" + hex32, "secret-databricks-api-token"},
		{"databricks word", "the dapi prefix marks a token", ""},
		{"discord sentence", "And then. Then a second sentence. Not a token.", ""},
		{"age", "AGE-SECRET-KEY-1" + "QYPZRY9X8GF2TVDW0S3JN54KHCE6MUA7LQPZRY9X8GF2TVDW0S3JN54KHC", "secret-age-secret-key"},
		{"age public", "age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p", ""},
		{"identifier is not a secret", `persistenceKey: "samguk-network-v1"`, ""},
		{"identifier with a version", `cache_key = "release_2024_q3_build"`, ""},

		{"glued aws", "key" + fakeAWS, "secret-aws-access-token"},
		{"glued github", "token" + fakeGH, "secret-github-pat"},
		{"glued stripe", "my" + "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "secret-stripe-access-token"},
		{"glued jwt", "x" + fakeJWT, "secret-jwt"},
		{"glued slack", "bot" + "xoxb-2931847561-4820193847-Qm8RtZkLw2Xp9Vn4Bc7Hs1Jd", "secret-slack-bot-token"},
		{"glued split key", "key" + fakeAWS[:8] + " " + fakeAWS[8:12] + " " + fakeAWS[12:16] + " " + fakeAWS[16:], "secret-aws-access-token"},
		{"task and a hash", "task-3f786850e387550fdab836ed7e6dc881de23001b3f786850", ""},
		{"a word holding a prefix", "Czechoslovakia and Eurasiaandafricaregion", ""},

		{"hex", "blob " + hex.EncodeToString([]byte("id "+fakeAWS)), "secret-aws-access-token"},
		{"base32", "blob " + base32.StdEncoding.EncodeToString([]byte("id "+fakeAWS)), "secret-aws-access-token"},
		{"concatenation", `k = "` + fakeAWS[:8] + `" + "` + fakeAWS[8:] + `"`, "secret-aws-access-token"},
		{"one-character groups", "k " + strings.Join(strings.Split(fakeAWS, ""), " "), "secret-aws-access-token"},
		{"one-character hyphens", "k " + strings.Join(strings.Split(fakeAWS, ""), "-"), "secret-aws-access-token"},
		{"cherokee look-alikes", "\u13aa\u13e6I\u13aa" + fakeAWS[4:], "secret-aws-access-token"},
		{"a sha in hex is binary", "3f786850e387550fdab836ed7e6dc881de23001b", ""},
		{"prose with one-letter words", "a b c d e f g h i j k l m n o p q r s t u v w x y z", ""},
	} {
		got := Find(c.text)
		switch {
		case c.want == "" && len(got) > 0:
			t.Errorf("%s: %q: found %s, want nothing", c.name, c.text, got[0].Rule)
		case c.want != "" && (len(got) == 0 || got[0].Rule != c.want):
			t.Errorf("%s: %q: found %+v, want %s", c.name, c.text, got, c.want)
		case c.want != "" && (has(Redact(c.text)) || Redact(c.text) == c.text):
			t.Errorf("%s: Redact left the secret in %q", c.name, Redact(c.text))
		}
	}
}

// A key split between a field and the body is found, as two hits, and
// redacting it keeps the frontmatter's lines.
func TestSeam(t *testing.T) {
	t.Parallel()
	text := "---\ntype: fact\ntitle: deploy " + fakeAWS[:10] + "\n---\n" + fakeAWS[10:] + " is the rest\n"
	got := Find(text)
	if len(got) != 2 || got[0].Rule != "secret-aws-access-token" || text[got[0].Start:got[0].End] != fakeAWS[:10] || text[got[1].Start:got[1].End] != fakeAWS[10:] {
		t.Fatalf("Find = %+v", got)
	}
	if r := Redact(text); has(r) || !strings.Contains(r, "\n---\n") || strings.Contains(r, fakeAWS[10:]) {
		t.Errorf("Redact = %q", r)
	}
	for _, clean := range []string{
		"---\ntype: fact\ntitle: Release 2026\n---\nV2 ships in May\n",
		"---\ntype: fact\nid: abc123\n---\nKeep it short\n",
	} {
		if got := Find(clean); len(got) > 0 {
			t.Errorf("%q: found %+v", clean, got)
		}
	}
}

// A key split between a word of a field (an alias, a tag) and a word of
// the body, in either order and wherever the word is, is found as two
// hits; prose and mem's own fields are not.
func TestSeamPairs(t *testing.T) {
	t.Parallel()
	const a, b = "ghp_R8s2Kd9mXq4Lw7Zp", "1Nv6Bt3Hc5Yj0Fg8Ua2E"
	head := "---\nid: memory/the-deploy-token-f4838a\ntype: fact\nprovenance: stated\nvalid_at: 2026-12-06T09:18:27Z\n"
	tail := "generated:\n  by: process:t\n  at: 2026-12-06T09:18:27Z\n---\n"
	for _, c := range []struct{ text, field, body string }{
		{head + "aliases:\n  - " + b + "\n" + tail + "the deploy token is " + a + "\n", b, a},
		{head + "tags:\n  - " + b + "\n" + tail + "the CI token is " + a + "\n", b, a},
		{head + "aliases:\n  - " + a + "\n" + tail + "the build token ends with " + b + ", as CI says\n", a, b},
	} {
		got := Find(c.text)
		if len(got) != 2 || got[0].Rule != "secret-github-pat" || c.text[got[0].Start:got[0].End] != c.field || c.text[got[1].Start:got[1].End] != c.body {
			t.Errorf("%q: Find = %+v", c.text, got)
		}
		if r := Redact(c.text); has(r) || strings.Contains(r, c.field) || strings.Contains(r, c.body) {
			t.Errorf("Redact = %q", r)
		}
	}
	for _, clean := range []string{
		head + "aliases:\n  - deploy token v2\n" + tail + "The deploy token rotates every 90 days; commit 3f786850e387550fdab836ed7e6dc881de23001b.\n",
		head + "tags:\n  - api-v2\n" + tail + "Use the API key from the vault (key id K1a2B3c4D5).\n",
	} {
		if got := Find(clean); len(got) > 0 {
			t.Errorf("%q: found %+v", clean, got)
		}
	}
}
