package history

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"time"

	sysclock "github.com/mem-md/mem/pkg/clock" // the tests name their fixed time clock
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// SkipError means the commit was skipped on purpose (git is busy); the
// command reports it and exits 0, and the next scheduled run tries again.
type SkipError struct{ Reason string }

func (e *SkipError) Error() string { return "skipped: " + e.Reason }

// Kind: skipped on purpose; the next run does it (exit 0).
func (e *SkipError) Kind() fail.Kind { return fail.Skipped }

func errBusy(reason string) error { return &SkipError{Reason: reason} }

// MassDeleteError refuses a commit or backup that would lose too many
// memories at once.
type MassDeleteError struct {
	Removed, Of int
	// Spoiled counts those of Removed still on disk under a name: emptied,
	// no longer parsing as a memory, or renamed out of the memory set.
	Spoiled int
	// How says what Spoiled counts, when not the default wording.
	How string
	// Which names the memories removed, with how each went, sorted; the
	// message shows the first few.
	Which []string
	Share float64
	What  string
}

func (e *MassDeleteError) Error() string {
	how := ""
	if e.Spoiled > 0 {
		what := e.How
		if what == "" {
			what = "emptied, no longer parsing as a memory, or renamed so mem no longer reads them"
		}
		how = fmt.Sprintf(" (%d of them %s)", e.Spoiled, what)
	}
	if len(e.Which) > 0 {
		const shown = 5
		how += ": " + strings.Join(e.Which[:min(shown, len(e.Which))], ", ")
		if len(e.Which) > shown {
			how += fmt.Sprintf(" and %d more", len(e.Which)-shown)
		}
	}
	return fmt.Sprintf("%s would remove %d of %d memories%s (%.0f%%), over the %.0f%% limit (lint.mass_delete_share in mem.yaml): check what changed them; if it is intended, rerun with --allow-mass-delete",
		e.What, e.Removed, e.Of, how, 100*float64(e.Removed)/float64(e.Of), 100*e.Share)
}

// Kind: too many memories would go at once (exit 1).
func (e *MassDeleteError) Kind() fail.Kind { return fail.Check }

// CommitOptions tune Commit.
type CommitOptions struct {
	Message         string    // subject overriding the generated one
	AllowMassDelete bool      // commit even when many memories disappear
	Now             time.Time // author and committer time
	Env             Env       // the process's environment and deadlines (read by the package function Commit)
	// written are the files a sync's merge just wrote (refreshIndex):
	// those still as written are not read again.
	written map[string]writtenFile
}

// CommitResult says what Commit did. Commit is empty when nothing changed.
type CommitResult struct {
	Commit   string   `json:"commit"`
	Parent   string   `json:"parent,omitempty"`
	Branch   string   `json:"branch"`
	Subject  string   `json:"subject,omitempty"`
	Added    int      `json:"added"`
	Modified int      `json:"modified"`
	Deleted  int      `json:"deleted"`
	Renamed  int      `json:"renamed"`
	Files    int      `json:"files"`    // files of the vault at the new head
	Memories int      `json:"memories"` // markdown files among them (memories and notes: what the loader reads)
	Read     int      `json:"read"`     // files read this run (the rest matched the index)
	Changes  []Change `json:"changes"`
	Warnings []string `json:"warnings,omitempty"`
	// Secrets are the files left out because they hold a secret; the CLI
	// names each and exits 1 once the rest is committed.
	Secrets []SecretFile `json:"secrets,omitempty"`
}

// Commit commits every change of the vault folder: see the package doc and
// docs/history.md for what is included and how it stays safe next to git.
func Commit(v *vault.Vault, opts CommitOptions) (*CommitResult, error) {
	r, err := Open(v, opts.Env)
	if err != nil {
		return nil, err
	}
	return r.Commit(opts)
}

