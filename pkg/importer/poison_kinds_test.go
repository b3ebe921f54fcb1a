package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/poison"
)

// writtenText is every file the import wrote, concatenated.
func writtenText(t *testing.T, dir string, res *Result) string {
	t.Helper()
	var b strings.Builder
	for _, f := range res.Files {
		data, err := os.ReadFile(filepath.Join(dir, f.Path))
		if err != nil {
			t.Fatal(err)
		}
		b.Write(data)
	}
	return b.String()
}

// The poisoning suite through the other two importers: a payload in a
// ChatGPT conversation or a Claude Code transcript is refused as an item,
// reported, and never written; a secret likewise, never echoed.
func TestChatGPTAndClaudeCodeRefusePoison(t *testing.T) {
	t.Parallel()
	type payload struct{ name, text, rule string }
	var payloads []payload
	for _, in := range poison.Injections {
		payloads = append(payloads, payload{in.Name, in.Line, ""})
	}
	for _, s := range poison.Secrets {
		payloads = append(payloads, payload{s.Rule, "The deploy key is " + s.Value + " for now", s.Rule})
	}
	for _, p := range payloads {
		quoted, _ := json.Marshal(p.text)
		sources := map[string]func(dir string) string{
			kindChatGPT: func(dir string) string {
				src := filepath.Join(dir, "conversations.json")
				conv := `[{"id":"c1","title":"Deploy notes","create_time":1700000000,"mapping":{"u":{"message":{"author":{"role":"user"},"content":{"parts":[` + string(quoted) + `]}}}}}]`
				os.WriteFile(src, []byte(conv), 0o644)
				return src
			},
			kindClaudeCode: func(dir string) string {
				proj := filepath.Join(dir, "projects", "-home-dev-app")
				os.MkdirAll(proj, 0o755)
				line := `{"type":"user","message":{"role":"user","content":` + string(quoted) + `},"cwd":"/home/dev/app","sessionId":"s1","uuid":"u1","timestamp":"2024-05-05T21:00:00Z"}` + "\n"
				os.WriteFile(filepath.Join(proj, "11111111-aaaa-4bbb-8ccc-000000000001.jsonl"), []byte(line), 0o644)
				return proj
			},
		}
		for kind, source := range sources {
			v := newVault(t, nil)
			res, err := Run(v, kind, source(t.TempDir()), Options{Now: testNow})
			if err != nil {
				t.Fatalf("%s/%s: %v", kind, p.name, err)
			}
			if len(res.Refused) == 0 {
				t.Errorf("%s/%s: nothing refused", kind, p.name)
			}
			if p.rule != "" && len(res.Refused) > 0 && res.Refused[0].Rule != p.rule {
				t.Errorf("%s/%s: refused by %s, want %s", kind, p.name, res.Refused[0].Rule, p.rule)
			}
			if got := writtenText(t, v.Root, res); strings.Contains(got, p.text) {
				t.Errorf("%s/%s: the payload was written:\n%s", kind, p.name, got)
			}
			for _, r := range res.Refused {
				if p.rule != "" && strings.Contains(r.String(), strings.Fields(p.text)[4]) {
					t.Errorf("%s/%s: the report echoes the secret: %s", kind, p.name, r)
				}
			}
		}
	}
}
