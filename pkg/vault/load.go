package vault

import (
	"bytes"
	"context"
	"fmt"
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

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/viewfmt"
)

// Memory is one markdown file of the vault as the loader saw it.
type Memory struct {
	Path    string // absolute path
	Rel     string // slash-separated path relative to the vault root
	ID      string // frontmatter id, else Rel without .md (OKF's concept id)
	Size    int64
	ModTime time.Time
	// Doc is the parsed file; nil when the file could not be read at all.
	// When Err is a frontmatter error Doc still holds the body.
	Doc *frontmatter.Document
	// Err is a problem that makes the file unusable as a memory
	// (*frontmatter.Error with a rule name); views skip such files.
	Err error
	// View marks a file mem render wrote — a -o output or a file with a
	// spliced zone (AGENTS.md in a project root inside the vault): never
	// read back as a memory or a note (spec §2). Its Err is
	// frontmatter-missing, as it has none.
	View bool
	// Raw is the file's text, kept only with LoadOptions.Raw; "" when
	// it was not kept or could not be read (Err says which). A string, as
	// every reader wants: from the parse cache it is shared, not copied.
	Raw string
}

// Meta is a shortcut to the parsed metadata (zero Meta for unreadable files).
func (m *Memory) Meta() *frontmatter.Meta {
	if m.Doc == nil {
		return &frontmatter.Meta{}
	}
	return &m.Doc.Meta
}

// Summary is the memory's one-line text.
func (m *Memory) Summary() string {
	if m.Doc == nil {
		return ""
	}
	return m.Doc.Summary()
}

// IsMemory reports whether the file is a memory (spec §2): its type is a
// memory type, or mem wrote it (generated.by names mem, as every write of
// pkg/writer does). Every other file is a note that belongs to the user or
// to another tool, and mem's own rules are at most advice to it.
func (m *Memory) IsMemory() bool {
	if m.Doc == nil {
		return false
	}
	meta := &m.Doc.Meta
	return frontmatter.IsMemoryType(meta.Type) || meta.Generated != nil && strings.HasPrefix(meta.Generated.By, "mem/")
}

// OK reports whether the file parsed and can be used by views.
func (m *Memory) OK() bool { return m.Err == nil && m.Doc != nil }

// LoadOptions tunes the loader.
type LoadOptions struct {
	Raw bool // keep each file's bytes (lint scans them)
	// Context, when done (Ctrl-C, a daemon's shutdown), stops Load between
	// two folders of its walk or two files it reads; Load then returns a
	// fail.Interrupted error and no memories, and keeps no parse cache of
	// the part it read. Nil never stops. Only Load reads it: LoadFiles and
	// LoadSnapshot, which return no error, read every file they are given.
	Context context.Context
}

// readingVault is what a Load or scan stopped by its context was doing.
const readingVault = "reading the vault"

// context is o.Context, or one never done.
func (o LoadOptions) context() context.Context {
	if o.Context == nil {
		return context.Background()
	}
	return o.Context
}

// skipDirs are other tools' folders, never read (spec §2); mem's own are
// IsOwn's.
var skipDirs = map[string]bool{".obsidian": true, ".trash": true, ".archive": true, "node_modules": true}

// logseqOld are the folders under a Logseq graph's logseq/ holding deleted
// pages (.recycle), backups (bak) and old versions (version-files): a
// deleted page must not rank first in a search.
var logseqOld = map[string]bool{".recycle": true, "bak": true, "version-files": true}

// SkipDir reports whether the loader never reads the folder rel (a slash
// path from the vault root): another tool's settings, trash, backups or
// archive (docs/obsidian.md lists them). mem.yaml's ignore: is apart.
func SkipDir(rel string) bool {
	base := path.Base(rel)
	return skipDirs[base] || logseqOld[base] && path.Base(path.Dir(rel)) == "logseq"
}

// IsOwn reports whether rel (a slash path from the vault root) is mem's or
// git's own and never the vault's content: inside a .mem state directory
// or a .git, or one of mem's temp files. The loader and the daemon's
// watcher skip these.
func IsOwn(rel string) bool {
	for elem := range strings.SplitSeq(rel, "/") {
		// A temp folder is a batch's stage (Batch): its files are not the
		// vault's until it is renamed into place.
		if elem == ".mem" || elem == ".git" || strings.HasPrefix(elem, TempPrefix) {
			return true
		}
	}
	return false
}