// Commit is the method form of the package function Commit.
func (r *Repo) Commit(opts CommitOptions) (*CommitResult, error) {
	if opts.Now.IsZero() {
		opts.Now = sysclock.Now()
	}
	unlock, err := r.lockCommit()
	if err != nil {
		return nil, err
	}
	defer unlock()
	defer r.waitObjects() // no tree write outlives the commit, whichever way it ends
	cleared, err := r.clearForCommit()
	if err != nil {
		return nil, err
	}
	lock, err := r.lockIndex()
	if err != nil {
		return nil, err
	}
	defer r.forgetLocks() // runs after the release below: the locks are gone first
	defer lock.release()
	if why, p := r.busy(); why != "" && p != lock.Path() {
		return nil, skipFor(r.v, p, why) // a merge started between the two checks
	}

	r.objs = r.git.NewObjects()
	d, err := r.draft(opts.written)
	if err != nil {
		return nil, err
	}
	res := d.result(r, cleared)
	if res.Changes, err = r.changes(d); err != nil {
		return nil, err
	}
	res.Files, res.Memories = countFiles(r.v, d.s.files, r)
	if len(res.Changes) == 0 {
		if d.indexCurrent(r) {
			return res, nil // the index already says exactly this
		}
		if err := r.objs.Wait(); err != nil { // the index is to name these trees
			return nil, err
		}
		return res, lock.write(r, d.base, d.s, d.node) // refresh stat data (and cached trees) so the next run reads nothing
	}
	sum := summarise(r, d.s, res.Changes)
	res.Added, res.Modified, res.Deleted, res.Renamed = sum.added, sum.modified, sum.deleted, sum.renamed
	if err := r.guardMassDelete(sum, res.Memories, opts); err != nil {
		return nil, err
	}
	if err := r.record(d, sum, res, opts); err != nil {
		return nil, err
	}
	if err := lock.write(r, d.base, d.s, d.node); err != nil {
		res.Warnings = append(res.Warnings, err.Error())
	}
	return res, nil
}

// waitObjects waits for the object writes still running, if any.
func (r *Repo) waitObjects() {
	if r.objs != nil {
		r.objs.Wait()
	}
}

// clearForCommit removes the locks a killed mem commit left (returning
// their paths) and skips while git is busy (a merge, a rebase, a sync's
// merge being applied).
func (r *Repo) clearForCommit() ([]string, error) {
	cleared, err := r.clearStaleLocks()
	if err != nil {
		return nil, err
	}
	if why, p := r.busy(); why != "" {
		return nil, skipFor(r.v, p, why)
	}
	return cleared, nil
}

// commitDraft is a commit in the making: the branch and its head, the
// baseline the worktree was compared against, the scan, and the vault's
// new tree.
type commitDraft struct {
	branch    gitrepo.RefName
	parent    gitrepo.Hash    // zero on an unborn branch
	head      *gitrepo.Commit // nil on an unborn branch
	base      *baseline
	s         *scanner
	node      *dirNode
	vaultHash gitrepo.Hash
}

// draft reads HEAD and the baseline, scans the worktree (written: the
// files a sync's merge just wrote) and writes the vault's tree.
func (r *Repo) draft(written map[string]writtenFile) (*commitDraft, error) {
	d := &commitDraft{}
	var err error
	if d.branch, d.parent, err = r.git.Head(); err != nil {
		return nil, err
	}
	if !d.parent.IsZero() {
		if d.head, err = r.git.Commit(d.parent); err != nil {
			return nil, r.damagedObject("commit", d.parent, "HEAD", err)
		}
	}
	if d.base, err = r.readBaseline(d.head); err != nil {
		return nil, err
	}
	if _, err := r.loadHeld(true); err != nil { // an edited file is no longer held
		return nil, err
	}
	if d.s, err = r.scan(d.base, written); err != nil {
		return nil, err
	}
	d.node = r.buildVault(d.s.files)
	if d.vaultHash, err = r.writeTree(d.node, r.prefix, d.s.reusable()); err != nil {
		return nil, err
	}
	return d, nil
}

