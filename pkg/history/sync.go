package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sysclock "github.com/mem-md/mem/pkg/clock" // the tests name their fixed time clock
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/merge"
	"github.com/mem-md/mem/pkg/vault"
)

// SyncOptions tune Sync (spec §9, docs/sync.md).
type SyncOptions struct {
	Remote          string // a path, file:// URL, ssh or https URL, or a git remote name
	RelativeTo      string // base of a relative path in Remote (default: the working directory)
	DryRun          bool   // commit, fetch and merge in the object store only: no file changes, nothing is pushed
	AllowMassDelete bool   // accept an incoming change that removes many memories
	AcceptConfig    bool   // take what is held back: the remote's mem.yaml keys and git files (held.go)
	Now             time.Time
	Env             Env // the process's environment and deadlines
}

// SyncCounts are the memories one direction of a sync brought.
type SyncCounts struct {
	Added   int `json:"added"`
	Changed int `json:"changed"`
	Retired int `json:"retired"` // changed so that invalid_at or status: deprecated is newly set
	Removed int `json:"removed"` // files deleted
}

// SyncResult says what Sync did.
type SyncResult struct {
	Remote      string     `json:"remote"`
	URL         string     `json:"url"`
	Branch      string     `json:"branch"`
	Committed   string     `json:"committed,omitempty"` // the local commit made first
	Head        string     `json:"head"`
	Merge       string     `json:"merge,omitempty"` // the merge commit, when both sides had changes
	FastForward bool       `json:"fast_forward"`
	Pushed      bool       `json:"pushed"`
	Created     bool       `json:"created"` // the remote was a new path, made a bare repository
	Recovered   bool       `json:"recovered"`
	DryRun      bool       `json:"dry_run"`
	In          SyncCounts `json:"in"`
	Out         SyncCounts `json:"out"`
	Decisions   []string   `json:"decisions"`
	Overruled   []string   `json:"overruled,omitempty"` // decisions another machine's merge made against this machine's version
	Held        []HeldFile `json:"held,omitempty"`      // incoming changes to this machine's files, held back
	Accepted    []HeldFile `json:"accepted,omitempty"`  // held-back changes this sync took (--accept-config)
	Warnings    []string   `json:"warnings,omitempty"`
}

// syncJournal, in the git directory, says a merge is being applied to the
// working tree: it names the branch, the head before and the merge after,
// so that a sync killed half-way is finished by the next one and nothing
// commits the half-applied tree meanwhile (it is one of the busyMarkers).
const syncJournal = "MEM_SYNC_MERGE"

type journal struct {
	Ref string `json:"ref"`
	Old string `json:"old"`
	New string `json:"new"`
}

// maxPushTries bounds the fetch-merge-push rounds when another machine
// pushes between our fetch and our push.
const maxPushTries = 3

// Sync commits, fetches, merges memory by memory, checks and pushes. Two
// syncs of one vault never interleave: the second waits briefly for the
// sync lock, then skips (a *SkipError naming the holder's pid).
func Sync(v *vault.Vault, opts SyncOptions) (*SyncResult, error) {
	unlock, err := v.Lock("sync")
	if err != nil {
		var le *vault.LockedError
		if errors.As(err, &le) {
			who := "another mem sync"
			if le.PID > 0 {
				who += fmt.Sprintf(" (pid %d)", le.PID)
			}
			return nil, skipFor(v, le.Path, who+" is running on this vault; this one changed nothing, the next run syncs")
		}
		return nil, err
	}
	defer unlock()
	r, err := Open(v, opts.Env)
	if err != nil {
		return nil, err
	}
	release, err := r.git.KeepPacks()
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := r.sync(opts)
	if err == nil && opts.AcceptConfig && !opts.DryRun {
		// Last, so a sync refused on the way takes nothing: its guards
		// and targets stay this machine's.
		res.Accepted, err = r.acceptHeld(opts.Now)
	}
	return res, err
}

func (r *Repo) sync(opts SyncOptions) (*SyncResult, error) {
	if opts.Now.IsZero() {
		opts.Now = sysclock.Now()
	}
	if opts.Remote == "" {
		return nil, errors.New("no sync remote: pass one (mem sync PATH|URL|REMOTE) or set sync.remote in mem.yaml")
	}
	res := &SyncResult{Remote: opts.Remote, DryRun: opts.DryRun, Decisions: []string{}}
	url, local, err := r.syncURL(opts)
	if err != nil {
		return nil, err
	}
	res.URL = url
	if err := r.resumeSync(res, opts.Now); err != nil {
		return nil, err
	}
	st := &syncState{url: url, res: res, opts: opts}
	if err := r.commitLocal(st); err != nil {
		return nil, err
	}
	if local != "" {
		if err := r.createRemote(local, st.branch, st.head, res, opts.DryRun); err != nil {
			return nil, err
		}
		if _, err := os.Stat(local); err != nil && opts.DryRun {
			return res, nil // nothing to fetch from a remote still to create
		}
	}
	for try := 1; ; try++ {
		rejected, err := r.syncRound(st)
		if err != nil {
			return nil, err
		}
		if !rejected {
			return res, nil
		}
		if try == maxPushTries {
			return nil, &SkipError{Reason: fmt.Sprintf("%s moved %d times while this sync merged (other machines are pushing): what came in is merged here; the next run pushes", url, try)}
		}
	}
}

// syncState is what a sync carries from step to step and round to round.
type syncState struct {
	url    string
	branch gitrepo.RefName
	head   gitrepo.Hash // this machine's head
	// kept says what an interruption keeps (stopped): it grows as the
	// sync goes.
	kept string
	res  *SyncResult
	opts SyncOptions
}

// resumeSync pins git's attributes off the vault and finishes a merge an
// interrupted sync left half-applied, before anything else happens, at the
// sync's own time.
func (r *Repo) resumeSync(res *SyncResult, now time.Time) error {
	if err := gitrepo.PinAttributes(r.gitDir, vault.NoTransform); err != nil {
		return fmt.Errorf("%s: %w", r.gitDir, err)
	}
	if done, err := r.finishJournal(now); err != nil {
		return err
	} else if done {
		res.Recovered = true
		res.Warnings = append(res.Warnings, "finished applying a merge that an interrupted sync had started")
	}
	return r.stopped("no file was changed; nothing was committed, fetched or pushed")
}

