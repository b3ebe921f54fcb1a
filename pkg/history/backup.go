package history

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	sysclock "github.com/mem-md/mem/pkg/clock" // the tests name their fixed time clock
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/gitrepo/gitfmt"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// BackupOptions tune Backup.
type BackupOptions struct {
	To              string    // a path, a URL, or the name of a git remote
	RelativeTo      string    // base of a relative path in To (default: the working directory)
	VerifyOnly      bool      // read the backup back without pushing first
	AllowMassDelete bool      // push even when the memory count dropped a lot
	Now             time.Time // recorded as the time of the verified backup
	Env             Env       // the process's environment and deadlines (read by the package function Backup)
}

// RefusedError is a push the backup refused (its history diverged).
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

// Kind: the backup refused what it was given (exit 1).
func (e *RefusedError) Kind() fail.Kind { return fail.Check }

// End is what one side of a backup holds at the vault's branch.
type End struct {
	Head     string `json:"head"`
	Commits  int    `json:"commits"`  // commits reachable from head
	Files    int    `json:"files"`    // files of the vault folder at head
	Memories int    `json:"memories"` // memory files among them
}

// BackupResult says what Backup pushed and what reading it back found.
type BackupResult struct {
	Target   string   `json:"target"`
	URL      string   `json:"url"`
	Branch   string   `json:"branch"`
	Created  bool     `json:"created"`
	Pushed   bool     `json:"pushed"` // false when the backup was already up to date
	Vault    End      `json:"vault"`
	Backup   End      `json:"backup"`
	Problems []string `json:"problems"` // empty when verified
	Warnings []string `json:"warnings,omitempty"`
}

// Verified reports whether reading the backup back matched the vault.
func (b *BackupResult) Verified() bool { return len(b.Problems) == 0 }

// BackupRecord is the last verified backup, kept in .mem/backup.json for
// the audit and doctor.
type BackupRecord struct {
	Time     time.Time `json:"time"`
	Target   string    `json:"target"`
	URL      string    `json:"url,omitempty"` // Target resolved: an absolute path or a URL
	Branch   string    `json:"branch"`
	Head     string    `json:"head"`
	Commits  int       `json:"commits"`
	Files    int       `json:"files"`
	Memories int       `json:"memories"`
}

type backupState struct {
	Last    *BackupRecord            `json:"last"`
	Targets map[string]*BackupRecord `json:"targets"`
}

// BackupStateFile is where the last verified backup is recorded.
const BackupStateFile = "backup.json"

// LastBackup returns the most recent verified backup of the vault, or nil
// when none was ever verified.
func LastBackup(v *vault.Vault) (*BackupRecord, error) {
	st, err := readBackupState(v)
	if err != nil {
		return nil, err
	}
	return st.Last, nil
}

func readBackupState(v *vault.Vault) (*backupState, error) {
	p := filepath.Join(v.StateDir(), BackupStateFile)
	st := &backupState{Targets: map[string]*BackupRecord{}}
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return st, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if err := json.Unmarshal(data, st); err != nil {
		return nil, fmt.Errorf("%s: %v (delete it; the next 'mem backup' writes it again)", p, err)
	}
	if st.Targets == nil {
		st.Targets = map[string]*BackupRecord{}
	}
	return st, nil
}

func recordBackup(v *vault.Vault, rec *BackupRecord) error {
	st, err := readBackupState(v)
	if err != nil {
		st = &backupState{Targets: map[string]*BackupRecord{}}
	}
	st.Last, st.Targets[rec.Target] = rec, rec
	data, err := json.MarshalIndent(st, "", "  ")
	if err != nil {
		return err
	}
	if err := os.MkdirAll(v.StateDir(), 0o700); err != nil {
		return err
	}
	return vault.WriteFileAtomic(filepath.Join(v.StateDir(), BackupStateFile), append(data, '\n'), vault.StateFileMode)
}

// Backup pushes every branch and tag to the backup, then reads it back.
func Backup(v *vault.Vault, opts BackupOptions) (*BackupResult, error) {
	r, err := Open(v, opts.Env)
	if err != nil {
		return nil, err
	}
	return r.Backup(opts)
}

