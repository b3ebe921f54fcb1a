package frontmatter

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParsePositionsAndTypes(t *testing.T) {
	t.Parallel()
	src := "---\r\ntype: fact\r\nprovenance: stated\r\nvalid_at: 2026-01-02\r\nimportance: 11\r\ncustom: {a: 1}\r\ntags: solo\r\n---\r\nFirst line\r\nsecond\r\n"
	doc, err := Parse(append([]byte("\xEF\xBB\xBF"), src...))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Meta.Type != "fact" || doc.Meta.Provenance != "stated" {
		t.Errorf("meta = %+v", doc.Meta)
	}
	if got := doc.Meta.ValidAt.String(); got != "2026-01-02" || !doc.Meta.ValidAt.DateOnly {
		t.Errorf("valid_at = %q dateOnly=%v", got, doc.Meta.ValidAt.DateOnly)
	}
	if !reflect.DeepEqual(doc.Meta.Tags, []string{"solo"}) {
		t.Errorf("a scalar tag is a one-element list, got %v", doc.Meta.Tags)
	}
	if doc.Keys["importance"] != (Pos{5, 1}) {
		t.Errorf("importance at %v, want 5:1", doc.Keys["importance"])
	}
	if len(doc.Problems) != 1 || doc.Problems[0].Key != "importance" || doc.Problems[0].Line != 5 {
		t.Errorf("problems = %+v", doc.Problems)
	}
	if doc.BodyLine != 9 || doc.Summary() != "First line" {
		t.Errorf("body line %d, summary %q", doc.BodyLine, doc.Summary())
	}
	// The bad importance and the unknown key survive a rewrite.
	out := string(doc.Marshal())
	for _, want := range []string{"importance: 11", "custom: {a: 1}"} {
		if !strings.Contains(out, want) {
			t.Errorf("rewrite lost %q:\n%s", want, out)
		}
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src, rule string
		line            int
	}{
		{"missing", "# just a heading\n", "frontmatter-missing", 1},
		{"unterminated", "---\ntype: fact\nbody text\n", "frontmatter-unterminated", 1},
		{"only opening fence", "---", "frontmatter-unterminated", 1},
		{"yaml syntax (the line of the unclosed flow, not the one before)", "---\ntype: fact\ntags: [a, b\n---\nx\n", "frontmatter-yaml", 3},
		{"not a map", "---\n- a\n- b\n---\nx\n", "frontmatter-yaml", 2},
		{"tab indentation", "---\ntype: fact\n\tbad: x\n---\n", "frontmatter-yaml", 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.src))
			fe, ok := err.(*Error)
			if !ok {
				t.Fatalf("err = %v, want *Error", err)
			}
			if fe.Rule != tc.rule || fe.Line != tc.line {
				t.Errorf("got %s at line %d (%s), want %s at line %d", fe.Rule, fe.Line, fe.Msg, tc.rule, tc.line)
			}
		})
	}
}

func TestParseDates(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ in, out string }{
		{"2026-01-02", "2026-01-02"},
		{"2026-01-02T03:04:05Z", "2026-01-02T03:04:05Z"},
		{"2026-01-02T03:04:05+02:00", "2026-01-02T03:04:05+02:00"},
		{"2026-01-02T03:04", "2026-01-02T03:04:00Z"},
	} {
		got, err := ParseTime(tc.in)
		if err != nil || got.String() != tc.out {
			t.Errorf("ParseTime(%q) = %q, %v; want %q", tc.in, got.String(), err, tc.out)
		}
	}
	for _, bad := range []string{"", "yesterday", "2026-13-01", "02/01/2026", "0001-01-01", "0001-01-01T00:00:00Z"} {
		if _, err := ParseTime(bad); err == nil {
			t.Errorf("ParseTime(%q) accepted", bad)
		}
	}
}

// roundTrip checks parse → marshal → parse is lossless and marshal is stable.
func roundTrip(t *testing.T, data []byte) {
	t.Helper()
	d1, err := Parse(data)
	if err != nil {
		return // nothing to round-trip
	}
	out1 := d1.Marshal()
	d2, err := Parse(out1)
	if err != nil {
		t.Fatalf("re-parse of marshalled output failed: %v\ninput:\n%q\noutput:\n%q", err, data, out1)
	}
	if !reflect.DeepEqual(d1.Meta, d2.Meta) {
		t.Fatalf("meta changed:\n%+v\n%+v\ninput %q", d1.Meta, d2.Meta, data)
	}
	if d1.Body != d2.Body {
		t.Fatalf("body changed: %q -> %q", d1.Body, d2.Body)
	}
	if len(d1.Extra) != len(d2.Extra) {
		t.Fatalf("extra keys changed: %d -> %d", len(d1.Extra), len(d2.Extra))
	}
	if out2 := d2.Marshal(); !bytes.Equal(out1, out2) {
		t.Fatalf("marshal not stable:\n%s\n---\n%s", out1, out2)
	}
}

