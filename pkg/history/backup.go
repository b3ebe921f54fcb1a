package history

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/mem-md/mem/pkg/vault"
)

// BackupOptions tune Backup.
type BackupOptions struct {
	To              string    // a path, a URL, or the name of a git remote
	RelativeTo      string    // base of a relative path in To (default: the working directory)
	VerifyOnly      bool      // read the backup back without pushing first
	AllowMassDelete bool      // push even when the memory count dropped a lot
	Now             time.Time // recorded as the time of the verified backup
}

// RefusedError is a push the backup refused (its history diverged).
type RefusedError struct{ Msg string }

func (e *RefusedError) Error() string { return e.Msg }

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
	if err := os.MkdirAll(v.StateDir(), 0o755); err != nil {
		return err
	}
	return vault.WriteFileAtomic(filepath.Join(v.StateDir(), BackupStateFile), append(data, '\n'), 0o644)
}

// Backup pushes every branch and tag to the backup, then reads it back.
func Backup(v *vault.Vault, opts BackupOptions) (*BackupResult, error) {
	r, err := Open(v)
	if err != nil {
		return nil, err
	}
	return r.Backup(opts)
}

var scpLike = regexp.MustCompile(`^[\w.-]+@[\w.-]+:`)

// Backup is the method form of the package function Backup. An error is
// returned when the backup could not be attempted or was refused; a backup
// that does not read back right returns a result with Problems.
func (r *Repo) Backup(opts BackupOptions) (*BackupResult, error) {
	if opts.Now.IsZero() {
		opts.Now = time.Now()
	}
	if opts.To == "" {
		return nil, errors.New("no backup target: pass --to PATH|REMOTE or set backup.to in mem.yaml")
	}
	branch, head, err := r.headRef()
	if err != nil {
		return nil, err
	}
	if head.IsZero() {
		return nil, fmt.Errorf("%s: nothing committed yet: run 'mem commit' before 'mem backup'", r.v.Root)
	}
	res := &BackupResult{Target: opts.To, Branch: branch.Short(), Problems: []string{}}
	local, err := r.resolveTarget(opts, res, branch)
	if err != nil {
		return nil, err
	}
	if res.Vault, err = r.end(r.git, head, false, nil); err != nil {
		return nil, err
	}
	if !opts.VerifyOnly {
		if local != nil {
			torn, err := removeTornRefs(res.URL)
			if err != nil {
				return nil, err
			}
			for _, p := range torn {
				res.Warnings = append(res.Warnings, fmt.Sprintf("removed %s: an empty ref, left by a backup that was killed while writing it; pushed again", p))
			}
		}
		if err := r.checkDrop(local, res, branch, opts.AllowMassDelete); err != nil {
			return nil, err
		}
		if err := r.push(res.URL); err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
			if strings.Contains(err.Error(), "non-fast-forward") {
				return nil, &RefusedError{fmt.Sprintf("push to %s: %v: the backup holds commits the vault does not (another history, or a ref moved there); inspect it with 'git -C %s log %s' and move or remove that backup", res.URL, err, res.URL, branch.Short())}
			}
			return nil, fmt.Errorf("push to %s: %w", res.URL, err)
		} else if err == nil {
			res.Pushed = true
		}
	}
	back := local
	if back == nil {
		dir, err := os.MkdirTemp("", "mem-backup-verify-")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		if back, err = git.PlainClone(dir, true, &git.CloneOptions{URL: res.URL, Mirror: true}); err != nil {
			return nil, fmt.Errorf("read back %s: %w", res.URL, err)
		}
	}
	r.verify(back, branch, head, res)
	if res.Verified() {
		rec := &BackupRecord{Time: opts.Now.UTC(), Target: opts.To, Branch: res.Branch, Head: head.String(),
			Commits: res.Backup.Commits, Files: res.Backup.Files, Memories: res.Backup.Memories}
		if err := recordBackup(r.v, rec); err != nil {
			res.Warnings = append(res.Warnings, "verified, but could not record it: "+err.Error())
		}
	}
	return res, nil
}