// Load reads every memory file of the vault, in parallel, sorted by Rel.
// Broken files are returned with Err set; only a failure to walk the vault
// root itself is an error.
func (v *Vault) Load(opts LoadOptions) ([]*Memory, error) {
	ctx := opts.context()
	// Reading the parse cache and scanning the vault each take tens of
	// milliseconds on a big vault: do both at once.
	cache := make(chan *parseCache, 1)
	go func() { cache <- v.openCache() }()
	snap, err := v.scanWith(ctx)
	if err != nil {
		return nil, err
	}
	mems := v.load(ctx, snap, opts, cache)
	if err := fail.Stopped(ctx, readingVault); err != nil {
		return nil, err
	}
	return mems, nil
}

// LoadSnapshot is Load of the files snap listed, trusting its stamps: a
// caller that scanned first (to see whether a view it kept still holds)
// does not pay for a second scan.
func (v *Vault) LoadSnapshot(snap *Snapshot, opts LoadOptions) []*Memory {
	cache := make(chan *parseCache, 1)
	if len(snap.Rels) >= cacheMinFiles {
		cache <- v.openCache()
	}
	return v.load(context.Background(), snap, opts, cache)
}

// load reads snap's files; once ctx is done it reads no more, and what it
// returns is incomplete.
func (v *Vault) load(ctx context.Context, snap *Snapshot, opts LoadOptions, cache <-chan *parseCache) []*Memory {
	if len(snap.Rels) < cacheMinFiles {
		return v.loadDirect(ctx, snap.Rels, opts)
	}
	return v.loadCached(ctx, snap.Rels, snap.stamps, opts, <-cache)
}

// List walks the vault and returns the relative paths of its memory files,
// sorted, applying the ignore rules of spec §2 and leaving out, as Scan
// does, a file whose name holds a secret.
func (v *Vault) List() ([]string, error) {
	var rels []string
	names := v.openNames()
	if err := v.walk(context.Background(), func(batch []string) {
		for _, rel := range batch {
			if rule, _, _ := v.heldName(names, rel); rule == "" {
				rels = append(rels, rel)
			}
		}
	}); err != nil {
		return nil, err
	}
	slices.Sort(rels)
	return rels, nil
}

// IsMemoryPath reports whether the loader reads rel (a slash path relative
// to the vault) as a memory: a .md file outside the skipped folders, not
// matched by mem.yaml's ignore:, and not a rendered view. Git-side checks
// (lint --staged, commit) use it to count memories the way the loader does.
func (v *Vault) IsMemoryPath(rel string) bool {
	if !strings.HasSuffix(rel, ".md") || v.IsRenderedOutput(rel) {
		return false
	}
	if IsOwn(rel) {
		return false
	}
	for dir := path.Dir(rel); dir != "." && dir != "/"; dir = path.Dir(dir) {
		if SkipDir(dir) || v.Config.Ignores(dir, true) {
			return false
		}
	}
	return !v.Config.Ignores(rel, false)
}

// IsReserved reports OKF's reserved file names, index.md and log.md at any
// level: pointer lists and append-only logs, never claims.
func IsReserved(rel string) bool {
	base := path.Base(rel)
	return base == "index.md" || base == "log.md"
}

// DefaultView is the default view's place: the vault's root MEMORY.md.
const DefaultView = "MEMORY.md"

// IsRenderedOutput reports whether rel (slash path relative to the vault) is
// a view mem writes — the root MEMORY.md unless one mem did not render is
// there, or a render.outputs file — and so never a memory, never committed
// as one.
func (v *Vault) IsRenderedOutput(rel string) bool {
	if rel == DefaultView {
		// The default view's place. A MEMORY.md there that mem did not
		// render (a Claude Code folder's hand-kept index) is an ordinary
		// file to every reader (spec §2); absent, empty or torn within
		// mem's header line, it is the view's.
		data, err := readHead(filepath.Join(v.Root, rel), len(viewfmt.Header))
		return err != nil || viewfmt.MayBeHeader(data)
	}
	return slices.Contains(v.outputRels(nil), rel)
}

