package history

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/gitrepo/ignore"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// file is one path of the vault as it goes into the next commit.
type file struct {
	path  string // repository-relative, slash-separated
	mode  gitrepo.Mode
	hash  gitrepo.Hash
	entry *gitrepo.IndexEntry // what the git index records for it
	// Set by a scan worker for a file read this run:
	abs  string
	read bool // read, hashed and stored
	gone bool // removed before it could be read: a deletion
	// unreadable is why a file on disk could not be read: it is left out
	// and a tracked one keeps its committed version.
	unreadable error
	meta       *memMeta     // a memory's type and project, for the message
	secret     []SecretFile // what the scan found in its name or content (no Path yet): left out
}

// memMeta is what the commit message says about a memory; plain marks a
// file without frontmatter (a plain note, spec §2: an OKF index.md).
type memMeta struct {
	typ, project string
	plain        bool
}

// baseline is what mem compares the worktree against: git's index when it
// can be read (its size and mtime let unchanged files go unread, as git
// itself does), else the HEAD tree (every file is then read once).
type baseline struct {
	entries map[string]*gitrepo.IndexEntry // repository path → stage-0 entry
	trees   map[string]gitrepo.Hash        // the index's valid cached trees by folder
	dirs    map[string]bool                // directories holding tracked paths
	written time.Time                      // the index file's mtime (racy-git guard)
	index   *gitrepo.Index                 // nil when the index was unreadable or absent
	warn    string                         // why the index could not be used
	git     *gitrepo.Repo
	head    gitrepo.Hash // HEAD's root tree (zero: unborn)
}

// committed is p's entry in the baseline, else in HEAD's tree (the index
// may lack a file HEAD has: a sync's merge moves HEAD before the index
// catches up), nil when neither has it.
func (b *baseline) committed(p string) *gitrepo.IndexEntry {
	if e := b.entries[p]; e != nil {
		return e
	}
	if b.head.IsZero() {
		return nil
	}
	e, ok, err := b.git.Entry(b.head, p)
	if err != nil || !ok || e.Mode == gitrepo.Dir || e.Mode == gitrepo.Submodule {
		return nil
	}
	return &gitrepo.IndexEntry{Name: p, Hash: e.Hash, Mode: e.Mode}
}

