package importer

import (
	"os"
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

// A Claude.ai conversations.json, given alone as users often do: an error
// names the file, and every item is one the writer can take.
func FuzzClaudeAI(f *testing.F) {
	seedScript(f, "import_claude_ai.txtar", "conversations.json")
	f.Add([]byte(`[{"uuid":"u","chat_messages":[{"sender":"human","text":"x","content":[{"type":"text","text":null}],"created_at":"2024-13-40T99:00:00Z"}]}]`))
	f.Add([]byte(`[{"mapping":{}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p := writeInput(t, "conversations.json", data)
		items, err := collectClaudeAI(p, env{})
		if err != nil && !strings.Contains(err.Error(), "conversations.json") {
			t.Errorf("error does not name the file: %v", err)
		}
		checkItems(t, items)
	})
}

// Codex's memories/MEMORY.md, its session headers and groups rewritten in
// place: every item is one the writer can take.
func FuzzCodexMemory(f *testing.F) {
	seedScript(f, "import_codex.txtar", ".md")
	f.Add([]byte("---\nupdated_at: 2026-13-01\ndescription:\n---\n---\n# h\n- a\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := codexMemory(writeInput(t, "memories/MEMORY.md", data), env{})
		if err != nil && !strings.Contains(err.Error(), "MEMORY.md") {
			t.Errorf("error does not name the file: %v", err)
		}
		checkItems(t, items)
	})
}

// An OpenClaw daily file (memory/YYYY-MM-DD.md): its entries, stamps and
// headings; every item is one the writer can take.
func FuzzStoreFile(f *testing.F) {
	seedScript(f, "import_openclaw.txtar", ".md")
	f.Add([]byte("## 09:61 Standup\n- [2026-02-30 25:00] a\n### 2026-02-19\n* b"))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := storeFileItems(writeInput(t, "ws/memory/2026-02-19.md", data), env{}, frontmatter.Inferred)
		if err != nil && !strings.Contains(err.Error(), "2026-02-19.md") {
			t.Errorf("error does not name the file: %v", err)
		}
		checkItems(t, items)
	})
}
