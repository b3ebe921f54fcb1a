package consolidate

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// Outcome is what Apply did with one proposal.
type Outcome struct {
	Proposal
	Result  string   `json:"result"` // applied, skipped, or the refusal
	Written []string `json:"written,omitempty"`
}

// Batch is the record of one applied batch, kept in .mem so --undo can
// put every file it touched back as it was.
type Batch struct {
	Commit string  `json:"commit"`
	At     string  `json:"at"`
	Files  []Saved `json:"files"`
	// State is the view sizes file as it was before the batch (nil: none).
	State *string `json:"state"`
}

// state is what the last --apply left: the size of each view after it,
// what the next run measures growth against.
type state struct {
	At    string         `json:"at"`
	Views map[string]int `json:"views"`
}

func stateFile(v *vault.Vault) string { return filepath.Join(v.StateDir(), "consolidate-state.json") }

func loadState(v *vault.Vault) (state, error) {
	var s state
	data, err := os.ReadFile(stateFile(v))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return s, nil
	case err != nil:
		return s, err
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return s, fmt.Errorf("%s: %w (remove it: the next --apply writes it again)", stateFile(v), err)
	}
	return s, nil
}

// saveState records the views' sizes after an --apply, and returns the
// file as it was.
func saveState(v *vault.Vault, now time.Time) (*string, error) {
	var prev *string
	if data, err := os.ReadFile(stateFile(v)); err == nil {
		s := string(data)
		prev = &s
	}
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return prev, err
	}
	r := &Report{Counts: map[string]int{}, Views: map[string]int{}}
	if err := r.budget(v, mems, now); err != nil {
		return prev, err
	}
	return prev, writeState(v, state{At: now.UTC().Format(time.RFC3339), Views: r.Views})
}

func writeState(v *vault.Vault, s state) error {
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(v.StateDir(), 0o700); err != nil {
		return err
	}
	return vault.WriteFileAtomic(stateFile(v), append(data, '\n'), vault.FileMode())
}

// Saved is one file as it was before the batch (Before nil: it did not
// exist) and the hash the batch left it with.
type Saved struct {
	Path   string  `json:"path"` // vault-relative
	Before *string `json:"before"`
	After  string  `json:"after"`
}

func batchFile(v *vault.Vault) string { return filepath.Join(v.StateDir(), "consolidate-batch.json") }

// errNoBatch: there is no applied batch to undo (exit 1).
var errNoBatch = fail.As(fail.Check, errors.New("no consolidate batch to undo: nothing was applied since the last undo"))

// Unattended are the proposals --apply --yes carries out with no person
// asking: those that harm nothing (no Waits: a merge of true duplicates,
// the retirement of a stale claim nobody pinned). Every other proposal
// waits for a person (spec §5.2b): nothing automatic accepts an import,
// re-dates a claim or settles a disagreement.
func (r *Report) Unattended() []Proposal {
	var out []Proposal
	for _, p := range r.Proposals {
		if p.Waits == "" && p.Refused == "" && p.Action != ActNone {
			out = append(out, p)
		}
	}
	return out
}