var scpLike = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[\w.-]+@[\w.-]+:`) })

// isPath reports whether a remote is a path on this machine (or a file://
// URL), not an ssh or https URL.
func isPath(url string) bool {
	return !(strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") || scpLike().MatchString(url))
}

// pushCmd is git push to url. For a path git runs the receiving end here,
// as this user, in the remote repository and with that repository's own
// config: a hook there (or a core.hooksPath, or a command its config names)
// would run on every machine that pushes to it. Settings given with -c
// override the repository's, and reach every git receive-pack starts.
func pushCmd(url string, args ...string) []string {
	cmd := []string{"push", "--porcelain", "--no-verify"}
	if isPath(url) {
		cmd = append(cmd, "--receive-pack=git -c core.hooksPath=/dev/null -c core.alternateRefsCommand=true -c receive.autogc=false -c core.fsmonitor=false receive-pack")
	}
	return append(append(cmd, url), args...)
}

// Backup is the method form of the package function Backup. An error is
// returned when the backup could not be attempted or was refused; a backup
// that does not read back right returns a result with Problems.
func (r *Repo) Backup(opts BackupOptions) (*BackupResult, error) {
	if opts.Now.IsZero() {
		opts.Now = sysclock.Now()
	}
	if opts.To == "" {
		return nil, errors.New("no backup target: pass --to PATH|REMOTE or set backup.to in mem.yaml")
	}
	branch, head, err := r.git.Head()
	if err != nil {
		return nil, err
	}
	if head.IsZero() {
		return nil, fmt.Errorf("%s: nothing committed yet: run 'mem commit' before 'mem backup'", r.v.Root)
	}
	res := &BackupResult{Target: opts.To, Branch: branch.Short(), Problems: []string{}}
	tgt, err := r.resolveTarget(opts, res)
	if err != nil {
		return nil, err
	}
	if res.Vault, err = r.end(r.git, head, nil); err != nil {
		return nil, r.damaged("under head "+head.String(), err.Error(), res.URL)
	}
	if !opts.VerifyOnly {
		if err := r.send(tgt, branch, head, res, opts); err != nil {
			return nil, err
		}
	}
	back, dir, done, err := r.readBack(tgt, res)
	if err != nil {
		return nil, err
	}
	defer done()
	r.verify(back, dir, branch, head, res)
	if why, _ := r.busy(); why != "" {
		// The commits that would bring the vault's files into HEAD skip
		// while this lasts: what was verified is an old head.
		res.Warnings = append(res.Warnings, fmt.Sprintf("the backup is at HEAD %s, which may be older than the vault's files: mem commit skips while %s", short(head), why))
	}
	if res.Verified() {
		rec := &BackupRecord{Time: opts.Now.UTC(), Target: opts.To, URL: res.URL, Branch: res.Branch, Head: head.String(),
			Commits: res.Backup.Commits, Files: res.Backup.Files, Memories: res.Backup.Memories}
		if err := recordBackup(r.v, rec); err != nil {
			res.Warnings = append(res.Warnings, "verified, but could not record it: "+err.Error())
		}
	}
	return res, nil
}

// send brings the backup up to the vault: the checks that may refuse it
// (a mass delete, secrets the backup does not hold yet), then the first
// copy made or a push of head.
func (r *Repo) send(tgt *backupTarget, branch gitrepo.RefName, head gitrepo.Hash, res *BackupResult, opts BackupOptions) error {
	if tgt.repo != nil {
		torn, err := gitrepo.RemoveEmptyRefs(res.URL) // left by a go-git push that was killed
		if err != nil {
			return err
		}
		for _, p := range torn {
			res.Warnings = append(res.Warnings, fmt.Sprintf("removed %s: an empty ref, left by a backup that was killed while writing it; pushed again", p))
		}
	}
	has, old, err := r.backupHas(tgt, res.URL, branch)
	if err != nil {
		return err
	}
	if err := r.checkDrop(old, res, opts.AllowMassDelete); err != nil {
		return err
	}
	// The memories the push sends over the backup's head: all of head's
	// when that head is no commit of the vault's (git refuses the push).
	ref := gitrepo.ZeroHash
	if oc, err := r.git.Commit(old); err == nil {
		ref = oc.TreeHash
	} else if !old.IsZero() && !errors.Is(err, gitrepo.ErrObjectNotFound) {
		return r.damagedObject("commit", old, "", err)
	}
	cc, err := r.newContentCheck(ref, head)
	if err != nil {
		return err
	}
	if err := r.checkSecrets(has, res.URL, cc); err != nil {
		return err
	}
	if tgt.create {
		tgt.repo, err = r.createBackup(res.URL, branch, res, true)
	} else {
		res.Pushed, err = r.push(res.URL)
	}
	if err != nil || !res.Pushed && !res.Created {
		return err
	}
	return r.sendWarnings(cc, res.URL, &res.Warnings)
}

// readBack opens what the backup holds now, to verify: the local backup
// repository (read afresh after a push), or a mirror clone of a remote in
// a temporary folder that done removes.
func (r *Repo) readBack(tgt *backupTarget, res *BackupResult) (back *gitrepo.Repo, dir string, done func(), err error) {
	back, dir = tgt.repo, res.URL
	if back != nil {
		if res.Pushed && !res.Created {
			// git keeps a push of 100 objects or more as a new pack,
			// which the copy read before the push has not listed.
			back.Refresh()
		}
		return back, dir, func() {}, nil
	}
	tmp, err := os.MkdirTemp("", "mem-backup-verify-")
	if err != nil {
		return nil, "", nil, err
	}
	done = func() { os.RemoveAll(tmp) }
	if back, err = cloneMirror(r.env, r.gitDir, res.URL, tmp); err != nil {
		done()
		return nil, "", nil, err
	}
	return back, tmp, done, nil
}

// backupTarget is where --to leads: a remote URL (repo nil, create
// false), a local backup repository, or a local path still to create.
type backupTarget struct {
	repo   *gitrepo.Repo
	create bool
}

// resolveTarget turns --to into a URL in res and, for a local path, opens
// the backup repository or decides to create it.
func (r *Repo) resolveTarget(opts BackupOptions, res *BackupResult) (*backupTarget, error) {
	url := opts.To
	if u, ok := r.git.RemoteURL(opts.To); ok {
		url = u
	}
	if !isPath(url) {
		res.URL = url
		return &backupTarget{}, nil
	}
	p, err := localPath(url, opts.RelativeTo)
	if err != nil {
		return nil, err
	}
	res.URL = p
	_, err = os.Stat(p)
	if errors.Is(err, fs.ErrNotExist) {
		// A missing parent is most often a drive that is not mounted:
		// creating it would fill the disk underneath the mount point.
		parent := filepath.Dir(p)
		if fi, err := os.Stat(parent); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("%s: the folder %s does not exist (a drive that is not mounted, or a typo?): mount or create it, then run 'mem backup' again", p, parent)
		}
		if opts.VerifyOnly {
			return nil, fmt.Errorf("%s: no backup there to verify: run 'mem backup --to %s' first", p, p)
		}
		return &backupTarget{create: true}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if halfMade(p) {
		if opts.VerifyOnly {
			return nil, fmt.Errorf("%s: a backup that was never finished (no HEAD, no objects, no refs): run 'mem backup --to %s' to make it again", p, p)
		}
		if err := os.RemoveAll(p); err != nil {
			return nil, fmt.Errorf("%s: a backup that was never finished (no HEAD, no objects, no refs) cannot be removed: %w; remove it by hand and run 'mem backup' again", p, err)
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s held a backup that was never finished (no HEAD, no objects, no refs: an earlier first backup was interrupted); made it again", p))
		return &backupTarget{create: true}, nil
	}
	g, err := gitrepo.OpenAt(p, r.env.Git())
	if err != nil {
		return nil, fmt.Errorf("%s: not a git repository (%v): give a new path (in a folder that exists) or an existing backup repository", p, err)
	}
	return &backupTarget{repo: g}, nil
}

// halfMade reports whether p is what an interrupted first backup of an
// earlier mem left: git's folders with no HEAD, no object and no ref in
// them. Nothing there can be lost, so it is made again.
func halfMade(p string) bool {
	if _, err := os.Lstat(filepath.Join(p, "HEAD")); !errors.Is(err, fs.ErrNotExist) {
		return false
	}
	ents, err := os.ReadDir(p)
	if err != nil || len(ents) == 0 {
		return false // an empty folder is refused as before: it may be a mount point
	}
	for _, e := range ents {
		switch e.Name() {
		case "config", "description":
			if !e.Type().IsRegular() {
				return false
			}
		case "objects", "refs", "hooks", "info", "branches":
			if !e.IsDir() {
				return false
			}
			empty := true
			filepath.WalkDir(filepath.Join(p, e.Name()), func(q string, d fs.DirEntry, err error) error {
				if err != nil || !d.IsDir() && (e.Name() == "objects" || e.Name() == "refs") {
					empty = false
				}
				return nil
			})
			if !empty {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// backupRole is the setting (mem.role = backup) a repository mem backup
// created carries: a backup is one-way, and a clone of it must not sync
// back into it.
var backupRole = [3]string{"mem", "role", "backup"}

// newBackupMark names the temporary folder a first backup is built in,
// beside the target so that the rename into place is atomic.
const newBackupMark = ".mem-new-"

// removeUnfinished removes the leftovers of first backups of base in
// parent that were killed before their rename: a live one is younger than
// the git deadline, which stops its push.
func (r *Repo) removeUnfinished(parent, base string, res *BackupResult) {
	old, _ := filepath.Glob(filepath.Join(parent, "."+base+newBackupMark+"*"))
	for _, o := range old {
		if fi, err := os.Lstat(o); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > 2*r.env.gitTimeout() && os.RemoveAll(o) == nil {
			res.Warnings = append(res.Warnings, fmt.Sprintf("removed %s, left by a first backup that was interrupted", o))
		}
	}
}

// initBackup makes dir a bare repository whose HEAD is branch (a clone of
// it checks out the vault's branch), marked as mem's backup when backup is
// set.
func (r *Repo) initBackup(dir string, branch gitrepo.RefName, backup bool) error {
	g, err := gitrepo.InitBare(dir, r.env.Git())
	if err == nil {
		err = g.SetHEAD(branch)
	}
	if err == nil && backup {
		err = g.SetConfig(backupRole[0], backupRole[1], backupRole[2])
	}
	return err
}

// createBackup makes the backup repository at p: built and pushed in a
// temporary folder beside it, then renamed into place, so a first backup
// killed or out of space leaves p absent (and the next run starts again)
// rather than a repository without a HEAD that every later run refuses.
// A backup (not a sync remote) is marked as one in its config (backupRole),
// so that mem clone can tell.
func (r *Repo) createBackup(p string, branch gitrepo.RefName, res *BackupResult, backup bool) (*gitrepo.Repo, error) {
	parent, base := filepath.Dir(p), filepath.Base(p)
	r.removeUnfinished(parent, base, res)
	tmp, err := os.MkdirTemp(parent, "."+base+newBackupMark)
	if err != nil {
		return nil, fmt.Errorf("%s: create backup repository: %w", p, err)
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	if err := r.initBackup(tmp, branch, backup); err != nil {
		return nil, fmt.Errorf("%s: create backup repository in %s: %w (is the disk full or read-only?)", p, tmp, err)
	}
	if _, err := r.push(tmp); err != nil {
		return nil, relabel(err, tmp, p)
	}
	if err := gitfmt.SyncFS(tmp); err != nil {
		return nil, fmt.Errorf("%s: %w", tmp, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		if _, serr := os.Stat(p); serr == nil {
			// Another backup created p meanwhile: push there instead.
			g, err := gitrepo.OpenAt(p, r.env.Git())
			if err != nil {
				return nil, fmt.Errorf("%s: not a git repository (%v): give a new path (in a folder that exists) or an existing backup repository", p, err)
			}
			res.Pushed, err = r.push(p)
			return g, err
		}
		return nil, fmt.Errorf("%s: move the new backup into place from %s: %w", p, tmp, err)
	}
	done = true
	gitfmt.SyncDir(parent)
	res.Created, res.Pushed = true, true
	return gitrepo.OpenAt(p, r.env.Git())
}

// relabel names the backup's real path in an error about its temporary
// folder.
func relabel(err error, tmp, p string) error {
	var be *BackupError
	var re *RefusedError
	switch {
	case errors.As(err, &be):
		be.Msg = strings.ReplaceAll(be.Msg, tmp, p)
	case errors.As(err, &re):
		re.Msg = strings.ReplaceAll(re.Msg, tmp, p)
	default:
		return errors.New(strings.ReplaceAll(err.Error(), tmp, p))
	}
	return err
}

// BackupError is a backup that failed for a reason outside mem: the
// vault's own repository is damaged, or the backup cannot store what is
// pushed (a full or read-only disk). Msg names the path and what to do.
type BackupError struct{ Msg string }

func (e *BackupError) Error() string { return e.Msg }

var objectName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\b[0-9a-f]{40}\b`) })

