package lint

import (
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/vault"
)

// An embed's broken-link warning points at its "!", as a link's points at
// its "[[", however links and embeds follow each other.
func TestBrokenEmbedPosition(t *testing.T) {
	v := corpusVault(t)
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	l := New(v, mems, testNow)
	data := "---\ntype: note\n---\n![[gone-a]] [[gone-b]]![[gone-c]]!![[gone-d]]\n"
	var cols []int
	for _, p := range lintBytes(l, "notes/embeds.md", []byte(data)) {
		if p.Rule == "link-broken" {
			cols = append(cols, p.Column)
		}
	}
	want := []int{1, 13, 23, 35}
	if len(cols) != len(want) {
		t.Fatalf("link-broken at columns %v, want %v", cols, want)
	}
	for i := range want {
		if cols[i] != want[i] {
			t.Fatalf("link-broken at columns %v, want %v", cols, want)
		}
	}
}

// Links are read as Obsidian reads them (pkg/markdown): none from code or
// comments, \| inside a table, #heading and ^block forms, embeds; URL
// schemes are never vault files. Each case lists the links reported broken.
func TestLinksAsObsidianReadsThem(t *testing.T) {
	l := pathoLinter(t)
	for _, tc := range []struct {
		name, body string
		broken     []string
	}{
		{"indented code", "Text.\n\n    [[in-indented-code]]\n\nAfter [[gone]].\n", []string{"gone"}},
		{"a ~~~~ fence holding a ``` line", "~~~~\n```\n[[in-code]]\n```\n~~~~\n\nA [[dangling]] link.\n", []string{"dangling"}},
		{"inline code", "See `[[in-span]]` and ``[x](in-span.md)``.\n", nil},
		{"escaped pipe in a table", "| a | b |\n| --- | --- |\n| [[bad/link-broken\\|Shown]] | [[gone\\|x]] |\n", []string{"gone"}},
		{"alias, heading and block", "[[bad/link-broken|a]] [[bad/link-broken#Heading]] [[bad/link-broken#^blk]] [[#Local]] [[gone#Heading]]\n", []string{"gone"}},
		{"embeds", "![[bad/link-broken]] ![[picture.png]] ![[gone-embed]]\n", []string{"gone-embed"}},
		{"%% comments", "%% [[in-comment]] %%\n\n%%\n[[in-block-comment]]\n%%\n[[gone]]\n", []string{"gone"}},
		{"mailto and other schemes", "[mail](mailto:x@y.md) [web](https://e.org/a.md) [file](file:///a.md) <mailto:z@y.md>\n", nil},
		{"markdown links", "[a](../bad/link-broken.md) [b](</bad/link-broken.md#Part>) [c](gone.md#Part) [d][ref]\n\n[ref]: gone-ref.md\n", []string{"gone", "gone-ref"}},
		{"footnotes are not links", "Claim.[^gone]\n\n[^gone]: A source.\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, p := range lintBytes(l, "notes/links.md", []byte("---\ntype: note\n---\n"+tc.body)) {
				if p.Rule == "link-broken" {
					got = append(got, strings.Split(p.Message, `"`)[1])
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.broken, ",") {
				t.Errorf("link-broken for %q, want %q", got, tc.broken)
			}
		})
	}
}
