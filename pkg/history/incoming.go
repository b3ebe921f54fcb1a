package history

import (
	"errors"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/lint"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// What a remote sends is foreign (spec §8, last row): a commit that another
// machine, or whoever controls the shared repository, made with plain git.
// Before anything is journalled or written, every tree entry that the
// incoming commits add is checked as git's own checkout and fsck check
// paths (verify_path, is_ntfs_dotgit, is_hfs_dotgit), plus what mem itself
// never writes (links, control characters, names a file system refuses,
// files over the size limits). Git's fsck runs on the fetch too
// (fetchFsck); this check is what names the commit and the path.

// maxNameBytes and maxPathBytes are the limits of Linux's file systems
// (NAME_MAX, PATH_MAX): a longer name cannot be written, and a merge that
// tries leaves the vault half-applied.
const (
	maxNameBytes = 255
	maxPathBytes = 4096
)

// maxOtherFile caps a file outside the memory set (an attachment): memory
// files are capped by lint.max_file_size, which the loader enforces.
const maxOtherFile = 100 << 20

// IncomingError refuses what a remote sent, naming the commit, the path
// and the rule; nothing of the vault changed.
type IncomingError struct {
	URL, Commit, Path, Rule, Why string
	Then                         string // what became of it and what to do (default: a sync's)
	// Out marks the same check on what this machine would push: the
	// other machines would refuse it.
	Out bool
}

func (e *IncomingError) Error() string {
	then := e.Then
	if then == "" {
		then = "nothing here changed: remove that commit from the remote (or the path from its tree), then run 'mem sync' again"
	}
	verb := "refused"
	if e.Out {
		verb = "refused to push to"
	}
	return fmt.Sprintf("%s %s: commit %s: %s: %s: %s; %s", verb,
		e.URL, short(gitrepo.NewHash(e.Commit)), quotePath(e.Path), e.Rule, e.Why, then)
}

// Kind: the remote's content failed the check (exit 1).
func (e *IncomingError) Kind() fail.Kind { return fail.Check }

// quotePath shows a path with its control bytes escaped, so a hostile name
// cannot rewrite the terminal line that reports it.
func quotePath(p string) string {
	if p == "" {
		return `""`
	}
	for i := 0; i < len(p); i++ {
		if p[i] < 0x20 || p[i] == 0x7f || p[i] == '"' || p[i] == '\\' {
			return fmt.Sprintf("%q", p)
		}
	}
	if !utf8.ValidString(p) {
		return fmt.Sprintf("%q", p)
	}
	return p
}

// nameRule says why a tree entry's name may not be written, or "".
func nameRule(name string) (rule, why string) {
	switch {
	case name == "":
		return "empty-name", "a tree entry has no name (an absolute or doubled-slash path)"
	case name == "." || name == "..":
		return "dot-component", "a path component '" + name + "' would write outside its folder"
	case strings.ContainsRune(name, '/'):
		return "slash-in-name", "a name holds '/', so it would be written in another folder"
	case isDotGit(name):
		return "dotgit", "a path component is git's own folder (.git, in some case or an NTFS/HFS+ spelling git refuses)"
	case isMemOwn(name):
		return "mem-own", "a path component is mem's own folder (.mem: this machine's caches, locks and serve tokens) or a temp name: a remote never writes them"
	case len(name) > maxNameBytes:
		return "name-too-long", fmt.Sprintf("a name of %d bytes, over the %d a file system takes", len(name), maxNameBytes)
	}
	if i := rules.NameControl(name); i >= 0 {
		return "control-character", fmt.Sprintf("a name holds the control character %#02x", name[i])
	}
	return "", ""
}

// isDotGit is git's test for a component that names .git: in any case, on
// NTFS also with trailing dots or spaces, an alternate data stream, or the
// 8.3 short name GIT~1; on HFS+ also with Unicode characters it ignores.
func isDotGit(name string) bool { return isDotName(name, ".git", "git~1") }

// isMemOwn reports a component naming what is mem's own on this machine
// (vault.IsOwn): its state folder .mem, spelt as isDotGit spells .git
// (a checkout on a case-insensitive disk writes .MEM into .mem), or a
// temp file's name. The loader never reads them, so what a remote put
// there would be trusted without a check: a .mem/tokens.json would give
// its token to this machine's mem serve.
func isMemOwn(name string) bool {
	return isDotName(name, ".mem", "mem~1") || strings.HasPrefix(strings.ToLower(name), vault.TempPrefix)
}

// isDotName reports whether name names dot (".git") on some file system:
// in any case, on NTFS with trailing dots or spaces, an alternate data
// stream or the 8.3 short name, on HFS+ with the characters it ignores.
func isDotName(name, dot, short string) bool {
	lower := strings.ToLower(name)
	if lower == dot {
		return true
	}
	ntfs := lower
	if i := strings.IndexByte(ntfs, ':'); i >= 0 {
		ntfs = ntfs[:i]
	}
	if ntfs = strings.TrimRight(ntfs, ". "); ntfs == dot || ntfs == short {
		return true
	}
	return strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		return r
	}, lower) == dot
}