// push runs `git push` of every branch and tag to url, never forced, and
// reports whether any ref moved. It is git's, not go-git's: go-git's push
// to a path waits forever for git-receive-pack when reading an object
// fails mid-pack (it never closes the child's stdin), and it has no
// deadline.
func (r *Repo) push(url string) (bool, error) {
	out, err := r.env.Git().Run(r.gitDir, pushCmd(url, "refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*")...)
	pushed, rejected, refused := pushReport(out)
	if len(rejected) > 0 {
		return false, &RefusedError{fmt.Sprintf("push to %s refused: %s: the backup holds commits the vault does not (another machine pushed there, or a ref moved); do not remove it, it holds them: run 'mem sync %s' to merge them into this vault (docs/sync.md), then 'mem backup' again", url, strings.Join(rejected, ", "), url)}
	}
	if err == nil {
		return pushed, nil
	}
	return false, r.pushFailed(url, out, refused, err)
}

// pushReport reads git push --porcelain: whether any ref moved, and the
// refs rejected (not a fast-forward) or refused by the backup's side (a
// hook, a lock, its disk), each with git's reason.
func pushReport(out string) (pushed bool, rejected, refused []string) {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || len(f[0]) != 1 {
			continue
		}
		switch f[0] {
		case "!":
			_, to, _ := strings.Cut(f[1], ":")
			if strings.HasPrefix(f[2], "[rejected]") {
				rejected = append(rejected, to+" "+f[2])
			} else {
				refused = append(refused, to+" "+f[2])
			}
		case " ", "+", "*", "-":
			pushed = true
		}
	}
	return pushed, rejected, refused
}

