package main

import (
	"errors"

	"github.com/mem-md/mem/pkg/fail"
)

// exitCodes is the one table from a failure's kind to the spec's exit codes
// (§4): 0 success (warnings allowed, or skipped on purpose), 1 the command's
// check failed, 2 usage or environment error, 130 interrupted. Domain errors say their kind
// (pkg/fail); anything else is an environment error.
var exitCodes = map[fail.Kind]int{
	fail.Skipped:     0,
	fail.Check:       1,
	fail.Usage:       2,
	fail.Environment: 2,
	fail.Interrupted: 130,
}

func exitCode(err error) int { return exitCodes[fail.Of(err)] }

// usageError marks a bad flag or argument (exit 2 with a usage hint).
type usageError struct{ err error }

func (e usageError) Error() string   { return e.err.Error() }
func (e usageError) Kind() fail.Kind { return fail.Usage }

// checkError marks a failed check the command reported itself (exit 1).
// An empty message means there is nothing more to say.
type checkError struct{ msg string }

func (e checkError) Error() string   { return e.msg }
func (e checkError) Kind() fail.Kind { return fail.Check }

// checkFailed returns an error that exits 1 with msg (or silently when empty).
func checkFailed(msg string) error { return checkError{msg} }

// usagef returns a usage error (exit 2).
func usagef(msg string) error { return usageError{errors.New(msg)} }