// hfsIgnored are the code points HFS+ drops when it compares names (git's
// is_hfs_dotgit list).
func hfsIgnored(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// incoming checks the trees of incoming commits against head's, so only
// what the remote adds or changes is read; each changed tree is read once.
type incoming struct {
	r       *Repo
	maxFile int64
	// maxPath is the longest repository path this machine can write: the
	// file system's limit counts the worktree's own folder, the NUL, and
	// the temp name a write goes through first (vault.TempPrefix and a
	// uint64 in base 36, in place of the file's or a new folder's name).
	maxPath int
	done    map[string]bool // dir + "\x00" + tree hash, checked
}

// checkIncoming checks every commit that tip has and have lacks (a sync's
// head and the remote's, or the other way round for what it would push),
// oldest first, against have's trees, and refuses the whole of tip at the
// first bad entry.
func (r *Repo) checkIncoming(have, tip gitrepo.Hash, url string) error {
	sp, err := r.newCommits(have, tip)
	if err != nil {
		return err
	}
	return r.checkSpan(sp, url)
}

// checkSpan is checkIncoming of the commits newCommits listed.
func (r *Repo) checkSpan(sp span, url string) error {
	if len(sp.commits) == 0 {
		return nil
	}
	return r.checkCommits(sp.commits, sp.ref, true, url)
}

// checkFetched is checkIncoming for what a sync fetched, which must also
// add no secret (what this machine pushes, checkSecrets has read) and no
// memory that lint would fail on here (incomingContent). It returns the
// commits it checked, parents first.
func (r *Repo) checkFetched(have, tip gitrepo.Hash, url string) ([]string, error) {
	sp, err := r.newCommits(have, tip)
	if err != nil || len(sp.commits) == 0 {
		return nil, err
	}
	if err := r.checkCommits(sp.commits, sp.ref, true, url); err != nil {
		return nil, err
	}
	return sp.commits, r.incomingContent(sp.commits, sp.ref, tip, url)
}

// span is what newCommits lists.
type span struct {
	commits []string // the commits tip has and have lacks, parents first
	// rim are the parents of those commits that are not among them:
	// commits of tip's history that have holds.
	rim map[gitrepo.Hash]bool
	ref gitrepo.Hash // have's tree (zero when have is)
}

// newCommits lists the commits tip has and have lacks, parents first,
// their parents as git reads them, and have's tree.
func (r *Repo) newCommits(have, tip gitrepo.Hash) (span, error) {
	var sp span
	if tip.IsZero() || tip == have {
		return sp, nil
	}
	args := []string{"rev-list", "--reverse", "--topo-order", "--parents", tip.String()}
	if !have.IsZero() {
		args = append(args, "--not", have.String())
	}
	out, err := r.env.Git().Run(r.gitDir, args...)
	if err != nil {
		return sp, err
	}
	var parents []string
	for _, line := range strings.Split(out, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			sp.commits = append(sp.commits, f[0])
			parents = append(parents, f[1:]...)
		}
	}
	sp.rim = map[gitrepo.Hash]bool{}
	for _, p := range parents {
		sp.rim[gitrepo.NewHash(p)] = true
	}
	for _, h := range sp.commits {
		delete(sp.rim, gitrepo.NewHash(h))
	}
	if !have.IsZero() {
		hc, err := r.git.Commit(have)
		if err != nil {
			return sp, r.damagedObject("commit", have, "", err)
		}
		sp.ref = hc.TreeHash
	}
	return sp, nil
}

