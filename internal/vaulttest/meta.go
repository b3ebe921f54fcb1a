package vaulttest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// EveryField returns a Meta holding a value, distinct from the others, in
// every field of frontmatter.Fields (nested maps with every key of theirs):
// the codec round-trip tests walk the table, so a field added to it is
// covered without a change to them. A kind they do not know fails t.
func EveryField(t testing.TB) frontmatter.Meta {
	t.Helper()
	var m frontmatter.Meta
	n := 0
	next := func(key string) string { n++; return fmt.Sprintf("%s-%d", key, n) }
	// Dates and datetimes alternate; both must come back in their form.
	when := func() frontmatter.Time {
		n++
		s := fmt.Sprintf("2026-01-%02dT03:04:05Z", n%28+1)
		if n%2 == 0 {
			s = s[:len("2026-01-02")]
		}
		tm, err := frontmatter.ParseTime(s)
		if err != nil {
			t.Fatal(err)
		}
		return tm
	}
	for _, f := range frontmatter.Fields {
		switch p := f.Value(&m).(type) {
		case *string:
			*p = next(f.Key)
		case *bool:
			*p = true
		case *int:
			*p = 7 // importance: 1 to 10
		case *frontmatter.Time:
			*p = when()
		case *[]string:
			*p = []string{next(f.Key), next(f.Key)}
		case **frontmatter.Actor:
			a := record(t, frontmatter.ActorFields, next, when)
			*p = &a
		case *[]frontmatter.Actor:
			*p = []frontmatter.Actor{record(t, frontmatter.ActorFields, next, when), record(t, frontmatter.ActorFields, next, when)}
		case *[]frontmatter.Source:
			*p = []frontmatter.Source{record(t, frontmatter.SourceFields, next, when), record(t, frontmatter.SourceFields, next, when)}
		case *[]frontmatter.Signal:
			*p = []frontmatter.Signal{record(t, frontmatter.SignalFields, next, when), record(t, frontmatter.SignalFields, next, when)}
		default:
			t.Fatalf("frontmatter field %s has a kind (%T) EveryField does not know: add it", f.Key, p)
		}
	}
	return m
}

func record[T any](t testing.TB, table []frontmatter.SubField[T], next func(string) string, when func() frontmatter.Time) (r T) {
	t.Helper()
	for _, f := range table {
		switch p := f.Value(&r).(type) {
		case *string:
			*p = next(f.Key)
		case *frontmatter.Time:
			*p = when()
		default:
			t.Fatalf("nested key %s has a kind (%T) EveryField does not know: add it", f.Key, p)
		}
	}
	return r
}

// SameFields compares got with want field by field of the table, naming
// the key that differs and the codec path took.
func SameFields(t testing.TB, path string, got, want frontmatter.Meta) {
	t.Helper()
	for _, f := range frontmatter.Fields {
		if g, w := reflect.ValueOf(f.Value(&got)).Elem().Interface(), reflect.ValueOf(f.Value(&want)).Elem().Interface(); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %s comes back as %+v, want %+v", path, f.Key, g, w)
		}
	}
}