// result starts the CommitResult: the branch and its head, what was read
// and left out, and the scan's warnings (cleared: the stale locks removed
// first).
func (d *commitDraft) result(r *Repo, cleared []string) *CommitResult {
	res := &CommitResult{Branch: d.branch.Short(), Read: d.s.hashed, Secrets: d.s.secret}
	if d.head != nil {
		res.Parent = d.head.Hash.String()
	}
	for _, p := range cleared {
		res.Warnings = append(res.Warnings, fmt.Sprintf("removed %s, left by a mem commit that was killed", p))
	}
	if d.base.warn != "" {
		res.Warnings = append(res.Warnings, d.base.warn)
	}
	for _, o := range d.s.oversized {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %d bytes, over lint.max_file_size (%d): left out of this commit, as mem leaves it unread; split it, move it out of the vault, or raise lint.max_file_size in mem.yaml",
			o.path, o.size, r.v.Config.Lint.MaxFileSize))
	}
	res.Warnings = append(res.Warnings, d.s.unread...)
	return res
}

// changes lists what the draft changes in the vault against HEAD, renames
// paired: from the index when its cached tree is HEAD's vault (no tree is
// read), else by diffing the trees.
func (r *Repo) changes(d *commitDraft) ([]Change, error) {
	var oldVault *gitrepo.Tree
	if d.head != nil {
		var err error
		if oldVault, err = r.vaultTree(d.head); err != nil {
			return nil, r.damagedObject("tree", d.head.TreeHash, "HEAD, on the way to the vault folder "+r.prefix, err)
		}
	}
	var chs []Change
	if oldVault != nil && d.base.index != nil && d.base.trees[r.prefix] == oldVault.Hash {
		chs = r.diffIndex(d.base, d.s.files)
	} else if err := r.diff(oldVault, d.node, "", &chs); err != nil {
		return nil, err
	}
	return pairRenames(chs), nil
}

// indexCurrent reports a draft that changes nothing of which the git index
// already says exactly this: no file was read, none went, and its cached
// tree is the vault's.
func (d *commitDraft) indexCurrent(r *Repo) bool {
	return d.s.hashed == 0 && d.base.vaultEntries(r) == len(d.s.files) && (r.prefix != "" || d.base.trees[""] == d.vaultHash)
}

// guardMassDelete refuses a commit that removes too many of the memories
// (memories: how many the commit leaves), unless opts allow it.
func (r *Repo) guardMassDelete(sum summary, memories int, opts CommitOptions) error {
	removed := sum.removedMemories()
	if removed == 0 || opts.AllowMassDelete {
		return nil
	}
	before := memories + sum.deletedMemories - sum.addedMemories
	if !r.v.Config.Lint.IsMassDeletion(removed, before) {
		return nil
	}
	return &MassDeleteError{Removed: removed, Spoiled: sum.renamedOut + sum.broken, Of: before, Share: r.v.Config.Lint.MassDeleteShare, What: "this commit"}
}