// pushFailed is the error for a push that failed: an object of the
// vault's own that git could not read, a backup that could not store the
// objects, refs the backup refused, or git's own error.
func (r *Repo) pushFailed(url, out string, refused []string, err error) error {
	var ge *gitrepo.Error
	if !errors.As(err, &ge) {
		return err
	}
	var local, remote []string
	for _, line := range strings.Split(ge.Stderr, "\n") {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if rest, ok := strings.CutPrefix(line, "remote: "); ok {
			remote = append(remote, rest)
		} else {
			local = append(local, line)
		}
	}
	// git names the object it could not read on its own side.
	for _, line := range local {
		if (strings.HasPrefix(line, "fatal:") || strings.HasPrefix(line, "error:")) && objectName().MatchString(line) && !strings.Contains(line, "remote") {
			return r.damaged(objectName().FindString(line), "git: "+line, url)
		}
	}
	why := strings.Join(append(remote, local...), "; ")
	if strings.Contains(ge.Stderr, "unpack") || strings.Contains(out, "unpacker error") {
		return &BackupError{fmt.Sprintf("%s: the backup could not store what was pushed (git: %s): check that its disk has free space and is writable, then run 'mem backup' again; its refs were not moved", url, why)}
	}
	if len(refused) > 0 {
		return &RefusedError{fmt.Sprintf("push to %s refused by the backup: %s (git: %s): see what its hooks or settings say, then run 'mem backup' again", url, strings.Join(refused, ", "), why)}
	}
	return fmt.Errorf("push to %s: %w", url, err)
}

// damaged is the error for an object of the vault's own repository that
// cannot be read: an environment error, since mem did not write it wrong
// and cannot repair it.
func (r *Repo) damaged(obj, detail, url string) error {
	return &BackupError{fmt.Sprintf("%s: the vault's git repository has a missing or corrupt object %s (%s); nothing was pushed to %s. Run 'git -C %s fsck' to see what is damaged, and restore it from another clone or from the backup",
		r.gitDir, obj, detail, url, r.top)}
}

// cloneMirror reads a remote backup back into dir.
func cloneMirror(env Env, gitDir, url, dir string) (*gitrepo.Repo, error) {
	if _, err := env.Git().Run(gitDir, "clone", "--quiet", "--mirror", "--no-local", url, dir); err != nil {
		return nil, fmt.Errorf("read back %s: %w", url, err)
	}
	return gitrepo.OpenAt(dir, env.Git())
}

// lsRemote lists the refs of a remote backup.
func (r *Repo) lsRemote(url string) (map[gitrepo.RefName]gitrepo.Hash, error) {
	out, err := r.env.Git().Run(r.gitDir, "ls-remote", url)
	if err != nil {
		return nil, fmt.Errorf("list %s: %w", url, err)
	}
	refs := map[gitrepo.RefName]gitrepo.Hash{}
	for _, line := range strings.Split(out, "\n") {
		if h, name, ok := strings.Cut(line, "\t"); ok && gitrepo.IsHash(h) {
			refs[gitrepo.RefName(name)] = gitrepo.NewHash(h)
		}
	}
	return refs, nil
}

// backupHas returns what the backup already holds, as a test of a commit
// of the vault, and the backup's head of branch (zero when it has none).
// A local backup is asked directly; for a remote, the commits reachable
// here from its refs are what it holds.
func (r *Repo) backupHas(tgt *backupTarget, url string, branch gitrepo.RefName) (func(gitrepo.Hash) bool, gitrepo.Hash, error) {
	if tgt.create {
		return func(gitrepo.Hash) bool { return false }, gitrepo.ZeroHash, nil
	}
	if tgt.repo != nil {
		old, _ := tgt.repo.Ref(branch) // zero when the backup has no such branch
		return tgt.repo.Has, old, nil
	}
	refs, err := r.lsRemote(url)
	if err != nil {
		return nil, gitrepo.ZeroHash, err
	}
	seen := map[gitrepo.Hash]bool{}
	var queue []gitrepo.Hash
	for _, h := range refs {
		queue = append(queue, h)
	}
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if seen[h] {
			continue
		}
		c, err := r.git.Commit(h)
		if err != nil {
			continue // a tag object, or a commit this vault never had
		}
		seen[h] = true
		queue = append(queue, c.ParentHashes...)
	}
	return func(h gitrepo.Hash) bool { return seen[h] }, refs[branch], nil
}

