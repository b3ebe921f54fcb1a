package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
)

// A remote changes memories and notes, never this machine (spec §9,
// docs/sync.md "What a remote may change"). The files that say what this
// machine does — mem.yaml's keys but the content ones, and every file git
// itself reads (.gitattributes, .gitignore, .mailmap, .gitmodules, …) —
// are this machine's: an incoming change to one reaches the history only
// as a parent of the commit a sync moves to, whose tree keeps this
// machine's version. So what is held back is never this machine's
// committed state, nor what its backup or a clone of either restores
// (issue 41: a remote's unreadable mem.yaml reached the backup that way).
// The record in .mem/held.json names what is held and the version
// proposed. A local edit of the file, or 'mem sync --accept-config', ends
// the hold.

// HeldFile is one file whose incoming version is held back.
type HeldFile struct {
	Path   string    `json:"path"`           // vault-relative (repository path when outside the vault)
	Keys   []string  `json:"keys,omitempty"` // mem.yaml: the keys whose proposed values differ from this machine's
	Commit string    `json:"commit"`         // the remote commit that last changed it
	URL    string    `json:"url"`            // the remote it came from
	Since  time.Time `json:"since"`
	// Local is the blob hash of this machine's version, on disk when the
	// change was held ("" absent): a file that no longer holds it was
	// edited here, which ends the hold.
	Local string `json:"local"`
	// Proposed is the blob hash of the version the remote's change would
	// have made ("" absent), which --accept-config takes.
	Proposed string `json:"proposed,omitempty"`
	// Repo is its repository path (Path is vault-relative when it can be).
	Repo string `json:"repo"`
}

func (h HeldFile) String() string {
	what := h.Path
	if len(h.Keys) > 0 {
		what += " (" + strings.Join(h.Keys, ", ") + ")"
	}
	return fmt.Sprintf("%s, proposed by commit %s of %s", what, short(gitrepo.NewHash(h.Commit)), h.URL)
}

// heldStateFile, in the vault's state folder, records what is held.
const heldStateFile = "held.json"

// localFile reports whether the repository path p is a file that says what
// this machine does: the vault's mem.yaml, or a file git reads.
func (r *Repo) localFile(p string) bool {
	if p == r.repoPath(vault.ConfigFile) {
		return true
	}
	base := path.Base(p)
	return strings.HasPrefix(base, ".git") || base == ".mailmap" || base == ".lfsconfig"
}

// Held lists the incoming changes this vault holds back (mem sync
// --status, mem audit); a file edited here since is no longer held.
func Held(v *vault.Vault) ([]HeldFile, error) {
	r, err := Open(v, Env{})
	if err != nil {
		return nil, err
	}
	return r.loadHeld(false)
}

// loadHeld reads the record and keeps the holds whose file on disk still
// holds this machine's version; save writes the record back without the
// others (mem commit, which then commits the edit).
func (r *Repo) loadHeld(save bool) ([]HeldFile, error) {
	p := filepath.Join(r.v.StateDir(), heldStateFile)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var all []HeldFile
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, fmt.Errorf("%s: %v (delete it: the next 'mem sync' holds back again what still differs)", p, err)
	}
	var kept []HeldFile
	for _, h := range all {
		if h.Repo == "" || path.IsAbs(h.Repo) || strings.Contains("/"+h.Repo+"/", "/../") {
			continue // a hand-edited record: never read or written outside the repository
		}
		if r.diskHash(h.Repo) == h.Local {
			kept = append(kept, h)
		}
	}
	if save && len(kept) != len(all) {
		return kept, r.saveHeld(kept)
	}
	return kept, nil
}

