package frontmatter_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// TestFieldsCoverMeta: every field of Meta (and of the nested maps) is
// reached by exactly one entry of its table, so the codecs, which walk
// the tables, cannot miss one.
func TestFieldsCoverMeta(t *testing.T) {
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