// commitLocal commits this machine's changes first (a dry run too: what a
// merge would decide depends on them, and a commit changes no file) and
// reads the branch the sync is for, which must be checked out.
func (r *Repo) commitLocal(st *syncState) error {
	c, err := r.Commit(CommitOptions{Now: st.opts.Now})
	if err != nil {
		return err
	}
	st.res.Committed = c.Commit
	// Until the merge is applied, an interruption leaves every file as it
	// was: only this machine's own changes may have been committed.
	st.kept = "no file was changed; nothing was fetched into the vault or pushed"
	if c.Commit != "" {
		st.kept = fmt.Sprintf("this machine's changes were committed (%.7s); no file was changed and nothing was pushed", c.Commit)
	}
	st.res.Warnings = append(st.res.Warnings, c.Warnings...)
	for _, s := range c.Secrets {
		st.res.Warnings = append(st.res.Warnings, fmt.Sprintf("%s:%d: %s: left out of the commit and the sync (it holds a secret): remove the secret, the next sync sends it", s.Path, s.Line, s.Rule))
	}
	if st.branch, st.head, err = r.git.Head(); err != nil {
		return err
	}
	if st.branch == gitrepo.HEAD {
		return fmt.Errorf("%s: HEAD is detached: check out the vault's branch ('git -C %s switch main') before 'mem sync'", r.gitDir, r.top)
	}
	st.res.Branch = st.branch.Short()
	return nil
}

// syncRound fetches, merges, applies and pushes once; rejected is true
// when the remote moved since the fetch (the caller runs another round).
func (r *Repo) syncRound(st *syncState) (rejected bool, err error) {
	remote, merged, behind, err := r.fetchAndMerge(st)
	if err != nil || st.opts.DryRun {
		return false, err
	}
	if err := r.stopped(st.kept); err != nil {
		return false, err
	}
	if err := r.applyRound(st, merged, remote); err != nil {
		return false, err
	}
	if st.head == remote || behind {
		return false, nil
	}
	return r.pushRound(st, remote)
}

// fetchAndMerge fetches the remote's branch, checks what came in and
// merges it with this machine's head, in the object store only. behind
// is true when this machine stays on its head while the remote is ahead:
// all that came in is held back (holdLocal), and the remote has all there
// is to push.
func (r *Repo) fetchAndMerge(st *syncState) (remote, merged gitrepo.Hash, behind bool, err error) {
	if err := r.stopped(st.kept); err != nil {
		return remote, merged, false, err
	}
	remote, err = r.fetch(st.url, st.branch)
	if err := r.stopped(st.kept); err != nil {
		return remote, merged, false, err
	}
	if err != nil {
		return remote, merged, false, err
	}
	base, err := r.mergeBase(st.head, remote)
	if err != nil {
		return remote, merged, false, err
	}
	// A remote whose head is in this machine's history brings nothing:
	// there is nothing to check or tell.
	if base != remote {
		in, err := r.checkFetched(st.head, remote, st.url)
		if err != nil {
			return remote, merged, false, err
		}
		if err := r.tellOverruled(st.head, remote, in, st.res); err != nil {
			return remote, merged, false, err
		}
	}
	if merged, err = r.mergeHeads(st.head, remote, base, st.url, st.res, st.opts); err != nil {
		return remote, merged, false, err
	}
	// Staying on a head that is the base: this machine's head is in the
	// remote's history, which is ahead.
	behind = merged == st.head && !remote.IsZero() && remote != st.head && base == st.head
	if st.res.In, err = r.counts(st.head, merged); err != nil {
		return remote, merged, behind, err
	}
	if !behind {
		if st.res.Out, err = r.counts(remote, merged); err != nil {
			return remote, merged, behind, err
		}
	}
	st.res.Head = merged.String()
	return remote, merged, behind, nil
}

// applyRound brings the vault to merged (applyMerge) when it differs from
// this machine's head. From then on an interruption keeps the merge and
// leaves the push to the next sync.
func (r *Repo) applyRound(st *syncState, merged, remote gitrepo.Hash) error {
	start := st.head
	if merged != st.head {
		if err := r.applyMerge(st.branch, st.head, merged, st.opts.Now); err != nil {
			return err
		}
		// Past the merge when refreshing the index committed a file
		// written meanwhile; it goes out with this push.
		var err error
		if _, st.head, err = r.git.Head(); err != nil {
			return err
		}
		st.res.Head = st.head.String()
	}
	// A merge is applied whole (journal first): from here an
	// interruption keeps it and leaves the push to the next sync.
	st.kept = "no file was changed; nothing was pushed: the next sync pushes"
	switch {
	case merged != start && st.head == remote:
		st.kept = "what came in is merged here, the vault is complete; nothing was left to push"
	case merged != start:
		st.kept = "what came in is merged here, the vault is complete; nothing was pushed: the next sync pushes"
	}
	return r.stopped(st.kept)
}

// pushRound checks and pushes this machine's head over remote (the head
// fetched); rejected is true when the remote moved since.
func (r *Repo) pushRound(st *syncState, remote gitrepo.Hash) (rejected bool, err error) {
	cc, err := r.pushCheck(remote, st.head, st.url, st.opts)
	if err != nil {
		return false, err
	}
	rejected, err = r.pushBranch(st.url, st.branch)
	if err := r.stopped(st.kept); err != nil {
		return false, err
	}
	if err != nil {
		return false, err
	}
	if !rejected {
		st.res.Pushed = true
		return false, r.sendWarnings(cc, st.url, &st.res.Warnings)
	}
	return rejected, nil
}

// stopped is the error of a sync interrupted by Env.Context (Ctrl-C),
// saying what was kept (exit 130), or nil while it runs on.
func (r *Repo) stopped(kept string) error {
	if r.env.Context == nil || r.env.Context.Err() == nil {
		return nil
	}
	return fail.As(fail.Interrupted, errors.New("interrupted: "+kept))
}

