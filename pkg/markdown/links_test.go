package markdown

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// show renders what Scan found compactly: kind:target#fragment|alias@off.
func show(src string, b Body) []string {
	var out []string
	for _, l := range b.Links {
		s := [...]string{"wiki", "embed", "link"}[l.Kind] + ":" + l.Target + l.Fragment
		if l.Alias != "" {
			s += "|" + l.Alias
		}
		out = append(out, fmt.Sprintf("%s@%d", s, l.Off))
	}
	for _, f := range b.Footnotes {
		kind := "ref"
		if f.def {
			kind = "def"
		}
		out = append(out, fmt.Sprintf("%s:%s@%d", kind, f.Label, f.Off))
	}
	for _, c := range b.Comments {
		out = append(out, "comment:"+src[c.Start:c.End])
	}
	for _, h := range b.HTML {
		out = append(out, "html:"+src[h.Start:h.End])
	}
	return out
}

func TestScan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"indented code", "Text.\n\n    [[in-indented-code]]\n\nAfter [[real]].\n", []string{"wiki:real@39"}},
		{"list continuation is not code", "- item\n    [[nested]]\n", []string{"wiki:nested@11"}},
		{"tilde fence holding backtick lines", "~~~~\n```\n[[in-code]]\n```\n~~~~\n\nA [[dangling]] link.\n", []string{"wiki:dangling@33"}},
		{"backtick fence", "```md\n[[x]] [a](b.md) %% c %% [^d]\n```\n", nil},
		{"unclosed fence runs to the end", "[[before]]\n```\n[[x]]\n", []string{"wiki:before@0"}},
		{"inline code", "see `[[nope]]` and ``[a](b.md)`` but [[yes]]\n", []string{"wiki:yes@37"}},
		{"alias", "[[a|the alias]]", []string{"wiki:a|the alias@0"}},
		{"escaped pipe in a table", "| Link | Note |\n| --- | --- |\n| [[Table view\\|Table]] | x |\n", []string{"wiki:Table view|Table@32"}},
		{"heading", "[[Note#Some heading]] and [[#Local]]", []string{"wiki:Note#Some heading@0", "wiki:#Local@26"}},
		{"block", "[[Note#^abc123]] [[Other^def|d]]", []string{"wiki:Note#^abc123@0", "wiki:Other^def|d@17"}},
		{"spaces around the target", "[[ folder/Note.md ]]", []string{"wiki:folder/Note.md@0"}},
		{"embeds", "![[pic.png]] ![[Note#Part]]!![[x]]", []string{"embed:pic.png@0", "embed:Note#Part@13", "embed:x@28"}},
		{"not wikilinks", "[[]] [[a\nb]] [[a]b]] \\[[esc]] [[open", nil},
		{"markdown links", "See [the passwords](../x.md), [b](<my note.md>), [c](y.md#Part \"title\").", []string{"link:../x.md@20", "link:my note.md@35", "link:y.md#Part@53"}},
		{"mailto and urls are links, schemes are the caller's to judge", "[mail](mailto:x@y.md) <mailto:z@y.md> <https://e.org/a.md>", []string{"link:mailto:x@y.md@7"}},
		{"image inside a link", "[![i](a.png)](x.md)", []string{"link:x.md@14", "link:a.png@6"}},
		{"reference link", "[a][r] and [r]\n\n[r]: b.md\n", []string{"link:b.md@0", "link:b.md@11"}},
		{"inline comment", "a %%hidden [[x]]%% b [[y]]", []string{"wiki:y@21", "comment:%%hidden [[x]]%%"}},
		{"comment across lines of a paragraph", "a %%one\ntwo [[x]]%% [[y]]", []string{"wiki:y@20", "comment:%%one\ntwo [[x]]%%"}},
		{"comment block", "%%\n[[x]]\n\n# h\n%%\n[[y]]\n", []string{"wiki:y@17", "comment:%%\n[[x]]\n\n# h\n%%"}},
		{"unclosed comment block hides the rest", "[[a]]\n\n%% start\n[[x]]\n", []string{"wiki:a@0", "comment:%% start\n[[x]]\n"}},
		{"a lone %% is text", "50%% off [[a]]", []string{"wiki:a@9"}},
		{"comment in code is code", "`%% no %%` and\n\n    %% no %%\n", nil},
		{"footnotes", "Claim.[^src] again[^2]\n\n[^src]: A [source](s.md).\n", []string{"link:s.md@43", "ref:src@6", "ref:2@18", "def:src@24"}},
		{"footnote definition holding a url", "[^a]: https://e.org/x\n", []string{"def:a@0"}},
		{"comments inside an html block", "<div>\n<b>x</b> <!-- one --> <!-- two\n</div>\n", []string{"comment:<!-- one -->", "comment:<!-- two\n</div>", "html:<div>\n<b>x</b> <!-- one --> <!-- two\n</div>"}},
		{"unclosed html comment hides the rest of its paragraph", "a <!-- open [[x]]\nmore\n\n[[y]] <!--> <!-- c -->", []string{"wiki:y@24", "comment:<!-- open [[x]]\nmore", "comment:<!-->", "comment:<!-- c -->", "html:<!-->", "html:<!-- c -->"}},
		{"html", "<!-- [[x]] -->\n\ntext <b>[[y]]</b> <!-- c -->\n", []string{"wiki:y@24", "comment:<!-- [[x]] -->", "comment:<!-- c -->", "html:<!-- [[x]] -->", "html:<b>", "html:</b>", "html:<!-- c -->"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := show(tc.in, Scan(tc.in, 100))
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("Scan(%q)\n got %q\nwant %q", tc.in, got, tc.want)
			}
			if plain([]byte(tc.in)) {
				if tree := show(tc.in, scanTree([]byte(tc.in), 100)); !reflect.DeepEqual(got, tree) {
					t.Errorf("plain scan %q, parse %q", got, tree)
				}
			}
		})
	}
}