func (r *Repo) readBaseline(head *gitrepo.Commit) (*baseline, error) {
	b := &baseline{entries: map[string]*gitrepo.IndexEntry{}, dirs: map[string]bool{}, git: r.git}
	if head != nil {
		if _, err := r.tree(head.TreeHash, "HEAD's root"); err != nil {
			return nil, err
		}
		b.head = head.TreeHash
	}
	p := filepath.Join(r.gitDir, "index")
	fi, err := os.Stat(p)
	switch {
	case err == nil:
		idx, derr := r.git.ReadIndex()
		if derr != nil {
			// Left as it is, an index naming the old HEAD's files would make
			// the next plain 'git commit' undo this one (issue 17). When the
			// vault is the whole worktree the new index holds every path,
			// so it is written; otherwise it also holds staged work outside
			// the vault, and only git can rebuild the vault's part.
			if r.prefix == "" {
				b.warn = fmt.Sprintf("%s: cannot read the git index (%v); every file is hashed and the index is rebuilt from this commit", p, derr)
			} else {
				b.warn = fmt.Sprintf("%s: cannot read the git index (%v); every file is hashed and the index is left as it is: run 'git reset -q -- %s' afterwards so git sees the vault as committed", p, derr, r.prefix)
			}
			break
		}
		b.index, b.written, b.trees = idx, fi.ModTime(), idx.Trees
		b.entries = make(map[string]*gitrepo.IndexEntry, len(idx.Entries))
		for _, e := range idx.Entries {
			if e.Stage != 0 {
				if _, in := r.vaultRel(e.Name); in {
					return nil, errBusy(fmt.Sprintf("%s: the git index has unresolved conflicts in the vault (%s): resolve them and 'git commit' first", p, e.Name))
				}
				continue
			}
			b.add(e)
		}
		return b, nil
	case !os.IsNotExist(err):
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if head == nil {
		return b, nil
	}
	return b, r.headFiles(b, head.TreeHash, "")
}

// headFiles adds every file of the tree h (at path dir) to the baseline,
// naming a tree that cannot be read and where it sits.
func (r *Repo) headFiles(b *baseline, h gitrepo.Hash, dir string) error {
	where := dir
	if where == "" {
		where = "HEAD's root"
	}
	t, err := r.tree(h, where)
	if err != nil {
		return err
	}
	for _, e := range t.Entries {
		p := join(dir, e.Name)
		switch e.Mode {
		case gitrepo.Dir:
			if err := r.headFiles(b, e.Hash, p); err != nil {
				return err
			}
		case gitrepo.Submodule:
			// not a file: go-git's Files() skipped it too
		default:
			b.add(&gitrepo.IndexEntry{Name: p, Hash: e.Hash, Mode: e.Mode})
		}
	}
	return nil
}

// reusable are the cached trees of the folders in which nothing changed
// since the index was written: no file read this run, none gone, none
// that only HEAD has.
func (s *scanner) reusable() map[string]gitrepo.Hash {
	if len(s.base.trees) == 0 {
		return nil
	}
	dirty := map[string]bool{}
	mark := func(p string) {
		for d := path.Dir(p); !dirty[d]; d = path.Dir(d) {
			dirty[d] = true
			if d == "." {
				break
			}
		}
	}
	for _, f := range s.files {
		// Read, or kept from HEAD (a file left unread): not as the
		// index's trees have it.
		if old := s.base.entries[f.path]; f.read || old == nil || old.Hash != f.hash || old.Mode != f.mode {
			mark(f.path)
		}
	}
	for p := range s.base.entries {
		if !s.seen[p] {
			mark(p)
		}
	}
	reuse := map[string]gitrepo.Hash{}
	for d, h := range s.base.trees {
		key := d
		if key == "" {
			key = "."
		}
		if !dirty[key] {
			reuse[d] = h
		}
	}
	return reuse
}

// vaultEntries counts the baseline's entries inside the vault folder.
func (b *baseline) vaultEntries(r *Repo) int {
	n := 0
	for p := range b.entries {
		if _, in := r.vaultRel(p); in {
			n++
		}
	}
	return n
}

func (b *baseline) add(e *gitrepo.IndexEntry) {
	b.entries[e.Name] = e
	for d := path.Dir(e.Name); d != "." && !b.dirs[d]; d = path.Dir(d) {
		b.dirs[d] = true
	}
}

// scanner walks the vault and produces the file list of the next commit.
// The walk (directory reads and lstats) runs on one goroutine; the files
// that must be read then go to workers that read, hash, compress and store
// them on every core, and nothing is held in memory after its object is
// written.
type scanner struct {
	r       *Repo
	base    *baseline
	files   []*file
	seen    map[string]bool
	skipped map[string]bool // folders holding their own repository
	hashed  int
	meta    map[gitrepo.Hash]memMeta // memories read this run, for the message
	pending []*file                  // files the walk found changed, to read
	// oversized are memory files over lint.max_file_size, left out of the
	// commit (a tracked one keeps its committed version).
	oversized []oversize
	// secret are the files left out, as the oversized are, because their
	// name or content holds a secret (spec §8).
	secret []SecretFile
	// unread say why a file was left out unread (hard-linked, no
	// permission to read it); a tracked one keeps its committed version.
	unread []string
	// written are the files a sync's merge just wrote, by path: one still
	// as written is taken as the merge's blob, unread.
	written map[string]writtenFile
}

type oversize struct {
	path string
	size int64
}

// scan lists every file of the vault the next commit holds.
func (r *Repo) scan(base *baseline, written map[string]writtenFile) (*scanner, error) {
	s := &scanner{r: r, base: base, seen: make(map[string]bool, len(base.entries)), skipped: map[string]bool{}, meta: map[gitrepo.Hash]memMeta{}, written: written}
	pats, err := r.outerPatterns()
	if err != nil {
		return nil, err
	}
	if err := s.walk(r.v.Root, r.prefix, pats); err != nil {
		return nil, err
	}
	if err := s.readPending(); err != nil {
		return nil, err
	}
	kept := s.files[:0]
	for _, f := range s.files {
		switch {
		case f.secret != nil:
			s.leaveOutSecret(f)
			if old := s.base.committed(f.path); old != nil {
				f.mode, f.hash, f.entry = old.Mode, old.Hash, old // the committed version stays
				break
			}
			delete(s.seen, f.path)
			continue
		case f.gone:
			delete(s.seen, f.path)
			continue
		case f.unreadable != nil:
			s.unread = append(s.unread, fmt.Sprintf("%v: left out of this commit (a tracked file keeps its committed version): fix its permissions or add it to .gitignore", f.unreadable))
			if old := s.base.committed(f.path); old != nil {
				f.mode, f.hash, f.entry = old.Mode, old.Hash, old
				break
			}
			delete(s.seen, f.path)
			continue
		case f.read:
			s.hashed++
			if f.meta != nil {
				s.meta[f.hash] = *f.meta
			}
		}
		kept = append(kept, f)
	}
	s.files = kept
	s.keepExcluded()
	slices.SortFunc(s.files, func(a, b *file) int { return strings.Compare(a.path, b.path) })
	return s, nil
}

// packThreshold is how many new files make the scan write one pack
// instead of a loose object each: creating tens of thousands of small files
// (the first commit of a vault) costs more than the compression itself.
const packThreshold = 1000

// readPending reads, hashes and stores the files the walk found changed,
// on every core.
func (s *scanner) readPending() error {
	if len(s.pending) == 0 {
		return nil
	}
	store := s.r.objs.Write
	var pw *gitrepo.Pack
	if len(s.pending) >= packThreshold {
		var err error
		if pw, err = s.r.objs.NewPack(); err != nil {
			return err
		}
		defer pw.Abort() // a no-op once finished
		store = pw.Write
	}
	jobs := make(chan *file, 256)
	var (
		wg    sync.WaitGroup
		mu    sync.Mutex
		first error
	)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte // reused: nothing keeps a file's bytes once stored
			for f := range jobs {
				mu.Lock()
				failed := first != nil
				mu.Unlock()
				if failed {
					continue // drain
				}
				var err error
				if buf, err = s.read(f, store, buf); err != nil {
					mu.Lock()
					if first == nil {
						first = err
					}
					mu.Unlock()
				}
			}
		}()
	}
	for _, f := range s.pending {
		jobs <- f
	}
	close(jobs)
	wg.Wait()
	s.pending = nil
	if first != nil {
		return first
	}
	if pw != nil {
		return pw.Finish()
	}
	return nil
}

