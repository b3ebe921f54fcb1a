package markdown

import (
	"strings"
	"testing"
)

func TestMaskCode(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		hidden   []string // blanked
		kept     []string // still there
	}{
		{"inline code", "see `[[nope]]` and `<!-- x -->` but [[yes]]\n", []string{"[[nope]]", "<!-- x -->"}, []string{"[[yes]]"}},
		{"indented code", "Text.\n\n    [[in-indented-code]]\n\nAfter [[real]].\n", []string{"[[in-indented-code]]"}, []string{"[[real]]"}},
		{"tilde fence holding backtick lines", "~~~~\n```\n[[in-code]]\n```\n~~~~\n\nA [[dangling]] link.\n", []string{"[[in-code]]"}, []string{"[[dangling]]"}},
		{"backtick fence", "```go\n%% not a comment %%\n```\n%% a comment %%\n", []string{"%% not a comment %%"}, []string{"%% a comment %%"}},
		{"list continuation is not code", "- item\n    [[nested]]\n", nil, []string{"[[nested]]"}},
		{"unclosed fence runs to the end", "```\n[[x]]\n", []string{"[[x]]"}, nil},
	} {
		got := MaskCode(tc.in)
		if len(got) != len(tc.in) || strings.Count(got, "\n") != strings.Count(tc.in, "\n") {
			t.Errorf("%s: offsets moved: %q", tc.name, got)
		}
		for _, h := range tc.hidden {
			if strings.Contains(got, h) {
				t.Errorf("%s: %q not masked in %q", tc.name, h, got)
			}
		}
		for _, k := range tc.kept {
			if !strings.Contains(got, k) {
				t.Errorf("%s: %q masked in %q", tc.name, k, got)
			}
		}
	}
}

// BenchmarkMaskCode parses a 2 KB note holding a fence, a span and an
// indented block: the cost lint pays for each body with a code marker.
func BenchmarkMaskCode(b *testing.B) {
	body := strings.Repeat("A paragraph with a [[link]] and `code` in it, then more words to read.\n\n", 20) +
		"```go\nfunc f() {}\n```\n\n    indented\n\n" + strings.Repeat("- a list item with [a link](x.md)\n", 5)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		MaskCode(body)
	}
}

func TestUnmarkable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		src  string
		want []string
	}{
		{"Open **JSON Canvas** files, see [[Canvas|the canvas]] or `canvas.json`, and canvas here.[^canvas-spec] [spec](canvas.md)",
			[]string{"**JSON Canvas**", "[[Canvas|the canvas]]", "`canvas.json`", "[^canvas-spec]", "](canvas.md)"}},
		{"| [[Table view\\|Table]] | ![[canvas.png]] |\n\n[^canvas]: the [spec](<canvas spec.md> \"t\")\n",
			[]string{"[[Table view\\|Table]]", "![[canvas.png]]", "[^canvas]", "](<canvas spec.md> \"t\")"}},
	} {
		var got []string
		for _, s := range Unmarkable([]byte(tc.src)) {
			got = append(got, tc.src[s.Start:s.End])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

// FuzzMaskCode: any text keeps its length and line breaks, and what is
// not blanked is the text itself.
func FuzzMaskCode(f *testing.F) {
	for _, s := range []string{"`a`", "~~~~\n```\nx\n```\n~~~~\n", "    code\n", "- a\n    b\n", "```\n", "> ```\n> x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := MaskCode(s)
		if len(got) != len(s) {
			t.Fatalf("length %d, want %d", len(got), len(s))
		}
		for i := 0; i < len(s); i++ {
			if got[i] != s[i] && (got[i] != ' ' || s[i] == '\n') {
				t.Fatalf("byte %d: %q became %q", i, s[i], got[i])
			}
		}
		Unmarkable([]byte(s))
	})
}

// Texts past Safe's limits (goldmark is quadratic in some one-line
// constructs) are masked line by line, in linear time.
func TestHostileTextsAreNotParsed(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		strings.Repeat("[a](", 1<<18) + "`x`",
		strings.Repeat("> ", 1<<19) + "`x`",
		strings.Repeat("- ", 1<<19) + "`x`",
		strings.Repeat("*a `b` ", 1<<17),
		strings.Repeat("[a](x)\n", 1<<16) + "`x`", // short lines, over 256 KiB
	} {
		if Safe([]byte(s)) {
			t.Fatalf("%.20q… is within the limits", s)
		}
		got := MaskCode(s)
		if len(got) != len(s) || strings.Contains(got, "`x`") {
			t.Fatalf("%.20q…: not masked", s)
		}
		Unmarkable([]byte(s))
		if Headings([]byte(s)) != nil {
			t.Fatalf("headings of an unsafe text")
		}
	}
	if !Safe([]byte(strings.Repeat("short line\n", 1000))) {
		t.Fatal("a normal note is not safe")
	}
}

// RewriteLinks rewrites the links Scan reads: not those in code, nor
// images or embeds; with a link's #heading, a title, <angle> destinations,
// reference links and their definitions, wikilinks; and in a text past
// Safe's limits, line by line.
func TestRewriteLinks(t *testing.T) {
	t.Parallel()
	to := func(target string) (string, bool) {
		switch target {
		case "x.md":
			return "id", true
		case "gone.md":
			return "", true
		}
		return "", false
	}
	long := strings.Repeat("word ", 1000) // a 5 KB line: past Safe
	for in, want := range map[string]string{
		"See [a](x.md) and [b](y.md).":                    "See [[id|a]] and [b](y.md).",
		"`[a](x.md)` and [b](x.md)":                       "`[a](x.md)` and [[id|b]]",
		"```\n[a](x.md)\n```\n[b](x.md)\n":                "```\n[a](x.md)\n```\n[[id|b]]\n",
		"    [a](x.md)\n\n[b](x.md)":                      "    [a](x.md)\n\n[[id|b]]",
		"[c](x.md#Part) [d](<x.md> \"title\")":            "[[id#Part|c]] [[id|d]]",
		"[e][r] [r] [f][]\n\n[r]: x.md\n[f]: x.md\n":      "[[id|e]] [[id|r]] [[id|f]]\n\n[r]: </id.md>\n[f]: </id.md>\n",
		"[[x.md]] [[x.md#H|alias]] ![[x.md]] [[gone.md]]": "[[id|x.md]] [[id#H|alias]] ![[x.md]] gone.md",
		"```\n[r]: x.md\n```\n":                           "```\n[r]: x.md\n```\n",
		"![img](x.md) [g](gone.md) [[x]]":                 "![img](x.md) g [[x]]",
		"[a [nested] text](x.md) [two\nlines](x.md)":      "[a [nested] text](x.md) [two\nlines](x.md)",
		long + "[a](x.md) `[b](x.md)`\n":                  long + "[[id|a]] `[b](x.md)`\n",
	} {
		if got := RewriteLinks(in, to); got != want {
			t.Errorf("RewriteLinks(%.60q)\n got %q\nwant %q", in, got, want)
		}
	}
}
