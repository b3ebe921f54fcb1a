// Package writer holds the write paths every front end shares — the CLI's
// remember and note, the MCP server's tools — so a memory is checked the
// same way whoever writes it: the boundary, secrets, enums and project
// (vault.BuildDocument), then each supersedes target through the
// reconciler (gate.Supersede). Files are created by the vault's one writer.
package writer

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/vault"
)

// Where new files go (spec §2). Callers cannot choose, which keeps every
// new file inside the vault.
const (
	MemoryDir = "memory"
	NotesDir  = "notes"
)

// Refusal is a write the rules refuse (too long, a secret, a supersedes
// that names nothing or would move memory backwards): the caller's check
// failed, as opposed to a malformed request.
type Refusal struct{ Err error }

func (r *Refusal) Error() string { return r.Err.Error() }
func (r *Refusal) Unwrap() error { return r.Err }

// Dates reads the optional date inputs of a claim: valid_at, and either
// stale_after or a ttl counted from now. Names are the inputs' own, so a
// message can point at the flag or field.
func Dates(validAt, staleAfter, ttl string, now time.Time) (valid, stale frontmatter.Time, err error) {
	if validAt != "" {
		if valid, err = frontmatter.ParseTime(validAt); err != nil {
			return valid, stale, fmt.Errorf("valid_at: %w", err)
		}
	}
	switch {
	case staleAfter != "" && ttl != "":
		return valid, stale, errors.New("give stale_after or ttl, not both")
	case staleAfter != "":
		t, err := frontmatter.ParseTime(staleAfter)
		if err != nil {
			return valid, stale, fmt.Errorf("stale_after: %w", err)
		}
		stale = frontmatter.NewDate(t.Time)
	case ttl != "":
		if stale, err = vault.ParseTTL(ttl, now); err != nil {
			return valid, stale, err
		}
	}
	return valid, stale, nil
}

// Prepare builds and checks the document for n against the loaded vault
// without writing anything.
func Prepare(v *vault.Vault, mems []*vault.Memory, n vault.NewMemory, now time.Time) (*frontmatter.Document, error) {
	doc, err := v.BuildDocument(n, v.Projects(mems), now)
	var tooLong vault.ErrTooLong
	var secret vault.ErrSecret
	if errors.As(err, &tooLong) || errors.As(err, &secret) {
		return nil, &Refusal{err}
	}
	if err != nil {
		return nil, err
	}
	olds := make([]*vault.Memory, len(doc.Meta.Supersedes))
	for i, ref := range doc.Meta.Supersedes {
		old, err := v.FindMemory(mems, ref)
		if errors.Is(err, vault.ErrNotFound) {
			return nil, &Refusal{fmt.Errorf("supersedes: %w", err)}
		}
		if err != nil {
			return nil, fmt.Errorf("supersedes: %w", err)
		}
		if !old.OK() {
			return nil, fmt.Errorf("supersedes %s:%v (fix the file first; 'mem lint %s' shows the problem)", old.Rel, old.Err, old.Rel)
		}
		olds[i] = old
	}
	err = gate.Supersede(&doc.Meta, olds)
	var se *gate.SupersessionError
	if errors.As(err, &se) {
		return nil, &Refusal{fmt.Errorf("supersedes %s: refused: %w", se.Old, err)}
	}
	return doc, err
}

// Remember checks n against the vault and writes it as a new memory.
func Remember(v *vault.Vault, n vault.NewMemory, now time.Time) (*vault.Memory, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	doc, err := Prepare(v, mems, n, now)
	if err != nil {
		return nil, err
	}
	return v.Create(MemoryDir, n.Text, doc, now)
}

// Note writes a long-form note with the given title and body, then its
// one-line pointer memory carrying claim's fields. The pointer is checked
// before the note is written (with a placeholder id as long as the real
// one), so a refused pointer never leaves an orphan note.
func Note(v *vault.Vault, title, body string, claim vault.NewMemory, now time.Time) (note, pointer *vault.Memory, err error) {
	title = strings.TrimSpace(title)
	switch {
	case title == "":
		return nil, nil, errors.New("the note needs a one-line title")
	case strings.ContainsAny(title, "\r\n"):
		return nil, nil, errors.New("the title has a line break: give a one-line title")
	case strings.TrimSpace(body) == "":
		return nil, nil, errors.New("the note is empty: give its text")
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, nil, err
	}
	n := claim
	n.Type, n.Title, n.Text, n.Supersedes, n.Pinned, n.Key = frontmatter.TypeNote, title, body, nil, false, ""
	noteDoc, err := v.BuildDocument(n, v.Projects(mems), now)
	var secret vault.ErrSecret
	if errors.As(err, &secret) {
		return nil, nil, &Refusal{err}
	}
	if err != nil {
		return nil, nil, err
	}
	claim.Text = vault.PointerText(title, NotesDir+"/"+vault.Slug(title, 48)+"-000000")
	pointerDoc, err := Prepare(v, mems, claim, now)
	if err != nil {
		return nil, nil, err
	}
	if note, err = v.Create(NotesDir, title, noteDoc, now); err != nil {
		return nil, nil, err
	}
	claim.Text = vault.PointerText(title, note.ID)
	pointerDoc.Body = claim.Text + "\n"
	if pointer, err = v.Create(MemoryDir, claim.Text, pointerDoc, now); err != nil {
		return note, nil, fmt.Errorf("note written to %s, but its pointer memory was not: %w", note.Rel, err)
	}
	return note, pointer, nil
}