// read reads one file from an open descriptor whose fstat is what the new
// index records, stores it as a blob and, for a memory, notes its type and
// project for the message.
func (s *scanner) read(f *file, store func(gitrepo.ObjectType, []byte) (gitrepo.Hash, error), buf []byte) ([]byte, error) {
	data, fi, err := readStable(f.abs, f.mode, buf)
	if errors.Is(err, fs.ErrNotExist) {
		f.gone = true // removed while we walked: it is a deletion
		return buf, nil
	}
	if errors.Is(err, fs.ErrPermission) {
		f.unreadable = err // left out, as the loader leaves it unread
		return buf, nil
	}
	if err != nil {
		return buf, fmt.Errorf("%s: %w (fix its permissions or add it to .gitignore)", f.abs, err)
	}
	rel, _ := s.r.vaultRel(f.path)
	if found := findSecrets(rel, data); found != nil {
		f.secret = found // checked before the blob is stored: no object ever holds it
		return data, nil
	}
	h, err := store(gitrepo.BlobObject, data)
	if err != nil {
		return data, err
	}
	f.hash, f.entry, f.read = h, indexEntry(f.path, h, f.mode, fi), true
	if s.r.v.IsMemoryPath(rel) {
		m := parseMeta(data)
		f.meta = &m
	}
	return data, nil
}