// ViewRels are the places of the views inside the vault, as slash paths
// from its root: the default view's and the render.outputs files'. Each
// output's path is read with Path, as render.Outputs reads it, so the
// loader, lint and render agree on which file is a view.
func (v *Vault) ViewRels() []string {
	return v.outputRels([]string{DefaultView})
}

func (v *Vault) outputRels(out []string) []string {
	for _, o := range v.Config.Render.Outputs {
		if o.Path == "" {
			continue
		}
		if rel := v.Rel(v.Path(o.Path)); rel != ".." && !strings.HasPrefix(rel, "../") && !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// LoadFiles reads and parses the given vault-relative files in parallel,
// bounded by GOMAXPROCS, preserving order. When rels is (nearly) the whole
// vault the parse cache serves the files that did not change.
func (v *Vault) LoadFiles(rels []string, opts LoadOptions) []*Memory {
	if len(rels) >= cacheMinFiles {
		if n := v.cacheCount(); n > 0 && len(rels)*10 >= n*9 {
			return v.loadCached(context.Background(), rels, nil, opts, v.openCache())
		}
	}
	return v.loadDirect(context.Background(), rels, opts)
}

func (v *Vault) loadDirect(ctx context.Context, rels []string, opts LoadOptions) []*Memory {
	out := make([]*Memory, len(rels))
	v.parallel(ctx, len(rels), func(i int) {
		out[i], _, _ = v.readOne(rels[i], opts, fileStamp{}, nil)
	})
	return out
}

// parallel calls fn(0..n-1) on GOMAXPROCS workers; once ctx is done it
// hands out no more.
func (v *Vault) parallel(ctx context.Context, n int, fn func(i int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), max(n, 1))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				fn(i)
			}
		}()
	}
feed:
	for i := range n {
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
}

func fileErr(rule, msg string) error {
	return &frontmatter.Error{Pos: frontmatter.Pos{Line: 1, Col: 1}, Rule: rule, Msg: msg}
}

// Unread reports whether the loader kept none of m's bytes because it
// refused the file or could not read it (Err says which): an empty Raw
// is otherwise an empty file, or a load that did not ask for Raw.
func (m *Memory) Unread() bool {
	fe, ok := m.Err.(*frontmatter.Error)
	if !ok {
		return m.Err != nil
	}
	switch fe.Rule {
	case "file-unreadable", "link-outside-vault", "file-hard-linked", "file-too-large":
		return true
	}
	return false
}

// newMemory is rel before it is read: its id defaults to its path.
func (v *Vault) newMemory(rel string) *Memory {
	return &Memory{Rel: rel, Path: filepath.Join(v.Root, filepath.FromSlash(rel)), ID: strings.TrimSuffix(rel, ".md")}
}

// readOne loads one file. known, when not zero, is the stamp a scan took
// of it (a regular file): it stands in for a second lstat. cached, when not
// nil, is offered the stamp of a regular file (never a symlink) and fills m
// from the parse cache if it can; otherwise the file is read and parsed and
// its bytes returned with its stamp, for the cache to record (a zero stamp:
// not to be recorded). A file that changes between its stamp and the read
// is recorded under a stamp it no longer has, so that entry never serves.
func (v *Vault) readOne(rel string, opts LoadOptions, known fileStamp, cached func(*Memory, fileStamp) bool) (*Memory, fileStamp, []byte) {
	m := v.newMemory(rel)
	st := known
	if st != (fileStamp{}) {
		m.Size, m.ModTime = st.size, time.Unix(0, st.mtime)
	} else if st = v.stat(m); m.Err != nil {
		return m, fileStamp{}, nil
	}
	if limit := v.Config.Lint.MaxFileSize; m.Size > limit {
		m.Err = fileErr("file-too-large", fmt.Sprintf("file is %d bytes, over the %d-byte limit (lint.max_file_size): split it or move it out of the vault", m.Size, limit))
		return m, fileStamp{}, nil
	}
	if cached != nil && st != (fileStamp{}) && cached(m, st) {
		return m, fileStamp{}, nil
	}
	data, err := readFile(m.Path, m.Size)
	if err != nil {
		m.Err = fileErr("file-unreadable", fmt.Sprintf("cannot read: %v", err))
		return m, fileStamp{}, nil
	}
	if opts.Raw {
		m.Raw = string(data)
	}
	m.parse(data)
	return m, st, data
}