// record writes the commit of the draft (its message from sum, or opts'
// subject, secrets redacted), makes its objects durable and moves the
// branch to it, filling res's subject and commit.
func (r *Repo) record(d *commitDraft, sum summary, res *CommitResult, opts CommitOptions) error {
	var headRoot *gitrepo.Tree
	if d.head != nil {
		var err error
		if headRoot, err = r.tree(d.head.TreeHash, "HEAD's root"); err != nil {
			return err
		}
	}
	rootHash, err := r.splice(headRoot, d.vaultHash)
	if err != nil {
		return err
	}
	res.Subject = sum.subject()
	if opts.Message != "" {
		res.Subject = strings.TrimSpace(opts.Message)
	}
	redactChanges(res.Changes)
	body := sum.body(res.Changes)
	res.Subject, body = redactLines(res.Subject), redactLines(body)
	author, err := r.author(opts.Now)
	if err != nil {
		return err
	}
	c := &gitrepo.Commit{
		Author: author, Committer: r.committer(author),
		Message: res.Subject + "\n\n" + body, TreeHash: rootHash,
	}
	reflog := "commit (initial): " + res.Subject
	if d.head != nil {
		c.ParentHashes = []gitrepo.Hash{d.head.Hash}
		reflog = "commit: " + res.Subject
	}
	data, err := gitrepo.EncodeCommit(c)
	if err != nil {
		return err
	}
	ch, err := r.objs.Write(gitrepo.CommitObject, data)
	if err != nil {
		return err
	}
	if err := r.objs.Sync(); err != nil {
		return fmt.Errorf("%s: sync objects: %w", r.gitDir, err)
	}
	if err := r.updateRef(d.branch, d.parent, ch, author, reflog); err != nil {
		return err
	}
	res.Commit = ch.String()
	return nil
}

// countFiles counts the vault's files and, among them, the memory files
// (markdown that the vault loader reads).
func countFiles(v *vault.Vault, files []*file, r *Repo) (all, memories int) {
	for _, f := range files {
		rel, ok := r.vaultRel(f.path)
		if !ok {
			continue
		}
		all++
		if v.IsMemoryPath(rel) {
			memories++
		}
	}
	return all, memories
}

// author is mem.yaml's author, else $GIT_AUTHOR_NAME/EMAIL, else git's
// user.name/email (repository, global and system config, found through
// the Env's HOME and GIT_CONFIG_* as git finds them).
func (r *Repo) author(now time.Time) (gitrepo.Signature, error) {
	sig := gitrepo.Signature{Name: r.v.Config.Author.Name, Email: r.v.Config.Author.Email, When: now}
	if sig.Name == "" {
		sig.Name = r.env.getenv("GIT_AUTHOR_NAME")
	}
	if sig.Email == "" {
		sig.Email = r.env.getenv("GIT_AUTHOR_EMAIL")
	}
	if sig.Name == "" || sig.Email == "" {
		name, email := r.git.User(r.env.getenv)
		if sig.Name == "" {
			sig.Name = name
		}
		if sig.Email == "" {
			sig.Email = email
		}
	}
	if sig.Name == "" || sig.Email == "" {
		return sig, fmt.Errorf("%s: no commit author: set author.name and author.email in mem.yaml, or 'git config --global user.name/user.email'", filepath.Join(r.v.Root, vault.ConfigFile))
	}
	return sig, nil
}

// committer honours $GIT_COMMITTER_NAME/EMAIL as git does, else the author.
func (r *Repo) committer(a gitrepo.Signature) gitrepo.Signature {
	c := a
	if n := r.env.getenv("GIT_COMMITTER_NAME"); n != "" {
		c.Name = n
	}
	if e := r.env.getenv("GIT_COMMITTER_EMAIL"); e != "" {
		c.Email = e
	}
	return c
}

// summary counts a commit's changes by status, memory type and project.
type summary struct {
	added, modified, deleted, renamed int
	// deletedMemories counts memories deleted or renamed out of the
	// memory set (renamedOut of them); broken, the memories modified into
	// a file that no longer parses.
	addedMemories, deletedMemories, renamedOut, broken int
	types                                              map[string]int
	projects                                           map[string][4]int // +A ~M -D >R
}

func summarise(r *Repo, s *scanner, chs []Change) summary {
	sum := summary{types: map[string]int{}, projects: map[string][4]int{}}
	for _, c := range chs {
		slot := sum.countStatus(c.Status)
		isMem := r.v.IsMemoryPath(c.Path)
		if c.Status == "R" {
			sum.countRename(r.v.IsMemoryPath(c.From), isMem)
		}
		if isMem {
			sum.countMemory(r, s, c, slot)
		}
	}
	return sum
}