// syncURL resolves the remote: a git remote name to its URL, a path (or
// file:// URL) to an absolute path, which is returned as local too.
func (r *Repo) syncURL(opts SyncOptions) (url, local string, err error) {
	url = opts.Remote
	if u, ok := r.git.RemoteURL(url); ok {
		url = u
	}
	if !isPath(url) {
		return url, "", nil
	}
	p := strings.TrimPrefix(url, "file://")
	if !filepath.IsAbs(p) && opts.RelativeTo != "" {
		p = filepath.Join(opts.RelativeTo, p)
	}
	if p, err = filepath.Abs(p); err != nil {
		return "", "", err
	}
	return p, p, nil
}

// createRemote makes a bare repository at a local path that does not
// exist yet (as a first backup does: in a temporary folder renamed into
// place), after the push check; a missing parent is refused, as it is most
// often a drive that is not mounted.
func (r *Repo) createRemote(p string, branch gitrepo.RefName, head gitrepo.Hash, res *SyncResult, dry bool) error {
	if _, err := os.Stat(p); !errors.Is(err, fs.ErrNotExist) {
		return nil // an existing path: git says what is wrong with it, if anything
	}
	parent := filepath.Dir(p)
	if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
		return fmt.Errorf("%s: the folder %s does not exist (is the drive mounted? a typo?): mount or create it, then run 'mem sync' again", p, parent)
	}
	if head.IsZero() {
		return fmt.Errorf("%s: neither this vault nor the remote has a commit yet: write a memory first, or give an existing remote", p)
	}
	if dry {
		res.Warnings = append(res.Warnings, p+" does not exist: a sync would create it as a bare repository")
		return nil
	}
	cc, err := r.newContentCheck(gitrepo.ZeroHash, head)
	if err != nil {
		return err
	}
	if err := r.checkSecrets(func(gitrepo.Hash) bool { return false }, p, cc); err != nil {
		return syncRefusal(err)
	}
	br := &BackupResult{}
	if _, err := r.createBackup(p, branch, br, false); err != nil {
		return err
	}
	res.Created, res.Pushed = br.Created, br.Pushed
	res.Warnings = append(res.Warnings, br.Warnings...)
	return r.sendWarnings(cc, p, &res.Warnings)
}

// syncRefusal words a backup refusal for sync.
func syncRefusal(err error) error {
	var re *RefusedError
	if errors.As(err, &re) {
		re.Msg = strings.ReplaceAll(re.Msg, "'mem backup'", "'mem sync'")
	}
	return err
}

// gcInForeground makes the git gc --auto a fetch ends with (through git
// maintenance run --auto) finish before the fetch returns: run in the
// background, as git runs it by default, it would delete the packs and
// loose files this sync reads next while it reads them.
var gcInForeground = []string{"-c", "gc.autoDetach=false", "-c", "maintenance.autoDetach=false"}

// fetch brings the remote's branch into the object store and returns its
// head (zero when the remote has no such branch yet). It names no ref
// (FETCH_HEAD only), so a fetch left running by a killed sync can never
// hold a ref lock the next sync needs.
func (r *Repo) fetch(url string, branch gitrepo.RefName) (gitrepo.Hash, error) {
	args := append(slices.Concat(fetchFsck, gcInForeground), "fetch", "--quiet", "--no-tags", url, branch.String())
	_, err := r.env.Git().Run(r.gitDir, args...)
	if err != nil {
		var ge *gitrepo.Error
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "couldn't find remote ref") {
			return gitrepo.ZeroHash, nil
		}
		if errors.As(err, &ge) && fsckRefused(ge.Stderr) {
			return gitrepo.ZeroHash, r.diagnose(url, branch, ge.Stderr)
		}
		return gitrepo.ZeroHash, fmt.Errorf("fetch from %s: %w (is the remote reachable? nothing here changed)", url, err)
	}
	// A fetch keeps what it brings (over 100 objects) as a new pack, and
	// its git gc --auto may repack this vault's objects, this sync's own
	// commit's among them, into another and delete the loose files and
	// packs they were in: the reads must list the packs again.
	r.git.Refresh()
	head, err := r.git.FetchHead()
	if err != nil {
		return gitrepo.ZeroHash, fmt.Errorf("fetch from %s: %w", url, err)
	}
	return head, nil
}

// mergeBase is the best common ancestor of this machine's head and the
// remote's, zero when either is zero, when they are the same, or when
// their histories are unrelated (merged against the empty tree). It is
// the one git process that tells how the two stand: head is in the
// remote's history when it is the base, and the other way round.
func (r *Repo) mergeBase(head, remote gitrepo.Hash) (gitrepo.Hash, error) {
	if head.IsZero() || remote.IsZero() || remote == head {
		return gitrepo.ZeroHash, nil
	}
	return r.git.MergeBase(head, remote)
}

// mergeHeads returns the commit the vault's branch should hold: head
// itself, the remote's head (a fast-forward), or a new merge commit over
// base (mergeBase). An incoming change that removes too many memories is
// refused here, before anything local changes.
func (r *Repo) mergeHeads(head, remote, base gitrepo.Hash, url string, res *SyncResult, opts SyncOptions) (gitrepo.Hash, error) {
	if remote.IsZero() || remote == head || base == remote {
		return head, nil
	}
	merged := remote
	if base != head {
		m, err := r.mergeCommit(base, head, remote, url, res, opts.Now)
		if err != nil {
			return gitrepo.ZeroHash, err
		}
		merged = m
		res.Merge = m.String()
	} else {
		res.FastForward = true
	}
	merged, err := r.holdLocal(base, head, merged, remote, url, res, opts)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	if err := r.guardIncoming(base, head, merged, remote, url, opts); err != nil {
		return gitrepo.ZeroHash, err
	}
	return merged, nil
}