// stat sets m's size and time from an lstat of its file, following a
// symbolic link that stays in the vault, and returns the stamp the parse
// cache may record it under (zero for a link). A file mem must not read
// (a link out of the vault, a hard-linked file) or cannot is m.Err.
func (v *Vault) stat(m *Memory) fileStamp {
	fail := func(rule, msg string) fileStamp { m.Err = fileErr(rule, msg); return fileStamp{} }
	fi, err := os.Lstat(m.Path)
	if err != nil {
		return fail("file-unreadable", fmt.Sprintf("cannot read: %v", err))
	}
	var st fileStamp
	if fi.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(m.Path)
		if err != nil || !within(v.Root, target) {
			return fail("link-outside-vault", "symbolic link leaves the vault: mem never follows it; move the file into the vault or remove the link")
		}
		if fi, err = os.Stat(target); err != nil {
			return fail("file-unreadable", fmt.Sprintf("cannot read: %v", err))
		}
		// st stays zero: a link's target can change under an unchanged link.
	} else if fi.Mode().IsRegular() && linkCount(fi) == 1 {
		st = stampOf(fi)
	}
	if n := linkCount(fi); n > 1 && fi.Mode().IsRegular() {
		// A second name may be anywhere on the disk: /etc/passwd linked
		// into memory/ must not be served, committed or backed up.
		return fail("file-hard-linked", fmt.Sprintf("the file has %d hard links, so its content may belong to a file outside the vault: mem does not read it; if it is yours, replace it with a copy (cp %s x && mv x %s), else delete it", n, m.Rel, m.Rel))
	}
	m.Size, m.ModTime = fi.Size(), fi.ModTime()
	return st
}

// parse fills m from its file's bytes.
func (m *Memory) parse(data []byte) {
	m.Doc, m.Err = ParseFile(data)
	if fe, ok := m.Err.(*frontmatter.Error); ok && fe.Rule == "frontmatter-missing" {
		if IsReserved(m.Rel) {
			m.Err = nil // OKF's index.md and log.md carry no frontmatter
		}
		m.View = viewfmt.IsView(data)
	}
	if m.Doc != nil && m.Doc.Meta.ID != "" {
		m.ID = m.Doc.Meta.ID
	}
}

// Parsed is the memory at rel whose bytes are data, read from git rather
// than the disk, as the loader would read it; its bytes are kept in Raw.
func (v *Vault) Parsed(rel string, data []byte) *Memory {
	m := v.newMemory(rel)
	m.Size = int64(len(data))
	if limit := v.Config.Lint.MaxFileSize; m.Size > limit {
		m.Err = fileErr("file-too-large", fmt.Sprintf("file is %d bytes, over the %d-byte limit (lint.max_file_size)", m.Size, limit))
		return m
	}
	m.Raw = string(data)
	m.parse(data)
	return m
}

// ParseFile checks that data is text and parses it. Returned errors are
// *frontmatter.Error values carrying a rule name.
func ParseFile(data []byte) (*frontmatter.Document, error) {
	// A stray NUL in valid UTF-8 (an editor's or a sync tool's slip) leaves
	// the note readable, searchable and at most a lint warning (file-nul);
	// NULs in invalid UTF-8 or in bulk (UTF-16, an image) are binary.
	if n := bytes.Count(data, []byte{0}); n > 0 && (n > 8 && n*100 > len(data) || !utf8.Valid(data)) {
		return nil, fileErr("file-binary", "file contains NUL bytes (binary content): it is not markdown; move it out of the vault")
	}
	if !utf8.Valid(data) {
		line := 1 + bytes.Count(data[:invalidUTF8At(data)], []byte("\n"))
		return nil, &frontmatter.Error{Pos: frontmatter.Pos{Line: line, Col: 1}, Rule: "file-encoding", Msg: "invalid UTF-8: save the file as UTF-8"}
	}
	return frontmatter.Parse(data)
}

func invalidUTF8At(b []byte) int {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return len(b)
}

// within reports whether path lies inside root (by whole components).
func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
