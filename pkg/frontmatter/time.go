package frontmatter

import (
	"fmt"
	"strings"
	"time"
)

// Time is a frontmatter date or datetime. DateOnly remembers that the file
// said YYYY-MM-DD, so it is written back the same way (Obsidian's "date"
// property type) instead of growing a clock.
type Time struct {
	time.Time
	DateOnly bool
}

const dateLayout = "2006-01-02"

// Layouts accepted for datetimes: RFC 3339, and the zone-less forms Obsidian's
// "date & time" property writes (read as UTC, so renders stay deterministic).
var datetimeLayouts = []string{
	time.RFC3339Nano,
	"2006-01-02T15:04:05",
	"2006-01-02T15:04",
	"2006-01-02 15:04:05",
	"2006-01-02 15:04",
}

// ParseTime reads YYYY-MM-DD or an RFC 3339 datetime.
func ParseTime(s string) (Time, error) {
	s = strings.TrimSpace(s)
	t, err := parseTime(s)
	// The first instant of year 1 is Go's zero time, which mem reads as no
	// date at all: taken as a date it vanished on the next rewrite.
	if err == nil && t.IsZero() {
		return Time{}, &kindError{BadDate, fmt.Sprintf("%q is the first instant of year 1, which reads as no date: write the real date", s)}
	}
	if err == nil && !InRange(t.Time) {
		return Time{}, &kindError{BadDate, fmt.Sprintf("%q is outside the years 0001 to 9999: write the real date", s)}
	}
	return t, err
}

// InRange reports whether t is a date mem reads back: its year has four
// digits, from 0001 to 9999 (YYYY-MM-DD and RFC 3339 write no more, and
// year 0 is before the calendar's first). Writers check computed dates
// (a ttl) with it; ParseTime refuses any other.
func InRange(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 1 && y <= 9999
}

func parseTime(s string) (Time, error) {
	// Only a string of the layout's length can be a date: skip the failed
	// parse (and its error value) for every datetime.
	if len(s) == len(dateLayout) {
		if t, err := time.Parse(dateLayout, s); err == nil {
			return Time{Time: t, DateOnly: true}, nil
		}
	}
	for _, layout := range datetimeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			return Time{Time: t}, nil
		}
	}
	return Time{}, &kindError{BadDate, fmt.Sprintf("%q is not a date: write YYYY-MM-DD or an RFC 3339 datetime like 2026-01-02T15:04:05Z", s)}
}

// String formats the time the way it was read: a date, or RFC 3339.
func (t Time) String() string {
	if t.IsZero() {
		return ""
	}
	if t.DateOnly {
		return t.Format(dateLayout)
	}
	return t.Format(time.RFC3339)
}

// Day is the calendar date (YYYY-MM-DD) of the time.
func (t Time) Day() string {
	if t.IsZero() {
		return ""
	}
	return t.Format(dateLayout)
}

// NewTime wraps a datetime (not date-only), truncated to the second.
func NewTime(t time.Time) Time { return Time{Time: t.UTC().Truncate(time.Second)} }

// StaleInstant is the stale_after mem writes for the day of t: midnight UTC
// as an RFC 3339 datetime, the form OKF requires since 2026-08 (its
// reference is_stale ignores a bare date).
func StaleInstant(t time.Time) Time {
	y, m, d := t.Date()
	return Time{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC)}
}

// NewDate wraps the calendar date of t.
func NewDate(t time.Time) Time {
	y, m, d := t.Date()
	return Time{Time: time.Date(y, m, d, 0, 0, 0, 0, time.UTC), DateOnly: true}
}