// checkDrop refuses to push a head whose memory count fell by more than
// the mass-delete share against old, the backup's head of the same branch.
func (r *Repo) checkDrop(old gitrepo.Hash, res *BackupResult, allow bool) error {
	if old.IsZero() {
		return nil
	}
	prev, err := r.end(r.git, old, nil)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("could not count the memories at the backup's head %s (%v); the mass-delete check was skipped", short(old), err))
		return nil
	}
	if drop := prev.Memories - res.Vault.Memories; !allow && r.v.Config.Lint.IsMassDeletion(drop, prev.Memories) {
		return &MassDeleteError{Removed: drop, Of: prev.Memories, Share: r.v.Config.Lint.MassDeleteShare, What: fmt.Sprintf("pushing %s to %s", short(gitrepo.NewHash(res.Vault.Head)), res.URL)}
	}
	return nil
}

// verify reads the backup back and fills res.Backup and res.Problems: the
// refs, the counts at head, and `git fsck` of the whole backup (dir), which
// reads and hashes every object, so a blob or tree only an old commit uses
// cannot be missing unseen.
func (r *Repo) verify(back *gitrepo.Repo, dir string, branch gitrepo.RefName, head gitrepo.Hash, res *BackupResult) {
	ref, err := back.Ref(branch)
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("backup has no %s (%v)", branch, err))
		return
	}
	res.Backup.Head = ref.String()
	if ref != head {
		res.Problems = append(res.Problems, fmt.Sprintf("head differs: vault %s is at %s, backup at %s", branch.Short(), short(head), short(ref)))
	}
	// Every branch and tag of the vault must be in the backup as it is here.
	refs, err := r.branchesAndTags()
	if err != nil {
		res.Problems = append(res.Problems, err.Error())
	}
	for _, lr := range refs {
		if lr.name == branch {
			continue
		}
		br, err := back.Ref(lr.name)
		if err != nil {
			res.Problems = append(res.Problems, fmt.Sprintf("backup lacks %s", lr.name))
		} else if br != lr.hash {
			res.Problems = append(res.Problems, fmt.Sprintf("%s differs: vault %s, backup %s", lr.name, short(lr.hash), short(br)))
		}
	}
	paths := map[gitrepo.Hash]string{}
	got, err := r.end(back, ref, paths)
	res.Backup = got
	res.Backup.Head = ref.String()
	res.Problems = append(res.Problems, fsckBackup(r.env, dir, true, paths)...)
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("backup head %s unreadable: %v", short(ref), err))
		return
	}
	for _, c := range []struct {
		what        string
		here, there int
	}{{"commits", res.Vault.Commits, got.Commits}, {"files", res.Vault.Files, got.Files}, {"memories", res.Vault.Memories, got.Memories}} {
		if c.here != c.there {
			res.Problems = append(res.Problems, fmt.Sprintf("%s differ: vault %d, backup %d", c.what, c.here, c.there))
		}
	}
}

// maxListed caps the problems one check lists; a count follows.
const maxListed = 10

// listed joins report lines for a message, one per line under a heading:
// the first maxListed, then how many more there are.
func listed(lines []string) string {
	if len(lines) > maxListed {
		lines = append(lines[:maxListed:maxListed], fmt.Sprintf("… and %d more", len(lines)-maxListed))
	}
	return strings.Join(lines, "\n  ")
}

// fsckBackup runs `git fsck` on the backup repository at dir and returns what it
// found, each object git names at head labelled with its file (paths).
// full reads and hashes every object (0.19 s for a 10k-memory backup,
// against 0.5-0.7 s for go-git walking the same objects); otherwise only
// connectivity is checked: every object reachable from the refs exists and
// every commit and tree parses (0.02 s), which misses a corrupt blob.
func fsckBackup(env Env, dir string, full bool, paths map[gitrepo.Hash]string) []string {
	args := []string{"--no-progress", "--no-dangling"}
	if !full {
		args = append(args, "--connectivity-only")
	}
	out, err := env.Git().Fsck(dir, args...)
	if err == nil {
		return nil
	}
	var ge *gitrepo.Error
	if !errors.As(err, &ge) || ge.Err == nil || ge.Stderr == "" && out == "" {
		return []string{fmt.Sprintf("git fsck of %s failed: %v", dir, err)}
	}
	lines, missing := fsckLines(out + "\n" + ge.Stderr)
	var problems []string
	seen := map[string]bool{}
	for _, line := range lines {
		names := objectName().FindAllString(line, -1)
		if strings.HasPrefix(line, "broken link from ") && len(names) == 2 && missing[names[1]] || seen[line] {
			continue
		}
		seen[line] = true
		if len(problems) == maxListed {
			problems = append(problems, "… and more: run 'git -C "+dir+" fsck' for the full list")
			break
		}
		problems = append(problems, fsckLabel(line, names, paths))
	}
	if len(problems) == 0 {
		problems = append(problems, fmt.Sprintf("git fsck of %s failed: %v", dir, ge.Err))
	}
	return problems
}

// fsckLines are git fsck's report lines, and the objects it says are
// missing. git prints "broken link from <tree X>" and "to <blob Y>" on two
// lines, joined here, and "missing blob Y" too: the missing line says it all.
func fsckLines(report string) (lines []string, missing map[string]bool) {
	missing = map[string]bool{}
	for _, line := range strings.Split(report, "\n") {
		line = strings.Join(strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "error: ")), " ")
		switch {
		case line == "" || strings.HasPrefix(line, "notice:") || strings.HasPrefix(line, "Checking "):
			continue
		case strings.HasPrefix(line, "to ") && len(lines) > 0 && strings.HasPrefix(lines[len(lines)-1], "broken link from "):
			lines[len(lines)-1] += " " + line
			continue
		case strings.HasPrefix(line, "missing "):
			missing[objectName().FindString(line)] = true
		}
		lines = append(lines, line)
	}
	return lines, missing
}