// diffTrees lists the files that differ between two commits (zero: the
// empty tree), renames as a deletion and an addition.
func (r *Repo) diffTrees(a, b gitrepo.Hash) ([]gitrepo.Change, error) {
	ta, err := r.commitTree(a)
	if err != nil {
		return nil, err
	}
	tb, err := r.commitTree(b)
	if err != nil {
		return nil, err
	}
	return r.git.Diff(ta, tb, "")
}

// commitTree is the tree of commit h (zero: the empty tree's zero).
func (r *Repo) commitTree(h gitrepo.Hash) (gitrepo.Hash, error) {
	if h.IsZero() {
		return h, nil
	}
	c, err := r.git.Commit(h)
	if err != nil {
		return h, r.damagedObject("commit", h, "", err)
	}
	return c.TreeHash, nil
}

// mergeCommit merges remote into head against base, file by file (spec
// §9): paths changed on one side take that side; paths changed on both
// are merged by merge.File. Only the folders that change are written; the
// commit records every decision.
func (r *Repo) mergeCommit(base, head, remote gitrepo.Hash, url string, res *SyncResult, now time.Time) (gitrepo.Hash, error) {
	ours, err := r.diffTrees(base, head)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	theirs, err := r.diffTrees(base, remote)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	hc, err := r.git.Commit(head)
	if err != nil {
		return gitrepo.ZeroHash, r.damagedObject("commit", head, "HEAD", err)
	}
	rc, err := r.git.Commit(remote)
	if err != nil {
		return gitrepo.ZeroHash, r.damagedObject("commit", remote, "the remote's head", err)
	}
	oursLater := hc.Committer.When.After(rc.Committer.When) || hc.Committer.When.Equal(rc.Committer.When) && head.String() > remote.String()
	r.objs = r.git.NewObjects() // synced by applyMerge before a ref names the merge
	edits, decisions, err := r.mergeEdits(ours, theirs, oursLater)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	tree, err := r.editTree(hc.TreeHash, "", edits)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	sort.Strings(decisions)
	res.Decisions = append(res.Decisions, decisions...)
	msg := fmt.Sprintf("mem sync: merge %s from %s\n", short(remote), url)
	if len(decisions) > 0 {
		msg += "\n" + decisionsHeader + "\n- " + strings.Join(decisions, "\n- ") + "\n"
	}
	who, err := r.author(now)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	c := &gitrepo.Commit{Author: who, Committer: r.committer(who), Message: redactLines(msg),
		TreeHash: tree, ParentHashes: []gitrepo.Hash{head, remote}}
	data, err := gitrepo.EncodeCommit(c)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	h, err := r.objs.Write(gitrepo.CommitObject, data)
	if err != nil {
		return gitrepo.ZeroHash, err
	}
	return h, r.objs.Wait()
}

// mergeEdits are the edits that bring head's tree to the merge (ours and
// theirs: each side's changes since the base) and the decisions made: a
// path only the remote changed takes its version, one both changed is
// merged (mergeFile).
func (r *Repo) mergeEdits(ours, theirs []gitrepo.Change, oursLater bool) (map[string]treeEdit, []string, error) {
	byPath := map[string]gitrepo.Change{}
	for _, c := range ours {
		byPath[c.Path] = c
	}
	edits := map[string]treeEdit{}
	var decisions []string
	for _, t := range theirs {
		o, both := byPath[t.Path]
		switch {
		case !both && t.Deleted():
			edits[t.Path] = treeEdit{}
		case !both:
			edits[t.Path] = treeEdit{mode: t.NewMode, hash: t.New}
		case o.New == t.New && o.NewMode == t.NewMode:
		default:
			ds, err := r.mergeFile(o, t, oursLater, edits)
			if err != nil {
				return nil, nil, err
			}
			decisions = append(decisions, ds...)
		}
	}
	return edits, decisions, nil
}

// mergeFile merges one path both sides changed (o ours, t theirs) with
// merge.File, adding its result (and a sibling file, when the merge keeps
// both versions) to edits; it returns the decisions made.
func (r *Repo) mergeFile(o, t gitrepo.Change, oursLater bool, edits map[string]treeEdit) ([]string, error) {
	read := func(h gitrepo.Hash, mode gitrepo.Mode, label string, later bool) (merge.Side, error) {
		s := merge.Side{Label: label, Later: later}
		if mode == 0 {
			return s, nil
		}
		data, err := r.blob(h)
		s.Data, s.Present = data, true
		return s, err
	}
	b, err1 := read(t.Old, t.OldMode, "base", false)
	os_, err2 := read(o.New, o.NewMode, labelOurs, oursLater)
	ts, err3 := read(t.New, t.NewMode, labelRemote, !oursLater)
	if err := errors.Join(err1, err2, err3); err != nil {
		return nil, fmt.Errorf("%s: read the versions to merge: %w", t.Path, err)
	}
	rel, _ := r.vaultRel(t.Path)
	if rel == "" {
		rel = t.Path
	}
	fm := merge.File(rel, b, os_, ts)
	mode := o.NewMode
	if o.Deleted() {
		mode = t.NewMode
	}
	edits[t.Path] = treeEdit{}
	if fm.Present {
		h, err := r.writeBlob(fm.Data)
		if err != nil {
			return nil, err
		}
		edits[t.Path] = treeEdit{mode: mode, hash: h}
	}
	if fm.Sibling != "" {
		h, err := r.writeBlob(fm.SiblingData)
		if err != nil {
			return nil, err
		}
		edits[r.repoPath(fm.Sibling)] = treeEdit{mode: gitrepo.Regular, hash: h}
	}
	return fm.Decisions, nil
}

// treeEdit is a file a merge sets (mode and blob) or deletes (zero hash).
type treeEdit struct {
	mode gitrepo.Mode
	hash gitrepo.Hash
}