// countStatus counts a change by its status and returns its slot in the
// per-project counts (+A ~M -D >R).
func (sum *summary) countStatus(status string) int {
	switch status {
	case "A":
		sum.added++
	case "M":
		sum.modified++
		return 1
	case "D":
		sum.deleted++
		return 2
	case "R":
		sum.renamed++
		return 3
	}
	return 0
}

// countRename counts a rename into or out of the memory set (a.md ->
// a.md.bak) as a memory added or removed.
func (sum *summary) countRename(was, is bool) {
	switch {
	case was && !is:
		sum.deletedMemories++
		sum.renamedOut++
	case !was && is:
		sum.addedMemories++
	}
}

// countMemory counts a change of a memory file: added, deleted or broken,
// by type and by project.
func (sum *summary) countMemory(r *Repo, s *scanner, c Change, slot int) {
	switch c.Status {
	case "A":
		sum.addedMemories++
	case "D":
		sum.deletedMemories++
	}
	h := c.New
	if c.Status == "D" {
		h = c.Old
	}
	m := r.describe(s, h)
	if c.Status == "M" && m.noMemory() && !r.describe(s, c.Old).noMemory() {
		// Emptied or overwritten so it no longer parses: the memory is
		// as lost as if it had been deleted (issue 17).
		sum.broken++
	}
	sum.types[m.typ]++
	project := m.project
	if project == "" {
		project = "global"
	}
	p := sum.projects[project]
	p[slot]++
	sum.projects[project] = p
}

// describe reads a memory's type and project (noted when this run read
// the file, else read back from the object store).
func (r *Repo) describe(s *scanner, h gitrepo.Hash) memMeta {
	if m, ok := s.meta[h]; ok {
		return m
	}
	data, err := r.blob(h)
	if err != nil {
		return memMeta{typ: "unreadable"}
	}
	return parseMeta(data)
}

func parseMeta(data []byte) memMeta {
	doc, err := vault.ParseFile(data)
	if fe, ok := err.(*frontmatter.Error); ok && fe.Rule == "frontmatter-missing" && len(bytes.TrimSpace(data)) > 0 {
		// No frontmatter is a plain note (spec §2), OKF's index.md and
		// log.md among them: not broken. An emptied file stays broken.
		return memMeta{typ: frontmatter.TypeNote, plain: true}
	}
	if err != nil || doc == nil {
		return memMeta{typ: brokenType}
	}
	// Cloned: the parser's strings point into one string of the whole file,
	// which a first commit of 50,000 memories would otherwise keep (43 MB).
	return memMeta{typ: strings.Clone(frontmatter.EffectiveType(doc.Meta.Type)), project: strings.Clone(doc.Meta.Project)}
}

// redactChanges hides secrets in the paths of deletions and renames (the
// paths of files read this run were scanned already: a name holding a
// secret left its file out), for the message and the --json output.
func redactChanges(chs []Change) {
	for i, c := range chs {
		switch c.Status {
		case "D":
			chs[i].Path = rules.RedactPath(c.Path)
		case "R":
			chs[i].From = rules.RedactPath(c.From)
		}
	}
}

// redactLines replaces every line of a commit message that holds a secret
// (a -m subject, a project name) with "[redacted: rule]": history keeps
// messages for good and a backup pushes them.
func redactLines(msg string) string {
	if len(rules.Secrets(msg)) == 0 {
		return msg
	}
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		if found := rules.Secrets(l); len(found) > 0 {
			lines[i] = rules.Redaction(found[0].Rule)
		}
	}
	return strings.Join(lines, "\n")
}

// brokenType is the "type" of a memory file that does not parse.
const brokenType = "broken"

// noMemory reports a file that holds no memory: it does not parse, or it
// is a plain note. A memory turned into one is lost (the mass-delete guard).
func (m memMeta) noMemory() bool { return m.typ == brokenType || m.plain }

// removedMemories is what the mass-delete guard counts: memories deleted,
// renamed out of the memory set, or left unparseable.
func (s summary) removedMemories() int { return s.deletedMemories + s.broken }