// incomingContent refuses what a remote's commits hold against the
// content rules of spec §8 (the last row), in one pass over the files they
// add. Secrets: a commit that adds one to the vault folder or holds one in
// its message is refused, as checkSecrets refuses to push it: a secret
// never enters this vault from a remote either, and one merged here would
// stop every later backup; every commit counts, as git keeps them all.
// Injection and control characters: a memory file the merge would write
// here — one the commits add or change that the remote's head (tip) still
// holds and this machine's head (whose tree is ref) does not — is refused
// when lint.Content finds an error in it, so what lint fails on here never
// comes in from a remote. Only the head's version counts: a file fixed by
// a later commit is taken (nothing needs rewriting), and one this machine
// already holds is not read again. Each such file is linted as the secrets
// scan reads it, so a blob is read from git once.
func (r *Repo) incomingContent(commits []string, ref, tip gitrepo.Hash, url string) error {
	cc, err := r.newContentCheck(ref, tip)
	if err != nil {
		return r.damaged("the fetched head "+tip.String(), err.Error(), url)
	}
	scanned := map[gitrepo.Hash][]rules.Finding{}
	var found []string
	for _, h := range commits {
		c, err := r.git.Commit(gitrepo.NewHash(h))
		if err != nil {
			return r.damagedObject("commit", gitrepo.NewHash(h), "fetched from "+url, err)
		}
		fs, added, err := r.commitSecrets(c, scanned, cc.memo, url, cc.reader(c.Hash))
		if err != nil {
			return err
		}
		found = append(found, fs...)
		cc.added(c.Hash, added)
	}
	if len(found) > 0 {
		return &RefusedError{fmt.Sprintf("refused %s: commits it sends add secrets:\n  %s\nNothing here changed. Remove the secret from those commits on the remote (rewrite them), revoke the key, then run 'mem sync' again",
			url, listed(found))}
	}
	if found, err = cc.finish(); err != nil {
		return r.damaged("a fetched blob", err.Error(), url)
	}
	if len(found) == 0 {
		return nil
	}
	return &RefusedError{fmt.Sprintf("refused %s: files it sends break the content rules ('mem lint' fails on them):\n  %s\nNothing here changed. Fix or delete those files on the machine that wrote them ('mem lint' there names the same lines; a hand-written file is committed and sent as it is) and sync there; a new commit is enough, the history need not be rewritten. Then run 'mem sync' here again",
		url, listed(found))}
}

// contentCheck lints, with lint.Content, the memory files that bringing a
// head (tip) onto a tree (ref) writes: those tip holds and ref does not.
// It is fed the blobs a walk of the commits between them reads for their
// secrets (reader), so each is read from git once; a file is linted only
// if one of those commits adds it (added), and named with that commit.
type contentCheck struct {
	r        *Repo
	memo     *rules.Memo                // lint.Content recalls the secret scans of the files it reads again
	written  map[addedBlob]int          // the files, by their place in the diff
	by       map[addedBlob]gitrepo.Hash // the commit adding each, the first one given
	linted   map[addedBlob]bool
	problems [][]string // lint's errors, by the file's place in the diff
}

// newContentCheck lists the memory files tip (a commit) writes over the
// tree ref (zero: none).
func (r *Repo) newContentCheck(ref, tip gitrepo.Hash) (*contentCheck, error) {
	tc, err := r.git.Commit(tip)
	if err != nil {
		return nil, err
	}
	changes, err := r.git.Diff(ref, tc.TreeHash, r.prefix)
	if err != nil {
		return nil, err
	}
	cc := &contentCheck{r: r, memo: rules.NewMemo(), written: map[addedBlob]int{}, by: map[addedBlob]gitrepo.Hash{},
		linted: map[addedBlob]bool{}, problems: make([][]string, len(changes))}
	for i, ch := range changes {
		if !ch.Deleted() && r.isMemoryPath(ch.Path) {
			cc.written[addedBlob{path: ch.Path, hash: ch.New}] = i
		}
	}
	return cc, nil
}

// reader lints each file commit c adds that the check lists, as its blob
// is read (commitSecrets' read).
func (cc *contentCheck) reader(c gitrepo.Hash) func(addedBlob, []byte) {
	return func(a addedBlob, data []byte) {
		if _, ok := cc.written[a]; ok && !cc.linted[a] {
			cc.lint(c, a, data)
		}
	}
}

// added records the files commit c adds.
func (cc *contentCheck) added(c gitrepo.Hash, added []addedBlob) {
	for _, a := range added {
		if _, ok := cc.by[a]; !ok {
			cc.by[a] = c
		}
	}
}