// editTree applies edits (repository paths under dir) to tree h and
// stores the folders that changed; the rest are shared with h. A folder
// left empty is dropped, as git has no empty trees.
func (r *Repo) editTree(h gitrepo.Hash, dir string, edits map[string]treeEdit) (gitrepo.Hash, error) {
	var ents []gitrepo.TreeEntry
	if !h.IsZero() {
		t, err := r.tree(h, dir)
		if err != nil {
			return gitrepo.ZeroHash, err
		}
		ents = append(ents, t.Entries...)
	}
	here, below := splitEdits(edits)
	out := ents[:0:0]
	var err error
	for _, e := range ents {
		ed, edited := here[e.Name]
		sub, inside := below[e.Name]
		switch {
		case edited:
			delete(here, e.Name)
			out = appendEdit(out, e.Name, ed)
		case inside && e.Mode == gitrepo.Dir:
			delete(below, e.Name)
			if out, err = r.appendSubtree(out, e.Hash, dir, e.Name, sub); err != nil {
				return gitrepo.ZeroHash, err
			}
		default:
			out = append(out, e)
		}
	}
	for name, ed := range here {
		out = appendEdit(out, name, ed)
	}
	for name, sub := range below {
		if out, err = r.appendSubtree(out, gitrepo.ZeroHash, dir, name, sub); err != nil {
			return gitrepo.ZeroHash, err
		}
	}
	if len(out) == 0 {
		return gitrepo.ZeroHash, nil
	}
	return r.storeTree(out)
}

// splitEdits parts edits into those of a folder's own entries (here, by
// name) and those further down (below, by the subfolder's name, with
// paths relative to it).
func splitEdits(edits map[string]treeEdit) (here map[string]treeEdit, below map[string]map[string]treeEdit) {
	here, below = map[string]treeEdit{}, map[string]map[string]treeEdit{}
	for p, e := range edits {
		name, rest, sub := strings.Cut(p, "/")
		if !sub {
			here[p] = e
			continue
		}
		if below[name] == nil {
			below[name] = map[string]treeEdit{}
		}
		below[name][rest] = e
	}
	return here, below
}

// appendEdit adds the entry an edit sets; a deletion adds nothing.
func appendEdit(out []gitrepo.TreeEntry, name string, ed treeEdit) []gitrepo.TreeEntry {
	if ed.hash.IsZero() {
		return out
	}
	return append(out, gitrepo.TreeEntry{Name: name, Mode: ed.mode, Hash: ed.hash})
}

// appendSubtree adds the subfolder name of dir (tree h, zero when new)
// with edits applied; one left empty is dropped.
func (r *Repo) appendSubtree(out []gitrepo.TreeEntry, h gitrepo.Hash, dir, name string, edits map[string]treeEdit) ([]gitrepo.TreeEntry, error) {
	nh, err := r.editTree(h, join(dir, name), edits)
	if err != nil || nh.IsZero() {
		return out, err
	}
	return append(out, gitrepo.TreeEntry{Name: name, Mode: gitrepo.Dir, Hash: nh}), nil
}

func (r *Repo) writeBlob(data []byte) (gitrepo.Hash, error) {
	return r.objs.Write(gitrepo.BlobObject, data)
}

// lostMemories counts the memories of chs (a diff from a to b) that b
// removes: deleted, or changed into a file that no longer parses (the
// mass-delete guard's rule, as mem commit counts).
func (r *Repo) lostMemories(chs []gitrepo.Change) int {
	n := 0
	for _, c := range chs {
		rel, ok := r.vaultRel(c.Path)
		if !ok || !r.v.IsMemoryPath(rel) || c.Added() {
			continue
		}
		old, err := r.blob(c.Old)
		if err != nil || parseMeta(old).noMemory() {
			continue
		}
		if c.Deleted() {
			n++
		} else if data, err := r.blob(c.New); err == nil && parseMeta(data).noMemory() {
			n++
		}
	}
	return n
}

// memoryCount counts the memory files at commit h.
func (r *Repo) memoryCount(h gitrepo.Hash) (int, error) {
	args := []string{"ls-tree", "-r", "-z", "--name-only", h.String()}
	if r.prefix != "" {
		args = append(args, "--", r.prefix)
	}
	out, err := r.env.Git().Run(r.gitDir, args...)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, p := range strings.Split(out, "\x00") {
		if rel, ok := r.vaultRel(p); ok && p != "" && r.v.IsMemoryPath(rel) {
			n++
		}
	}
	return n, nil
}

// guardIncoming refuses a merge whose incoming side removes more than the
// mass-delete share of this vault's memories (the incident of a remote
// wiped to 8 files), naming the remote commit that removed the most and
// the memories. Removed counts deleted and spoiled files and every memory
// the change takes out of this machine's views (leftView), and an
// incoming memory taking a local id is refused whatever the count.
func (r *Repo) guardIncoming(base, head, merged, remote gitrepo.Hash, url string, opts SyncOptions) error {
	if head.IsZero() {
		return nil
	}
	chs, err := r.diffTrees(head, merged)
	if err != nil {
		return err
	}
	left, err := r.leftView(chs, url, opts.Now)
	if err != nil || opts.AllowMassDelete {
		return err
	}
	lost := r.lostIncoming(chs, opts.Now)
	for rel, why := range left {
		if _, ok := lost[rel]; !ok {
			lost[rel] = "left the view: " + why
		}
	}
	removed := len(lost)
	if removed < r.v.Config.Lint.MassDeleteMin {
		return nil
	}
	before, err := r.memoryCount(head)
	if err != nil || !r.v.Config.Lint.IsMassDeletion(removed, before) {
		return err
	}
	disguised := 0
	which := make([]string, 0, len(lost))
	for rel, how := range lost {
		if how != "removed" {
			disguised++
		}
		which = append(which, rel+" ("+how+")")
	}
	slices.Sort(which)
	culprit := r.culprit(base, remote, len(chs), opts.Now)
	subject := ""
	if c, err := r.git.Commit(culprit); err == nil {
		subject = strings.SplitN(strings.TrimSpace(c.Message), "\n", 2)[0]
	}
	return &MassDeleteError{Removed: removed, Spoiled: disguised, How: "still there but emptied, retyped, retired, deprecated, no longer parsing, rewritten so the content rules refuse them, or taken out of the view", Which: which, Of: before, Share: r.v.Config.Lint.MassDeleteShare,
		What: fmt.Sprintf("merging %s from %s (commit %s %q removed them; nothing here changed, inspect it with 'git show --stat %s')", short(remote), url, short(culprit), redactLines(subject), short(culprit))}
}

