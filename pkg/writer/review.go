package writer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/vault"
)

// A person's bulk decision (mem review --accept-all, spec §5.2b) is
// undoable: AcceptAll keeps the bytes of every file it changed in one
// journal in .mem/, and UndoReview puts them back while no file changed
// since. Only the last batch is kept; a new batch replaces it.

// reviewJournal is the last batch's journal, in the vault's state folder.
const reviewJournal = "review-batch.json"

// ReviewBatch is one bulk accept: who accepted, when, and each file as it
// was before and (by hash) after.
type ReviewBatch struct {
	At    time.Time      `json:"at"`
	By    string         `json:"by"`
	Files []ReviewedFile `json:"files"`
}

// ReviewedFile is one file a bulk accept changed.
type ReviewedFile struct {
	ID     string `json:"id"`
	Path   string `json:"path"`   // vault-relative
	Before string `json:"before"` // the whole file before the accept
	After  string `json:"after"`  // vault.Hash of the file the accept wrote
}

// AcceptAll accepts each claim refs names (Accept, with the vault loaded
// once) and records the batch for UndoReview. A claim already reviewed is
// left out of the batch. On an error the claims accepted so far stay
// accepted and recorded (so --undo still reverts them), and the error
// names the claim that failed.
func AcceptAll(v *vault.Vault, f Front, refs []string, now time.Time) (*ReviewBatch, error) {
	person, err := reviewer(f)
	if err != nil {
		return nil, err
	}
	if err := v.CompletePending(); err != nil {
		return nil, err
	}
	mems, err := f.load(v)
	if err != nil {
		return nil, err
	}
	b := &ReviewBatch{At: now, By: person}
	for _, ref := range refs {
		m, err := v.FindMemory(mems, ref)
		if err != nil {
			return b, errors.Join(err, saveReview(v, b))
		}
		before, err := os.ReadFile(m.Path)
		if err != nil {
			return b, errors.Join(fmt.Errorf("%s: %w", m.Rel, err), saveReview(v, b))
		}
		_, err = updateIn(v, f, mems, m, vault.Hash(before), now, accept(person, now))
		if errors.Is(err, errUnchanged) {
			continue
		}
		if err != nil {
			return b, errors.Join(err, saveReview(v, b))
		}
		after, err := os.ReadFile(m.Path)
		if err != nil {
			return b, errors.Join(fmt.Errorf("%s: %w", m.Rel, err), saveReview(v, b))
		}
		b.Files = append(b.Files, ReviewedFile{ID: m.ID, Path: m.Rel, Before: string(before), After: vault.Hash(after)})
	}
	return b, saveReview(v, b)
}

// saveReview writes b as the last batch (nothing when it changed nothing:
// the batch before it stays undoable).
func saveReview(v *vault.Vault, b *ReviewBatch) error {
	if len(b.Files) == 0 {
		return nil
	}
	data, err := json.Marshal(b)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(v.StateDir(), 0o700); err != nil {
		return err
	}
	return vault.WriteFileAtomic(filepath.Join(v.StateDir(), reviewJournal), data, vault.StateFileMode)
}

// ErrNoReviewBatch is UndoReview's answer when there is no batch to undo.
var ErrNoReviewBatch = fail.As(fail.Check, errors.New("no bulk review to undo: mem review --undo reverts the last 'mem review --accept-all'"))

// UndoReview puts back every file of the last bulk accept as it was, and
// forgets the batch. It refuses, changing nothing, when any of them
// changed since (an edit, a sync): undoing would lose that change.
func UndoReview(v *vault.Vault) (*ReviewBatch, error) {
	journal := filepath.Join(v.StateDir(), reviewJournal)
	data, err := os.ReadFile(journal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoReviewBatch
	}
	if err != nil {
		return nil, err
	}
	var b ReviewBatch
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w (remove it: the accepted claims stay accepted; reject one with 'mem review --reject ID')", journal, err)
	}
	for _, r := range b.Files {
		if !filepath.IsLocal(filepath.FromSlash(r.Path)) {
			return nil, fmt.Errorf("%s: %q is not a path inside the vault: remove the journal (the accepted claims stay accepted)", journal, r.Path)
		}
		cur, err := os.ReadFile(filepath.Join(v.Root, filepath.FromSlash(r.Path)))
		if err != nil {
			return nil, fmt.Errorf("%s: %w: the bulk review of %s cannot be undone", r.Path, err, b.At.Format(time.RFC3339))
		}
		if vault.Hash(cur) != r.After {
			return nil, fail.As(fail.Check, fmt.Errorf("%s changed after the bulk review of %s: undo would lose that change; nothing was undone (reject it with 'mem review --reject %s', or edit it)",
				r.Path, b.At.Format(time.RFC3339), r.ID))
		}
	}
	if err := v.CompletePending(); err != nil {
		return nil, err
	}
	for _, r := range b.Files {
		if err := vault.WriteFileAtomic(filepath.Join(v.Root, filepath.FromSlash(r.Path)), []byte(r.Before), vault.FileMode()); err != nil {
			return nil, err
		}
	}
	return &b, os.Remove(journal)
}