// outerPatterns are the ignore rules that apply above the vault folder:
// .git/info/exclude and every .gitignore from the worktree root down to the
// vault's parent.
func (r *Repo) outerPatterns() (ignore.Patterns, error) {
	ps, err := readIgnore(filepath.Join(r.gitDir, "info", "exclude"), nil)
	if err != nil {
		return nil, err
	}
	dir, domain := r.top, []string(nil)
	if r.prefix != "" {
		for _, c := range strings.Split(r.prefix, "/") {
			more, err := readIgnore(filepath.Join(dir, ".gitignore"), domain)
			if err != nil {
				return nil, err
			}
			ps = append(ps, more...)
			dir, domain = filepath.Join(dir, c), append(append([]string(nil), domain...), c)
		}
	}
	return ps, nil
}

func readIgnore(p string, domain []string) (ignore.Patterns, error) {
	data, err := os.ReadFile(p)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	var lines []string
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lines = append(lines, line)
	}
	return ignore.Parse(lines, domain), nil
}

func splitPath(p string) []string {
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// excluded reports whether mem never commits the vault path rel: machine
// state, mem's own temp files and the rendered views. Such paths keep
// whatever the index already holds for them.
func (r *Repo) excluded(rel string) bool {
	if rel == ".mem" || strings.HasPrefix(rel, ".mem/") || strings.HasPrefix(path.Base(rel), vault.TempPrefix) {
		return true
	}
	return r.v.IsRenderedOutput(rel)
}

func (s *scanner) walk(dir, rel string, pats ignore.Patterns) error {
	ents, err := readDir(dir)
	if err != nil {
		if dir == s.r.v.Root {
			return fmt.Errorf("%s: %w", dir, err)
		}
		return nil // a folder that vanished or cannot be read is skipped, as git does
	}
	if pats, err = withIgnores(dir, rel, ents, pats); err != nil {
		return err
	}
	var files []fs.DirEntry
	for _, e := range ents {
		p := join(rel, e.Name())
		if !e.IsDir() {
			files = append(files, e)
			continue
		}
		abs := filepath.Join(dir, e.Name())
		if !s.enters(abs, p, pats) {
			continue
		}
		if err := s.walk(abs, p, pats); err != nil {
			return err
		}
	}
	for _, c := range s.statFiles(dir, rel, files, pats) {
		if c.p == "" {
			continue // not committed
		}
		if err := s.add(c); err != nil {
			return err
		}
	}
	return nil
}

// withIgnores is pats with the patterns of the .gitignore among ents, the
// entries of dir (rel in the repository), when it has one.
func withIgnores(dir, rel string, ents []fs.DirEntry, pats ignore.Patterns) (ignore.Patterns, error) {
	for _, e := range ents {
		if e.Name() == ".gitignore" && e.Type().IsRegular() {
			more, err := readIgnore(filepath.Join(dir, ".gitignore"), splitPath(rel))
			if err != nil {
				return nil, err
			}
			pats = append(pats[:len(pats):len(pats)], more...)
		}
	}
	return pats, nil
}

// enters says whether the walk goes into the folder abs (p in the
// repository): not .git, not a folder mem.yaml excludes, not a nested
// repository (recorded as skipped), not an ignored folder unless the index
// has files in it.
func (s *scanner) enters(abs, p string, pats ignore.Patterns) bool {
	vrel, _ := s.r.vaultRel(p)
	if filepath.Base(abs) == ".git" || s.r.excluded(vrel) {
		return false
	}
	if _, err := os.Lstat(filepath.Join(abs, ".git")); err == nil {
		s.skipped[p] = true // a nested repository is its own history
		return false
	}
	return !pats.Match(splitPath(p), true) || s.base.dirs[p]
}

// candidate is a folder's file the commit may hold (in folder dir, at
// repository path p), with its lstat and its baseline entry; p is empty for
// one it does not (excluded or ignored).
type candidate struct {
	dir, name, p string
	fi           fs.FileInfo
	err          error
	old          *gitrepo.IndexEntry
}

func (c *candidate) abs() string { return c.dir + string(filepath.Separator) + c.name }

// statFiles decides which of a folder's files the commit may hold and
// lstats those, on every core, as git's preload-index does: at 50,000
// files the lstats, and the ignore matching with them, are most of a
// commit's fixed cost.
func (s *scanner) statFiles(dir, rel string, files []fs.DirEntry, ignored ignore.Patterns) []candidate {
	out := make([]candidate, len(files))
	workers := runtime.GOMAXPROCS(0)
	if len(files) < 256 || workers < 2 {
		workers = 1
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			st := openDirStatter(dir)
			defer st.close()
			for i := w; i < len(files); i += workers {
				e := files[i]
				p := join(rel, e.Name())
				vrel, _ := s.r.vaultRel(p)
				if e.Name() == ".git" || s.r.excluded(vrel) {
					continue
				}
				old := s.base.entries[p] // read only while the walk runs
				if old == nil && ignored.Match(splitPath(p), false) {
					continue
				}
				fi, err := st.lstat(e)
				out[i] = candidate{dir: dir, name: e.Name(), p: p, fi: fi, err: err, old: old}
			}
		})
	}
	wg.Wait()
	return out
}