// culprit is the remote's commit since base (first parents only) that
// silenced most memories, else the one that changed most (silenced by the
// view alone); remote itself when none can be read. width is the number
// of paths the whole incoming change touches, which weighs silencing
// over changing.
func (r *Repo) culprit(base, remote gitrepo.Hash, width int, now time.Time) gitrepo.Hash {
	culprit := remote
	rng := remote.String()
	if !base.IsZero() {
		rng = base.String() + ".." + remote.String()
	}
	out, err := r.env.Git().Run(r.gitDir, "rev-list", "--first-parent", rng)
	if err != nil {
		return culprit
	}
	most := 0
	for _, h := range strings.Fields(out) {
		c, err := r.git.Commit(gitrepo.NewHash(h))
		if err != nil {
			continue
		}
		parent := gitrepo.ZeroHash
		if len(c.ParentHashes) > 0 {
			parent = c.ParentHashes[0]
		}
		if d, err := r.diffTrees(parent, c.Hash); err == nil {
			if n := len(r.lostIncoming(d, now))*width + len(d); n > most {
				most, culprit = n, c.Hash
			}
		}
	}
	return culprit
}

// counts says what moving from a to b changes in the memories.
func (r *Repo) counts(a, b gitrepo.Hash) (SyncCounts, error) {
	var n SyncCounts
	if a == b {
		return n, nil
	}
	chs, err := r.diffTrees(a, b)
	if err != nil {
		return n, err
	}
	for _, c := range chs {
		rel, ok := r.vaultRel(c.Path)
		if !ok || !r.v.IsMemoryPath(rel) {
			continue
		}
		switch {
		case c.Added():
			n.Added++
		case c.Deleted():
			n.Removed++
		default:
			n.Changed++
			if retired(r, c.Old, c.New) {
				n.Retired++
			}
		}
	}
	return n, nil
}

// retired reports a memory newly past invalid_at or deprecated.
func retired(r *Repo, old, new gitrepo.Hash) bool {
	a, err1 := r.blob(old)
	b, err2 := r.blob(new)
	if err1 != nil || err2 != nil {
		return false
	}
	da, err1 := vault.ParseFile(a)
	db, err2 := vault.ParseFile(b)
	if err1 != nil || err2 != nil || da == nil || db == nil {
		return false
	}
	return da.Meta.InvalidAt.IsZero() && !db.Meta.InvalidAt.IsZero() || !da.Meta.IsDeprecated() && db.Meta.IsDeprecated()
}

// pushCheck runs the §8 push rules on what the remote lacks: no commit
// that adds a secret, and no head that drops more than the mass-delete
// share of the remote's memories. The push goes on with a memory that
// lint.Content fails on (the file is the truth here); cc lists them, for
// the warnings (sendWarnings).
func (r *Repo) pushCheck(remote, merged gitrepo.Hash, url string, opts SyncOptions) (cc *contentCheck, err error) {
	out, err := r.newCommits(remote, merged)
	if err != nil {
		return nil, err
	}
	has, hasErr := r.remoteHas(remote, merged, out)
	ref, err := r.commitTree(remote)
	if err != nil {
		return nil, err
	}
	if cc, err = r.newContentCheck(ref, merged); err != nil {
		return nil, err
	}
	err = r.checkSecrets(has, url, cc)
	if err := hasErr(); err != nil {
		return nil, err
	}
	if err != nil {
		return nil, syncRefusal(err)
	}
	// What the other machines would refuse is not sent: refused there, it
	// would stop every one of them from syncing.
	if err := r.checkSpan(out, url); err != nil {
		var ie *IncomingError
		if errors.As(err, &ie) {
			ie.Out = true
			ie.Then = "nothing was pushed: the other machines would refuse it. Rewrite that commit without it (e.g. 'git rebase -i' from before it; 'git commit --amend' for the last one), then run 'mem sync' again"
		}
		return nil, err
	}
	if remote.IsZero() || opts.AllowMassDelete {
		return cc, nil
	}
	chs, err := r.diffTrees(remote, merged)
	if err != nil {
		return nil, err
	}
	removed := r.lostMemories(chs)
	if removed < r.v.Config.Lint.MassDeleteMin {
		return cc, nil
	}
	before, err := r.memoryCount(remote)
	if err == nil && r.v.Config.Lint.IsMassDeletion(removed, before) {
		return nil, &MassDeleteError{Removed: removed, Of: before, Share: r.v.Config.Lint.MassDeleteShare, What: fmt.Sprintf("pushing %s to %s", short(merged), url)}
	}
	return cc, err
}

// remoteHas is the test of whether the remote, whose head is remote (zero:
// no branch yet), holds a commit, for checkSecrets; out are the commits
// tip has and remote lacks (newCommits). A commit of tip's history is
// answered from out: the remote lacks exactly those, and holds their rim
// and tip itself when out is empty. Asked about any other commit (one of
// another branch or tag), it lists the remote's whole history with git,
// once; err is that listing's error.
func (r *Repo) remoteHas(remote, tip gitrepo.Hash, out span) (has func(gitrepo.Hash) bool, err func() error) {
	if remote.IsZero() {
		return func(gitrepo.Hash) bool { return false }, func() error { return nil }
	}
	lacks := map[gitrepo.Hash]bool{}
	for _, h := range out.commits {
		lacks[gitrepo.NewHash(h)] = true
	}
	var all map[gitrepo.Hash]bool
	var listErr error
	has = func(h gitrepo.Hash) bool {
		switch {
		case lacks[h]:
			return false
		case h == tip || out.rim[h]:
			return true
		}
		if all == nil && listErr == nil {
			var list string
			if list, listErr = r.env.Git().Run(r.gitDir, "rev-list", remote.String()); listErr != nil {
				return true // stop the walk: the error is returned
			}
			all = map[gitrepo.Hash]bool{}
			for _, c := range strings.Fields(list) {
				all[gitrepo.NewHash(c)] = true
			}
		}
		return listErr != nil || all[h]
	}
	return has, func() error { return listErr }
}