// fsckLabel is an fsck line as a problem, naming the file or folder of
// the first object in it (names) that paths knows.
func fsckLabel(line string, names []string, paths map[gitrepo.Hash]string) string {
	for _, h := range names {
		if p, ok := paths[gitrepo.NewHash(h)]; ok {
			if dir, isDir := strings.CutSuffix(p, "/"); isDir {
				return fmt.Sprintf("folder %s (tree %s) unreadable: %s", dir, h[:7], line)
			}
			return fmt.Sprintf("file %s (blob %s) unreadable: %s", p, h[:7], line)
		}
	}
	return "git fsck: " + line
}

// end counts, in repository g, the commits reachable from head and the
// files and memories of the vault folder at head. With paths, unreadable
// parents are counted as missing instead of failing, and the blob of each
// file is recorded with its path (to name what fsck finds).
func (r *Repo) end(g *gitrepo.Repo, head gitrepo.Hash, paths map[gitrepo.Hash]string) (End, error) {
	e := End{Head: head.String()}
	c, err := g.Commit(head)
	if err != nil {
		return e, err
	}
	seen := map[gitrepo.Hash]bool{head: true}
	queue := []*gitrepo.Commit{c}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		e.Commits++
		for _, p := range cur.ParentHashes {
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := g.Commit(p)
			if err != nil {
				if paths == nil {
					return e, fmt.Errorf("commit %s: %w", short(p), err)
				}
				continue // fsck names it
			}
			queue = append(queue, pc)
		}
	}
	t, err := g.SubTree(c.TreeHash, r.prefix)
	if err != nil || t == nil {
		return e, err
	}
	err = r.countTree(g, t, "", paths, &e)
	return e, err
}

func (r *Repo) countTree(g *gitrepo.Repo, t *gitrepo.Tree, base string, paths map[gitrepo.Hash]string, e *End) error {
	ents := append([]gitrepo.TreeEntry(nil), t.Entries...)
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
	for _, ent := range ents {
		p := join(base, ent.Name)
		switch ent.Mode {
		case gitrepo.Dir:
			sub, err := g.Tree(ent.Hash)
			if err != nil {
				if paths == nil {
					return fmt.Errorf("%s: tree %s: %w", p, short(ent.Hash), err)
				}
				paths[ent.Hash] = p + "/"
				continue // fsck names it
			}
			if err := r.countTree(g, sub, p, paths, e); err != nil {
				return err
			}
			continue
		case gitrepo.Submodule:
			continue
		}
		e.Files++
		if r.v.IsMemoryPath(p) {
			e.Memories++
		}
		if paths != nil {
			paths[ent.Hash] = p
		}
	}
	return nil
}

// ref is one branch or tag and the object it names.
type ref struct {
	name gitrepo.RefName
	hash gitrepo.Hash
}

// branchesAndTags lists the vault's branches and tags as the git program
// does. Not go-git's References: it reads every file under refs/, a
// refs/heads/<branch>.lock that another git is writing included, and
// fails the whole backup with "ref file is empty" (the crash soak met it).
func (r *Repo) branchesAndTags() ([]ref, error) {
	out, err := r.env.Git().Run(r.gitDir, "for-each-ref", "--format=%(objectname) %(refname)", "refs/heads", "refs/tags")
	if err != nil {
		return nil, err
	}
	var refs []ref
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		hash, name, ok := strings.Cut(line, " ")
		if ok && gitrepo.IsHash(hash) {
			refs = append(refs, ref{gitrepo.RefName(name), gitrepo.NewHash(hash)})
		}
	}
	return refs, nil
}

// checkSecrets refuses a push of commits that add a secret to the vault
// folder (spec §8), whoever made them: mem commit leaves such a file out,
// but a plain `git commit` does not. Only commits the backup lacks are
// read (has), and only the blobs each adds against its first parent, so
// an hourly backup reads a handful of files. Each blob is scanned once,
// and the memories among them that cc lists are linted as they are read.
func (r *Repo) checkSecrets(has func(gitrepo.Hash) bool, url string, cc *contentCheck) error {
	refs, err := r.branchesAndTags()
	if err != nil {
		return err
	}
	var queue []gitrepo.Hash
	for _, rf := range refs {
		queue = append(queue, rf.hash)
	}
	seen := map[gitrepo.Hash]bool{}
	scanned := map[gitrepo.Hash][]rules.Finding{}
	var found []string
	for len(queue) > 0 {
		h := queue[0]
		queue = queue[1:]
		if seen[h] || has(h) {
			continue
		}
		seen[h] = true
		c, err := r.git.Commit(h)
		if errors.Is(err, gitrepo.ErrObjectNotFound) {
			if target, terr := r.git.TagTarget(h); terr == nil {
				queue = append(queue, target)
				continue
			}
		}
		if err != nil {
			return r.damaged(h.String(), "commit: "+err.Error(), url)
		}
		queue = append(queue, c.ParentHashes...)
		fs, added, err := r.commitSecrets(c, scanned, cc.memo, url, cc.reader(c.Hash))
		if err != nil {
			return err
		}
		found = append(found, fs...)
		cc.added(c.Hash, added)
	}
	if len(found) == 0 {
		return nil
	}
	return &RefusedError{fmt.Sprintf("refused to push to %s: commits not yet in the backup add secrets:\n  %s\nNothing was pushed. Remove the secret from those commits (rewrite them, e.g. 'git rebase -i' from before the oldest; 'git commit --amend' for the last one), revoke the key, then run 'mem backup' again",
		url, listed(found))}
}

// sendWarnings adds to warnings a line for each memory a push to url sent
// that lint.Content fails on (cc): nothing refuses it here, where the file
// is the truth (a hand-written file mem commit takes as it is, or a plain
// git commit), but every machine's sync from url refuses it
// (incomingContent) until a new commit here fixes it.
func (r *Repo) sendWarnings(cc *contentCheck, url string, warnings *[]string) error {
	found, err := cc.finish()
	if err != nil {
		return r.damaged("a blob pushed", err.Error(), url)
	}
	for _, f := range found {
		*warnings = append(*warnings, fmt.Sprintf("pushed %s; every other machine's sync from %s refuses it until it is fixed here: fix or delete the file ('mem lint' names the line) and sync again", f, url))
	}
	return nil
}