// Apply carries out the proposals that can be (not refused, not ActNone)
// through the writer, in order, then commits the batch as one commit of
// the files it changed and no other. A proposal the writer refuses is
// reported and the rest go on. Nothing is deleted: a merge writes a new
// claim and supersedes or retires the old. env is what the commit runs
// with (its identity variables); progress, when not nil, hears each
// proposal done.
func Apply(v *vault.Vault, f writer.Front, props []Proposal, now time.Time, env history.Env, progress func(done, total int)) ([]Outcome, *Batch, error) {
	saved := map[string]*Saved{}
	var order []string
	keep := func(rel string) error {
		if _, ok := saved[rel]; ok {
			return nil
		}
		s := &Saved{Path: rel}
		data, err := os.ReadFile(filepath.Join(v.Root, rel))
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return err
		default:
			b := string(data)
			s.Before = &b
		}
		saved[rel] = s
		order = append(order, rel)
		return nil
	}
	var out []Outcome
	for i, p := range props {
		if progress != nil {
			progress(i, len(props))
		}
		o := Outcome{Proposal: p, Result: "applied"}
		if p.Refused != "" || p.Action == ActNone {
			o.Result = "skipped"
			out = append(out, o)
			continue
		}
		for _, rel := range p.Paths {
			if err := keep(rel); err != nil {
				return out, nil, err
			}
		}
		written, err := apply(v, f, p, now)
		for _, rel := range written {
			if err := keep(rel); err != nil {
				return out, nil, err
			}
			if !slices.Contains(p.Paths, rel) {
				saved[rel].Before = nil // created by the batch
			}
		}
		o.Written = written
		if err != nil {
			var r *writer.Refusal
			if !errors.As(err, &r) && !errors.Is(err, vault.ErrNotFound) {
				return out, nil, err
			}
			o.Result = err.Error()
		}
		out = append(out, o)
	}
	prev, err := saveState(v, now)
	if err != nil || len(order) == 0 {
		return out, nil, err
	}
	b := &Batch{At: now.UTC().Format(time.RFC3339), State: prev}
	for _, rel := range order {
		s := saved[rel]
		data, err := os.ReadFile(filepath.Join(v.Root, rel))
		if err == nil {
			s.After = vault.Hash(data)
		}
		if s.Before != nil && s.After == vault.Hash([]byte(*s.Before)) {
			continue // untouched (a refused write)
		}
		b.Files = append(b.Files, *s)
	}
	if len(b.Files) == 0 {
		return out, nil, nil
	}
	applied := 0
	for _, o := range out {
		if o.Result == "applied" {
			applied++
		}
	}
	if b.Commit, err = history.CommitPaths(v, b.paths(), fmt.Sprintf("mem consolidate: %d changes, %d files", applied, len(b.Files)), now, env); err != nil {
		return out, nil, err
	}
	return out, b, saveBatch(v, b)
}

// paths are the batch's files, what its commits name.
func (b *Batch) paths() []string {
	out := make([]string, len(b.Files))
	for i, s := range b.Files {
		out[i] = s.Path
	}
	return out
}

func saveBatch(v *vault.Vault, b *Batch) error {
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(v.StateDir(), 0o700); err != nil {
		return err
	}
	return vault.WriteFileAtomic(batchFile(v), append(data, '\n'), vault.FileMode())
}

// apply is one proposal; it returns the vault-relative files it wrote.
func apply(v *vault.Vault, f writer.Front, p Proposal, now time.Time) ([]string, error) {
	one := func(m *vault.Memory, _ bool, err error) ([]string, error) {
		if m == nil {
			return nil, err
		}
		return []string{m.Rel}, err
	}
	switch p.Action {
	case ActRetire:
		reason := "past its stale_after and not re-checked (mem consolidate)"
		if p.Keep != "" {
			reason = "contradicted by " + p.Keep + " (mem consolidate)"
		}
		return one(writer.Retire(v, f, p.IDs[0], "", frontmatter.Time{}, reason, now))
	case ActAccept:
		return one(writer.Accept(v, f, p.IDs[0], "", now))
	case ActReject:
		return one(writer.Reject(v, f, p.IDs[0], "", now))
	case ActMerge:
		return merge(v, f, p, now)
	}
	return nil, fmt.Errorf("consolidate: unknown action %q", p.Action)
}

