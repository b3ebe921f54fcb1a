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
	return vault.WriteFileAtomic(stateFile(v), append(data, '\n'), vault.StateFileMode)
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

// Commit commits the vault-relative paths alone, as they are on disk (a
// removed one as removed), with subject as the message, and returns the
// new commit. The caller binds it to its clock and environment
// (wiring.CommitPaths: history.CommitPaths), so consolidate links no git.
type Commit func(paths []string, subject string) (string, error)

// Apply carries out the proposals that can be (not refused, not ActNone)
// through the writer, in order, then commits the batch through commit as
// one commit of the files it changed and no other. A proposal the writer
// refuses is reported and the rest go on. Nothing is deleted: a merge
// writes a new claim and supersedes or retires the old. progress, when
// not nil, hears each proposal done.
func Apply(v *vault.Vault, f writer.Front, props []Proposal, now time.Time, commit Commit, progress func(done, total int)) ([]Outcome, *Batch, error) {
	snap := &snapshot{v: v, saved: map[string]*Saved{}}
	var out []Outcome
	for i, p := range props {
		if progress != nil {
			progress(i, len(props))
		}
		o, err := snap.apply(f, p, now)
		if err != nil {
			return out, nil, err
		}
		out = append(out, o)
	}
	prev, err := saveState(v, now)
	if err != nil || len(snap.order) == 0 {
		return out, nil, err
	}
	b := snap.batch(now, prev)
	if len(b.Files) == 0 {
		return out, nil, nil
	}
	applied := 0
	for _, o := range out {
		if o.Result == "applied" {
			applied++
		}
	}
	if b.Commit, err = commit(b.paths(), fmt.Sprintf("mem consolidate: %d changes, %d files", applied, len(b.Files))); err != nil {
		return out, nil, err
	}
	return out, b, saveBatch(v, b)
}

// snapshot keeps every file a batch touches as it was before the batch,
// in the order first touched, so --undo can put it back.
type snapshot struct {
	v     *vault.Vault
	saved map[string]*Saved
	order []string
}

