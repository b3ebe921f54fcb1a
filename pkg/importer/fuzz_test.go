package importer

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// seed adds every file under testdata/dir matching glob to the corpus.
func seed(f *testing.F, glob string) {
	files, _ := filepath.Glob(filepath.Join("testdata", glob))
	if len(files) == 0 {
		f.Fatalf("no seeds match %s", glob)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
}

// checkItems asserts what every adapter's items must satisfy whatever the input.
func checkItems(t *testing.T, items []item) {
	for _, it := range items {
		if it.skipped != nil {
			continue // reported, never written
		}
		it = normalize(it)
		if it.locator == "" {
			t.Errorf("item without locator: %+v", it)
		}
		if !frontmatter.IsMemoryType(it.Type) || frontmatter.ProvenanceRank(it.provenance) == 0 {
			t.Errorf("item %q: type %q provenance %q", it.text, it.Type, it.provenance)
		}
		if it.note == "" && vault.CheckBoundary(it.text) != nil {
			t.Errorf("memory text over the boundary after normalize: %q", it.text)
		}
		// The longest note id the writer can make: imports/claude-code/notes/,
		// a 48-character slug and the random suffix.
		longestID := "imports/claude-code/notes/" + strings.Repeat("x", 48) + "-000000"
		if it.note != "" && vault.CheckBoundary(vault.PointerText(it.text, longestID)) != nil {
			t.Errorf("pointer over the boundary: %q", vault.PointerText(it.text, longestID))
		}
		if strings.TrimSpace(it.text) == "" {
			t.Errorf("empty memory text: %+v", it)
		}
	}
}

func FuzzParseChatGPT(f *testing.F) {
	seed(f, "chatgpt/*.json")
	f.Add([]byte(`[{"mapping":{"a":{"parent":"a","message":{"author":{"role":"user"},"content":{"parts":["x"]}}}},"current_node":"a"}]`))
	f.Add([]byte(`[{"create_time":1e300,"mapping":{"a":{"message":{"author":{"role":"assistant"},"recipient":"bio","create_time":-1,"content":{"parts":[1,null,"m"]}}}}}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		items, err := parseChatGPT(bytes.NewReader(data), "conversations.json", env{})
		if err != nil && !strings.HasPrefix(err.Error(), "conversations.json:") {
			t.Errorf("error does not name file:line: %v", err)
		}
		checkItems(t, items)
	})
}

func FuzzParseTranscript(f *testing.F) {
	seed(f, "claude-projects/*/*.jsonl")
	f.Add([]byte(`{"type":"user","message":{"content":[{"type":"text","text":"<command-x"}]}}` + "\n{]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, err := parseTranscript(bytes.NewReader(data), "s.jsonl", env{})
		if err != nil {
			t.Fatalf("an in-memory reader failed: %v", err)
		}
		if it, ok := transcriptItem(tr, "s.jsonl", "d/s.jsonl", env{}); ok {
			checkItems(t, []item{it})
			if !tr.first.IsZero() && tr.last.Before(tr.first.Time) {
				t.Errorf("last %s before first %s", tr.last, tr.first)
			}
		}
	})
}

func FuzzParseBullets(f *testing.F) {
	seed(f, "memory-md/*.md")
	seed(f, "claude-projects/*/memory/*.md")
	f.Add([]byte("---\n- a\n\t\t- b\n```\n- c\n~~~\n- d\n# h\n-\n1) e (2024-02-29)"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lines := bytes.Count(data, []byte("\n")) + 1
		bullets := parseBullets(data)
		for _, b := range bullets {
			if b.Text == "" || b.Line < 1 || b.Line > lines {
				t.Errorf("bullet %+v out of %d lines", b, lines)
			}
			if utf8.Valid(data) && !utf8.ValidString(b.Text) {
				t.Errorf("invalid UTF-8 from valid input: %q", b.Text)
			}
		}
		checkItems(t, bulletItems(bullets, mdFile{abs: "/x/MEMORY.md", locator: "/x/MEMORY.md", provenance: frontmatter.Stated}))
		if it, ok := topicItem(data, "/p/-d/memory/t.md", "l", "", frontmatter.Time{}, frontmatter.Time{}); ok && it.unreadable == nil {
			checkItems(t, []item{it})
		} else if ok && (it.unreadable.Rule == "" || it.unreadable.Msg == "") {
			t.Errorf("refusal without a rule or a message: %+v", it.unreadable)
		}
	})
}
