package main

import "errors"

// usageError marks a bad flag or argument (exit 2 with a usage hint).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

// checkError marks a failed check: lint errors, a refused gate, a failed
// verify (exit 1). An empty message means the command already reported.
type checkError struct{ msg string }

func (e checkError) Error() string { return e.msg }

// checkFailed returns an error that exits 1 with msg (or silently when empty).
func checkFailed(msg string) error { return checkError{msg} }

// usagef returns a usage error (exit 2).
func usagef(msg string) error { return usageError{errors.New(msg)} }

func exitCode(err error) int {
	var ce checkError
	if errors.As(err, &ce) {
		return 1
	}
	var ue usageError
	if errors.As(err, &ue) {
		return 2
	}
	// Everything else (urfave/cli's own flag errors, no vault, unreadable
	// files) is a usage or environment error.
	return 2
}