// keep records rel's bytes the first time the batch touches it.
func (s *snapshot) keep(rel string) error {
	if _, ok := s.saved[rel]; ok {
		return nil
	}
	sv := &Saved{Path: rel}
	data, err := os.ReadFile(filepath.Join(s.v.Root, rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return err
	default:
		b := string(data)
		sv.Before = &b
	}
	s.saved[rel] = sv
	s.order = append(s.order, rel)
	return nil
}

// apply carries out one proposal, keeping the files it names and writes
// first. A refusal of the writer is the outcome's result, not an error.
func (s *snapshot) apply(f writer.Front, p Proposal, now time.Time) (Outcome, error) {
	o := Outcome{Proposal: p, Result: "applied"}
	if p.Refused != "" || p.Action == ActNone {
		o.Result = "skipped"
		return o, nil
	}
	for _, rel := range p.Paths {
		if err := s.keep(rel); err != nil {
			return o, err
		}
	}
	written, err := apply(s.v, f, p, now)
	for _, rel := range written {
		if err := s.keep(rel); err != nil {
			return o, err
		}
		if !slices.Contains(p.Paths, rel) {
			s.saved[rel].Before = nil // created by the batch
		}
	}
	o.Written = written
	if err != nil {
		var r *writer.Refusal
		if !errors.As(err, &r) && !errors.Is(err, vault.ErrNotFound) {
			return o, err
		}
		o.Result = err.Error()
	}
	return o, nil
}

// batch is the record of the files the batch changed, each with the hash
// it left; a file written back unchanged (a refused write) is left out.
func (s *snapshot) batch(now time.Time, prevState *string) *Batch {
	b := &Batch{At: now.UTC().Format(time.RFC3339), State: prevState}
	for _, rel := range s.order {
		sv := s.saved[rel]
		data, err := os.ReadFile(filepath.Join(s.v.Root, rel))
		if err == nil {
			sv.After = vault.Hash(data)
		}
		if sv.Before != nil && sv.After == vault.Hash([]byte(*sv.Before)) {
			continue
		}
		b.Files = append(b.Files, *sv)
	}
	return b
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
	return vault.WriteFileAtomic(batchFile(v), append(data, '\n'), vault.StateFileMode)
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
	n := mergedClaim(p, group)
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
	for _, m := range group {
		if slices.Contains(n.Supersedes, m.ID) {
			written = append(written, m.Rel) // unchanged on disk, listed so the batch names it
		}
	}
	return written, nil
}

// mergedClaim is the claim that replaces group: p's text, the type of the
// member p keeps, and the members' fields folded by absorb, their evidence
// joined.
func mergedClaim(p Proposal, group []*vault.Memory) vault.NewMemory {
	n := vault.NewMemory{Text: p.Text, Project: "none"}
	var evidence []string
	for _, m := range group {
		meta := m.Meta()
		if m.ID == p.Keep {
			n.Type = meta.Type
		}
		absorb(&n, meta)
		if meta.Evidence != "" && !slices.Contains(evidence, meta.Evidence) {
			evidence = append(evidence, meta.Evidence)
		}
	}
	n.Evidence = strings.Join(evidence, "; ")
	return n
}

// absorb folds one member into the merged claim: the strongest
// provenance, the earliest valid_at, the union of tags, the highest
// importance, a pin if any member is pinned; project and key from the
// last member that has one.
func absorb(n *vault.NewMemory, meta *frontmatter.Meta) {
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
}

// Undo puts every file of the last batch back as it was before it — the
// bytes it held, or no file where the batch created one — and commits
// that through commit, as Apply does. It refuses, changing nothing, when
// a file changed after the batch.
func Undo(v *vault.Vault, commit Commit) (*Batch, error) {
	b, err := loadBatch(v)
	if err != nil {
		return nil, err
	}
	if err := b.unchanged(v); err != nil {
		return nil, err
	}
	if err := b.restore(v); err != nil {
		return nil, err
	}
	if _, err := commit(b.paths(), fmt.Sprintf("mem consolidate --undo: batch %s, %d files", short(b.Commit), len(b.Files))); err != nil {
		return nil, err
	}
	if err := b.restoreState(v); err != nil {
		return nil, err
	}
	return b, os.Remove(batchFile(v))
}

// loadBatch reads the record of the last applied batch.
func loadBatch(v *vault.Vault) (*Batch, error) {
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
	return &b, nil
}

// unchanged refuses when a file of the batch is no longer as the batch
// left it: putting it back would lose that later change.
func (b *Batch) unchanged(v *vault.Vault) error {
	for _, s := range b.Files {
		cur, err := os.ReadFile(filepath.Join(v.Root, s.Path))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if vault.Hash(cur) != s.After && !(err != nil && s.After == "") {
			return fail.As(fail.Check, fmt.Errorf("%s changed after the consolidate batch %s: undo would lose that change; revert by hand (git revert %s)", s.Path, short(b.Commit), short(b.Commit)))
		}
	}
	return nil
}

// restore writes back each file's bytes from before the batch, and removes
// the files the batch created, through the vault's atomic write and remove.
func (b *Batch) restore(v *vault.Vault) error {
	for _, s := range b.Files {
		if s.Before == nil {
			if err := vault.Remove(v, s.Path); err != nil {
				return err
			}
			continue
		}
		if err := vault.WriteFileAtomic(filepath.Join(v.Root, s.Path), []byte(*s.Before), vault.FileMode()); err != nil {
			return err
		}
	}
	return nil
}

// restoreState puts the view sizes file back as it was before the batch.
func (b *Batch) restoreState(v *vault.Vault) error {
	if b.State != nil {
		return vault.WriteFileAtomic(stateFile(v), []byte(*b.State), vault.StateFileMode)
	}
	if err := os.Remove(stateFile(v)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}

func short(h string) string { return h[:min(len(h), 12)] }