func exampleFiles(t testing.TB) [][]byte {
	var files [][]byte
	filepath.WalkDir("../../examples/vault", func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".md") {
			data, _ := os.ReadFile(p)
			files = append(files, data)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatal("no example files found")
	}
	return files
}

func TestRoundTripExamples(t *testing.T) {
	t.Parallel()
	for _, data := range exampleFiles(t) {
		if _, err := Parse(data); err != nil {
			t.Errorf("example does not parse: %v\n%s", err, data)
		}
		roundTrip(t, data)
	}
}

func FuzzParse(f *testing.F) {
	for _, data := range exampleFiles(f) {
		f.Add(data)
	}
	f.Add([]byte("---\na: &x [1]\nb: *x\ntype: fact\n---\n"))
	f.Add([]byte("---\nsignals: [{session: s, at: 2026-01-01, evidence: e}]\n---\nbody"))
	f.Fuzz(func(t *testing.T, data []byte) {
		roundTrip(t, data)
	})
}

func TestAliasToTypedKeySurvivesRewrite(t *testing.T) {
	t.Parallel()
	roundTrip(t, []byte("---\ntags: &x [a]\nfoo: *x\n---\nbody\n"))
	roundTrip(t, []byte("---\nfoo: &x [a]\ntags: *x\n---\nbody\n"))
}

// TestDuplicateKnownKeySurvivesRewrite: a known key given twice, one of
// its values a map mem keeps verbatim, is written back twice as it was
// (FuzzParse found both occurrences dropped).
func TestDuplicateKnownKeySurvivesRewrite(t *testing.T) {
	t.Parallel()
	data := []byte("---\ntype: fact\ngenerated: \ngenerated:\n  by: x\n  extra: y\n---\nbody\n")
	roundTrip(t, data)
	d, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if out := string(d.Marshal()); strings.Count(out, "generated:") != 2 || !strings.Contains(out, "extra: y") {
		t.Fatalf("rewrite lost an occurrence:\n%s", out)
	}
}