// readDir lists a folder unsorted (the file list is sorted once at the end).
func readDir(dir string) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// add records one worktree file, reading it only when its size, mtime or
// mode differ from the baseline.
func (s *scanner) add(c candidate) error {
	p, fi, old := c.p, c.fi, c.old
	if errors.Is(c.err, fs.ErrNotExist) {
		return nil // removed while we walked: it is a deletion
	}
	if c.err != nil {
		return fmt.Errorf("%s: %w", c.abs(), c.err)
	}
	var mode gitrepo.Mode
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		mode = gitrepo.Symlink
	case fi.Mode().IsRegular() && fi.Mode()&0o111 != 0:
		mode = gitrepo.Executable
	case fi.Mode().IsRegular():
		mode = gitrepo.Regular
	default:
		return nil // sockets, fifos and devices are not content
	}
	if limit := s.r.v.Config.Lint.MaxFileSize; mode != gitrepo.Symlink && fi.Size() > limit {
		if vrel, ok := s.r.vaultRel(p); ok && s.r.v.IsMemoryPath(vrel) {
			// The loader refuses to read it and lint fails it; committing
			// it anyway would put megabytes in history for good.
			s.oversized = append(s.oversized, oversize{p, fi.Size()})
			s.keepCommitted(p)
			return nil
		}
	}
	if n := links(fi); mode != gitrepo.Symlink && n > 1 {
		// A second name may be a file outside the vault (a key, a
		// config): the loader never reads it, and a commit would push it.
		s.unread = append(s.unread, fmt.Sprintf("%s: the file has %d hard links, so its content may belong to a file outside the vault: left out of this commit, as mem leaves it unread; if it is yours, replace it with a copy (cp F x && mv x F)", c.abs(), n))
		s.keepCommitted(p)
		return nil
	}
	s.seen[p] = true
	if old != nil && s.clean(old, fi, mode) {
		s.files = append(s.files, &file{path: p, mode: mode, hash: old.Hash, entry: old})
		return nil
	}
	if w, ok := s.written[p]; ok {
		// Stat again in full: the index records the inode and ctime.
		if full, err := os.Lstat(c.abs()); err == nil && w.unchanged(full, mode) {
			s.files = append(s.files, &file{path: p, mode: mode, hash: w.hash, entry: indexEntry(p, w.hash, mode, full)})
			return nil
		}
	}
	f := &file{path: p, mode: mode, abs: c.abs()}
	s.files = append(s.files, f)
	s.pending = append(s.pending, f)
	return nil
}