func (r *Repo) saveHeld(held []HeldFile) error {
	p := filepath.Join(r.v.StateDir(), heldStateFile)
	if len(held) == 0 {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	data, err := json.MarshalIndent(held, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(r.v.StateDir(), 0o700); err != nil {
		return err
	}
	return vault.WriteFileAtomic(p, append(data, '\n'), vault.StateFileMode)
}

// diskHash is the blob hash of the file at repository path p in the work
// tree, "" when it is absent or unreadable.
func (r *Repo) diskHash(p string) string {
	data, err := os.ReadFile(filepath.Join(r.top, filepath.FromSlash(p)))
	if err != nil {
		return ""
	}
	return gitrepo.HashObject(gitrepo.BlobObject, data).String()
}

// holdLocal keeps this machine's version of its own files in the commit a
// sync moves to: every local file the merge (or fast-forward) to merged
// would change, whose incoming version differs from this machine's (for
// mem.yaml: in a key that is not a content key), is set back to HEAD's
// version. What this machine holds back is never its committed state, nor
// what its backup and clones get (issue 41). It records the holds (not on
// a dry run), reports them in res, and returns the commit to move to:
// merged itself, merged with the held files put back (the merge commit
// rebuilt, or a commit on the remote's head for a fast-forward), or head
// when all that came in is held back (nothing to take, nothing to push).
func (r *Repo) holdLocal(base, head, merged, remote gitrepo.Hash, url string, res *SyncResult, opts SyncOptions) (gitrepo.Hash, error) {
	if opts.AcceptConfig || head.IsZero() {
		// Accepting: what comes now is taken, what was held is taken when
		// the sync ends (acceptHeld). A vault with no commit has nothing
		// of its own yet: it takes the remote's files, as a clone does.
		return merged, nil
	}
	old, err := r.loadHeld(false)
	if err != nil {
		return merged, err
	}
	hd := &holding{base: base, head: head, remote: remote, url: url, now: opts.Now,
		holds: map[string]HeldFile{}, edits: map[string]treeEdit{}, changed: map[string]bool{}}
	for _, h := range old {
		hd.holds[h.Repo] = h
	}
	chs, err := r.diffTrees(head, merged)
	if err != nil {
		return merged, err
	}
	for _, c := range chs {
		if !r.localFile(c.Path) {
			continue
		}
		hd.changed[c.Path] = true
		if err := r.holdChange(hd, c); err != nil {
			return merged, err
		}
	}
	if err := r.dropSettledHolds(hd); err != nil {
		return merged, err
	}
	held := make([]HeldFile, 0, len(hd.holds))
	for _, h := range hd.holds {
		held = append(held, h)
	}
	slices.SortFunc(held, func(a, b HeldFile) int { return strings.Compare(a.Repo, b.Repo) })
	res.Held = held
	if !opts.DryRun {
		if err := r.saveHeld(held); err != nil {
			return merged, err
		}
	}
	if len(hd.edits) == 0 {
		return merged, nil
	}
	return r.keepLocal(head, merged, remote, url, hd.edits, res, opts.Now)
}

// holding is what holdLocal works out: the holds by repository path (the
// recorded ones, updated), the tree edits that put this machine's
// versions back, and which local files the merge changes.
type holding struct {
	base, head, remote gitrepo.Hash
	url                string
	now                time.Time
	holds              map[string]HeldFile
	edits              map[string]treeEdit
	changed            map[string]bool
}

// holdChange holds back the merge's change c of a local file: its hold is
// recorded and its version at head put back, unless c is to mem.yaml and
// differs only in content keys, when the proposal is taken.
func (r *Repo) holdChange(hd *holding, c gitrepo.Change) error {
	mine, in, err := r.versions(c)
	if err != nil {
		return err
	}
	h := hd.holds[c.Path]
	h.Keys = nil
	proposed := c.New
	if c.Path == r.repoPath(vault.ConfigFile) {
		var keys []string
		if proposed, keys, err = r.proposeConfigBlob(hd, c, mine, in); err != nil {
			return err
		}
		if len(keys) == 0 {
			// Only content keys differ: the proposal is taken.
			delete(hd.holds, c.Path)
			if proposed != c.New {
				hd.edits[c.Path] = treeEdit{mode: c.NewMode, hash: proposed}
			}
			return nil
		}
		h.Keys = keys
	}
	h.Repo, h.Path = c.Path, c.Path
	if rel, ok := r.vaultRel(c.Path); ok {
		h.Path = rel
	}
	h.URL, h.Commit = hd.url, r.lastChange(hd.base, hd.remote, c.Path).String()
	h.Local, h.Proposed = "", ""
	if !c.Added() {
		h.Local = c.Old.String()
	}
	if !c.Deleted() {
		h.Proposed = proposed.String()
	}
	if h.Since.IsZero() {
		h.Since = hd.now.UTC()
	}
	hd.holds[c.Path] = h
	hd.edits[c.Path] = treeEdit{mode: c.OldMode, hash: c.Old} // zero when added: removed again
	return nil
}

// versions reads both sides of change c: this machine's (nil when c adds
// the file) and the incoming one (nil when c deletes it).
func (r *Repo) versions(c gitrepo.Change) (mine, in []byte, err error) {
	if !c.Added() {
		if mine, err = r.blob(c.Old); err != nil {
			return nil, nil, r.damagedObject("blob", c.Old, c.Path, err)
		}
	}
	if !c.Deleted() {
		if in, err = r.blob(c.New); err != nil {
			return nil, nil, r.damagedObject("blob", c.New, c.Path, err)
		}
	}
	return mine, in, nil
}

// proposeConfigBlob stores what the incoming mem.yaml proposes (see
// proposeConfig) as a blob, and returns it with the keys this machine
// holds back.
func (r *Repo) proposeConfigBlob(hd *holding, c gitrepo.Change, mine, in []byte) (gitrepo.Hash, []string, error) {
	prop, keys, err := r.proposeConfig(hd.head, hd.remote, c.Path, mine, in)
	if err != nil {
		return gitrepo.ZeroHash, nil, err
	}
	if r.objs == nil {
		r.objs = r.git.NewObjects() // synced by applyMerge before a ref names what uses them
	}
	h, err := r.writeBlob(prop)
	return h, keys, err
}

// dropSettledHolds ends each hold this merge does not touch once the
// remote's head has come round to this machine's version; until then it
// stands.
func (r *Repo) dropSettledHolds(hd *holding) error {
	for p := range hd.holds {
		if hd.changed[p] {
			continue
		}
		theirs, err := r.fileAt(hd.remote, p)
		if err != nil {
			return err
		}
		ours, err := r.fileAt(hd.head, p)
		if err != nil {
			return err
		}
		if string(theirs) == string(ours) && (theirs == nil) == (ours == nil) {
			delete(hd.holds, p)
		}
	}
	return nil
}

// proposeConfig is what an incoming mem.yaml proposes to this machine's
// (mine): the keys the remote's own line changed, applied to mine, and
// the keys of it this machine would hold (not content keys). The remote's
// line is its head's first parents, back to where it left this machine's
// history: a merge keeps its own machine's mem.yaml on its first-parent
// side, so a key another machine held back from this one (its merge
// keeping its value) reads as unchanged there, not as a proposal to undo
// this machine's edit. A version that is not a YAML mapping is proposed
// whole.
func (r *Repo) proposeConfig(head, remote gitrepo.Hash, p string, mine, in []byte) ([]byte, []string, error) {
	whole := []string{"the whole file: it is not a YAML mapping"}
	fork := head
	out, err := r.env.Git().Run(r.gitDir, "rev-list", "--first-parent", remote.String(), "^"+head.String())
	if err != nil {
		return nil, nil, err
	}
	if line := strings.Fields(out); len(line) > 0 {
		c, err := r.git.Commit(gitrepo.NewHash(line[len(line)-1]))
		if err != nil {
			return nil, nil, r.damagedObject("commit", gitrepo.NewHash(line[len(line)-1]), "", err)
		}
		fork = gitrepo.ZeroHash
		if len(c.ParentHashes) > 0 {
			fork = c.ParentHashes[0]
		}
	}
	base, err := r.fileAt(fork, p)
	if err != nil {
		return nil, nil, err
	}
	prop, _, ok := vault.MergeConfig(base, mine, in, true)
	if !ok {
		return in, whole, nil
	}
	keys, ok := vault.ConfigChanges(mine, prop)
	if !ok {
		return in, whole, nil
	}
	return prop, slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(vault.ContentKeys, k) }), nil
}