// pushBranch pushes the vault's branch, never forcing; rejected is true
// when the remote moved since the fetch (the caller merges again).
func (r *Repo) pushBranch(url string, branch gitrepo.RefName) (rejected bool, err error) {
	out, err := r.env.Git().Run(r.gitDir, pushCmd(url, branch.String()+":"+branch.String())...)
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Split(line, "\t"); len(f) == 3 && f[0] == "!" {
			if strings.HasPrefix(f[2], "[rejected]") || strings.Contains(f[2], "fetch first") || strings.Contains(f[2], "non-fast-forward") {
				return true, nil
			}
			return false, &RefusedError{fmt.Sprintf("push to %s refused by the remote: %s; what came in is merged here, nothing was lost", url, f[2])}
		}
	}
	if err != nil {
		return false, fmt.Errorf("push to %s: %w (what came in is merged here; the next sync pushes)", url, err)
	}
	return false, nil
}

// applyMerge moves the vault from head old to new: journal first, then
// the working tree, the git index and last the branch (finishMerge).
func (r *Repo) applyMerge(branch gitrepo.RefName, old, new gitrepo.Hash, now time.Time) error {
	unlock, err := r.lockCommit()
	if err != nil {
		return err
	}
	var once sync.Once
	unlock = func(f func()) func() { return func() { once.Do(f) } }(unlock)
	defer unlock()
	if err := r.clearKilledLocks(); err != nil {
		return err
	}
	defer r.forgetLocks()
	if why, p := r.busy(); why != "" {
		return skipFor(r.v, p, why+"; nothing here changed")
	}
	if r.objs != nil { // the merge's objects are durable before anything names them
		err := r.objs.Sync()
		r.objs = nil
		if err != nil {
			return err
		}
	}
	j := journal{Ref: branch.String(), Old: old.String(), New: new.String()}
	data, _ := json.Marshal(j)
	if err := vault.WriteFileAtomic(filepath.Join(r.gitDir, syncJournal), data, 0o644); err != nil {
		return err
	}
	written, err := r.finishMerge(j, now)
	if err != nil {
		return err
	}
	unlock()
	return r.refreshIndex(now, written)
}

// clearKilledLocks removes the ref and index locks a killed mem left (as
// mem commit does first): a sync killed while moving the branch must not
// leave a lock that stops the next one from finishing its merge.
func (r *Repo) clearKilledLocks() error {
	_, err := r.clearStaleLocks()
	return err
}

// refreshIndex brings the git index to the new head through mem commit's
// own index writer (kill-safe, and it keeps the stat data of the files the
// merge did not touch), so 'git status' agrees with the merge. A file
// written meanwhile is committed, as the next sync would.
func (r *Repo) refreshIndex(now time.Time, written map[string]writtenFile) error {
	_, err := r.Commit(CommitOptions{Now: now, written: written})
	return err
}

// finishJournal completes a merge an interrupted sync left half-applied.
func (r *Repo) finishJournal(now time.Time) (bool, error) {
	p := filepath.Join(r.gitDir, syncJournal)
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	var j journal
	if err := json.Unmarshal(data, &j); err != nil || !gitrepo.IsHash(j.Old) || !gitrepo.IsHash(j.New) {
		// Written atomically, so only a hand-edit makes it unreadable.
		return false, fmt.Errorf("%s: unreadable (%v): it records a merge being applied; remove it and run 'mem sync' again", p, err)
	}
	unlock, err := r.lockCommit()
	if err != nil {
		return false, err
	}
	var written map[string]writtenFile
	if err = r.clearKilledLocks(); err == nil {
		written, err = r.finishMerge(j, now)
		r.forgetLocks()
	}
	unlock()
	if err != nil {
		return true, err
	}
	return true, r.refreshIndex(now, written)
}

// finishMerge writes new's version of every file that differs between
// old and new, unless the file holds neither version (someone edited it
// since: it is left for the next commit), then moves the branch from old
// to new, then drops the journal. Run again after a kill, it does the same
// and ends in the same place. The git index is left to refreshIndex, told
// what was written.
func (r *Repo) finishMerge(j journal, now time.Time) (map[string]writtenFile, error) {
	old, new, ref := gitrepo.NewHash(j.Old), gitrepo.NewHash(j.New), gitrepo.RefName(j.Ref)
	chs, err := r.diffTrees(old, new)
	if err != nil {
		return nil, err
	}
	if err := r.checkMergePaths(chs, j); err != nil {
		return nil, err
	}
	written, err := r.writeMerge(chs)
	if err != nil {
		return nil, err
	}
	if cur, _ := r.git.Direct(ref); cur == old {
		who, err := r.author(now)
		if err != nil {
			return nil, err
		}
		if err := r.updateRef(ref, old, new, r.committer(who), "mem sync: "+short(new)); err != nil {
			return nil, err
		}
	}
	return written, os.Remove(filepath.Join(r.gitDir, syncJournal))
}

// checkMergePaths refuses a merge that writes a path this machine must
// not or cannot write: a name git must not check out, or a path over what
// the file system takes under this vault's folder. Checked before the
// merge was built; checked again before the first write, as a journal
// names a merge this process may not have built (a killed sync's from
// before a check existed: a path too long here made every later sync fail
// with exit 2). Such a merge is abandoned (abandonMerge).
func (r *Repo) checkMergePaths(chs []gitrepo.Change, j journal) error {
	maxPath := r.maxPath()
	for _, c := range chs {
		if rule, why := mergePathRule(c.Path, maxPath); rule != "" {
			shown := quotePath(c.Path)
			if len(shown) > 80 {
				shown = shown[:64] + "…"
			}
			return r.abandonMerge(chs, j, maxPath, fmt.Sprintf("writes %s: %s: %s", shown, rule, why))
		}
	}
	return nil
}

