package tokens

import (
	"slices"
	"strings"
	"testing"

	"github.com/blevesearch/bleve/v2"
)

// terms is what the analyzer makes of s, as term@position.
func terms(t *testing.T, s string) []string {
	t.Helper()
	an, err := bleve.Config.Cache.AnalyzerNamed(Name)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tok := range an.Analyze([]byte(s)) {
		out = append(out, string(tok.Term))
	}
	return out
}

func TestAnalyzer(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		// Identifiers: each part and the parts joined (stemmed, as every
		// English word is).
		{"Node.js 20", "nodej node js 20"},
		{"eu-central-1", "eucentral1 eu central 1"},
		{"snake_case", "snakecas snake case"},
		{"camelCase JSONParser", "camelcas camel case jsonpars json parser"},
		// A possessive and a decimal stay whole; stop words go.
		{"Caroline's 3.5 of the", "carolin 3.5"},
		// Spaceless scripts: overlapping pairs, one character alone.
		{"机器学习", "机器 器学 学习"},
		{"東京タワー", "東京 京タ タワ ワー"},
		{"서울에서 사람", "서울 울에 에서 사람"},
		{"ภาษาไทย", "ภา าษ ษา าไ ไท ทย"},
		{"x 中 y", "x 中 y"},
		// A term over MaxTerm is left out, and a joined identifier that
		// would be; its parts are kept.
		{"a " + strings.Repeat("x", MaxTerm+1) + " b", "b"},
		{strings.Repeat("x", MaxTerm) + " b", strings.Repeat("x", MaxTerm) + " b"},
		{strings.Repeat("ab.", 130) + "c", strings.Repeat("ab ", 130) + "c"},
	} {
		got := terms(t, c.in)
		if want := strings.Fields(c.want); !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", c.in, got, want)
		}
	}
}

func TestAnalyzerPositions(t *testing.T) {
	t.Parallel()
	an, err := bleve.Config.Cache.AnalyzerNamed(Name)
	if err != nil {
		t.Fatal(err)
	}
	// The joined identifier stands at its first part's position, so a
	// phrase of the parts still finds them in order; offsets cover the
	// text each term came from, for highlighting.
	in := "in eu-central-1 now"
	var got []string
	for _, tok := range an.Analyze([]byte(in)) {
		got = append(got, string(tok.Term)+"@"+string(rune('0'+tok.Position))+"="+in[tok.Start:tok.End])
	}
	want := []string{"eucentral1@2=eu-central-1", "eu@2=eu", "central@3=central", "1@4=1", "now@5=now"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestExactKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"Instruct Model":     "instruct model",
		"  instruct-model? ": "instruct model",
		`"Node.js 20"`:       "node js 20",
		"机器学习":               "机器学习",
		"--":                 "",
	} {
		if got := ExactKey(in); got != want {
			t.Errorf("ExactKey(%q) = %q, want %q", in, got, want)
		}
	}
}
