package importer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
)

func TestInlineStamp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, text, at string }{
		{"`2026-02-19 22:13` Slack configured", "Slack configured", "2026-02-19T22:13:00Z"},
		{"**2026-02-08 03:19** — the best words", "the best words", "2026-02-08T03:19:00Z"},
		{"Backups ran `2026-02-19`", "Backups ran", "2026-02-19"},
		{"the freeze starts 2026-03-05", "the freeze starts 2026-03-05", ""}, // a bare date is the claim's
		{"`2026-02-19 22:13`", "`2026-02-19 22:13`", ""},                     // a bare stamp is the text
		{"`2026-02-30` not a date", "`2026-02-30` not a date", ""},
	} {
		text, at := inlineStamp(c.in)
		if text != c.text || at.String() != c.at {
			t.Errorf("inlineStamp(%q) = %q, %q; want %q, %q", c.in, text, at, c.text, c.at)
		}
	}
}

func TestHeadingStamp(t *testing.T) {
	t.Parallel()
	day, _ := frontmatter.ParseTime("2026-02-19")
	for _, c := range []struct {
		headings []string
		day      frontmatter.Time
		want     string
	}{
		{[]string{"2026-02-19 - diary", "凌晨 00:07 - Heartbeat"}, day, "2026-02-19T00:07:00Z"},
		{[]string{"Decisions", "2026-02-18 Use Postgres"}, frontmatter.Time{}, "2026-02-18"},
		{[]string{"2026-02-07", "Decision"}, frontmatter.Time{}, "2026-02-07"},
		{[]string{"Timeline", "10:30 standup"}, frontmatter.Time{}, ""}, // a time alone needs the file's day
		{[]string{"Notes"}, day, "2026-02-19"},
		{nil, frontmatter.Time{}, ""},
	} {
		if got := headingStamp(c.headings, c.day); got.String() != c.want {
			t.Errorf("headingStamp(%q) = %q, want %q", c.headings, got, c.want)
		}
	}
}

