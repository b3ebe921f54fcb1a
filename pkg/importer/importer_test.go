package importer

import (
	"archive/zip"
	"errors"
	"fmt"
	"github.com/mem-md/mem/pkg/fail"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// newVault makes an empty vault, with the given files written into it.
func newVault(t *testing.T, files map[string]string) *vault.Vault {
	t.Helper()
	dir := t.TempDir()
	if _, err := vault.Init(dir, nil); err != nil {
		t.Fatal(err)
	}
	for rel, data := range files {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	v, err := vault.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// run imports and fails the test on error; warnings are returned.
func run(t *testing.T, v *vault.Vault, kind, src string, dry bool) (*Result, []string) {
	t.Helper()
	var warns []string
	res, err := Run(v, kind, src, Options{DryRun: dry, Now: testNow, Warn: func(s string) { warns = append(warns, s) }})
	if err != nil {
		t.Fatalf("Run(%s, %s): %v", kind, src, err)
	}
	return res, warns
}

// imported loads the vault's imported files, keyed by summary (notes by title).
func imported(t *testing.T, v *vault.Vault) map[string]*vault.Memory {
	t.Helper()
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*vault.Memory{}
	for _, m := range mems {
		if !strings.HasPrefix(m.Meta().Source, "import:") {
			continue
		}
		if !m.OK() {
			t.Fatalf("%s does not parse: %v", m.Rel, m.Err)
		}
		if len(m.Doc.Problems) > 0 {
			t.Errorf("%s: frontmatter problems %+v", m.Rel, m.Doc.Problems)
		}
		key := m.Summary()
		if m.Meta().Type == frontmatter.TypeNote {
			key = "note: " + m.Meta().Title
		}
		if _, dup := out[key]; dup {
			t.Errorf("two imported files say %q", key)
		}
		out[key] = m
	}
	return out
}

func mustGet(t *testing.T, got map[string]*vault.Memory, key string) *frontmatter.Meta {
	t.Helper()
	m, ok := got[key]
	if !ok {
		t.Fatalf("no imported file %q; have %q", key, sortedKeys(got))
	}
	return m.Meta()
}

// checkCommon asserts what every imported file carries.
func checkCommon(t *testing.T, got map[string]*vault.Memory, kind string) {
	t.Helper()
	for key, m := range got {
		meta := m.Meta()
		if meta.Source != "import:"+kind {
			t.Errorf("%q: source %q, want import:%s", key, meta.Source, kind)
		}
		if meta.Generated == nil || meta.Generated.By != vault.Producer() || !meta.Generated.At.Equal(testNow) {
			t.Errorf("%q: generated %+v, want by %s at the import time", key, meta.Generated, vault.Producer())
		}
		if len(meta.Sources) != 1 || meta.Sources[0].Resource == "" {
			t.Errorf("%q: sources %+v, want one entry naming the original file", key, meta.Sources)
		}
		if !meta.ValidAt.IsZero() && !meta.ValidAt.Before(testNow.AddDate(0, 0, -300)) {
			t.Errorf("%q: valid_at %s is near the import time", key, meta.ValidAt)
		}
		if meta.Type != frontmatter.TypeNote && !frontmatter.IsMemoryType(meta.Type) {
			t.Errorf("%q: type %q", key, meta.Type)
		}
		if frontmatter.IsMemoryType(meta.Type) && frontmatter.ProvenanceRank(meta.Provenance) == 0 {
			t.Errorf("%q: provenance %q", key, meta.Provenance)
		}
		if !strings.HasPrefix(m.Rel, "imports/"+kind+"/") {
			t.Errorf("%q written to %s, want under imports/%s/", key, m.Rel, kind)
		}
	}
}

func wantTime(t *testing.T, key string, got frontmatter.Time, want string) {
	t.Helper()
	if got.String() != want {
		t.Errorf("%q: valid_at %q, want %q", key, got.String(), want)
	}
}

// checkSecondRunWritesNothing re-runs the import and compares the vault's files.
func checkSecondRunWritesNothing(t *testing.T, v *vault.Vault, kind, src string, items int) {
	t.Helper()
	before, _ := v.List()
	res, _ := run(t, v, kind, src, false)
	after, _ := v.List()
	if len(res.Files) != 0 || len(after) != len(before) {
		t.Errorf("second run wrote %d files (%d → %d in the vault)", len(res.Files), len(before), len(after))
	}
	if res.Existing != items {
		t.Errorf("second run saw %d items as already imported, want %d", res.Existing, items)
	}
}

func TestChatGPT(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	src := "testdata/chatgpt/conversations.json"
	res, warns := run(t, v, kindChatGPT, src, false)
	if len(warns) > 0 {
		t.Errorf("warnings: %q", warns)
	}
	if bt := res.ByType(); bt["note"] != 2 || bt["fact"] != 4 || len(res.Files) != 6 {
		t.Errorf("by type %v (%d files), want 2 notes (2023, 2025) + their 2 pointers + 2 saved memories", bt, len(res.Files))
	}
	got := imported(t, v)
	checkCommon(t, got, kindChatGPT)

	// What ChatGPT saved as memory comes in as memory, at the message's time.
	veg := mustGet(t, got, "User is vegetarian.")
	wantTime(t, "vegetarian", veg.ValidAt, "2024-07-02T18:00:05Z")
	if veg.Provenance != frontmatter.Inferred || veg.Type != frontmatter.TypeFact {
		t.Errorf("bio memory: %s/%s, want fact/inferred", veg.Type, veg.Provenance)
	}
	wantTime(t, "go", mustGet(t, got, "User writes Go at work.").ValidAt, "2024-07-02T18:00:07Z")
	if _, ok := got["note: Food and work"]; ok {
		t.Error("a conversation with saved memories also became a note")
	}

	// Others become a note of the user's messages, dated by the conversation.
	lisbon := got["note: Lisbon trip planning"]
	if lisbon == nil {
		t.Fatalf("no note for the 2023 conversation; have %q", sortedKeys(got))
	}
	wantTime(t, "lisbon note", lisbon.Meta().ValidAt, "2023-03-14T09:26:00Z")
	body := lisbon.Doc.Body
	for _, want := range []string{"budget in a spreadsheet", "close to trams", "## 2023-03-14T09:28:00Z"} {
		if !strings.Contains(body, want) {
			t.Errorf("lisbon note lacks %q:\n%s", want, body)
		}
	}
	for _, not := range []string{"ABANDONED", "Campo de Ourique"} {
		if strings.Contains(body, not) {
			t.Errorf("lisbon note holds %q (an abandoned branch or the assistant):\n%s", not, body)
		}
	}
	if s := lisbon.Meta().Sources[0]; s.ID != "c-2023-lisbon" || s.Title != "Lisbon trip planning" || s.LastModified.String() != "2023-03-14T09:28:10Z" {
		t.Errorf("sources entry %+v", s)
	}
	ptr := mustGet(t, got, "ChatGPT conversation: Lisbon trip planning: see [["+lisbon.ID+"]]")
	wantTime(t, "lisbon pointer", ptr.ValidAt, "2023-03-14T09:26:00Z")
	if ptr.Provenance != frontmatter.Stated {
		t.Errorf("pointer provenance %q", ptr.Provenance)
	}
	bike := got["note: Bike gearing"]
	if bike == nil || !strings.Contains(bike.Doc.Body, "what cassette suits hills") {
		t.Fatalf("bike note missing or lacks the text part next to the image")
	}
	wantTime(t, "bike", bike.Meta().ValidAt, "2025-11-20T07:14:00Z")

	// Three years, as in the source: no import collapse.
	first, last, undated := res.Span()
	if first.Year() != 2023 || last.Year() != 2025 || undated != 0 {
		t.Errorf("span %s..%s, %d undated", first, last, undated)
	}
	checkSecondRunWritesNothing(t, v, kindChatGPT, src, 4)
}

func TestChatGPTZipDryRun(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("testdata/chatgpt/conversations.json")
	if err != nil {
		t.Fatal(err)
	}
	zpath := filepath.Join(t.TempDir(), "export.zip")
	f, err := os.Create(zpath)
	if err != nil {
		t.Fatal(err)
	}
	zw := zip.NewWriter(f)
	for name, body := range map[string][]byte{"chat.html": []byte("<html>"), "export-2025/conversations.json": data} {
		w, _ := zw.Create(name)
		w.Write(body)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	v := newVault(t, nil)
	before, _ := v.List()
	res, _ := run(t, v, kindChatGPT, zpath, true)
	after, _ := v.List()
	if len(res.Files) != 6 || len(after) != len(before) {
		t.Errorf("dry run listed %d files and the vault went %d → %d", len(res.Files), len(before), len(after))
	}
	for _, f := range res.Files {
		// The name is the one a real run writes: the slug and six hex
		// digits of the import key, the same on every machine.
		if !regexp.MustCompile(`^imports/chatgpt/(notes/)?[a-z0-9-]+-[0-9a-f]{6}\.md$`).MatchString(f.Path) {
			t.Errorf("dry-run path %q", f.Path)
		}
	}
	if _, err := Run(v, kindChatGPT, filepath.Join(t.TempDir(), "nothing.zip"), Options{}); err == nil {
		t.Error("a missing zip imported without error")
	}
}

func TestChatGPTBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "conversations.json")
	os.WriteFile(bad, []byte("[\n{\"title\": \"a\"},\n{\"title\": }\n]"), 0o644)
	_, err := Run(newVault(t, nil), kindChatGPT, bad, Options{})
	if err == nil || !strings.Contains(err.Error(), bad+":3:") {
		t.Errorf("error %v, want it to name %s:3", err, bad)
	}
	// A conversation of the wrong shape is skipped with a warning.
	os.WriteFile(bad, []byte(`[{"title": 5}, {"id":"c","title":"ok","create_time":1700000000,"mapping":{"u":{"message":{"author":{"role":"user"},"content":{"parts":["hi"]}}}}}]`), 0o644)
	res, warns := run(t, newVault(t, nil), kindChatGPT, bad, true)
	if len(warns) != 1 || !strings.Contains(warns[0], "conversation 1 skipped") || len(res.Files) != 2 {
		t.Errorf("warnings %q, %d files; want conversation 1 skipped and 2 files", warns, len(res.Files))
	}
}

const appProject = "---\nid: proj_app\ntype: project\ntitle: App\nroots: [/home/dev/code/app]\n---\nThe app.\n"

func TestClaudeCode(t *testing.T) {
	t.Parallel()
	v := newVault(t, map[string]string{"projects/app.md": appProject})
	src := "testdata/claude-projects"
	res, warns := run(t, v, kindClaudeCode, src, false)
	if len(warns) != 1 || !strings.Contains(warns[0], "22222222-aaaa-4bbb-8ccc-000000000002.jsonl:2: line skipped") {
		t.Errorf("warnings %q, want one naming the truncated line 2", warns)
	}
	got := imported(t, v)
	checkCommon(t, got, kindClaudeCode)
	if len(res.Files) != 10 {
		t.Errorf("%d files, want 3 transcript notes + 3 pointers, 2 auto-memories (one a note + pointer), 1 MEMORY.md bullet", len(res.Files))
	}

	// Transcripts: one note each, the project from the dominant cwd.
	for _, c := range []struct{ title, validAt, project string }{
		{"Fix flaky payment tests", "2025-02-10T10:00:00Z", "proj_app"},
		{"CI toolchain bump", "2025-09-03T14:30:00Z", "proj_app"},
		{"Sketch a shell one-liner that dedupes lines but keeps order", "2024-05-05T21:00:00Z", ""},
	} {
		note := got["note: "+c.title]
		if note == nil {
			t.Fatalf("no note %q; have %q", c.title, sortedKeys(got))
		}
		wantTime(t, c.title, note.Meta().ValidAt, c.validAt)
		if note.Meta().Project != c.project {
			t.Errorf("note %q: project %q, want %q (from the transcript's cwd)", c.title, note.Meta().Project, c.project)
		}
		ptr := mustGet(t, got, "Claude Code session: "+c.title+": see [["+note.ID+"]]")
		if ptr.Project != c.project {
			t.Errorf("pointer %q: project %q, want %q", c.title, ptr.Project, c.project)
		}
		wantTime(t, c.title+" pointer", ptr.ValidAt, c.validAt)
	}
	flaky := got["note: Fix flaky payment tests"].Doc.Body
	for _, want := range []string{"one run in five", "fake clock", "in /home/dev/code/app,"} {
		if !strings.Contains(flaky, want) {
			t.Errorf("transcript note lacks %q:\n%s", want, flaky)
		}
	}
	for _, not := range []string{"Caveat", "/clear", "FAIL payments", "Looking."} {
		if strings.Contains(flaky, not) {
			t.Errorf("transcript note holds %q (not something the user said):\n%s", not, flaky)
		}
	}

	// Auto-memory: types mapped, inferred, dated by the transcript that wrote it.
	role := mustGet(t, got, "The user has written Go for ten years and is new to this repo's React frontend.")
	if role.Type != frontmatter.TypeIdentity || role.Provenance != frontmatter.Inferred || role.Project != "proj_app" {
		t.Errorf("user memory: %s/%s/%s, want identity/inferred/proj_app", role.Type, role.Provenance, role.Project)
	}
	wantTime(t, "user role", role.ValidAt, "2025-09-03T14:31:00Z")
	testing := got["note: Testing feedback"]
	if testing == nil {
		t.Fatalf("the long feedback file did not become a note")
	}
	fb := mustGet(t, got, "tests use the fake clock from internal/clock, never time.Sleep: see [["+testing.ID+"]]")
	if fb.Type != frontmatter.TypePreference || fb.Project != "proj_app" {
		t.Errorf("feedback pointer: %s/%s", fb.Type, fb.Project)
	}
	wantTime(t, "feedback", fb.ValidAt, "2025-02-10T10:05:00Z")
	vpn := mustGet(t, got, "Staging deploys need the office VPN")
	wantTime(t, "MEMORY.md bullet", vpn.ValidAt, "2025-08-01")
	for key := range got {
		if strings.Contains(key, "User role") || strings.Contains(key, "Testing feedback —") {
			t.Errorf("an index line of MEMORY.md was imported: %q", key)
		}
	}
	checkSecondRunWritesNothing(t, v, kindClaudeCode, src, 6)
}

func TestClaudeCodeOneFolder(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	res, _ := run(t, v, kindClaudeCode, "testdata/claude-projects/-home-dev-scratch", true)
	if len(res.Files) != 2 || res.Files[0].Project != "" {
		t.Errorf("one folder: %+v", res.Files)
	}
	// A ChatGPT export is named as one (exit 2), never read as 0 transcripts.
	var wrong *WrongKind
	if _, err := Run(v, kindClaudeCode, "testdata/chatgpt", Options{}); !errors.As(err, &wrong) || wrong.Is != kindChatGPT || fail.Of(err) != fail.Usage {
		t.Errorf("a ChatGPT export given to claude-code: %v", err)
	}
	if _, err := Run(v, kindClaudeCode, t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), "no Claude Code transcripts") {
		t.Errorf("a folder without transcripts: %v", err)
	}
}

func TestMemoryMD(t *testing.T) {
	t.Parallel()
	dir, err := filepath.Abs("testdata/memory-md")
	if err != nil {
		t.Fatal(err)
	}
	v := newVault(t, map[string]string{"projects/notes.md": "---\nid: proj_notes\ntype: project\nroots: [" + dir + "]\n---\nNotes.\n"})
	src := filepath.Join(dir, "MEMORY.md")
	res, _ := run(t, v, kindMemoryMD, src, false)
	got := imported(t, v)
	checkCommon(t, got, kindMemoryMD)
	want := []struct{ text, typ, section, validAt string }{
		{"I live in Rotterdam and work remotely.", "identity", "", ""},
		{"Switched my main editor to Helix.", "identity", "", "2024-01-15"},
		{"Prefers tabs over spaces in Go.", "preference", "Preferences", ""},
		{"Toolchain:", "preference", "Preferences", ""},
		{"Go for services and Python only for notebooks\nUnder: Toolchain:", "preference", "Preferences", ""},
		{"pnpm, never npm\nUnder: Toolchain:", "preference", "Preferences", "2025-06-30"},
		{"Learn Zig", "preference", "Preferences", ""},
		{"Postgres over MySQL for the ledger.", "decision", "Decisions", "2023-11-02"},
		{"Keep the monorepo.", "decision", "Decisions", ""},
		{"A bare date alone is text:", "lesson", "", ""},
		{"2024-02-30\nUnder: A bare date alone is text:", "lesson", "", ""},
	}
	if len(got) != len(want) || len(res.Files) != len(want) {
		t.Errorf("%d files, want %d: %q", len(got), len(want), sortedKeys(got))
	}
	for _, w := range want {
		summary, _, _ := strings.Cut(w.text, "\n")
		m, ok := got[summary]
		if !ok {
			t.Errorf("no memory %q", summary)
			continue
		}
		meta := m.Meta()
		if body := strings.TrimSpace(m.Doc.Body); body != w.text {
			t.Errorf("body %q, want %q", body, w.text)
		}
		if meta.Type != w.typ || meta.Section != w.section || meta.ValidAt.String() != w.validAt {
			t.Errorf("%q: type %s section %q valid_at %q, want %s %q %q", summary, meta.Type, meta.Section, meta.ValidAt, w.typ, w.section, w.validAt)
		}
		if meta.Provenance != frontmatter.Stated || meta.Project != "proj_notes" {
			t.Errorf("%q: provenance %s project %q", summary, meta.Provenance, meta.Project)
		}
	}
	if s := mustGet(t, got, "Keep the monorepo.").Sources[0]; s.ID != "L21" || s.Title != "MEMORY.md › About me › Decisions" || s.Resource != src {
		t.Errorf("sources entry %+v", s)
	}
	checkSecondRunWritesNothing(t, v, kindMemoryMD, src, len(want))

	// Editing the file above a bullet does not re-import it; a new bullet is new.
	edited := filepath.Join(t.TempDir(), "MEMORY.md")
	os.WriteFile(edited, []byte("# Intro\n\n- A new first line.\n- Keep the monorepo.\n- Keep the monorepo.\n"), 0o644)
	res, _ = run(t, v, kindMemoryMD, edited, true)
	if len(res.Files) != 3 {
		t.Errorf("another file is another source: %d files, want 3", len(res.Files))
	}
}

// An interrupted run that wrote a note but not its pointer is finished by
// the next run, pointing at the note already there.
func TestNoteWithoutPointerIsCompleted(t *testing.T) {
	t.Parallel()
	v := newVault(t, nil)
	src := "testdata/chatgpt/conversations.json"
	run(t, v, kindChatGPT, src, false)
	got := imported(t, v)
	ptr := got["ChatGPT conversation: Bike gearing: see [["+got["note: Bike gearing"].ID+"]]"]
	if ptr == nil {
		t.Fatalf("no bike pointer: %q", sortedKeys(got))
	}
	os.Remove(ptr.Path)
	res, _ := run(t, v, kindChatGPT, src, false)
	if len(res.Files) != 1 || res.Files[0].Type != frontmatter.TypeFact || res.Existing != 3 {
		t.Fatalf("rerun wrote %+v (existing %d), want just the pointer", res.Files, res.Existing)
	}
	if !strings.Contains(res.Files[0].Summary, "[["+got["note: Bike gearing"].ID+"]]") {
		t.Errorf("new pointer %q does not link the existing note", res.Files[0].Summary)
	}
}

func TestUnknownKind(t *testing.T) {
	t.Parallel()
	_, err := Run(newVault(t, nil), "evernote", ".", Options{})
	if _, ok := err.(ErrUnknownKind); !ok || !strings.Contains(err.Error(), "chatgpt, claude-ai, claude-code, codex, memory-md, openclaw") {
		t.Errorf("err %v", err)
	}
}

func TestDateStamp(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, text, date string }{
		{"[2024-03-01] Uses Go", "Uses Go", "2024-03-01"},
		{"2024-03-01: Uses Go", "Uses Go", "2024-03-01"},
		{"2024-03-01 — Uses Go", "Uses Go", "2024-03-01"},
		{"**2024-03-01** Uses Go", "Uses Go", "2024-03-01"},
		{"Uses Go (2024-03-01)", "Uses Go", "2024-03-01"},
		{"[undated] Uses Go", "Uses Go", ""},
		{"Freeze starts 2026-03-05 for mobile", "Freeze starts 2026-03-05 for mobile", ""},
		{"2024-13-45: not a date", "2024-13-45: not a date", ""},
		{"2024-03-01", "2024-03-01", ""},
	} {
		text, date := dateStamp(c.in)
		if text != c.text || date.String() != c.date {
			t.Errorf("dateStamp(%q) = %q, %q; want %q, %q", c.in, text, date, c.text, c.date)
		}
	}
}

