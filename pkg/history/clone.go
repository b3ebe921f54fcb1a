package history

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/vault"
)

// CloneResult says what Clone got and what reading both ends found.
type CloneResult struct {
	Remote string `json:"remote"`
	URL    string `json:"url"`
	Dir    string `json:"dir"`
	Branch string `json:"branch"`
	// Backup says the remote is a backup mem backup wrote (BackupWhy says
	// how it could tell): a backup is one-way, so the clone does not sync
	// back into it (spec §4).
	Backup    bool     `json:"backup"`
	BackupWhy string   `json:"backup_why,omitempty"`
	Here      End      `json:"here"`
	There     End      `json:"there"` // the remote's own objects for a path; what was received otherwise
	Problems  []string `json:"problems"`
	// Config is why the cloned mem.yaml does not load ("" when it does):
	// every file is restored and verified all the same, with the default
	// configuration, and mem runs in the clone once the file is fixed.
	Config string `json:"config,omitempty"`
}

// Verified reports whether the clone matched the remote.
func (c *CloneResult) Verified() bool { return len(c.Problems) == 0 }

// Clone gets the vault at remote into dir (which must not exist, or be an
// empty folder), then verifies it as a backup is verified: the same head at
// both ends, the same commit, file and memory counts, git fsck clean, and
// every file checked out. A clone that fails half-way is removed.
func Clone(remote, relativeTo, dir string, env Env) (*CloneResult, error) {
	res := &CloneResult{Remote: remote, Problems: []string{}}
	abs, err := cloneTarget(dir)
	if err != nil {
		return nil, err
	}
	res.Dir = abs
	url, local, err := cloneURL(remote, relativeTo)
	if err != nil {
		return nil, err
	}
	res.URL = url
	_, existed := os.Stat(abs)
	done := false
	defer func() {
		if !done {
			if existed == nil {
				clearDir(abs)
			} else {
				os.RemoveAll(abs)
			}
		}
	}()
	if err := fetchClone(env, url, abs); err != nil {
		return nil, err
	}
	v, err := vault.Open(abs) // no mem.yaml yet: the default limits check what came
	if err != nil {
		return nil, err
	}
	r, err := Open(v, env)
	if err != nil {
		return nil, err
	}
	branch, head, err := r.git.Head()
	if err != nil {
		return nil, err
	}
	if head.IsZero() {
		// A new bare repository holds no commit yet: nothing is wrong
		// with it, there is only nothing to clone (issue 42).
		return nil, fmt.Errorf("%s is an empty repository (no commit yet): there is nothing to clone, and nothing was kept. To start the vault there, create it and sync: 'mem init %s' then 'mem --vault %s sync %s'", url, dir, dir, remote)
	}
	if err := r.checkOutClone(url, head); err != nil {
		return nil, err
	}
	// A mem.yaml that does not load (a remote's, or one broken by hand)
	// does not cost the restore: the memories are checked out and verified
	// with the default configuration, and the caller names the file.
	if cv, err := vault.Open(abs); err != nil {
		res.Config = err.Error()
	} else {
		r.v = cv
	}
	res.Branch = branch.Short()
	paths := map[gitrepo.Hash]string{}
	if res.Here, err = r.end(r.git, head, paths); err != nil {
		return nil, r.damaged("under head "+head.String(), err.Error(), url)
	}
	res.Problems = append(res.Problems, fsckBackup(r.env, r.gitDir, true, paths)...)
	if err := r.readRemoteEnd(res, branch, local); err != nil {
		return nil, err
	}
	r.compareEnds(res, local)
	done = true
	return res, nil
}

// cloneTarget is dir made absolute, once it is known to be a folder that
// does not exist, or an empty one, in a folder that does.
func cloneTarget(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	if ents, err := os.ReadDir(abs); err == nil && len(ents) > 0 {
		return "", fmt.Errorf("%s: exists and is not empty: give a new folder for the vault", abs)
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%s: %w", abs, err)
	}
	if fi, err := os.Stat(filepath.Dir(abs)); err != nil || !fi.IsDir() {
		return "", fmt.Errorf("%s: the folder %s does not exist (is the drive mounted?): create it first", abs, filepath.Dir(abs))
	}
	return abs, nil
}

// cloneURL is the URL git clones from: remote, or, when it is a path,
// that path made absolute.
func cloneURL(remote, relativeTo string) (url string, local bool, err error) {
	if !isPath(remote) {
		return remote, false, nil
	}
	url, err = localPath(remote, relativeTo)
	return url, true, err
}

// localPath is the absolute path a path or file:// URL names, relative
// to relativeTo when given, else to the working directory.
func localPath(url, relativeTo string) (string, error) {
	p := strings.TrimPrefix(url, "file://")
	if !filepath.IsAbs(p) && relativeTo != "" {
		p = filepath.Join(relativeTo, p)
	}
	return filepath.Abs(p)
}

