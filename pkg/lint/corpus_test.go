package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// Fake secrets and invisible characters are spliced into the corpus at test
// time, so the repository holds no string a secret scanner would flag and
// no character a reviewer cannot see.
var placeholders = strings.NewReplacer(
	"{{AWS}}", "AKIA"+"Q3ZRTV5WX7HJ2LNB",
	"{{GITHUB}}", "ghp"+"_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
	// The shapes gitleaks' rules hold: 93 characters between the Anthropic
	// prefix and AA, OpenAI's T3BlbkFJ between two 58-character halves, two
	// runs of digits in a Slack bot token.
	"{{ANTHROPIC}}", "sk-"+"ant-api03-"+strings.Repeat("q8Zr2LmV9xT4bN7cK1pW6yH3sD5fG0jA8uE2iO4k", 3)[:93]+"AA",
	"{{OPENAI}}", "sk-"+"proj-"+strings.Repeat("q8Zr2LmV9xT4bN7cK1pW6yH3sD5fG0jA8uE2iO4k", 2)[:58]+"T3Blbk"+"FJ"+strings.Repeat("Hc7Wq2Zr5Lp8dN3vB6mX1", 3)[:58],
	"{{SLACK}}", "xox"+"b-2748392011-4820193746-8Hc7Wq2Zr5Lp",
	"{{PEM}}", "-----BEGIN "+"RSA PRIVATE KEY-----",
	"{{RLO}}", "\u202E",
	"{{ZWSP}}", "\u200B",
	"{{TAG}}", "\U000E0069\U000E0067\U000E006E",
	"{{B64}}", strings.Repeat("QmFzZTY0IGhpZGVzIHRleHQgZnJvbSBhIHJlYWRlcg", 3),
	"{{NUL}}", "\x00",
	"{{OSC52}}", "\x1b]52;c;Y3VybCB4fHNo\a",
	"{{CSI}}", "\u009b2J",
	"{{BAD_UTF8}}", "\xff\xfe",
	"{{BOM}}", "\uFEFF",
	"{{BIG}}", strings.Repeat("a long line of text\n", 60000),
)