// TestAliasesKeptAsWritten: a kept value's aliases are written back as
// aliases (issue 28: `mem pin` expanded a 32 KB note to 80 MB), a memory
// using them is flagged at the anchor's line, and an alias bomb costs
// nothing to read or rewrite.
func TestAliasesKeptAsWritten(t *testing.T) {
	t.Parallel()
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\nf: [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	note := "---\ntype: note\n" + bomb + "---\nbody\n"
	d, err := Parse([]byte(note))
	if err != nil || len(d.Problems) != 0 {
		t.Fatalf("a note may use aliases: err %v, problems %+v", err, d.Problems)
	}
	if out := string(d.Marshal()); out != note {
		t.Fatalf("rewrite changed the note:\n%s", out)
	}
	d, err = Parse([]byte("---\ntype: fact\nprovenance: stated\n" + bomb + "---\nbody\n"))
	if err != nil || len(d.Problems) != 1 || d.Problems[0].Kind != Alias || d.Problems[0].Pos != (Pos{4, 4}) || d.Problems[0].Key != "a" {
		t.Fatalf("a memory's anchor is a problem at its line: err %v, problems %+v", err, d.Problems)
	}
}

// TestAliasBombThroughTypedKeysRefused: an anchor on a key mem writes in
// its own form is not written back, so its aliases are expanded, and that
// expansion is bounded.
func TestAliasBombThroughTypedKeysRefused(t *testing.T) {
	t.Parallel()
	bomb := "---\ntype: note\naliases: &a [x,x,x,x,x,x,x,x,x,x]\nroots: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\ntags: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nsupersedes: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\nsources: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\n---\n"
	_, err := Parse([]byte(bomb))
	if fe, ok := err.(*Error); !ok || fe.Rule != "frontmatter-yaml" {
		t.Fatalf("alias bomb: err = %v", err)
	}
}

func TestBareMapIsOneElementList(t *testing.T) {
	t.Parallel()
	doc, err := Parse([]byte("---\ntype: fact\nverified: {by: human:dana, at: 2026-01-02}\ntags: {a: 1}\n---\nx\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Meta.Verified) != 1 || doc.Meta.Verified[0].By != "human:dana" {
		t.Errorf("verified = %+v", doc.Meta.Verified)
	}
	if len(doc.Problems) != 1 || doc.Problems[0].Key != "tags" {
		t.Errorf("a map of tags is still a problem: %+v", doc.Problems)
	}
	roundTrip(t, []byte("---\nverified: {by: human:dana, at: 2026-01-02}\n---\nx\n"))
}

func TestDuplicateKeyKeptAndReported(t *testing.T) {
	t.Parallel()
	doc, err := Parse([]byte("---\ntype: fact\ntags: [a]\nid: x\ntags: [b]\ntags: c\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	if doc.Meta.Tags != nil || doc.Meta.ID != "x" {
		t.Errorf("a key given twice must not be typed: meta = %+v", doc.Meta)
	}
	if doc.Keys["tags"] != (Pos{3, 1}) {
		t.Errorf("tags at %v, want its first line 3:1", doc.Keys["tags"])
	}
	if len(doc.Extra) != 3 || doc.Extra[0].Value.Items()[0].Text() != "a" || doc.Extra[2].Value.Text() != "c" {
		t.Errorf("every occurrence is kept in file order: %+v", doc.Extra)
	}
	if len(doc.Problems) != 2 || doc.Problems[0].Line != 5 || doc.Problems[1].Line != 6 || doc.Problems[0].Key != "tags" {
		t.Errorf("problems = %+v, want the 2nd and 3rd tags (lines 5, 6)", doc.Problems)
	}
}

// Each field problem says what kind it is, also inside nested maps, so no
// reader has to match the message.
func TestFieldErrorKinds(t *testing.T) {
	t.Parallel()
	src := "---\ntype: fact\ntags: a\ntags: b\nvalid_at: soon\nverified: {by: x, at: later}\nimportance: 11\npinned: maybe\ntitle: [a, b]\nsignals: [{session: s, oops: 1}]\n---\n"
	doc, err := Parse([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]FieldKind{"tags": Duplicate, "valid_at": BadDate, "verified": BadDate, "importance": BadValue, "pinned": BadValue, "title": WrongType, "signals": WrongType}
	got := map[string]FieldKind{}
	for _, p := range doc.Problems {
		got[p.Key] = p.Kind
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("kinds = %v, want %v (problems %+v)", got, want, doc.Problems)
	}
}

// TestReplacedAnchorStillParses: a writer that replaces an anchored value
// (retire's invalid_reason) leaves its aliases naming nothing; the rewrite
// writes them out instead of a file whose YAML no longer parses.
func TestReplacedAnchorStillParses(t *testing.T) {
	t.Parallel()
	d, err := Parse([]byte("---\ntype: note\ninvalid_reason: &r old\nwhy: [*r, *r]\n---\nbody\n"))
	if err != nil {
		t.Fatal(err)
	}
	d.SetKeptText("invalid_reason", "new")
	out := d.Marshal()
	if !strings.Contains(string(out), "why: [old, old]") {
		t.Fatalf("the alias was not written out:\n%s", out)
	}
	if _, err := Parse(out); err != nil {
		t.Fatalf("rewrite does not parse: %v\n%s", err, out)
	}
	if again := d.Marshal(); !bytes.Equal(again, out) || d.Extra[1].Value.Items()[0].Kind() != AliasValue {
		t.Fatalf("Marshal changed the document")
	}
}

// TestEvidenceRoundTrips: evidence is a known key (spec §3): typed on
// parse, never kept as an unknown one, and written back as it was.
func TestEvidenceRoundTrips(t *testing.T) {
	t.Parallel()
	data := []byte("---\ntype: fact\nprovenance: observed\nevidence: 'curl -sI https://example.org: 200 at 2026-11-29T12:00Z'\n---\nThe site is up.\n")
	d, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if want := "curl -sI https://example.org: 200 at 2026-11-29T12:00Z"; d.Meta.Evidence != want || len(d.Extra) != 0 {
		t.Fatalf("evidence = %q, extra %v; want %q and no kept key", d.Meta.Evidence, d.Extra, want)
	}
	if out := d.Marshal(); !bytes.Equal(out, data) {
		t.Fatalf("rewritten:\n%s\nwant:\n%s", out, data)
	}
	roundTrip(t, data)
}