// keepCommitted keeps the committed version of a file on disk that this
// commit does not read (too large, hard-linked, unreadable): a file still on
// disk is never recorded as deleted.
func (s *scanner) keepCommitted(p string) {
	if old := s.base.committed(p); old != nil {
		s.files = append(s.files, &file{path: p, mode: old.Mode, hash: old.Hash, entry: old})
		s.seen[p] = true
	}
}

// clean is git's stat check: same mode, size and mtime, and the mtime is
// older than the index itself (a file changed in the same instant the
// index was written is "racily clean" and must be read).
func (s *scanner) clean(e *gitrepo.IndexEntry, fi fs.FileInfo, mode gitrepo.Mode) bool {
	return s.base.index != nil && e.Mode == mode && !e.IntentToAdd &&
		int64(e.Size) == fi.Size()&0xffffffff && e.ModifiedAt.Equal(fi.ModTime()) &&
		fi.ModTime().Before(s.base.written)
}

// readStable reads a file into buf (grown as needed) and stats the very
// inode it read, so the index records the stat of the content that was
// committed. mem's writers replace files by rename, so the bytes are a
// whole old or new version.
func readStable(abs string, mode gitrepo.Mode, buf []byte) ([]byte, fs.FileInfo, error) {
	if mode == gitrepo.Symlink {
		fi, err := os.Lstat(abs)
		if err != nil {
			return nil, nil, err
		}
		target, err := os.Readlink(abs)
		return []byte(filepath.ToSlash(target)), fi, err
	}
	f, err := os.Open(abs)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if need := int(fi.Size()) + 512; cap(buf) < need {
		buf = make([]byte, 0, need) // room to notice the file growing
	}
	buf = buf[:0]
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := f.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, fi, nil
		}
		if err != nil {
			return nil, nil, err
		}
	}
}

// keepExcluded carries over the tracked paths mem does not manage
// (machine state, rendered views, nested repositories, sparse entries):
// they stay in the commit exactly as the index has them.
func (s *scanner) keepExcluded() {
	for p, e := range s.base.entries {
		vrel, in := s.r.vaultRel(p)
		if !in || s.seen[p] {
			continue
		}
		if e.SkipWorktree || s.r.excluded(vrel) || s.underSkipped(p) {
			s.files = append(s.files, &file{path: p, mode: e.Mode, hash: e.Hash, entry: e})
			s.seen[p] = true
		}
	}
}

func (s *scanner) underSkipped(p string) bool {
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		if s.skipped[d] {
			return true
		}
	}
	return false
}

// SecretFile is a file mem commit left out because its name (Line 0) or
// its content at Line holds a secret of the kind Rule. Path is
// vault-relative, with any name part holding a secret redacted.
type SecretFile struct {
	Path string `json:"path"`
	Line int    `json:"line"`
	Rule string `json:"rule"`
}

// findSecrets scans a file's vault path, then its content. A name holding
// a secret is reported as line 0 and the content is not scanned. Content
// that is not text (a NUL in the first 8000 bytes, git's own test, or not
// UTF-8) is not scanned: the loader never reads it, and the scanner took
// 4 s over 8 MiB of random bytes against 20-85 ms over 8 MiB of text.
func findSecrets(rel string, data []byte) []SecretFile {
	var out []SecretFile
	if found := rules.Name(rel); len(found) > 0 {
		for _, f := range found {
			out = append(out, SecretFile{Rule: f.Rule})
		}
		return out
	}
	if bytes.IndexByte(data[:min(len(data), 8000)], 0) >= 0 || !utf8.Valid(data) {
		return nil
	}
	for _, f := range rules.Secrets(string(data)) {
		out = append(out, SecretFile{Line: 1 + bytes.Count(data[:f.Off], []byte("\n")), Rule: f.Rule})
	}
	return out
}

// leaveOutSecret records what was found in f, one entry per finding.
func (s *scanner) leaveOutSecret(f *file) {
	rel, _ := s.r.vaultRel(f.path)
	for _, fd := range f.secret {
		fd.Path = rules.RedactPath(rel)
		s.secret = append(s.secret, fd)
	}
}