// resolveTarget turns --to into a URL and, for a local path, opens (or
// with create, initialises) the backup repository.
func (r *Repo) resolveTarget(opts BackupOptions, res *BackupResult, branch plumbing.ReferenceName) (*git.Repository, error) {
	to, create := opts.To, !opts.VerifyOnly
	url := to
	if cfg, err := r.git.Config(); err == nil {
		if rc, ok := cfg.Remotes[to]; ok && len(rc.URLs) > 0 {
			url = rc.URLs[0]
		}
	}
	if strings.Contains(url, "://") && !strings.HasPrefix(url, "file://") || scpLike.MatchString(url) {
		res.URL = url
		return nil, nil
	}
	p := strings.TrimPrefix(url, "file://")
	if !filepath.IsAbs(p) && opts.RelativeTo != "" {
		p = filepath.Join(opts.RelativeTo, p)
	}
	p, err := filepath.Abs(p)
	if err != nil {
		return nil, err
	}
	res.URL = p
	if _, err := os.Stat(p); os.IsNotExist(err) && create {
		g, err := git.PlainInit(p, true)
		if err != nil {
			return nil, fmt.Errorf("%s: create backup repository: %w", p, err)
		}
		// A clone of the backup should check out the vault's branch.
		if err := g.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, branch)); err != nil {
			return nil, err
		}
		res.Created = true
		return g, nil
	}
	g, err := git.PlainOpen(p)
	if err != nil {
		return nil, fmt.Errorf("%s: not a git repository (%v): give an empty or new path, or an existing backup repository", p, err)
	}
	return g, nil
}

// removeTornRefs removes the empty loose refs under a local backup
// repository's refs/. go-git writes a ref in place (truncate, then write),
// so a backup killed in between leaves an empty file, and every later push
// failed on it ("ref file is empty"). git never writes an empty ref, so
// nothing is lost: the push writes the ref again and the read-back checks it.
func removeTornRefs(repo string) ([]string, error) {
	var torn []string
	err := filepath.WalkDir(filepath.Join(repo, "refs"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil // an unreadable folder is the push's to report
		}
		if fi, err := d.Info(); err == nil && fi.Size() == 0 {
			if err := os.Remove(p); err != nil {
				return fmt.Errorf("%s: an empty ref, left by a killed backup, cannot be removed: %w", p, err)
			}
			torn = append(torn, p)
		}
		return nil
	})
	return torn, err
}

func (r *Repo) push(url string) error {
	const name = "mem-backup"
	rem := git.NewRemote(r.git.Storer, &config.RemoteConfig{Name: name, URLs: []string{url}})
	return rem.Push(&git.PushOptions{RemoteName: name, RefSpecs: []config.RefSpec{
		"refs/heads/*:refs/heads/*", "refs/tags/*:refs/tags/*",
	}})
}

// checkDrop refuses to push a head whose memory count fell by more than
// the mass-delete share against the backup's head of the same branch.
func (r *Repo) checkDrop(back *git.Repository, res *BackupResult, branch plumbing.ReferenceName, allow bool) error {
	var old plumbing.Hash
	src := back
	if back != nil {
		ref, err := back.Reference(branch, true)
		if err != nil {
			return nil // nothing there yet
		}
		old = ref.Hash()
	} else {
		rem := git.NewRemote(r.git.Storer, &config.RemoteConfig{Name: "mem-backup", URLs: []string{res.URL}})
		refs, err := rem.List(&git.ListOptions{})
		if err != nil {
			return fmt.Errorf("list %s: %w", res.URL, err)
		}
		for _, ref := range refs {
			if ref.Name() == branch {
				old = ref.Hash()
			}
		}
		src = r.git // the backup's head is normally an ancestor we hold
	}
	if old.IsZero() {
		return nil
	}
	prev, err := r.end(src, old, false, nil)
	if err != nil {
		res.Warnings = append(res.Warnings, fmt.Sprintf("could not count the memories at the backup's head %s (%v); the mass-delete check was skipped", short(old), err))
		return nil
	}
	if drop := prev.Memories - res.Vault.Memories; !allow && r.v.Config.Lint.IsMassDeletion(drop, prev.Memories) {
		return &MassDeleteError{Removed: drop, Of: prev.Memories, Share: r.v.Config.Lint.MassDeleteShare, What: fmt.Sprintf("pushing %s to %s", short(plumbing.NewHash(res.Vault.Head)), res.URL)}
	}
	return nil
}