// lint records lint.Content's errors in the file a, whose content is
// data, as added by commit c.
func (cc *contentCheck) lint(c gitrepo.Hash, a addedBlob, data []byte) {
	cc.linted[a] = true
	rel, _ := cc.r.vaultRel(a.path)
	i := cc.written[a]
	for _, p := range lint.Content(cc.r.v.Parsed(rel, data), cc.memo) {
		if p.Severity == lint.Error {
			cc.problems[i] = append(cc.problems[i], fmt.Sprintf("commit %s adds %s:%d: %s: %s", short(c), quotePath(a.path), p.Line, p.Rule, p.Message))
		}
	}
}

// finish lints the files added whose blob the walk had read under another
// name first (and did not keep), and returns every problem, in path order.
func (cc *contentCheck) finish() ([]string, error) {
	for a := range cc.written {
		c, ok := cc.by[a]
		if !ok || cc.linted[a] {
			continue
		}
		data, err := cc.r.blob(a.hash)
		if err != nil {
			return nil, fmt.Errorf("blob %s at %s: %w", short(a.hash), quotePath(a.path), err)
		}
		cc.lint(c, a, data)
	}
	var out []string
	for _, ps := range cc.problems {
		out = append(out, ps...)
	}
	return out, nil
}

// isMemoryPath reports a repository path the loader reads as a memory or
// note of this vault.
func (r *Repo) isMemoryPath(p string) bool {
	rel, ok := r.vaultRel(p)
	return ok && r.v.IsMemoryPath(rel)
}

// maxPath is the longest repository path this machine can write (see
// incoming.maxPath).
func (r *Repo) maxPath() int {
	return maxPathBytes - len(r.top) - len("/") - len("\x00") - len(vault.TempPrefix) - len(strconv.FormatUint(math.MaxUint64, 36))
}

// checkCommits checks the trees of commits against the tree ref. With
// chain, commits come parents first (rev-list --reverse) and each is
// checked against its first parent's tree instead, which was checked just
// before or is have's: a long history costs what it changes, not its
// length times the vault.
func (r *Repo) checkCommits(commits []string, ref gitrepo.Hash, chain bool, url string) error {
	in := &incoming{r: r, maxFile: r.v.Config.Lint.MaxFileSize, done: map[string]bool{}, maxPath: r.maxPath()}
	for _, h := range commits {
		c, err := r.git.Commit(gitrepo.NewHash(h))
		if err != nil {
			return r.damagedObject("commit", gitrepo.NewHash(h), "fetched from "+url, err)
		}
		against := ref
		if chain && len(c.ParentHashes) > 0 {
			if pc, err := r.git.Commit(c.ParentHashes[0]); err == nil {
				against = pc.TreeHash
			}
		}
		p, rule, why, err := in.tree(c.TreeHash, against, "")
		if err != nil {
			return err
		}
		if rule != "" {
			return &IncomingError{URL: url, Commit: h, Path: p, Rule: rule, Why: why}
		}
	}
	return nil
}

// tree checks tree h at dir against ref, the same folder in head (zero:
// none), and returns the first bad path and its rule.
func (in *incoming) tree(h, ref gitrepo.Hash, dir string) (p, rule, why string, err error) {
	key := dir + "\x00" + h.String()
	if h == ref || in.done[key] {
		return "", "", "", nil
	}
	t, err := in.r.git.Tree(h)
	if err != nil {
		return "", "", "", in.r.damagedObject("tree", h, "fetched, at "+quotePath(dir), err)
	}
	known := in.entries(ref)
	seen := make(map[string]bool, len(t.Entries))
	for _, e := range t.Entries {
		p := join(dir, e.Name)
		if p, rule, why := entryName(e.Name, p, seen, in.maxPath); rule != "" {
			return p, rule, why, nil
		}
		old, had := known[e.Name]
		if had && old.Hash == e.Hash && old.Mode == e.Mode {
			continue // as head has it
		}
		if p, rule, why, err := in.entry(e, p, old, had); err != nil || rule != "" {
			return p, rule, why, err
		}
	}
	in.done[key] = true
	return "", "", "", nil
}

// entries are the entries of head's tree ref by name (none when ref is
// zero or unreadable).
func (in *incoming) entries(ref gitrepo.Hash) map[string]gitrepo.TreeEntry {
	known := map[string]gitrepo.TreeEntry{}
	if !ref.IsZero() {
		if rt, err := in.r.git.Tree(ref); err == nil {
			for _, e := range rt.Entries {
				known[e.Name] = e
			}
		}
	}
	return known
}