// merge writes the merged claim — the strongest provenance, the earliest
// valid_at, the group's tags, key, pin and highest importance — superseding
// every member the reconciler lets it (one dated no later than it), and
// retires the rest as merged into it: a supersedes may not point at a
// claim dated after its own (gate.CheckSupersedes), yet the merged claim
// keeps the earliest date, when the fact was first known.
func merge(v *vault.Vault, f writer.Front, p Proposal, now time.Time) ([]string, error) {
	mems, err := v.Load(vault.LoadOptions{})
	if err != nil {
		return nil, err
	}
	var group []*vault.Memory
	for _, id := range p.IDs {
		m, err := v.FindMemory(mems, id)
		if err != nil {
			return nil, err
		}
		group = append(group, m)
	}
	n := vault.NewMemory{Text: p.Text, Project: "none"}
	var evidence []string
	for _, m := range group {
		meta := m.Meta()
		if m.ID == p.Keep {
			n.Type = meta.Type
		}
		if frontmatter.ProvenanceRank(meta.Provenance) > frontmatter.ProvenanceRank(n.Provenance) {
			n.Provenance = meta.Provenance
		}
		if !meta.ValidAt.IsZero() && (n.ValidAt.IsZero() || meta.ValidAt.Before(n.ValidAt.Time)) {
			n.ValidAt = meta.ValidAt
		}
		if meta.Project != "" {
			n.Project = meta.Project
		}
		if meta.Key != "" {
			n.Key = meta.Key
		}
		for _, t := range meta.Tags {
			if !slices.Contains(n.Tags, t) {
				n.Tags = append(n.Tags, t)
			}
		}
		n.Importance = max(n.Importance, meta.Importance)
		n.Pinned = n.Pinned || meta.Pinned
		if meta.Evidence != "" && !slices.Contains(evidence, meta.Evidence) {
			evidence = append(evidence, meta.Evidence)
		}
	}
	n.Evidence = strings.Join(evidence, "; ")
	probe := frontmatter.Meta{Provenance: n.Provenance, ValidAt: n.ValidAt}
	var retire []*vault.Memory
	for _, m := range group {
		if gate.CheckSupersedes(&probe, m.ID, m.Meta()) == nil {
			n.Supersedes = append(n.Supersedes, m.ID)
		} else {
			retire = append(retire, m)
		}
	}
	merged, err := writer.Remember(v, f, n, now)
	if err != nil {
		return nil, err
	}
	written := []string{merged.Rel}
	for _, m := range retire {
		r, _, err := writer.Retire(v, f, m.ID, "", frontmatter.Time{}, "merged into "+merged.ID+" (mem consolidate)", now)
		if err != nil {
			return written, err
		}
		written = append(written, r.Rel)
	}
	for _, id := range n.Supersedes {
		for _, m := range group {
			if m.ID == id {
				written = append(written, m.Rel) // unchanged on disk, listed so the batch names it
			}
		}
	}
	return written, nil
}

// Undo puts every file of the last batch back as it was before it — the
// bytes it held, or no file where the batch created one — and commits
// that. It refuses, changing nothing, when a file changed after the batch.
// env is what the commit runs with, as for Apply.
func Undo(v *vault.Vault, now time.Time, env history.Env) (*Batch, error) {
	data, err := os.ReadFile(batchFile(v))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errNoBatch
	}
	if err != nil {
		return nil, err
	}
	var b Batch
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w (remove it; the batch can be reverted with git revert %s)", batchFile(v), err, b.Commit)
	}
	for _, s := range b.Files {
		cur, err := os.ReadFile(filepath.Join(v.Root, s.Path))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
		if vault.Hash(cur) != s.After && !(err != nil && s.After == "") {
			return nil, fail.As(fail.Check, fmt.Errorf("%s changed after the consolidate batch %s: undo would lose that change; revert by hand (git revert %s)", s.Path, short(b.Commit), short(b.Commit)))
		}
	}
	for _, s := range b.Files {
		path := filepath.Join(v.Root, s.Path)
		if s.Before == nil {
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			continue
		}
		if err := vault.WriteFileAtomic(path, []byte(*s.Before), vault.FileMode()); err != nil {
			return nil, err
		}
	}
	if _, err := history.CommitPaths(v, b.paths(), fmt.Sprintf("mem consolidate --undo: batch %s, %d files", short(b.Commit), len(b.Files)), now, env); err != nil {
		return nil, err
	}
	if b.State == nil {
		if err := os.Remove(stateFile(v)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, err
		}
	} else if err := vault.WriteFileAtomic(stateFile(v), []byte(*b.State), vault.FileMode()); err != nil {
		return nil, err
	}
	return &b, os.Remove(batchFile(v))
}

func short(h string) string { return h[:min(len(h), 12)] }