// verify reads the backup back and fills res.Backup and res.Problems.
func (r *Repo) verify(back *git.Repository, branch plumbing.ReferenceName, head plumbing.Hash, res *BackupResult) {
	ref, err := back.Reference(branch, true)
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("backup has no %s (%v)", branch, err))
		return
	}
	res.Backup.Head = ref.Hash().String()
	if ref.Hash() != head {
		res.Problems = append(res.Problems, fmt.Sprintf("head differs: vault %s is at %s, backup at %s", branch.Short(), short(head), short(ref.Hash())))
	}
	// Every branch and tag of the vault must be in the backup as it is here.
	if refs, err := r.git.References(); err == nil {
		refs.ForEach(func(lr *plumbing.Reference) error {
			if lr.Type() != plumbing.HashReference || !(lr.Name().IsBranch() || lr.Name().IsTag()) || lr.Name() == branch {
				return nil
			}
			br, err := back.Reference(lr.Name(), true)
			if err != nil {
				res.Problems = append(res.Problems, fmt.Sprintf("backup lacks %s", lr.Name()))
			} else if br.Hash() != lr.Hash() {
				res.Problems = append(res.Problems, fmt.Sprintf("%s differs: vault %s, backup %s", lr.Name(), short(lr.Hash()), short(br.Hash())))
			}
			return nil
		})
	}
	var bad []string
	got, err := r.end(back, ref.Hash(), true, &bad)
	res.Backup = got
	res.Backup.Head = ref.Hash().String()
	if err != nil {
		res.Problems = append(res.Problems, fmt.Sprintf("backup head %s unreadable: %v", short(ref.Hash()), err))
		return
	}
	const maxListed = 10
	for i, b := range bad {
		if i == maxListed {
			res.Problems = append(res.Problems, fmt.Sprintf("… and %d more unreadable objects", len(bad)-i))
			break
		}
		res.Problems = append(res.Problems, b)
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

// end counts, in repository g, the commits reachable from head and the
// files and memories of the vault folder at head. With verify, every blob
// is read and re-hashed; objects that fail go to bad instead of failing.
func (r *Repo) end(g *git.Repository, head plumbing.Hash, verify bool, bad *[]string) (End, error) {
	e := End{Head: head.String()}
	c, err := g.CommitObject(head)
	if err != nil {
		return e, err
	}
	seen := map[plumbing.Hash]bool{head: true}
	queue := []*object.Commit{c}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		e.Commits++
		for _, p := range cur.ParentHashes {
			if seen[p] {
				continue
			}
			seen[p] = true
			pc, err := g.CommitObject(p)
			if err != nil {
				if bad == nil {
					return e, fmt.Errorf("commit %s: %w", short(p), err)
				}
				*bad = append(*bad, fmt.Sprintf("commit %s unreadable: %v", short(p), err))
				continue
			}
			queue = append(queue, pc)
		}
	}
	t, err := c.Tree()
	if err != nil {
		return e, err
	}
	if r.prefix != "" {
		if t, err = t.Tree(r.prefix); errors.Is(err, object.ErrDirectoryNotFound) {
			return e, nil
		} else if err != nil {
			return e, err
		}
	}
	err = r.countTree(g, t, "", verify, bad, &e)
	return e, err
}

func (r *Repo) countTree(g *git.Repository, t *object.Tree, base string, verify bool, bad *[]string, e *End) error {
	ents := append([]object.TreeEntry(nil), t.Entries...)
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
	for _, ent := range ents {
		p := join(base, ent.Name)
		switch ent.Mode {
		case filemode.Dir:
			sub, err := g.TreeObject(ent.Hash)
			if err != nil {
				if bad == nil {
					return fmt.Errorf("%s: tree %s: %w", p, short(ent.Hash), err)
				}
				*bad = append(*bad, fmt.Sprintf("folder %s (tree %s) unreadable: %v", p, short(ent.Hash), err))
				continue
			}
			if err := r.countTree(g, sub, p, verify, bad, e); err != nil {
				return err
			}
			continue
		case filemode.Submodule:
			continue
		}
		e.Files++
		if r.v.IsMemoryPath(p) {
			e.Memories++
		}
		if verify {
			if err := readBack(g, ent.Hash); err != nil {
				*bad = append(*bad, fmt.Sprintf("file %s (blob %s) unreadable: %v", p, short(ent.Hash), err))
			}
		}
	}
	return nil
}

// readBack reads a blob in full and checks that its content hashes to its
// name, so a corrupt object cannot pass for a good one.
func readBack(g *git.Repository, h plumbing.Hash) error {
	obj, err := g.Storer.EncodedObject(plumbing.BlobObject, h)
	if err != nil {
		return err
	}
	rd, err := obj.Reader()
	if err != nil {
		return err
	}
	defer rd.Close()
	hw := plumbing.NewHasher(plumbing.BlobObject, obj.Size())
	n, err := io.Copy(hw, rd)
	if err != nil {
		return err
	}
	if n != obj.Size() {
		return fmt.Errorf("read %d of %d bytes", n, obj.Size())
	}
	if got := hw.Sum(); got != h {
		return fmt.Errorf("content hashes to %s", short(got))
	}
	return nil
}