// entryName checks the name of the entry at p: one mem writes, listed
// once in its folder (seen), in a path a file system takes.
func entryName(name, p string, seen map[string]bool, maxPath int) (string, string, string) {
	if rule, why := nameRule(name); rule != "" {
		return p, rule, why
	}
	if seen[name] {
		return p, "duplicate-name", "the folder lists this name twice"
	}
	seen[name] = true
	if len(p) > maxPath {
		return p[:64] + "…", "path-too-long", fmt.Sprintf("a path of %d bytes, over the %d a file system takes in this vault's folder (%d with the folder and a temp name)", len(p), max(maxPath, 0), maxPathBytes)
	}
	return "", "", ""
}

// entry checks entry e at p, which head has as old (when had) or not at
// all: a folder is walked, a file's size checked, anything else refused.
func (in *incoming) entry(e gitrepo.TreeEntry, p string, old gitrepo.TreeEntry, had bool) (string, string, string, error) {
	switch e.Mode {
	case gitrepo.Dir:
		sub := gitrepo.ZeroHash
		if had && old.Mode == gitrepo.Dir {
			sub = old.Hash
		}
		return in.tree(e.Hash, sub, p)
	case gitrepo.Regular, gitrepo.Executable:
		return in.fileSize(e.Hash, p)
	case gitrepo.Symlink:
		return p, "symlink", "a symbolic link: mem never writes a link a remote sends (it could point anywhere)", nil
	case gitrepo.Submodule:
		return p, "gitlink", "a submodule entry: mem never checks out another repository a remote names", nil
	default:
		return p, "bad-mode", fmt.Sprintf("mode %o is none git writes for a file or folder", uint32(e.Mode)), nil
	}
}

// fileSize checks that blob h, a file at p, is within the limit: the
// vault's lint.max_file_size for a memory, 100 MiB for any other file.
func (in *incoming) fileSize(h gitrepo.Hash, p string) (string, string, string, error) {
	size, err := in.r.git.ObjectSize(h)
	if err != nil {
		return "", "", "", in.r.damagedObject("blob", h, "fetched, at "+quotePath(p), err)
	}
	limit, what := int64(maxOtherFile), "the 100 MiB mem takes for a file outside the memories"
	if in.r.isMemoryPath(p) {
		limit, what = in.maxFile, "lint.max_file_size in this machine's mem.yaml"
	}
	if size > limit {
		return p, "file-too-large", fmt.Sprintf("%d bytes, over %d (%s)", size, limit, what), nil
	}
	return "", "", "", nil
}

// fetchFsck makes git check every object a fetch receives as 'git fsck
// --strict' does (broken objects, '.git', '..' and '/' in tree names,
// odd modes): a refused pack is dropped, so nothing of it is kept.
var fetchFsck = []string{"-c", "fetch.fsckObjects=true", "-c", "transfer.fsckObjects=true"}

// fsckRefused reports a fetch that git's object check stopped.
func fsckRefused(stderr string) bool {
	return strings.Contains(stderr, "fsck error") || strings.Contains(stderr, "error: object ") || strings.Contains(stderr, "empty filename in tree entry")
}

// diagnose names the commit and path of a fetch git's fsck refused: the
// branch is fetched again, unchecked, into a throwaway repository, its
// whole history checked there, and the repository removed. Nothing reaches
// the vault's object store.
func (r *Repo) diagnose(url string, branch gitrepo.RefName, stderr string) error {
	refused := &RefusedError{fmt.Sprintf("refused %s: git's object check (fsck) refuses what it sent (git: %s); nothing here changed: repair or remove the bad commits on the remote, then run 'mem sync' again",
		url, strings.Join(strings.Fields(stderr), " "))}
	tmp, err := os.MkdirTemp("", "mem-sync-check-")
	if err != nil {
		return refused
	}
	defer os.RemoveAll(tmp)
	if _, err := r.env.Git().Run("", "init", "--quiet", "--bare", tmp); err != nil {
		return refused
	}
	if _, err := r.env.Git().Run(tmp, "fetch", "--quiet", "--no-tags", url, branch.String()); err != nil {
		return refused
	}
	g, err := gitrepo.OpenAt(tmp, r.env.Git())
	if err != nil {
		return refused
	}
	head, err := g.FetchHead()
	if err != nil {
		return refused
	}
	q := *r
	q.git, q.gitDir = g, tmp
	var ie *IncomingError
	if err := q.checkIncoming(gitrepo.ZeroHash, head, url); errors.As(err, &ie) {
		return err
	}
	return refused
}
