package index

import (
	"reflect"
	"testing"
)

// parse reads only its three forms of syntax; the rest of a question is
// its words.
func TestParse(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   string
		want []clause
	}{
		{`Who is Caroline's mentor: Jane or Ann?`, []clause{{text: `Who is Caroline's mentor  Jane or Ann?`}}},
		{`Is it -5 degrees?`, []clause{{text: `Is it -5 degrees?`}}},
		{`2022-2023 (Mel) "kiln`, []clause{{text: `2022-2023 (Mel) "kiln`}}},
		{`+deploy -staging "release train" x`, []clause{{text: "x"}, {occur: must, text: "deploy"}, {occur: mustNot, text: "staging"}, {text: "release train", phrase: true}}},
		{`id:"valid/paul-graham" type:"BigQuery Table"`, []clause{{field: "id", text: "valid/paul-graham", phrase: true}, {field: "type", text: "BigQuery Table", phrase: true}}},
		{`-tags:draft title:deploy mentor: body:`, []clause{{text: "mentor  body "}, {occur: mustNot, field: "tags", text: "draft"}, {field: "title", text: "deploy"}}},
		{`+"" -`, []clause{{text: "-"}}},
	} {
		if got := parse(c.in); !reflect.DeepEqual(got, c.want) {
			t.Errorf("parse(%q)\n got %+v\nwant %+v", c.in, got, c.want)
		}
	}
}

// FuzzParse: any text parses without panic into clauses naming only the
// query language's fields, and the plain query it means is always built.
func FuzzParse(f *testing.F) {
	for _, s := range []string{`Who is Caroline's mentor: Jane or Ann?`, `Is it -5 degrees?`, `2022-2023 (Mel) "kiln`,
		`+deploy -staging "release train" x`, `id:"valid/paul-graham" type:"BigQuery Table"`, `-tags:draft title: "`, "+\xff-\"", "tags:\u00a0x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range parse(s) {
			if _, ok := queryFields[c.field]; c.field != "" && !ok {
				t.Fatalf("parse(%q) gave the field %q, which the query language does not name", s, c.field)
			}
		}
		if q, err := parseQuery(s, false); err != nil || q == nil {
			t.Fatalf("ParseQuery(%q) = %v, %v: plain language never fails", s, q, err)
		}
	})
}
