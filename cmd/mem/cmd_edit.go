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
	changed, err := editFile(ctx, cmd, v, m)
	if err != nil {
		return err
	}
	return printEdited(ctx, cmd, v, m, changed)
}

// editFile runs the editor on a copy of m and writes the result through
// writer.Edit, compare-and-swap against the bytes the editor was given.
func editFile(ctx context.Context, cmd *cli.Command, v *vault.Vault, m *vault.Memory) (bool, error) {
	s, err := startEdit(cmd, v, m)
	if err != nil {
		return false, err
	}
	defer os.Remove(s.work)
	interactive := isTerminal(os.Stdin)
	in := bufio.NewReader(os.Stdin)
	for {
		if err := runEditor(cmd, s.work); err != nil {
			return false, err
		}
		data, err := os.ReadFile(s.work)
		if err != nil {
			return false, err
		}
		if done, err := s.discarded(data); done || err != nil {
			return false, err
		}
		changed, refused, err := s.write(ctx, data)
		if refused == nil {
			return changed, err
		}
		fmt.Fprintf(cmd.Root().ErrWriter, "mem edit: the edit was not written:\n%s\n", refused)
		// Only an explicit "e" edits again: the end of the input keeps it aside.
		if interactive && strings.HasPrefix(ask(cmd.Root().ErrWriter, in, "[e]dit again or [k]eep it aside? "), "e") {
			continue
		}
		return false, s.keepRefused(data)
	}
}

// editSession is one mem edit of m: the file as the editor was first
// given it (original), what the editor opens (start: original, or the
// refused edit kept at keptPath), and the copy it saves (work).
type editSession struct {
	cmd             *cli.Command
	v               *vault.Vault
	m               *vault.Memory
	original, start []byte
	keptPath, work  string
}

// startEdit writes the copy the editor opens. A refused edit of this very
// version was kept aside: it is reopened, so fixing it means fixing what
// was refused, not typing it all again.
func startEdit(cmd *cli.Command, v *vault.Vault, m *vault.Memory) (*editSession, error) {
	original, err := os.ReadFile(m.Path)
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(v.StateDir(), "edit")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	s := &editSession{cmd: cmd, v: v, m: m, original: original, start: original, work: filepath.Join(dir, filepath.Base(m.Rel))}
	if kp, data := keptEdit(v, m, original); kp != "" {
		s.start, s.keptPath = data, kp
		fmt.Fprintf(cmd.Root().ErrWriter, "mem edit: reopening your edit kept in %s (it was not written); save the file as it is to discard it\n", v.Rel(kp))
	}
	if err := vault.WriteFileAtomic(s.work, s.start, 0o600); err != nil {
		return nil, err
	}
	return s, nil
}

// discarded reports a save that asks for nothing to be written: the file
// as it is, or the reopened kept edit saved as it was.
func (s *editSession) discarded(data []byte) (bool, error) {
	if string(data) == string(s.original) {
		if s.keptPath != "" {
			os.Remove(s.keptPath) // fixed back to the file as it is: the kept edit is given up
		}
		return true, nil
	}
	if s.keptPath != "" && string(data) == string(s.start) {
		// The reopened kept edit saved as it is: what the message
		// promised — discarded, nothing written (issue 42).
		if err := os.Remove(s.keptPath); err != nil {
			return true, err
		}
		fmt.Fprintf(s.cmd.Root().ErrWriter, "mem edit: the kept edit %s is discarded; %s is as it was\n", s.v.Rel(s.keptPath), s.m.Rel)
		return true, nil
	}
	return false, nil
}

// write writes data through writer.Edit. An edit the rules or lint refuse
// comes back as refused (a *writer.EditError), for the person to fix; one
// that lost a race to another write is kept aside and fails.
func (s *editSession) write(ctx context.Context, data []byte) (changed bool, refused, err error) {
	_, changed, err = writer.Edit(s.v, frontIn(ctx, cliFront), s.m.Rel, vault.Hash(s.original), data, lint.Errors, now())
	var ee *writer.EditError
	switch {
	case err == nil:
		if s.keptPath != "" {
			os.Remove(s.keptPath) // written at last
		}
		return changed, nil, nil
	case errors.Is(err, vault.ErrConflict):
		kept, kerr := keepAside(s.v, s.m, data, nil)
		if kerr != nil {
			return false, nil, kerr
		}
		return false, nil, checkFailed(fmt.Sprintf("%s changed while you edited it: nothing was written; your version is kept in %s (compare the two, then run 'mem edit %s' again)", s.m.Rel, kept, s.m.ID))
	case errors.As(err, &ee):
		return false, err, nil
	}
	return false, nil, err
}

// keepRefused keeps a refused edit aside, replacing one reopened, and
// fails saying where it is.
func (s *editSession) keepRefused(data []byte) error {
	if s.keptPath != "" {
		os.Remove(s.keptPath) // the new kept copy replaces it
	}
	kept, err := keepAside(s.v, s.m, data, s.original)
	if err != nil {
		return err
	}
	return checkFailed(fmt.Sprintf("%s is unchanged; your edit is kept in %s: run 'mem edit %s' again to reopen it and fix it", s.m.Rel, kept, s.m.ID))
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
