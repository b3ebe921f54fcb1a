package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

func editCommand() *cli.Command {
	return &cli.Command{
		Name:      "edit",
		Usage:     "open a memory or note in $VISUAL or $EDITOR; the saved file is checked before it is written",
		ArgsUsage: "ID",
		Description: "The file is copied to .mem/edit/ and opened there. On save it is linted and checked against\n" +
			"every rule of the writers (secrets, injections, the gate, size): an invalid edit is offered\n" +
			"again on a terminal, else kept aside in .mem/edits/ (exit 1); it is never written, and the next\n" +
			"'mem edit ID' reopens it (while the file is as it was) so you fix what was refused. If the file\n" +
			"changed while you edited it, your version is kept aside and nothing is overwritten (exit 1).",
		Action: runEdit,
	}
}

func runEdit(ctx context.Context, cmd *cli.Command) error {
	ref, err := oneID(cmd, "mem edit 2a3ee3")
	if err != nil {
		return err
	}
	v, err := openVault(cmd)
	if err != nil {
		return err
	}
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return err
	}
	m, err := v.FindMemory(mems, ref)
	if err != nil {
		return err
	}
	changed, err := editFile(cmd, v, m)
	if err != nil {
		return err
	}
	return printEdited(cmd, v, m, changed)
}

// editFile runs the editor on a copy of m and writes the result through
// writer.Edit, compare-and-swap against the bytes the editor was given.
func editFile(cmd *cli.Command, v *vault.Vault, m *vault.Memory) (bool, error) {
	original, err := os.ReadFile(m.Path)
	if err != nil {
		return false, err
	}
	dir := filepath.Join(v.StateDir(), "edit")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return false, err
	}
	// A refused edit of this very version was kept aside: reopen it, so
	// fixing it means fixing what was refused, not typing it all again.
	start, keptPath := original, ""
	if kp, data := keptEdit(v, m, original); kp != "" {
		start, keptPath = data, kp
		fmt.Fprintf(cmd.Root().ErrWriter, "mem edit: reopening your edit kept in %s (it was not written); save the file as it is to discard it\n", v.Rel(kp))
	}
	work := filepath.Join(dir, filepath.Base(m.Rel))
	if err := vault.WriteFileAtomic(work, start, 0o600); err != nil {
		return false, err
	}
	defer os.Remove(work)
	interactive := isTerminal(os.Stdin)
	in := bufio.NewReader(os.Stdin)
	for {
		if err := runEditor(cmd, work); err != nil {
			return false, err
		}
		data, err := os.ReadFile(work)
		if err != nil {
			return false, err
		}
		if string(data) == string(original) {
			if keptPath != "" {
				os.Remove(keptPath) // fixed back to the file as it is: the kept edit is given up
			}
			return false, nil
		}
		if keptPath != "" && string(data) == string(start) {
			// The reopened kept edit saved as it is: what the message
			// promised — discarded, nothing written (issue 42).
			if err := os.Remove(keptPath); err != nil {
				return false, err
			}
			fmt.Fprintf(cmd.Root().ErrWriter, "mem edit: the kept edit %s is discarded; %s is as it was\n", v.Rel(keptPath), m.Rel)
			return false, nil
		}
		_, changed, err := writer.Edit(v, cliFront, m.Rel, vault.Hash(original), data, lint.Errors, now())
		var ee *writer.EditError
		switch {
		case err == nil:
			if keptPath != "" {
				os.Remove(keptPath) // written at last
			}
			return changed, nil
		case errors.Is(err, vault.ErrConflict):
			kept, kerr := keepAside(v, m, data, nil)
			if kerr != nil {
				return false, kerr
			}
			return false, checkFailed(fmt.Sprintf("%s changed while you edited it: nothing was written; your version is kept in %s (compare the two, then run 'mem edit %s' again)", m.Rel, kept, m.ID))
		case !errors.As(err, &ee):
			return false, err
		}
		fmt.Fprintf(cmd.Root().ErrWriter, "mem edit: the edit was not written:\n%s\n", err)
		if interactive {
			// Only an explicit "e" edits again: the end of the input keeps it aside.
			if strings.HasPrefix(ask(cmd.Root().ErrWriter, in, "[e]dit again or [k]eep it aside? "), "e") {
				continue
			}
		}
		if keptPath != "" {
			os.Remove(keptPath) // the new kept copy replaces it
		}
		kept, kerr := keepAside(v, m, data, original)
		if kerr != nil {
			return false, kerr
		}
		return false, checkFailed(fmt.Sprintf("%s is unchanged; your edit is kept in %s: run 'mem edit %s' again to reopen it and fix it", m.Rel, kept, m.ID))
	}
}

// keepAside saves an edit that was not written under .mem/edits/, which
// no reader loads, and returns its path. A refused edit names the version
// it was made from (base), so the next mem edit of that version reopens
// it; one that lost a race (base nil) waits to be compared by hand.
func keepAside(v *vault.Vault, m *vault.Memory, data, base []byte) (string, error) {
	dir := filepath.Join(v.StateDir(), "edits")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	of := "conflict"
	if base != nil {
		of = vault.Hash(base)[:keptHashLen]
	}
	path := filepath.Join(dir, strings.TrimSuffix(filepath.Base(m.Rel), ".md")+"."+now().Format("20060102T150405Z")+"."+of+".md")
	if err := vault.WriteFileAtomic(path, data, 0o600); err != nil {
		return "", err
	}
	return v.Rel(path), nil
}

// keptHashLen is how much of the base version's hash a kept edit's name holds.
const keptHashLen = 12

// keptEdit is the newest refused edit kept aside for m made from the
// version original, and its bytes; "" when there is none.
func keptEdit(v *vault.Vault, m *vault.Memory, original []byte) (string, []byte) {
	pattern := filepath.Join(v.StateDir(), "edits", strings.TrimSuffix(filepath.Base(m.Rel), ".md")+".*."+vault.Hash(original)[:keptHashLen]+".md")
	found, _ := filepath.Glob(pattern)
	slices.Sort(found) // the stamp sorts by time
	for i := len(found) - 1; i >= 0; i-- {
		if data, err := os.ReadFile(found[i]); err == nil {
			return found[i], data
		}
	}
	return "", nil
}

// runEditor opens path in $VISUAL, else $EDITOR, through the shell so
// either may carry arguments ("code --wait").
func runEditor(cmd *cli.Command, path string) error {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		// The environment lacks it (exit 2): no usage hint, the flags are fine.
		return fail.As(fail.Environment, errors.New("no editor: set $VISUAL or $EDITOR (for example EDITOR=nano)"))
	}
	c := exec.Command("/bin/sh", "-c", editor+` "$1"`, "mem-edit", path)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, cmd.Root().ErrWriter, cmd.Root().ErrWriter
	if isTerminal(os.Stdout) {
		c.Stdout = os.Stdout // a full-screen editor wants the terminal
	}
	if err := c.Run(); err != nil {
		return fmt.Errorf("the editor %q failed (%v): nothing was written", editor, err)
	}
	return nil
}

// isTerminal reports whether f is a terminal a person answers at.
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// ask prints question and reads one answer line from in ("" at the end).
func ask(w io.Writer, in *bufio.Reader, question string) string {
	fmt.Fprint(w, question)
	line, _ := in.ReadString('\n')
	return strings.ToLower(strings.TrimSpace(line))
}