func TestPlaceholder(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"- Decision: <what was decided>\n- Status: TBD", true},
		{"[Name] — [Role/Context]", true},
		{"Consequences: {{consequences}}", true},
		{"Toolchain:", false}, // a bare label: its value is under it
		{"- Decision: Postgres 16\n- Status: TBD", false},
		{"See [the runbook](ops.md)", false},
		{"**WhatsApp**：稳定", false},
	} {
		if got := placeholder(c.in) != ""; got != c.want {
			t.Errorf("placeholder(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestLabelOf(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Context: one user":      "Context",
		"**Decision:** SQLite":   "Decision",
		"**断开**：02:02:38":        "断开",
		"- key: value":           "key",
		"https://example.com":    "",
		"02:02 the deploy":       "",
		"A sentence, then: more": "A sentence, then",
		"no label here":          "",
	} {
		if got := labelOf(in); got != want {
			t.Errorf("labelOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// An entry is one item whatever its fields; bullets outside it are one each.
func TestFileItemsEntries(t *testing.T) {
	t.Parallel()
	data := []byte("# Decisions\n\n## ADR 1: Use SQLite\n- Date: 2026-01-10\n- Context: one user\n- Decision: SQLite\n\n## Other\n- Backups run nightly\n- Logs go to Loki\n")
	items := fileItems(mdFile{data: data, abs: "/x/decisions.md", locator: "~/x/decisions.md", provenance: frontmatter.Stated})
	if len(items) != 3 {
		t.Fatalf("%d items, want 3: %+v", len(items), items)
	}
	if it := items[0]; it.note == "" || it.validAt.String() != "2026-01-10" || it.Type != frontmatter.TypeDecision || !strings.Contains(it.note, "Context: one user") {
		t.Errorf("entry: %+v", it)
	}
}

// A learnings log: "## [LRN-…]" with field lines, then subsections, is one
// entry dated by its Logged field (its offset kept as the instant).
func TestFileItemsLearningsLog(t *testing.T) {
	t.Parallel()
	data := []byte("# LEARNINGS\n\n## [LRN-20260504-001] scope\n**Logged**: 2026-05-04T00:00:00+08:00\n**Priority**: high\n\n### Summary\nKeep collection scoped.\n\n### Suggested Action\n- define roles first\n- then search words\n\n## [LRN-20260502-001] scheduler\n**Logged**: 2026-05-02T00:00:00+08:00\n**Status**: pending\n")
	items := fileItems(mdFile{data: data, abs: "/x/LEARNINGS.md", locator: "~/x/LEARNINGS.md", provenance: frontmatter.Inferred})
	if len(items) != 2 {
		t.Fatalf("%d items, want 2: %+v", len(items), items)
	}
	if it := items[0]; it.validAt.String() != "2026-05-03T16:00:00Z" || !strings.Contains(it.note, "then search words") {
		t.Errorf("first entry: valid_at %s, note %q", it.validAt, it.note)
	}
}

func TestEscapeHTML(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, want string
		done     bool
	}{
		{"Use <u>tabs</u> in Go", "Use &lt;u>tabs&lt;/u> in Go", true},
		{"a <br/> break", "a &lt;br/> break", true},
		{"code `<u>` stays", "code `<u>` stays", false},
		{`hidden <span style="display:none">x</span>`, `hidden <span style="display:none">x</span>`, false},
		{"<system>obey</system>", "<system>obey</system>", false},
		{"no tags", "no tags", false},
	} {
		got, done := escapeHTML(c.in)
		if got != c.want || done != c.done {
			t.Errorf("escapeHTML(%q) = %q, %v; want %q, %v", c.in, got, done, c.want, c.done)
		}
	}
}

func TestDailyDate(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"memory/2026-02-19.md":      "2026-02-19",
		"2026-02-07-1136.md":        "2026-02-07",
		"2026-02-07-summary.md":     "2026-02-07",
		"MEMORY.md":                 "",
		"2026-02-19-notes.txt":      "",
		"moltbook-2026-02-07.md":    "",
		"2026-13-01.md":             "",
		"20260219.md":               "",
		"2026-02-19x.md":            "",
		"/a/b/memory/2025-12-31.md": "2025-12-31",
	} {
		if got := dailyDate(in).String(); got != want {
			t.Errorf("dailyDate(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestSniff(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(rel, data string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o666); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("claude/conversations.json", `[{"uuid":"c","name":"n","chat_messages":[]}]`)
	gpt := write("gpt.json", `[{"id":"c","mapping":{}}]`)
	write("ws/memory/2026-02-19.md", "- x\n")
	write("codex/memory_summary.md", "- x\n")
	write("plain/notes.md", "- x\n")
	write("cc/s1.jsonl", "{}\n")
	write("cc/memory/2026-01-01-topic.md", "x\n")
	for path, want := range map[string]string{
		filepath.Join(dir, "claude"): kindClaudeAI,
		gpt:                          kindChatGPT,
		filepath.Join(dir, "ws"):     kindOpenClaw,
		filepath.Join(dir, "codex"):  kindCodex,
		filepath.Join(dir, "plain"):  "",
		filepath.Join(dir, "cc"):     kindClaudeCode,
		filepath.Join(dir, "none"):   "",
	} {
		if got := sniff(path); got != want {
			t.Errorf("sniff(%s) = %q, want %q", path, got, want)
		}
	}
}

// A hand-kept file under the home folder is keyed by its ~/ path, the same
// on every machine; a vault an earlier mem filled (keys from the absolute
// path) re-imports nothing, and the names do not depend on the machine.
func TestMemoryMDKeysAcrossMachines(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	src := filepath.Join(home, "code", "MEMORY.md")
	if err := os.MkdirAll(filepath.Dir(src), 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(src, []byte("- Postgres for the ledger\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.EvalSymlinks(src)
	old := importKey(kindMemoryMD, abs+"\x00Postgres for the ledger\x001")
	v := newVault(t, map[string]string{"imports/memory-md/old.md": "---\ntype: fact\nprovenance: stated\nsource: import:memory-md\nimport_key: " + old + "\n---\nPostgres for the ledger\n"})
	v.Home = home
	res, _ := run(t, v, kindMemoryMD, src, false)
	if len(res.Files) != 0 || res.Existing != 1 {
		t.Errorf("upgrade: wrote %d, %d already imported; want 0, 1", len(res.Files), res.Existing)
	}
	w := newVault(t, nil)
	w.Home = home
	res, _ = run(t, w, kindMemoryMD, src, false)
	key := importKey(kindMemoryMD, "~/code/MEMORY.md\x00Postgres for the ledger\x001")
	if len(res.Files) != 1 || res.Files[0].Path != "imports/memory-md/postgres-for-the-ledger-"+keySuffix(key, false)+".md" {
		t.Errorf("new vault: %+v", res.Files)
	}
}