// commitSecrets are the secrets commit c adds: in its message, in the
// files it adds and in their names; added are those files. memo (nil:
// none) keeps the blobs' scans for a caller that reads them again, and
// read is given each blob's content as it is read (a blob scanned before,
// under any name, is not read again).
func (r *Repo) commitSecrets(c *gitrepo.Commit, scanned map[gitrepo.Hash][]rules.Finding, memo *rules.Memo, url string, read func(addedBlob, []byte)) (found []string, added []addedBlob, err error) {
	fs, added, err := r.addedSecrets(c, scanned, memo, url, read)
	return append(secretLines(c, "its message", rules.Secrets(c.Message)), fs...), added, err
}

// addedSecrets are the secrets the files commit c adds hold, or their
// names (each blob scanned once: scanned keeps what was found), and the
// files it adds.
func (r *Repo) addedSecrets(c *gitrepo.Commit, scanned map[gitrepo.Hash][]rules.Finding, memo *rules.Memo, url string, read func(addedBlob, []byte)) ([]string, []addedBlob, error) {
	added, err := r.addedBlobs(c)
	if err != nil {
		return nil, nil, r.damaged("in commit "+c.Hash.String(), err.Error(), url)
	}
	var found []string
	for _, a := range added {
		fs, ok := scanned[a.hash]
		if !ok {
			var data []byte
			if data, fs, err = scanBlob(r.git, a.hash, memo); err != nil {
				return nil, nil, r.damaged(a.hash.String(), fmt.Sprintf("%s in commit %s: %v", a.path, short(c.Hash), err), url)
			}
			scanned[a.hash] = fs
			read(a, data)
		}
		// A commit adding a file so named adds the secret: line 0, as
		// mem commit names it.
		for _, f := range rules.Name(a.path) {
			f.Line = 0
			fs = append(slices.Clip(fs), f)
		}
		found = append(found, secretLines(c, rules.RedactPath(a.path), fs)...) // a file name must not leak the secret either
	}
	return found, added, nil
}

// secretLines are the findings fs in where of commit c, as reported.
func secretLines(c *gitrepo.Commit, where string, fs []rules.Finding) []string {
	var lines []string
	for _, f := range fs {
		lines = append(lines, fmt.Sprintf("commit %s adds %s:%d: %s (%s)", short(c.Hash), where, f.Line, f.Rule, f.What))
	}
	return lines
}

type addedBlob struct {
	path string
	hash gitrepo.Hash
}

// addedBlobs lists the files under the vault folder that commit c adds or
// changes against its first parent (all of them for a root commit).
func (r *Repo) addedBlobs(c *gitrepo.Commit) ([]addedBlob, error) {
	from := gitrepo.ZeroHash
	if len(c.ParentHashes) > 0 {
		p, err := r.git.Commit(c.ParentHashes[0])
		if err != nil {
			return nil, err
		}
		from = p.TreeHash
	}
	changes, err := r.git.Diff(from, c.TreeHash, r.prefix)
	if err != nil {
		return nil, err
	}
	var out []addedBlob
	for _, ch := range changes {
		if ch.Deleted() || ch.NewMode == gitrepo.Submodule {
			continue
		}
		out = append(out, addedBlob{path: ch.Path, hash: ch.New})
	}
	return out, nil
}

