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
// are this machine's: an incoming change to one is merged into the shared
// history as a proposal, while the file on disk, which is what mem and
// git read, stays as it was here. The record in .mem/held.json names what
// is held; mem commit keeps the committed (shared) version of a held file
// in every commit, so holding a change back is never pushed as a change of
// its own (no revert that the other machine would in turn hold back). A
// local edit of the file, or 'mem sync --accept-config', ends the hold.

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
	return vault.WriteFileAtomic(p, append(data, '\n'), vault.FileMode())
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

// heldPaths is the set of repository paths a commit keeps as HEAD has them.
func heldPaths(held []HeldFile) map[string]bool {
	m := map[string]bool{}
	for _, h := range held {
		m[h.Repo] = true
	}
	return m
}

// holdLocal decides, for a merge from head to merged, which of this
// machine's files keep their version on disk: every local file the merge
// changes, and every one already held, whose incoming version differs from
// the one here (for mem.yaml: in a key that is not a content key). It
// records them (not on a dry run) and reports them in res.
func (r *Repo) holdLocal(base, head, merged, remote gitrepo.Hash, url string, res *SyncResult, opts SyncOptions) error {
	if opts.AcceptConfig {
		return nil // what is held, and what comes now, is taken when the sync ends (acceptHeld)
	}
	old, err := r.loadHeld(false)
	if err != nil {
		return err
	}
	cands := map[string]HeldFile{}
	for _, h := range old {
		cands[h.Repo] = h
	}
	chs, err := r.diffTrees(head, merged)
	if err != nil {
		return err
	}
	for _, c := range chs {
		if r.localFile(c.Path) {
			if _, ok := cands[c.Path]; !ok {
				cands[c.Path] = HeldFile{Repo: c.Path, Since: opts.Now.UTC()}
			}
		}
	}
	var held []HeldFile
	for p, h := range cands {
		in, err := r.fileAt(merged, p)
		if err != nil {
			return err
		}
		mine, err := os.ReadFile(filepath.Join(r.top, filepath.FromSlash(p)))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", filepath.Join(r.top, filepath.FromSlash(p)), err)
		}
		if string(mine) == string(in) && (mine == nil) == (in == nil) {
			continue
		}
		h.Keys = nil
		if p == r.repoPath(vault.ConfigFile) {
			keys, ok := vault.ConfigChanges(mine, in)
			if !ok {
				keys = []string{"the whole file: it is not a YAML mapping"}
			}
			keys = slices.DeleteFunc(keys, func(k string) bool { return slices.Contains(vault.ContentKeys, k) })
			if len(keys) == 0 {
				continue // only content keys differ: the proposal is taken
			}
			h.Keys = keys
		}
		h.Path = p
		if rel, ok := r.vaultRel(p); ok {
			h.Path = rel
		}
		h.URL, h.Commit = url, r.lastChange(base, remote, p).String()
		h.Local = ""
		if mine != nil {
			h.Local = gitrepo.HashObject(gitrepo.BlobObject, mine).String()
		}
		if h.Since.IsZero() {
			h.Since = opts.Now.UTC()
		}
		held = append(held, h)
	}
	slices.SortFunc(held, func(a, b HeldFile) int { return strings.Compare(a.Repo, b.Repo) })
	res.Held = held
	if opts.DryRun {
		return nil
	}
	return r.saveHeld(held)
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
// file gets the version the sync ended at, which the next commit then finds
// unchanged.
func (r *Repo) acceptHeld() ([]HeldFile, error) {
	held, err := r.loadHeld(true)
	if err != nil || len(held) == 0 {
		return nil, err
	}
	_, head, err := r.git.Head()
	if err != nil {
		return nil, err
	}
	for _, h := range held {
		data, err := r.fileAt(head, h.Repo)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(r.top, filepath.FromSlash(h.Repo))
		if data == nil {
			if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o777); err != nil {
			return nil, err
		}
		if err := vault.WriteFileAtomic(p, data, vault.FileMode()); err != nil {
			return nil, err
		}
	}
	return held, r.saveHeld(nil)
}
