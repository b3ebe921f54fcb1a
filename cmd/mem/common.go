package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// interruptible is ctx, cancelled by Ctrl-C (SIGINT) or SIGTERM, for a
// long command that stops at its next safe point and says what it kept
// (spec §4: exit 130). Only such commands catch the signal: any other is
// still ended by it at once, as the default disposition does, rather than
// running on with Ctrl-C ignored.
func interruptible(ctx context.Context) (context.Context, context.CancelFunc) {
	return signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
}

// openVault finds and opens the vault named by --vault, $MEM_VAULT or the
// working directory.
func openVault(cmd *cli.Command) (*vault.Vault, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return nil, err
	}
	root, err := vault.Find(cmd.String("vault"), os.Getenv("MEM_VAULT"), cwd)
	if err != nil {
		return nil, err
	}
	return vaultOptions().Open(root)
}

// vaultOptions is what a vault takes from this process (pkg/vault reads no
// environment): the home folder, for ~ in paths and the roots too wide to
// be a vault or a project's, and the scanner that holds back a file whose
// name holds a secret. A daemon's client has the daemon's home
// (the daemon declines another), so one answer serves both.
func vaultOptions() vault.Options {
	home, _ := os.UserHomeDir()
	return vault.Options{Home: home, SecretInName: rules.NameRule}
}

// vaultNote is " (vault ROOT)" for a human-readable summary when the vault
// was found (the working directory, $MEM_VAULT) rather than named by
// --vault (spec §2): standing in one vault with $MEM_VAULT set to another,
// the user sees which one the command used.
func vaultNote(cmd *cli.Command, v *vault.Vault) string {
	if !vaultFound(cmd) {
		return ""
	}
	return " (vault " + v.Root + ")"
}

// vaultFound reports that the vault was not named by --vault.
func vaultFound(cmd *cli.Command) bool { return cmd.String("vault") == "" }

// now is the clock every command uses; MEM_NOW pins it for tests and for
// reproducible runs (RFC 3339 or YYYY-MM-DD).
func now() time.Time {
	if s := os.Getenv("MEM_NOW"); s != "" {
		if t, err := parseTimeFlag(s); err == nil {
			return t
		}
	}
	return time.Now().UTC()
}

// writeJSON prints v as indented JSON on w, every character a terminal
// would act on as a JSON escape (rules.EscapeJSON).
func writeJSON(w io.Writer, v any) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(rules.EscapeJSON(b.Bytes()))
	return err
}

// isAre is the verb for n things.
func isAre(n int) string {
	if n == 1 {
		return "is"
	}
	return "are"
}

// parseTimeFlag reads a date or datetime flag value.
func parseTimeFlag(s string) (time.Time, error) {
	t, err := frontmatter.ParseTime(s)
	return t.Time, err
}

// reportSkip handles a scheduled job skipped on purpose (history.SkipError:
// git or another mem is busy): it says so on stderr (and as JSON) and the
// command exits 0, as the next run does the work. skipped is false, and
// err passed back, for any other outcome.
func reportSkip(cmd *cli.Command, err error) (skipped bool, _ error) {
	var skip *history.SkipError
	if !errors.As(err, &skip) {
		return false, err
	}
	fmt.Fprintf(cmd.Root().ErrWriter, "mem %s: %s\n", cmd.Name, skip.Error())
	if cmd.Bool("json") {
		return true, writeJSON(cmd.Root().Writer, map[string]string{"skipped": skip.Reason})
	}
	return true, nil
}

// The garbage collector's target (GOGC) for the processes that keep
// most of their heap (setGC).
const (
	// wholeVaultGC lets the heap grow to three times the live heap in a
	// short process that holds the whole vault live (lint, audit): every
	// collection before the exit finds little to free. On the 50k bench
	// vault whole-vault lint went from 1.10-1.18 s to 1.02-1.04 s for
	// ~40 MiB more peak RSS.
	wholeVaultGC = 200
	// daemonGC lets a daemon (mem watch, mem serve) grow its heap to five
	// times the live heap between collections. Its live heap is small
	// (~22 MiB at 50k files with 50 clients searching: the index is
	// mapped, not on the heap) and a search leaves ~1 MB of garbage, so
	// at Go's default a collection started every ~100 ms, and marking and
	// its write barriers took ~20% of the CPU of mem serve's searches. At
	// 400 the 50k bench's searches took ~20% less CPU for ~85 MiB more RSS
	// (~215 MiB); the daemon hands memory back when idle, and its index
	// builds and merges run under their own soft limit (index.limitHeap).
	daemonGC = 400
)

// setGC sets the collector's target to percent unless the user set GOGC.
func setGC(percent int) {
	if os.Getenv("GOGC") == "" {
		gcMu.Lock()
		defer gcMu.Unlock()
		gcSet = true
		debug.SetGCPercent(percent)
	}
}

// firstGC is the collector's target until the first collection of a
// process (putOffFirstGC): 16 MiB of heap instead of Go's 4 MiB.
const firstGC = 400

// gcSet is whether the command chose its collector's target (setGC).
var (
	gcMu  sync.Mutex
	gcSet bool
)

// putOffFirstGC lets a process's heap reach 16 MiB before its first
// collection, then collects at Go's default target (or the command's,
// setGC). Most commands finish below that and collect never: a `mem
// remember` collected twice at Go's 4 MiB floor (GODEBUG=gctrace=1), and
// 76 of them took ~7% less CPU without. A user's GOGC is kept.
func putOffFirstGC() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(firstGC)
	sentinel := new([32]byte) // its finalizer runs after the first collection
	runtime.SetFinalizer(sentinel, func(*[32]byte) {
		gcMu.Lock()
		defer gcMu.Unlock()
		if !gcSet {
			debug.SetGCPercent(100)
		}
	})
}
