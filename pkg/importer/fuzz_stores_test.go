package importer

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// seedScript adds to the corpus every file of cmd/mem's testscript whose
// name ends in suffix: the stores the scripts import, as users have them.
func seedScript(f *testing.F, script, suffix string) {
	a, err := txtar.ParseFile(filepath.Join("..", "..", "cmd", "mem", "testdata", "script", script))
	if err != nil {
		f.Fatal(err)
	}
	n := 0
	for _, file := range a.Files {
		if strings.HasSuffix(file.Name, suffix) {
			f.Add(file.Data)
			n++
		}
	}
	if n == 0 {
		f.Fatalf("%s holds no file ending in %s", script, suffix)
	}
}

// writeInput writes data where an importer reads it and returns the path.
func writeInput(t *testing.T, rel string, data []byte) string {
	p := filepath.Join(t.TempDir(), filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// fuzzRead fuzzes read on the file it is given, written at rel: an error
// names the file, and every item is one the writer can take.
func fuzzRead(f *testing.F, rel string, read func(p string) ([]item, error)) {
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := read(writeInput(t, rel, data))
		if err != nil && !strings.Contains(err.Error(), path.Base(rel)) {
			t.Errorf("error does not name the file: %v", err)
		}
		checkItems(t, items)
	})
}

// A Claude.ai conversations.json, given alone as users often do.
func FuzzClaudeAI(f *testing.F) {
	seedScript(f, "import_claude_ai.txtar", "conversations.json")
	f.Add([]byte(`[{"uuid":"u","chat_messages":[{"sender":"human","text":"x","content":[{"type":"text","text":null}],"created_at":"2024-13-40T99:00:00Z"}]}]`))
	f.Add([]byte(`[{"mapping":{}}]`))
	fuzzRead(f, "conversations.json", func(p string) ([]item, error) { return collectClaudeAI(p, env{}) })
}

// Codex's memories/MEMORY.md, its session headers and groups rewritten in
// place.
func FuzzCodexMemory(f *testing.F) {
	seedScript(f, "import_codex.txtar", ".md")
	f.Add([]byte("---\nupdated_at: 2026-13-01\ndescription:\n---\n---\n# h\n- a\n---\n"))
	fuzzRead(f, "memories/MEMORY.md", func(p string) ([]item, error) { return codexMemory(p, env{}) })
}

// An OpenClaw daily file (memory/YYYY-MM-DD.md): its entries, stamps and
// headings.
func FuzzStoreFile(f *testing.F) {
	seedScript(f, "import_openclaw.txtar", ".md")
	f.Add([]byte("## 09:61 Standup\n- [2026-02-30 25:00] a\n### 2026-02-19\n* b"))
	fuzzRead(f, "ws/memory/2026-02-19.md", func(p string) ([]item, error) {
		return storeFileItems(p, env{}, frontmatter.Inferred)
	})
}