// keepLocal is merged with the held files (edits) set back to head's
// version.
func (r *Repo) keepLocal(head, merged, remote gitrepo.Hash, url string, edits map[string]treeEdit, res *SyncResult, now time.Time) (gitrepo.Hash, error) {
	mc, err := r.git.Commit(merged)
	if err != nil {
		return merged, r.damagedObject("commit", merged, "", err)
	}
	hc, err := r.git.Commit(head)
	if err != nil {
		return merged, r.damagedObject("commit", head, "HEAD", err)
	}
	if r.objs == nil {
		r.objs = r.git.NewObjects() // synced by applyMerge before a ref names the commit
	}
	tree, err := r.editTree(mc.TreeHash, "", edits)
	if err != nil {
		return merged, err
	}
	var what []string
	for _, h := range res.Held {
		if _, ok := edits[h.Repo]; ok {
			what = append(what, "- "+h.String())
		}
	}
	note := "Held back: this machine keeps its own version of (docs/sync.md, \"What a remote may change\"):\n" + strings.Join(what, "\n") + "\n"
	c := mc
	if merged == remote { // a fast-forward: a commit of its own takes the rest
		if tree == hc.TreeHash {
			res.FastForward = false
			return head, nil // nothing came in but what is held back
		}
		who, err := r.author(now)
		if err != nil {
			return merged, err
		}
		c = &gitrepo.Commit{Author: who, Committer: r.committer(who), Message: fmt.Sprintf("mem sync: merge %s from %s\n", short(remote), url),
			ParentHashes: []gitrepo.Hash{head, remote}}
		res.FastForward = false
	}
	c.TreeHash = tree
	c.Message = redactLines(strings.TrimRight(c.Message, "\n") + "\n\n" + note)
	data, err := gitrepo.EncodeCommit(c)
	if err != nil {
		return merged, err
	}
	h, err := r.objs.Write(gitrepo.CommitObject, data)
	if err != nil {
		return merged, err
	}
	res.Merge = h.String()
	return h, r.objs.Wait()
}