func TestTypeForHeadings(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		headings []string
		want     string
	}{
		{nil, "fact"},
		{[]string{"Preferences", "Go"}, "preference"},
		{[]string{"Rules", "Lessons learned"}, "lesson"},
		{[]string{"Users of the API"}, "fact"},
		{[]string{"Address book"}, "fact"},
		{[]string{"Coding conventions"}, "rule"},
		{[]string{"About me"}, "identity"},
	} {
		if got := typeForHeadings(c.headings); got != c.want {
			t.Errorf("typeForHeadings(%q) = %s, want %s", c.headings, got, c.want)
		}
	}
}

func TestParseBulletsNesting(t *testing.T) {
	t.Parallel()
	data, _ := os.ReadFile("testdata/memory-md/MEMORY.md")
	var got []string
	for _, b := range parseBullets(data) {
		got = append(got, strings.Join(append(append([]string{}, b.Headings...), append(b.Parents, b.Text)...), " > "))
	}
	want := []string{
		"About me > I live in Rotterdam and work remotely.",
		"About me > Switched my main editor to Helix.",
		"About me > Preferences > Prefers tabs over spaces in Go.",
		"About me > Preferences > Toolchain:",
		"About me > Preferences > Toolchain: > Go for services and Python only for notebooks",
		"About me > Preferences > Toolchain: > pnpm, never npm",
		"About me > Preferences > Learn Zig",
		"About me > Decisions > Postgres over MySQL for the ledger.",
		"About me > Decisions > Keep the monorepo.",
		"About me > Lessons learned > A bare date alone is text:",
		"About me > Lessons learned > A bare date alone is text: > 2024-02-30",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bullets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestResultSpan(t *testing.T) {
	t.Parallel()
	d := func(s string) frontmatter.Time { x, _ := frontmatter.ParseTime(s); return x }
	r := &Result{Files: []File{{ValidAt: d("2024-05-01")}, {}, {ValidAt: d("2022-01-01")}, {ValidAt: d("2025-01-01T10:00:00Z")}}}
	first, last, undated := r.Span()
	if first.String() != "2022-01-01" || last.String() != "2025-01-01T10:00:00Z" || undated != 1 {
		t.Errorf("span %s..%s undated %d", first, last, undated)
	}
}

// parseBullets reads the file as markdown: no bullet inside code of any
// kind, and a bullet's lazy continuation is part of it.
func TestParseBulletsCode(t *testing.T) {
	t.Parallel()
	in := "---\ntype: note\n---\n# Notes\n\n- real one\ncontinued lazily\n\n~~~~\n```\n- in a tilde fence\n```\n- still fenced\n~~~~\n\nText.\n\n    - in indented code\n\n- after the code `- in a span`\n"
	var got []string
	for _, b := range parseBullets([]byte(in)) {
		got = append(got, fmt.Sprintf("%d %s", b.Line, b.Text))
	}
	want := []string{"6 real one continued lazily", "20 after the code `- in a span`"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("bullets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
