// Package clock is the one reader of the system clock in pkg/. The date a
// command works at (what a memory is stamped with, what "stale" is judged
// against, what MEM_NOW pins) is never read here: cmd/mem hands it to the
// packages as an options field. What is read here must be the real time
// whatever the date is pinned to: how long a lock has been waited for, and
// when a scan started, to tell a file written during it (the racy window).
package clock

import "time"

// Now is the system's time, with the monotonic reading time.Since uses.
func Now() time.Time { return time.Now() }