// fetchClone runs git clone of url into abs, with no checkout. What a
// remote sends is foreign (spec §8): git checks every object as it
// arrives, and mem every path, before a file is checked out.
func fetchClone(env Env, url, abs string) error {
	if _, err := env.Git().RunWith("", "", nil, append(fetchFsck, "clone", "--quiet", "--no-local", "--no-checkout", url, abs)...); err != nil {
		var ge *gitrepo.Error
		if errors.As(err, &ge) && fsckRefused(ge.Stderr) {
			return &RefusedError{fmt.Sprintf("refused %s: git's object check (fsck) refuses what it sent (git: %s); nothing was kept: repair or remove the bad commits on the remote, then clone again", url, strings.Join(strings.Fields(ge.Stderr), " "))}
		}
		return fmt.Errorf("clone %s: %w (is the remote reachable? the path right?); nothing was kept", url, err)
	}
	return nil
}

// checkOutClone checks every path of head, then checks it out, and makes
// sure it is a vault.
func (r *Repo) checkOutClone(url string, head gitrepo.Hash) error {
	// The head's tree is what is checked out; git's fsck has checked
	// every object of the history for what git itself refuses, so a
	// backup of a vault that once held a link still restores.
	if err := r.checkCommits([]string{head.String()}, gitrepo.ZeroHash, false, url); err != nil {
		var ie *IncomingError
		if errors.As(err, &ie) {
			ie.Then = "nothing was kept: remove the path from the remote's head (a new commit), then clone again, or clone it with plain git if you trust it"
		}
		return err
	}
	// The remote's .gitattributes must not transform what is checked out.
	if err := gitrepo.PinAttributes(r.gitDir, vault.NoTransform); err != nil {
		return fmt.Errorf("clone %s: %w; nothing was kept", url, err)
	}
	if _, err := r.env.Git().RunWith(r.gitDir, "", []string{"GIT_WORK_TREE=" + r.top}, "reset", "--quiet", "--hard"); err != nil {
		return fmt.Errorf("clone %s: check out: %w; nothing was kept", url, err)
	}
	if _, err := os.Stat(filepath.Join(r.top, vault.ConfigFile)); err != nil {
		return fmt.Errorf("%s: no %s at the top of what was cloned: it is not a mem vault (clone it with git, or give the vault's remote); nothing was kept", url, vault.ConfigFile)
	}
	return nil
}

// readRemoteEnd fills res.There: for a path, read from the remote's own
// objects (and whether mem backup made it); otherwise what was received,
// with the head the remote names now.
func (r *Repo) readRemoteEnd(res *CloneResult, branch gitrepo.RefName, local bool) error {
	url := res.URL
	if !local {
		refs, err := r.lsRemote(url)
		if err != nil {
			return err
		}
		res.There = res.Here
		res.There.Head = refs[branch].String()
		return nil
	}
	back, err := gitrepo.OpenAt(url, r.env.Git())
	if err != nil {
		return fmt.Errorf("%s: %w", url, err)
	}
	if back.ConfigValue(backupRole[0], backupRole[1]) == backupRole[2] {
		res.Backup, res.BackupWhy = true, "its config says mem.role = backup: mem backup created it"
	}
	ref, err := back.Ref(branch)
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("%s has no %s (%v)", url, branch, err))
	} else if res.There, err = r.end(back, ref, nil); err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("%s: head %s unreadable: %v", url, short(ref), err))
	}
	return nil
}

// compareEnds adds to res.Problems where the two ends differ (head,
// counts) and where the checked-out files differ from the head, and says
// whether the remote is the vault's backup.
func (r *Repo) compareEnds(res *CloneResult, local bool) {
	url := res.URL
	if to := r.v.Config.Backup.To; !res.Backup && to != "" && (to == url || local && filepath.Clean(strings.TrimPrefix(to, "file://")) == url) {
		res.Backup, res.BackupWhy = true, "the vault's mem.yaml names it as backup.to"
	}
	if res.There.Head != res.Here.Head {
		res.Problems = append(res.Problems, fmt.Sprintf("head differs: here %s, remote %s (someone pushed meanwhile? run 'mem sync')", res.Here.Head, res.There.Head))
	}
	for _, c := range []struct {
		what        string
		here, there int
	}{{"commits", res.Here.Commits, res.There.Commits}, {"files", res.Here.Files, res.There.Files}, {"memories", res.Here.Memories, res.There.Memories}} {
		if c.here != c.there {
			res.Problems = append(res.Problems, fmt.Sprintf("%s differ: here %d, remote %d", c.what, c.here, c.there))
		}
	}
	if out, err := r.env.Git().RunWith(r.gitDir, "", []string{"GIT_WORK_TREE=" + r.top}, "status", "--porcelain", "--untracked-files=no"); err != nil || strings.TrimSpace(out) != "" {
		res.Problems = append(res.Problems, fmt.Sprintf("the checked-out files differ from the head: %v %s", err, strings.TrimSpace(out)))
	}
}

// clearDir empties a folder that existed (empty) before a failed clone.
func clearDir(dir string) {
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}