// At most max links of each kind are kept: a hostile body of a million
// links costs no million reports.
func TestScanMax(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("[[a]] [b](c.md) [^d] ", 50)
	b := Scan(src, 10)
	if len(b.Links) != 20 || len(b.Footnotes) != 10 {
		t.Errorf("%d links, %d footnotes; want 20, 10", len(b.Links), len(b.Footnotes))
	}
}

// A text past Safe's limits is read line by line: its links are found,
// those in fences are not.
func TestScanHostile(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("[[a]] [b](c.md#h) [^d]\n", 1<<14) + "```\n[[in-code]]\n```\n[[last]]\n"
	if Safe([]byte(src)) {
		t.Fatal("the text is within the limits")
	}
	b := Scan(src, 1<<20)
	var wikis, inlines int
	for _, l := range b.Links {
		switch {
		case l.Target == "in-code":
			t.Errorf("a link in a fence: %+v", l)
		case l.Kind == Wiki:
			wikis++
		case l.Kind == Inline && l.Target == "c.md" && l.Fragment == "#h" && src[l.Off:l.Off+4] == "c.md":
			inlines++
		}
	}
	if wikis != 1<<14+1 || inlines != 1<<14 || len(b.Footnotes) != 1<<14 {
		t.Errorf("%d wikilinks, %d links, %d footnotes", wikis, inlines, len(b.Footnotes))
	}
}

// FuzzScan: no text panics or yields an offset outside it; a wikilink's
// offset is at its "[[" or "!"; and on plain texts the scanner finds what
// the parse finds.
func FuzzScan(f *testing.F) {
	for _, s := range []string{"[[a|b]] ![[c#d]]", "[[a\\|b]]", "~~~~\n```\n[[x]]\n```\n~~~~\n", "    [[x]]\n", "%%a\n[[b]]%%", "%%\nx\n", "[^a]: b\n[^a]", "[a](b.md) <!-- c -->", "!![[a]]", "- [[a]]\n  [[b]]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := []byte(s)
		b := Scan(s, 1000)
		for _, l := range b.Links {
			if l.Off < 0 || l.Off >= len(s) {
				t.Fatalf("link %+v outside the text", l)
			}
			if l.Kind != Inline && !strings.HasPrefix(s[l.Off:], "[[") && !strings.HasPrefix(s[l.Off:], "![[") {
				t.Fatalf("wikilink %+v not at its brackets", l)
			}
			if w := l.span; w.End != 0 && (w.Start < 0 || w.End > len(s) || w.Start >= w.End || l.Kind == Inline && (l.text.Start < w.Start || l.text.End > w.End || l.text.Start > l.text.End)) {
				t.Fatalf("link %+v: span outside the text or the link", l)
			}
		}
		for _, f := range b.Footnotes {
			if f.Off < 0 || f.Off >= len(s) || s[f.Off] != '[' {
				t.Fatalf("footnote %+v not at its bracket", f)
			}
		}
		for _, c := range append(b.Comments, b.HTML...) {
			if c.Start < 0 || c.End > len(s) || c.Start > c.End {
				t.Fatalf("span %+v outside the text", c)
			}
		}
		if plain(src) && Safe(src) {
			if got, want := show(s, b), show(s, scanTree(src, 1000)); !reflect.DeepEqual(got, want) {
				t.Fatalf("plain scan %q, parse %q", got, want)
			}
		}
	})
}

// BenchmarkScan: a 2 KB note with wikilinks only (the scanner), and the
// same note with a code span (the parse).
func BenchmarkScan(b *testing.B) {
	plainBody := strings.Repeat("A paragraph with a [[link]] and [[other|alias]] in it, then more words to read.\n\n", 25)
	for _, bc := range []struct{ name, body string }{{"plain", plainBody}, {"parsed", plainBody + "`code`\n"}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.body)))
			for b.Loop() {
				Scan(bc.body, 1000)
			}
		})
	}
}
