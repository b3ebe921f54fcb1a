package secrets

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// Keys that a word glued to them, an '&' after them in a URL's query, or a
// line break between pieces that look like words hid from every regexp
// before (gitleaks' own true positives, in the forms scripts/secrets
// writes them; assembled at run time).
var (
	teamsHook = func(group string) string {
		return "https://mycompany.webhook.office.com/webhookb2/s7llrzcp-4djy-j4mm-" + group +
			"n4dvhu4g8nl0@ow27kxcx-xykp-gohy-2849-478ltsqs18yk/IncomingWebhook/orm1fleb8mx4v7prdvn7lfyx7z44t0c7/ftzrc2ww-ar2b-ebu8-6od5-tm6229x74hhf"
	}
	sidekiq    = "cafe" + "babe:dead" + "beef"
	genericKey = "LV8KvABsQR2V" + "gn7swd2P6BvaNcbn4r"
)

func TestGluedSplitAndQueriedKeysAreFound(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, text, rule, secret string
	}{
		{"a word inside a webhook's group", teamsHook("deploytrko-"), "secret-microsoft-teams-webhook", "deploytrko-"},
		{"a word after a webhook's group", teamsHook("trko-now"), "secret-microsoft-teams-webhook", "trko-now"},
		{"a word before a key that looks like words", `BUNDLE_GEMS__CONTRIBSYS__COM: "deploy` + sidekiq + `"`, "secret-sidekiq-secret", "deploy" + sidekiq},
		{"a word after a key that looks like words", `BUNDLE_GEMS__CONTRIBSYS__COM: "` + sidekiq + `now"`, "secret-sidekiq-secret", sidekiq + "now"},
		{"a word before the quote a rule takes", `curl -u deploy":d2LkV78z` + `Lx!t" https://localhost:9200`, "secret-curl-auth-user", `deploy":d2LkV78zLx!t"`},
		{"a word after base64's padding", `curl -H 'Authorization: Basic YnJvd3` + `Nlcjo=now' \`, "secret-curl-auth-header", "YnJvd3Nlcjo=now"},
		{"a stop word glued to a generic value", "creds = deploy" + genericKey, "secret-generic-api-key", "deploy" + genericKey},
		{"a generic value ended by '&' in a query", "see https://example.com/cb?next=creds%20%3D%20" + genericKey + "&v=1", "secret-generic-api-key", genericKey},
		{"a key that looks like words, wrapped after its name", `BUNDLE_GEMS__CONTRIBSYS__COM: "cafebabe` + "\n" + `:deadbeef"`, "secret-sidekiq-secret", "cafebabe\n:deadbeef"},
		{"a URL wrapped before the line with its keyword", "http://cafebabe\n:deadbeef@gems.contribsys.com", "secret-sidekiq-sensitive-url", "cafebabe\n:deadbeef"},
		{"a generic value wrapped after its name", "creds = 7g9Qy7ILJPK7cnn\ncvBNWr4NtL3M8SK", "secret-generic-api-key", "7g9Qy7ILJPK7cnn\ncvBNWr4NtL3M8SK"},
	} {
		found := Find(c.text)
		if len(found) != 1 || found[0].Rule != c.rule {
			t.Errorf("%s: Find(%q) = %+v, want one %s", c.name, c.text, found, c.rule)
			continue
		}
		checkSpans(t, c.text, found)
		// The hit covers the secret (for a URL's, the part the rule
		// names; for a query's, once decoded, the escaped text).
		at := strings.Index(c.text, c.secret)
		if got := c.text[found[0].Start:found[0].End]; at < 0 || found[0].Start > at || found[0].End < at+len(c.secret) {
			t.Errorf("%s: the hit is %q, want it to cover %q", c.name, got, c.secret)
		}
		if r := Redact(c.text); strings.Contains(r, c.secret) || len(Find(r)) > 0 {
			t.Errorf("%s: Redact = %q", c.name, r)
		}
	}
}

// What the passes must not take: prose and names with words glued
// together, an '&' outside a URL's query, and two lines of words whose
// keyword does not point at the break.
func TestGluedSplitAndQueriedNonKeys(t *testing.T) {
	t.Parallel()
	for _, text := range []string{
		"token = deploymentConfiguration",
		"creds = deployment_settings_v2",
		`persistenceKey: "samguk-network-v1"`,
		"api_key: configurationManagerV2 is read at start",
		"see https://example.com/cb?next=creds%20%3D%20hello-world&v=1",
		"creds = " + genericKey[:6] + "&v=1",
		"see https://example.com/webhookb2/docs?page=incomingwebhook&lang=en",
		"BUNDLE_GEMS__CONTRIBSYS__COM is set in\nthe config of the gem server",
		"BUNDLE_GEMS__CONTRIBSYS__COM: \"cafebabe\nand then the rest\"",
		"curl -u deploy:changeme https://localhost:9200",
		"curl -u deploy:changemenow https://localhost:9200",
		"curl -H 'Authorization: Basic {{token}}now' https://example.com",
	} {
		if found := Find(text); len(found) > 0 {
			t.Errorf("Find(%q) = %+v, want nothing", text, found)
		}
	}
	// An '&' ends a generic value in a URL's query only: outside one the
	// value must end as gitleaks' rule says.
	if found := Find("creds = " + genericKey + "&v=1"); len(found) > 0 {
		t.Errorf("an '&' outside a URL's query ended a generic value: %+v", found)
	}
}

func TestGluedWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		text string
		want []string
	}{
		// A token of 10 bytes or more that is not a word: lower-case
		// runs of 3 to 12 letters at an end of a run of letters and
		// digits, with more of the token on the other side.
		{`deploy":d2LkV78zLx!t"`, []string{"deploy", "dep", "depl", "deplo", "loy", "ploy", "eploy"}},
		{"YnJvd3Nlcjo=now'", []string{"cjo", "lcjo", "now"}},
		{"abcAB1", nil},         // too short a token
		{"configuration.", nil}, // a word
		{"the key is stored in the vault", nil},
		{"Xy1abcdefghijklmnopq", []string{"opq", "nopq", "mnopq", "lmnopq", "klmnopq", "jklmnopq", "ijklmnopq", "hijklmnopq", "ghijklmnopq", "fghijklmnopq"}},
	} {
		var got []string
		gluedWords(c.text, anyToken, func(a, b int) bool { got = append(got, c.text[a:b]); return true })
		slices.Sort(got)
		slices.Sort(c.want)
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("gluedWords(%q) = %q, want %q", c.text, got, c.want)
		}
	}
	// fn stops the walk.
	n := 0
	gluedWords("Xy1abcdefghijklmnopq deploy\":d2LkV78zLx!t\"", anyToken, func(int, int) bool { n++; return n < 3 })
	if n != 3 {
		t.Errorf("gluedWords went on after fn returned false: %d calls", n)
	}
}

func TestInURLQuery(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]bool{
		"https://example.com/cb?next=creds = X": true,
		"https://example.com/cb?a=1&b=X":        true,
		"https://example.com/cb X":              false, // no query
		"see ?next=X":                           false, // no URL
		"https://example.com/a b?next=X":        false, // a blank before the '?'
		"https://example.com/?a\nnext=X":        false, // the query was on the line before
	} {
		if got := inURLQuery(text, strings.LastIndexByte(text, 'X')); got != want {
			t.Errorf("inURLQuery(%q) = %v, want %v", text, got, want)
		}
	}
	re := inQuery(`(?i)(?:key)=([\w]{10,})(?:[\x60'"\s;]|\\[nr]|$)`)
	if m := re.FindStringSubmatch("key=abcdefghij12&v=1"); m == nil || m[1] != "abcdefghij12" {
		t.Errorf("inQuery's regexp does not end the value at '&': %q", m)
	}
}

func anyToken(int, int) bool { return true }
