package index

import (
	"context"
	"errors"
	"regexp"
	"strings"
	"testing"
)

// The highlight's ** never nests in the note's own bold, never lands
// inside a [[wikilink]], code, a footnote reference or a link's address,
// and still marks the term elsewhere.
func TestSnippetMarksRespectMarkdown(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/canvas.md", memory("fact", "stated", "", "Open **JSON Canvas** files from [[Canvas view]] or `canvas.json`; a canvas is plain JSON.[^canvas-spec] See [the spec](canvas-spec.md)."))
	res, err := Search(context.Background(), v, Query{Text: "canvas"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Hits) != 1 {
		t.Fatalf("hits: %+v", res.Hits)
	}
	s := res.Hits[0].Snippet
	for _, bad := range []string{"****", "**JSON **", "[[**", "`**", "[^**", "(**"} {
		if strings.Contains(s, bad) {
			t.Errorf("snippet %q holds %q", s, bad)
		}
	}
	if !strings.Contains(s, "**JSON Canvas**") || !strings.Contains(s, "[[Canvas view]]") || !strings.Contains(s, "a **canvas** is") {
		t.Errorf("snippet %q", s)
	}
}

// A search whose context ends returns the context's error, not a
// QueryError (which would blame the user's query, exit 2), and the index
// built on the way stays for the next search.
func TestSearchEndsWithItsContext(t *testing.T) {
	t.Parallel()
	v := newVault(t)
	write(t, v, "memory/canvas.md", memory("fact", "stated", "", "Open JSON Canvas files."))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Search(ctx, v, Query{Text: "canvas"})
	var qe *QueryError
	if !errors.Is(err, context.Canceled) || errors.As(err, &qe) {
		t.Fatalf("a cancelled search: %v, want context.Canceled", err)
	}
	if res, err := Search(context.Background(), v, Query{Text: "canvas", NoRefresh: true}); err != nil || len(res.Hits) != 1 || !res.Index.Fresh {
		t.Fatalf("the next search: %+v, %v", res, err)
	}
}

// oneLine is regexp `\s+` replaced by one space, byte for byte.
func TestOneLine(t *testing.T) {
	re := regexp.MustCompile(`\s+`)
	for _, s := range []string{"", " ", "a", "  a\t\tb\n\nc \r\n", "\v\u00a0x\u2003 y\f", "**kiln**  at\ncone six…", "trailing \t"} {
		if got, want := oneLine(s), re.ReplaceAllString(s, " "); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
}