// scanBlob returns a blob's content and the secrets in it; a binary one (a
// NUL in its first 8000 bytes, git's own test) holds no text to scan.
func scanBlob(g *gitrepo.Repo, h gitrepo.Hash, memo *rules.Memo) ([]byte, []rules.Finding, error) {
	data, err := g.Blob(h)
	if err != nil {
		return nil, nil, err
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 {
		return data, nil, nil
	}
	return data, rules.SecretsRecalled(string(data), memo), nil
}

// BackupCheck is what reading the last verified backup again found.
type BackupCheck struct {
	Record   *BackupRecord `json:"record"`
	URL      string        `json:"url"`
	Head     string        `json:"head"`    // the backup's head of the recorded branch now
	Checked  string        `json:"checked"` // what was read, for a person
	Problems []string      `json:"problems"`
}

// maxLooseHashed bounds the loose objects the cheap check hashes. A
// backup's loose objects are its recent small pushes (git packs a push of
// 100 objects or more, and gc packs loose ones past 6,700).
const maxLooseHashed = 10000

// CheckBackup reads the last verified backup again (for mem doctor): the
// recorded branch must still be at the recorded head or ahead of it, the
// counts at that head must match the record, and git fsck must pass. The
// cheap check runs fsck for connectivity only (every object reachable from
// the refs exists; commits and trees parse) and hashes the loose objects,
// where hourly pushes land; full hashes every object. A remote backup is
// only listed by the cheap check and cloned by the full one. It returns
// nil when no backup was ever verified. env is what git runs with.
func CheckBackup(v *vault.Vault, full bool, env Env) (*BackupCheck, error) {
	rec, err := LastBackup(v)
	if err != nil || rec == nil {
		return nil, err
	}
	r, err := Open(v, env)
	if err != nil {
		return nil, err
	}
	chk := &BackupCheck{Record: rec, URL: rec.URL, Problems: []string{}}
	tgt := r.checkTarget(chk)
	if tgt == nil {
		return chk, nil
	}
	branch := gitrepo.BranchRef(rec.Branch)
	recHead := gitrepo.NewHash(rec.Head)
	back, dir := tgt.repo, chk.URL
	if back == nil {
		if !full {
			r.checkRemoteHead(chk, branch, recHead)
			return chk, nil
		}
		tmp, err := os.MkdirTemp("", "mem-doctor-backup-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		if back, err = cloneMirror(r.env, r.gitDir, chk.URL, tmp); err != nil {
			chk.Problems = append(chk.Problems, err.Error())
			return chk, nil
		}
		dir = tmp
	}
	damage := r.backupDamage(chk, back, dir, full)
	if len(damage) > 0 {
		// A push to it again would not help: git sends only what the
		// backup's refs do not already claim to hold.
		chk.Problems = append(chk.Problems, append(damage, fmt.Sprintf("the backup %s is damaged: run 'mem backup --to NEW-PATH' for a good copy, then replace it", chk.URL))...)
	}
	return chk, nil
}

// checkTarget finds the last verified backup: a local repository, opened,
// or a remote (repo nil). nil, with the problem in chk, when it cannot.
func (r *Repo) checkTarget(chk *BackupCheck) *backupTarget {
	if chk.URL == "" { // recorded before URL was: backup.to is relative to the vault
		res := &BackupResult{}
		tgt, err := r.resolveTarget(BackupOptions{To: chk.Record.Target, RelativeTo: r.v.Root, VerifyOnly: true}, res)
		if err != nil {
			chk.Problems = append(chk.Problems, err.Error())
			return nil
		}
		chk.URL = res.URL
		return tgt
	}
	if !filepath.IsAbs(chk.URL) {
		return &backupTarget{}
	}
	g, err := gitrepo.OpenAt(chk.URL, r.env.Git())
	if err != nil {
		chk.Problems = append(chk.Problems, fmt.Sprintf("%s: the last verified backup cannot be opened (%v): is its drive mounted? If it is lost, run 'mem backup --to NEW-PATH'", chk.URL, err))
		return nil
	}
	return &backupTarget{repo: g}
}

// checkRemoteHead is the quick check of a remote backup: its head, as it
// lists it, is still where the last verified backup left it.
func (r *Repo) checkRemoteHead(chk *BackupCheck, branch gitrepo.RefName, recHead gitrepo.Hash) {
	rec := chk.Record
	refs, err := r.lsRemote(chk.URL)
	if err != nil {
		chk.Problems = append(chk.Problems, err.Error())
		return
	}
	chk.Head = refs[branch].String()
	chk.Checked = "the remote's head listed ('mem doctor --full' reads it all back)"
	if refs[branch] != recHead {
		chk.Problems = append(chk.Problems, fmt.Sprintf("%s: %s is at %s, the last verified backup left it at %s: run 'mem backup --verify-only --to %s' to read it back", chk.URL, rec.Branch, short(refs[branch]), short(recHead), rec.Target))
	}
}

// backupDamage reads the backup back (back, its files at dir) against the
// record: its head, the counts at the recorded head, git fsck, and the
// loose objects hashed (every object when full). A moved head is a
// problem in chk; what it returns is damage, which a new backup fixes.
func (r *Repo) backupDamage(chk *BackupCheck, back *gitrepo.Repo, dir string, full bool) []string {
	rec := chk.Record
	branch, recHead := gitrepo.BranchRef(rec.Branch), gitrepo.NewHash(rec.Head)
	var damage []string
	ref, err := back.Ref(branch)
	if err != nil {
		damage = append(damage, fmt.Sprintf("%s: no %s (%v)", chk.URL, branch, err))
	} else if chk.Head = ref.String(); ref != recHead && !descends(back, ref, recHead) {
		chk.Problems = append(chk.Problems, fmt.Sprintf("%s: %s is at %s, which does not hold %s, the head of the last verified backup: someone moved it; inspect it with 'git -C %s log %s', then run 'mem backup --verify-only --to %s'", chk.URL, rec.Branch, short(ref), short(recHead), chk.URL, rec.Branch, rec.Target))
	}
	paths := map[gitrepo.Hash]string{}
	got, err := r.end(back, recHead, paths)
	if err != nil {
		damage = append(damage, fmt.Sprintf("%s: the head of the last verified backup %s is unreadable: %v", chk.URL, short(recHead), err))
	} else {
		for _, c := range []struct {
			what      string
			rec, back int
		}{{"commits", rec.Commits, got.Commits}, {"files", rec.Files, got.Files}, {"memories", rec.Memories, got.Memories}} {
			if c.rec != c.back {
				damage = append(damage, fmt.Sprintf("%s: %s at %s differ: recorded %d, backup %d", chk.URL, c.what, short(recHead), c.rec, c.back))
			}
		}
	}
	damage = append(damage, fsckBackup(r.env, dir, full, paths)...)
	if full {
		chk.Checked = "head, counts and every object hashed (git fsck)"
	} else {
		n, bad := hashLoose(back)
		damage = append(damage, bad...)
		chk.Checked = fmt.Sprintf("head, counts, connectivity (git fsck --connectivity-only) and %d loose objects hashed; 'mem doctor --full' hashes every object", n)
	}
	return damage
}

// descends reports whether commit old is an ancestor of head in g.
func descends(g *gitrepo.Repo, head, old gitrepo.Hash) bool {
	ok, err := g.IsAncestor(old, head)
	return err == nil && ok
}

// hashLoose reads every loose object of the repository g (at most
// maxLooseHashed) and checks that its content hashes to its name, which
// fsck --connectivity-only does not do for blobs.
func hashLoose(g *gitrepo.Repo) (int, []string) {
	n := 0
	var bad []string
	g.LooseObjects(func(h gitrepo.Hash, p string) bool {
		if n == maxLooseHashed {
			return false
		}
		n++
		if err := g.Rehash(h); err != nil {
			bad = append(bad, fmt.Sprintf("object %s (%s) is corrupt: %v", h, p, err))
		}
		return true
	})
	if len(bad) > maxListed {
		bad = append(bad[:maxListed], fmt.Sprintf("… and %d more corrupt objects", len(bad)-maxListed))
	}
	return n, bad
}
