package frontmatter_test

import (
	"bytes"
	"reflect"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// TestFieldsCoverMeta: every field of Meta (and of the nested maps) is
// reached by exactly one entry of its table, so the codecs, which walk
// the tables, cannot miss one.
func TestFieldsCoverMeta(t *testing.T) {
	t.Parallel()
	var m frontmatter.Meta
	cover(t, &m, frontmatter.Fields, func(f frontmatter.Field) (string, any) { return f.Key, f.Value(&m) })
	var a frontmatter.Actor
	cover(t, &a, frontmatter.ActorFields, func(f frontmatter.SubField[frontmatter.Actor]) (string, any) { return f.Key, f.Value(&a) })
	var s frontmatter.Source
	cover(t, &s, frontmatter.SourceFields, func(f frontmatter.SubField[frontmatter.Source]) (string, any) { return f.Key, f.Value(&s) })
	var g frontmatter.Signal
	cover(t, &g, frontmatter.SignalFields, func(f frontmatter.SubField[frontmatter.Signal]) (string, any) { return f.Key, f.Value(&g) })
}

func cover[S, F any](t *testing.T, s *S, table []F, at func(F) (string, any)) {
	t.Helper()
	v := reflect.ValueOf(s).Elem()
	owner := map[uintptr]string{}
	for _, f := range table {
		key, p := at(f)
		addr := reflect.ValueOf(p).Pointer()
		if other, ok := owner[addr]; ok {
			t.Errorf("%s: keys %s and %s point at the same field", v.Type(), other, key)
		}
		owner[addr] = key
	}
	for i := range v.NumField() {
		if _, ok := owner[v.Field(i).Addr().Pointer()]; !ok {
			t.Errorf("%s.%s is in no entry of its table: the parser, marshaller and cache would all skip it", v.Type(), v.Type().Field(i).Name)
		}
	}
	if len(owner) != v.NumField() {
		t.Errorf("%s: %d table entries for %d fields", v.Type(), len(owner), v.NumField())
	}
}

// TestEveryFieldRoundTrips: a value in every field of the table is
// marshalled, parsed on the fast path and on yaml.v3, and marshalled
// again: the same Meta each time, the same bytes. (pkg/vault's
// TestEveryFieldThroughCache takes the same value through the parse cache.)
func TestEveryFieldRoundTrips(t *testing.T) {
	t.Parallel()
	want := vaulttest.EveryField(t)
	doc := &frontmatter.Document{Meta: want, Body: "Body.\n"}
	data := doc.Marshal()
	fast, accepted, slow, err := frontmatter.ParseBoth(data)
	if err != nil || len(slow.Problems) > 0 || len(slow.Extra) > 0 {
		t.Fatalf("yaml.v3 reads mem's own output with error %v, problems %v, kept %v:\n%s", err, slow.Problems, slow.Extra, data)
	}
	if !accepted {
		t.Errorf("the fast path declines mem's own output:\n%s", data)
	}
	for _, got := range []struct {
		path string
		doc  *frontmatter.Document
	}{{"yaml.v3", slow}, {"fast path", fast}} {
		if got.path == "fast path" && !accepted {
			continue
		}
		vaulttest.SameFields(t, got.path, got.doc.Meta, want)
		if len(got.doc.Keys) != len(frontmatter.Fields) {
			t.Errorf("%s: %d keys read, want the %d of the table:\n%s", got.path, len(got.doc.Keys), len(frontmatter.Fields), data)
		}
		if again := got.doc.Marshal(); !bytes.Equal(again, data) {
			t.Errorf("%s: marshalled again:\n%s\nwant:\n%s", got.path, again, data)
		}
	}
}

// keptYAML holds a kept key of every Value kind, in the forms people write
// them: Marshal must give each back byte for byte, in its place.
const keptYAML = `cssclasses: [wide]
count: 3
ratio: 0.5
draft: false
due: 2026-02-03
quoted: '2026-02-03'
nothing:
meta: {a: 1, b: [x, y]}
anchored: &a shared
again: *a
multi: |
  line one
  line two
`

// TestKeptKeysRoundTrip is TestEveryFieldRoundTrips with kept keys beside
// every field: mem's extension keys set by its writers and other tools'
// keys of every kind. yaml.v3 reads them in file order with their kinds;
// the fast path declines the file (kept values are yaml.v3's nodes);
// Marshal writes them back as they were, and again the same. (pkg/vault's
// TestKeptKeysNeverCached holds the fourth path: the parse cache records
// no file with a kept key, so its codec never has to carry one.)
func TestKeptKeysRoundTrip(t *testing.T) {
	t.Parallel()
	want := vaulttest.EveryField(t)
	doc := &frontmatter.Document{Meta: want, Body: "Body.\n"}
	doc.SetKeptText(frontmatter.InvalidReasonKey, "it: changed")
	doc.SetKeptTime(frontmatter.PromotedAtKey, want.ValidAt)
	doc.SetKeptText(frontmatter.ImportKey, "claude-code/x")
	doc.Extra = append(doc.Extra, frontmatter.KeyValue{Key: "list", Value: frontmatter.NewList("a", "b")})
	written := string(doc.Marshal())
	end := strings.LastIndex(written, "---\nBody.")
	data := []byte(written[:end] + keptYAML + written[end:])

	fast, accepted, slow, err := frontmatter.ParseBoth(data)
	if err != nil || len(slow.Problems) > 0 {
		t.Fatalf("yaml.v3: error %v, problems %v:\n%s", err, slow.Problems, data)
	}
	if accepted || len(fast.Extra) > 0 {
		t.Errorf("the fast path accepted a file with kept keys (kept %v):\n%s", fast.Extra, data)
	}
	vaulttest.SameFields(t, "yaml.v3", slow.Meta, want)
	type kept struct {
		key  string
		kind frontmatter.ValueKind
		text string
	}
	wantKept := []kept{
		{frontmatter.InvalidReasonKey, frontmatter.TextValue, "it: changed"},
		{frontmatter.PromotedAtKey, frontmatter.DateValue, want.ValidAt.String()},
		{frontmatter.ImportKey, frontmatter.TextValue, "claude-code/x"},
		{"list", frontmatter.ListValue, ""},
		{"cssclasses", frontmatter.ListValue, ""},
		{"count", frontmatter.NumberValue, "3"},
		{"ratio", frontmatter.NumberValue, "0.5"},
		{"draft", frontmatter.BoolValue, "false"},
		{"due", frontmatter.DateValue, "2026-02-03"},
		{"quoted", frontmatter.TextValue, "2026-02-03"},
		{"nothing", frontmatter.NullValue, ""},
		{"meta", frontmatter.MapValue, ""},
		{"anchored", frontmatter.TextValue, "shared"},
		{"again", frontmatter.AliasValue, ""},
		{"multi", frontmatter.TextValue, "line one\nline two\n"},
	}
	var got []kept
	for _, kv := range slow.Extra {
		got = append(got, kept{kv.Key, kv.Value.Kind(), kv.Value.Text()})
	}
	if !reflect.DeepEqual(got, wantKept) {
		t.Errorf("kept keys read as\n%v\nwant\n%v", got, wantKept)
	}
	if items := slow.Extra[3].Value.Items(); len(items) != 2 || items[1].Text() != "b" {
		t.Errorf("list items = %v, want a, b", items)
	}
	out := slow.Marshal()
	if !bytes.Equal(out, data) {
		t.Errorf("marshalled:\n%s\nwant the file as read:\n%s", out, data)
	}
	again, err := frontmatter.Parse(out)
	if err != nil {
		t.Fatal(err)
	}
	vaulttest.SameFields(t, "parse of Marshal", again.Meta, want)
	if len(again.Extra) != len(slow.Extra) {
		t.Fatalf("%d kept keys after a rewrite, want %d", len(again.Extra), len(slow.Extra))
	}
	for i, kv := range again.Extra {
		if kv.Key != slow.Extra[i].Key || kv.Value.String() != slow.Extra[i].Value.String() {
			t.Errorf("kept key %d after a rewrite: %s: %s, want %s: %s", i, kv.Key, kv.Value, slow.Extra[i].Key, slow.Extra[i].Value)
		}
	}
}