// mergePathRule says why the repository path p may not be written here,
// or "".
func mergePathRule(p string, maxPath int) (rule, why string) {
	for _, name := range strings.Split(p, "/") {
		if rule, why := nameRule(name); rule != "" {
			return rule, why
		}
	}
	if len(p) > maxPath {
		return "path-too-long", fmt.Sprintf("a path of %d bytes, over the %d a file system takes in this vault's folder", len(p), max(maxPath, 0))
	}
	return "", ""
}

// abandonMerge gives up the merge j records, which writes what this
// machine refuses (refused says what): every file a killed run of it
// already wrote or removed gets its version at j.Old back (one edited
// since is kept, as writeMerge keeps it), the journal goes, and the
// branch, never moved before the last write, stays at j.Old. The vault is
// then as it was before the merge, and the next sync fetches again and
// refuses that path with the commit that sends it.
func (r *Repo) abandonMerge(chs []gitrepo.Change, j journal, maxPath int, refused string) error {
	var batch vault.Batch
	defer batch.Abort()
	for _, c := range chs {
		if rule, _ := mergePathRule(c.Path, maxPath); rule != "" || c.NewMode == gitrepo.Submodule || c.OldMode == gitrepo.Submodule {
			continue // never written
		}
		p := filepath.Join(r.top, filepath.FromSlash(c.Path))
		cur, err := r.currentBlob(p)
		if err != nil {
			return err
		}
		if cur == c.Old || cur != c.New { // as before, or edited since
			continue
		}
		if c.Added() {
			if err := batch.RemoveNow(p); err != nil {
				return err
			}
			continue
		}
		back := gitrepo.Change{Path: c.Path, New: c.Old, NewMode: c.OldMode}
		if _, err := r.addMerged(&batch, back, p); err != nil {
			return err
		}
	}
	if err := batch.Commit(); err != nil {
		return err
	}
	jp := filepath.Join(r.gitDir, syncJournal)
	if err := os.Remove(jp); err != nil {
		return err
	}
	return &RefusedError{fmt.Sprintf("%s: the merge it recorded (%s) %s; this machine cannot write it, so that merge is abandoned: the vault is as it was before it (%s; a file edited since is kept). Run 'mem sync' again: a remote that still sends that path is refused, naming the commit to remove there",
		jp, short(gitrepo.NewHash(j.New)), refused, short(gitrepo.NewHash(j.Old)))}
}

// writeMerge brings the working tree to the merge: each changed file that
// still holds the old or the new version (or is missing) gets the new one
// or is removed; one edited since is left for the next commit. The new
// files are written first and replace the old ones together, with one
// flush: an fsync per file made a wide commit's sync ten times slower than
// git's checkout of it. A rendered view (the root MEMORY.md, a
// render.outputs file) is never written: it is what an agent reads at
// session boot, render alone writes it, and a remote's copy would stand
// there, unchecked, until the next render. It returns what it wrote, by
// repository path.
func (r *Repo) writeMerge(chs []gitrepo.Change) (map[string]writtenFile, error) {
	var batch vault.Batch
	defer batch.Abort()
	written := map[string]writtenFile{}
	for _, c := range chs {
		if c.NewMode == gitrepo.Submodule || c.OldMode == gitrepo.Submodule {
			continue // git's business
		}
		if rel, ok := r.vaultRel(c.Path); ok && r.v.IsRenderedOutput(rel) {
			continue
		}
		p := filepath.Join(r.top, filepath.FromSlash(c.Path))
		// A folder that was missing holds only what the batch writes: no
		// file of it needs reading (a wide commit's 100,000 new files in a
		// new folder were 100,000 failed opens).
		cur := gitrepo.ZeroHash
		if !batch.Missing(filepath.Dir(p)) {
			var err error
			if cur, err = r.currentBlob(p); err != nil {
				return nil, err
			}
		}
		switch {
		case cur != c.New && cur != c.Old && !cur.IsZero(): // edited since
		case c.Deleted():
			if err := batch.RemoveNow(p); err != nil { // now: a file that becomes a folder frees its name
				return nil, err
			}
		case cur != c.New:
			fi, err := r.addMerged(&batch, c, p)
			if err != nil {
				return nil, err
			}
			written[c.Path] = writtenFile{hash: c.New, mode: c.NewMode, fi: fi}
		}
	}
	return written, batch.Commit()
}

// currentBlob is the blob id of the file at p, zero when there is none.
func (r *Repo) currentBlob(p string) (gitrepo.Hash, error) {
	data, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return gitrepo.ZeroHash, nil
	}
	if err != nil {
		return gitrepo.ZeroHash, fmt.Errorf("%s: %w", p, err)
	}
	return gitrepo.HashObject(gitrepo.BlobObject, data), nil
}

// addMerged writes c's new version to batch, to replace p.
func (r *Repo) addMerged(batch *vault.Batch, c gitrepo.Change, p string) (fs.FileInfo, error) {
	data, err := r.blob(c.New)
	if err != nil {
		return nil, r.damagedObject("blob", c.New, c.Path, err)
	}
	// As git checks out: 0666, or 0777 for an executable, less the umask.
	perm := vault.FileMode()
	if c.NewMode == gitrepo.Executable {
		perm = 0o777 &^ vault.Umask()
	}
	return batch.Add(p, data, perm)
}

// CheckRemote reports whether remote can be synced with: a local path
// that exists or whose folder does, or a URL that git can list. The CLI
// checks before it remembers a remote in mem.yaml, so a typo is never
// written there.
func CheckRemote(v *vault.Vault, remote, relativeTo string, env Env) error {
	r, err := Open(v, env)
	if err != nil {
		return err
	}
	url, local, err := r.syncURL(SyncOptions{Remote: remote, RelativeTo: relativeTo})
	if err != nil {
		return err
	}
	if local != "" {
		if _, err := os.Stat(filepath.Dir(local)); err != nil {
			return fmt.Errorf("%s: the folder %s does not exist (is the drive mounted? a typo?): mount or create it, then run 'mem sync' again", local, filepath.Dir(local))
		}
		return nil
	}
	_, err = r.lsRemote(url)
	return err
}
