package index

import (
	"reflect"
	"testing"
)

// parse reads only its three forms of syntax; the rest of a question is
// its words.
func TestParse(t *testing.T) {
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