// lastChange is the newest commit from base to remote that changed p
// (remote itself when none is found).
func (r *Repo) lastChange(base, remote gitrepo.Hash, p string) gitrepo.Hash {
	rng := remote.String()
	if !base.IsZero() {
		rng = base.String() + ".." + remote.String()
	}
	out, err := r.env.Git().Run(r.gitDir, "log", "-1", "--format=%H", rng, "--", p)
	if h := strings.TrimSpace(out); err == nil && gitrepo.IsHash(h) {
		return gitrepo.NewHash(h)
	}
	return remote
}

// acceptHeld takes what is held back (mem sync --accept-config): each held
// file gets the version proposed (the proposing commit's when that blob is
// gone), and a commit makes it this machine's; the next sync pushes it.
func (r *Repo) acceptHeld(now time.Time) ([]HeldFile, error) {
	held, err := r.loadHeld(true)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	// Replaced together, with one flush, as sync's merge writes.
	var batch vault.Batch
	defer batch.Abort()
	for _, h := range held {
		var data []byte
		if h.Proposed != "" {
			if data, err = r.blob(gitrepo.NewHash(h.Proposed)); err != nil {
				if data, err = r.fileAt(gitrepo.NewHash(h.Commit), h.Repo); err != nil {
					return nil, err
				}
			}
		}
		p := filepath.Join(r.top, filepath.FromSlash(h.Repo))
		if data == nil {
			batch.Remove(p)
			continue
		}
		if _, err := batch.Add(p, data, vault.FileMode()); err != nil { // it makes a missing folder
			return nil, err
		}
	}
	if err := batch.Commit(); err != nil {
		return nil, err
	}
	if err := r.saveHeld(nil); err != nil {
		return nil, err
	}
	_, err = r.Commit(CommitOptions{Now: now})
	return held, err
}