// maxSubjectTypes keeps the subject line short; the rest become "…".
const maxSubjectTypes = 4

func (s summary) subject() string {
	subj := fmt.Sprintf("memory: +%d ~%d -%d", s.added, s.modified+s.renamed, s.deleted)
	type kv struct {
		k string
		n int
	}
	var ts []kv
	for k, n := range s.types {
		ts = append(ts, kv{k, n})
	}
	sort.Slice(ts, func(i, j int) bool { return ts[i].n > ts[j].n || ts[i].n == ts[j].n && ts[i].k < ts[j].k })
	var parts []string
	for i, t := range ts {
		if i == maxSubjectTypes {
			parts = append(parts, "…")
			break
		}
		parts = append(parts, fmt.Sprintf("%s %d", t.k, t.n))
	}
	if len(parts) > 0 {
		subj += " (" + strings.Join(parts, ", ") + ")"
	}
	return subj
}

// maxBodyPaths caps the path list in a commit body (a first commit of a
// large vault would otherwise carry every path).
const maxBodyPaths = 200

func (s summary) body(chs []Change) string {
	var b strings.Builder
	var names []string
	for p := range s.projects {
		names = append(names, p)
	}
	sort.Strings(names)
	for _, p := range names {
		c := s.projects[p]
		fmt.Fprintf(&b, "%s: +%d ~%d -%d\n", p, c[0], c[1]+c[3], c[2])
	}
	if len(names) > 0 {
		b.WriteByte('\n')
	}
	for i, c := range chs {
		if i == maxBodyPaths {
			fmt.Fprintf(&b, "… and %d more\n", len(chs)-i)
			break
		}
		if c.Status == "R" {
			fmt.Fprintf(&b, "R %s -> %s\n", c.From, c.Path)
		} else {
			fmt.Fprintf(&b, "%s %s\n", c.Status, c.Path)
		}
	}
	return b.String()
}

// blob reads an object's content.
func (r *Repo) blob(h gitrepo.Hash) ([]byte, error) { return r.git.Blob(h) }

// indexLock is git's index.lock, held for the whole commit so no git
// command changes the index underneath mem.
type indexLock struct{ *gitrepo.IndexLock }

func (r *Repo) lockIndex() (indexLock, error) {
	l, err := r.locks.Index()
	var held *gitrepo.LockHeldError
	if errors.As(err, &held) {
		p := held.Path
		return indexLock{}, skipFor(r.v, p, fmt.Sprintf("%s exists: another git process holds the index lock (if none is running, it crashed: remove %s)", p, p))
	}
	return indexLock{l}, err
}

func (l indexLock) release() { l.Release() }

// write replaces .git/index: entries outside the vault unchanged, the
// vault's entries as committed, with fresh stat data. When the vault is the
// whole worktree the index also caches every folder's tree (node), as git
// commit does, so the next run re-hashes only folders that changed. An
// index that could not be read is rebuilt when the vault is the whole
// worktree, else left alone (see readBaseline).
func (l indexLock) write(r *Repo, base *baseline, s *scanner, node *dirNode) error {
	if base.index == nil && base.warn != "" && r.prefix != "" {
		return nil
	}
	var ents []*gitrepo.IndexEntry
	if base.index != nil {
		for _, e := range base.index.Entries {
			if _, in := r.vaultRel(e.Name); !in {
				ents = append(ents, e)
			}
		}
	}
	var tree *gitrepo.CacheTree
	if r.prefix == "" && !node.hash.IsZero() {
		tree = cacheTree("", node)
	}
	for _, f := range s.files {
		ents = append(ents, f.entry)
		if f.entry.IntentToAdd {
			tree = nil // git leaves such entries out of its trees; do not guess
		}
	}
	sort.SliceStable(ents, func(i, j int) bool { return ents[i].Name < ents[j].Name })
	return l.Write(ents, tree)
}
