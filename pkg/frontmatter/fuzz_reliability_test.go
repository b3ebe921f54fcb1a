package frontmatter

import "testing"

// FuzzParseTime: any string either is refused with a message or reads as a
// time that is written back (String) in a form ParseTime reads again as the
// same instant, date-only or not: a date mem writes is never one it cannot
// read.
func FuzzParseTime(f *testing.F) {
	for _, s := range []string{"2026-11-29", "2026-11-29T12:00:00Z", "2026-11-29T12:00:00.123456789+05:30",
		"2026-11-29T12:00", "2026-11-29 12:00:00", " 2026-02-30 ", "0000-01-01", "9999-12-31T23:59:59-23:59", "", "today"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tm, err := ParseTime(s)
		if err != nil {
			if err.Error() == "" {
				t.Fatalf("%q: empty error", s)
			}
			return
		}
		out := tm.String()
		if tm.IsZero() {
			return // the zero time is written as absent
		}
		again, err := ParseTime(out)
		if err != nil {
			t.Fatalf("%q reads as %v but is written as %q, which does not read back: %v", s, tm.Time, out, err)
		}
		if again.DateOnly != tm.DateOnly || !again.Time.Equal(tm.Time.Truncate(1e9)) {
			t.Fatalf("%q -> %q -> %v (date only %v), want %v (date only %v)", s, out, again.Time, again.DateOnly, tm.Time, tm.DateOnly)
		}
	})
}
