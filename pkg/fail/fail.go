// Package fail names what kind of failure an error is, so the command
// layer can map every error to the spec's exit codes in one table (cmd/mem
// errors.go) instead of each command matching error types: a domain error
// says what it is by having a Kind method; errors without one are
// environment errors (a file that cannot be read, no vault).
package fail

import (
	"context"
	"errors"
	"fmt"
)

// Kind is what a failure means to the person or script that ran mem.
type Kind int

const (
	// Environment: the world is not as mem needs it (no vault, an
	// unreadable file, a lock held too long). Exit 2.
	Environment Kind = iota
	// Check: mem did its job and the answer is no (lint errors, a write
	// the rules refuse, a gate refused, a failed verify). Exit 1.
	Check
	// Usage: the command line is wrong (a bad flag, an unknown or
	// ambiguous id). Exit 2, with the usage hint.
	Usage
	// Skipped: the work was skipped on purpose and the next scheduled run
	// does it (git is busy). Exit 0, saying so.
	Skipped
	// Interrupted: the user stopped the command (SIGINT); what it kept is
	// said. Exit 130 (spec §4).
	Interrupted
)

// Of is err's kind: the Kind method of the first error in its chain that
// has one, else Environment.
func Of(err error) Kind {
	var k interface{ Kind() Kind }
	if errors.As(err, &k) {
		return k.Kind()
	}
	return Environment
}

// Error is an error of a given kind, for failures no domain type names.
type Error struct {
	k   Kind
	err error
}

func (e *Error) Error() string { return e.err.Error() }
func (e *Error) Unwrap() error { return e.err }
func (e *Error) Kind() Kind    { return e.k }

// Stopped is an Interrupted error once ctx is done (Ctrl-C, a daemon's
// shutdown), saying what was stopped; nil while ctx runs, and for a nil ctx.
func Stopped(ctx context.Context, what string) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return As(Interrupted, fmt.Errorf("%s was interrupted: %w", what, ctx.Err()))
}

// As wraps err as a failure of kind k (nil stays nil).
func As(k Kind, err error) error {
	if err == nil {
		return nil
	}
	return &Error{k: k, err: err}
}