// corpusVault copies testdata/corpus into a temporary vault, expanding
// the placeholders, writing CRLF line endings into files named *crlf*, and
// adding a symbolic link that leaves the vault.
func corpusVault(t testing.TB) *vault.Vault {
	t.Helper()
	dir := t.TempDir()
	root := filepath.Join(dir, "vault")
	err := filepath.WalkDir("testdata/corpus", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		s := placeholders.Replace(string(data))
		if strings.Contains(p, "crlf") {
			s = strings.ReplaceAll(s, "\n", "\r\n")
		}
		rel, _ := filepath.Rel("testdata/corpus", p)
		out := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, []byte(s), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(dir, "outside.md")
	if err := os.WriteFile(outside, []byte("---\ntype: note\n---\nOutside.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "bad", "symlink-out.md")); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// got renders a report as path → sorted "line:col severity rule" lines.
func byFile(rep *Report) map[string][]string {
	out := map[string][]string{}
	for _, p := range rep.Problems {
		out[p.Path] = append(out[p.Path], strings.Join([]string{itoa(p.Line) + ":" + itoa(p.Column), string(p.Severity), p.Rule}, " "))
	}
	for _, l := range out {
		sort.Strings(l)
	}
	return out
}

func itoa(n int) string { return strconv.Itoa(n) }

// expected lists, for every file of the corpus, the exact problems as
// "line:col severity rule". bad/ files are malformed (property-type-a and
// -b set up the majority type that property-type-c breaks); good/ files and
// the vault's own index.md, log.md and project note are tricky but valid.
var expected = map[string][]string{
	"bad/actor-malformed.md":           {"5:1 error actor-malformed"},
	"bad/alias-bomb.md":                {"5:5 error frontmatter-alias"},
	"bad/bad-utf8.md":                  {"5:1 error file-encoding"},
	"bad/base64.md":                    {"5:7 warning base64-blob"},
	"bad/bidi.md":                      {"6:14 error unicode-bidi"},
	"bad/control.md":                   {"6:8 error control-character"},
	"bad/control-c1.md":                {"6:8 error control-character"},
	"bad/binary.md":                    {"1:1 error file-binary"},
	"bad/nul-stray.md":                 {"4:8 warning file-nul"},
	"bad/citations-legacy.md":          {"7:3 warning citations-legacy"},
	"bad/computation-incomplete.md":    {"2:1 warning attested-computation-incomplete"},
	"good/computation.md":              nil,
	"bad/date-invalid.md":              {"4:11 error date-invalid"},
	"bad/dup-id-a.md":                  {"5:1 error id-duplicate"},
	"bad/dup-id-b.md":                  {"5:1 error id-duplicate"},
	"bad/duplicate-key.md":             {"4:1 error key-duplicate"},
	"bad/footnote-unmatched.md":        {"6:38 warning footnote-unmatched"},
	"bad/generated-missing-by.md":      {"5:1 warning generated-missing-by"},
	"bad/html-comment.md":              {"6:12 error hidden-comment"},
	"bad/importance-range.md":          {"5:13 error importance-range"},
	"bad/importance-text.md":           {"5:13 error importance-range"},
	"bad/index-dir/index.md":           {"2:1 error index-malformed"},
	"bad/injection-override.md":        {"6:1 error injection-override"},
	"bad/injection-role.md":            {"5:1 warning injection-role"},
	"bad/injection-tag.md":             {"6:16 error injection-html", "6:16 error injection-role"},
	"bad/invalid-before-valid.md":      {"5:1 error date-order"},
	"bad/key-typo-other-tools.md":      {"9:1 warning key-typo"},
	"bad/key-typo.md":                  {"2:1 warning valid-at-missing", "4:1 warning key-typo"},
	"bad/lesson-imperative.md":         {"6:1 error lesson-imperative"},
	"bad/link-broken.md":               {"4:5 warning link-broken"},
	"bad/link-outside.md":              {"4:21 warning link-broken"},
	"bad/log-dir/log.md":               {"6:1 error log-malformed", "9:1 warning log-malformed"},
	"bad/no-frontmatter.md":            {"1:1 warning frontmatter-missing"},
	"bad/not-a-map.md":                 {"2:1 error frontmatter-yaml"},
	"bad/obsidian-comment.md":          {"5:15 warning hidden-comment"},
	"bad/project-bad-id.md":            {"1:1 warning project-id-shape"},
	"bad/project-empty.md":             {"5:1 error project-shape"},
	"bad/project-no-roots.md":          {"3:1 warning project-roots-missing"},
	"bad/project-shape.md":             {"5:1 error project-shape"},
	"bad/project-unknown.md":           {"5:1 error project-unknown"},
	"bad/property-type-a.md":           nil,
	"bad/property-type-b.md":           nil,
	"bad/property-type-c.md":           {"3:1 warning obsidian-property-type"},
	"bad/provenance-enum.md":           {"3:1 error provenance-enum"},
	"bad/provenance-missing.md":        {"2:1 error provenance-missing"},
	"bad/rule-ungated.md":              {"2:1 error gate-unearned"},
	"bad/same-name.md":                 {"1:1 warning obsidian-duplicate-basename"},
	"bad/secret-anthropic.md":          {"6:6 error secret-anthropic-api-key"},
	"bad/secret-aws.md":                {"6:19 error secret-aws-access-token"},
	"bad/secret-generic.md":            {"6:27 error secret-hashicorp-tf-password"},
	"bad/secret-github.md":             {"6:9 error secret-github-pat"},
	"bad/secret-openai.md":             {"6:16 error secret-openai-api-key"},
	"bad/secret-private-key.md":        {"7:1 error secret-private-key"},
	"bad/secret-slack.md":              {"6:18 error secret-slack-bot-token"},
	"bad/section-enum.md":              {"6:1 error section-enum"},
	"bad/stale-after-date.md":          {"5:1 warning stale-after-date"},
	"bad/stale-after-garbage.md":       {"5:14 error stale-after-invalid"},
	"bad/stale-before-valid.md":        {"5:1 error date-order", "5:1 warning stale"},
	"bad/stale.md":                     {"5:1 warning stale"},
	"bad/status-invalid.md":            {"5:1 error status-invalid"},
	"bad/sub/same-name.md":             {"1:1 warning obsidian-duplicate-basename"},
	"bad/supersedes-backwards.md":      {"5:1 error supersedes-backwards"},
	"bad/supersedes-weaker.md":         {"5:1 error supersedes-weaker"},
	"bad/supersedes-unknown.md":        {"5:1 warning supersedes-unknown"},
	"bad/symlink-out.md":               {"1:1 error link-outside-vault"},
	"bad/timestamp-legacy.md":          {"3:1 warning timestamp-legacy"},
	"bad/too-large.md":                 {"1:1 error file-too-large"},
	"bad/too-long.md":                  {"6:1 warning memory-too-long"},
	"bad/type-empty.md":                {"2:1 error type-missing"},
	"bad/type-list.md":                 {"2:7 warning key-type"},
	"bad/type-missing.md":              {"1:1 error type-missing"},
	"bad/type-unknown.md":              {"2:1 warning type-enum"},
	"bad/unicode-tag.md":               {"6:11 error unicode-tag"},
	"bad/unquoted-link.md":             {"3:6 warning obsidian-link-unquoted"},
	"bad/unterminated.md":              {"1:1 error frontmatter-unterminated"},
	"bad/valid-at-missing.md":          {"2:1 warning valid-at-missing"},
	"good/verified-before-creation.md": nil,
	"bad/yaml-error.md":                {"3:1 error frontmatter-yaml"},
	"bad/zero-width.md":                {"6:9 error unicode-invisible"},
	"bad/valid-at-future.md":           {"4:1 error valid-at-future"},
	"good/bom.md":                      nil,
	"good/code-block.md":               nil,
	"good/correction-stated.md":        nil,
	"good/crlf-lines.md":               nil,
	"good/dates-obsidian.md":           nil,
	"good/okf-type.md":                 nil,
	"good/stale-after-datetime.md":     nil,
	"good/empty-body.md":               nil,
	"good/lesson-as-data.md":           nil,
	"good/links-ok.md":                 nil,
	"good/obsidian-keys.md":            nil,
	"good/project-scoped.md":           nil,
	"good/rule-gated.md":               nil,
	"good/secret-lookalikes.md":        nil,
	"good/supersedes-ok.md":            nil,
	"good/unicode-title.md":            nil,
	"good/verified.md":                 nil,
	"good/yaml-alias.md":               nil,
	"index.md":                         nil,
	"log.md":                           nil,
	"projects/mem.md":                  nil,
}

func TestCorpus(t *testing.T) {
	v := corpusVault(t)
	rep, err := Run(v, Options{Now: testNow})
	if err != nil {
		t.Fatal(err)
	}
	got := byFile(rep)
	rels, err := v.List()
	if err != nil {
		t.Fatal(err)
	}
	if rep.Files != len(rels) {
		t.Errorf("Files = %d, want %d", rep.Files, len(rels))
	}
	bad, good := 0, 0
	for _, rel := range rels {
		want, ok := expected[rel]
		if !ok {
			t.Errorf("%s: not in the expected table; add it", rel)
			continue
		}
		if strings.Join(got[rel], "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n got  %q\n want %q", rel, got[rel], want)
		}
		switch {
		case strings.HasPrefix(rel, "bad/") && len(want) > 0:
			bad++
		case !strings.HasPrefix(rel, "bad/") && len(want) == 0:
			good++
		}
	}
	for rel := range expected {
		if _, ok := got[rel]; !ok && len(expected[rel]) > 0 {
			t.Errorf("%s: expected problems, found none (or the file is gone)", rel)
		}
	}
	if bad < 40 || good < 10 {
		t.Errorf("corpus has %d malformed and %d valid files; the acceptance asks for at least 40 and 10", bad, good)
	}
}
