package vault

import (
	"cmp"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	mrand "math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"golang.org/x/text/unicode/norm"
)

// Version is mem's version, written into generated.by as mem/<Version>.
var Version = "0.1.0"

// Producer is the OKF actor mem writes as.
func Producer() string { return "mem/" + Version }

// TempPrefix starts the name of every temp file mem writes. Temp names never
// end in .md, so a crash can never leave one that is read as a memory.
const TempPrefix = ".mem-tmp-"

// writeTemp writes data to a temp file in dir (synced when sync is set)
// and returns its path and its stat as written.
func writeTemp(dir string, data []byte, perm os.FileMode, sync bool) (string, fs.FileInfo, error) {
	for try := 0; ; try++ {
		tmp := tempName(dir)
		fi, err := writeNew(tmp, data, perm, sync)
		if err == nil || !errors.Is(err, fs.ErrExist) || try == 100 {
			return tmp, fi, err
		}
	}
}

// tempName is a new temp name in dir. It needs no secret randomness: the
// file or folder is made with O_EXCL (mkdir), and a name taken is retried.
func tempName(dir string) string {
	return filepath.Join(dir, TempPrefix+strconv.FormatUint(mrand.Uint64(), 36))
}

// writeNew creates the file name, which must not exist, holding data
// (synced when sync is set), and returns its stat as written. The file is
// made with perm, so it needs no chmod unless the umask (or a folder's
// default ACL) took bits perm asks for: a wide checkout's files (perm
// already without the umask, as git's) cost one system call less each.
func writeNew(name string, data []byte, perm os.FileMode, sync bool) (fs.FileInfo, error) {
	f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return nil, err
	}
	var fi fs.FileInfo
	_, err = f.Write(data)
	if err == nil {
		fi, err = f.Stat()
	}
	if err == nil && fi.Mode().Perm() != perm {
		if err = f.Chmod(perm); err == nil {
			fi, err = f.Stat()
		}
	}
	if err == nil && sync {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return nil, err
	}
	return fi, nil
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// WriteFileAtomic replaces path with data: temp file in the same directory,
// fsync, rename, fsync the directory. A reader sees the old or the new file,
// never a torn one.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) error {
	dir := filepath.Dir(path)
	tmp, _, err := writeTemp(dir, data, perm, true)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, err)
	}
	return syncDir(dir)
}

// RemoveFile removes path, a user's file, durably: the directory is
// fsynced, so the removal outlives a power cut as WriteFileAtomic's
// replacement does. A path already gone is no error.
func RemoveFile(path string) error {
	if err := os.Remove(path); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeCacheFile replaces a cache file mem can always rebuild: by rename, so
// a reader never sees a torn file while mem runs, but without fsync, which
// took ~180 ms for the 60 MB parse cache of a 50k vault. After a power loss
// the file may be empty or partial; every cache carries a checksum, so it is
// then ignored and rebuilt. Caches are the owner's alone whatever the
// umask (0600 in folders made 0700), as .mem is: they hold the vault's
// text, and a cache of a removed file outlives it until rewritten.
func writeCacheFile(path string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return err
	}
	tmp, _, err := writeTemp(filepath.Dir(path), data, StateFileMode, false)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// createExclusive publishes data at path only if nothing is there yet: the
// synced temp file is renamed into place without replacing (or, where the
// file system cannot, hard-linked into place), which fails when the name
// is taken, so two writers can never overwrite each other.
func createExclusive(path string, data []byte) error {
	dir := filepath.Dir(path)
	tmp, _, err := writeTemp(dir, data, FileMode(), true)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	ok, err := renameNoReplace(tmp, path)
	if !ok {
		err = os.Link(tmp, path)
	}
	if err != nil {
		return err
	}
	return syncDir(dir)
}

// Slug turns text into a short file-name stem: lowercase letters and digits
// joined by dashes, cut at a word boundary (maxLen bytes). The letters are
// ASCII, Latin ones transliterated (café → cafe, ß → ss, ø → o), unless
// most of text's letters are of another script (a Korean or Arabic
// title): then they are the text's own, NFC, so the name still says what
// the file holds; anything else, '/' and control characters included, is
// a dash.
func Slug(text string, maxLen int) string {
	native := ownScript(text)
	if native {
		text = norm.NFC.String(text)
	} else {
		text = transliterate(text)
	}
	s := cutSlug(slugWords(text, native, maxLen), maxLen)
	if s == "" {
		s = "memory"
	}
	return s
}

// ownScript reports whether most of text's letters are of a script other
// than Latin, whose letters a slug keeps as they are.
func ownScript(text string) bool {
	latin, letters := 0, 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			letters++
			if r < 128 || unicode.Is(unicode.Latin, r) {
				latin++
			}
		}
	}
	return 2*latin < letters
}

// slugWords is text's letters and digits in lower case (ASCII ones only
// unless native; a native text's marks kept after a letter), each run of
// anything else one dash, stopped once maxLen bytes are written.
func slugWords(text string, native bool, maxLen int) string {
	var b strings.Builder
	dash := false
	for _, r := range strings.ToLower(text) {
		if (r < 128 || native) && (unicode.IsLetter(r) || unicode.IsDigit(r) || native && unicode.IsMark(r) && b.Len() > 0) {
			if dash && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(r)
			dash = false
		} else {
			dash = true
		}
		if b.Len() >= maxLen {
			break
		}
	}
	return b.String()
}

// cutSlug cuts s to maxLen bytes, never in half a character, and a slug
// that reached maxLen back to its last dash when that keeps over half.
func cutSlug(s string, maxLen int) string {
	if len(s) > maxLen {
		s = s[:maxLen]
		for len(s) > 0 && !utf8.ValidString(s) {
			s = s[:len(s)-1] // never half a character
		}
	}
	if i := strings.LastIndexByte(s, '-'); len(s) >= maxLen && i > maxLen/2 {
		s = s[:i]
	}
	return s
}

// latinLetters are the Latin letters that are no base letter and a mark.
var latinLetters = strings.NewReplacer("ß", "ss", "ẞ", "SS", "ø", "o", "Ø", "O", "æ", "ae", "Æ", "AE", "œ", "oe", "Œ", "OE",
	"đ", "d", "Đ", "D", "ł", "l", "Ł", "L", "þ", "th", "Þ", "TH", "ð", "d", "Ð", "D", "ı", "i", "ħ", "h", "Ħ", "H", "ŋ", "ng", "Ŋ", "NG")

// transliterate writes Latin letters in ASCII: the marks of a decomposed
// letter dropped (é → e, à → a), the rest by latinLetters; other
// scripts pass as they are.
func transliterate(text string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(latinLetters.Replace(text)) {
		if unicode.IsMark(r) {
			continue
		}
		b.WriteRune(r)
	}
	return norm.NFC.String(b.String())
}

func randomSuffix() string {
	b := make([]byte, 3)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Create writes a new file under dir (relative to the vault) named after
// slugText plus a short unique suffix. It stamps id (the file's path without
// .md, written out so a rename in Obsidian keeps it; an id doc already
// has, like a project note's proj_name, is kept) and generated (by mem,
// unless doc names who wrote it), and never replaces an existing file. It
// places bytes only: pkg/writer checks what they say.
func (v *Vault) Create(dir, slugText string, doc *frontmatter.Document, now time.Time) (*Memory, error) {
	return v.CreateAs(dir, slugText, "", doc, now)
}

// CreateAs is Create with the suffix given: the file is dir/<slug>-<suffix>.md
// and nothing else, so the same item written on two machines lands on one
// path (an import, docs/import.md); when that name is taken it fails with
// an error matching fs.ErrExist. An empty suffix is Create's random one.
func (v *Vault) CreateAs(dir, slugText, suffix string, doc *frontmatter.Document, now time.Time) (*Memory, error) {
	absDir, err := v.destination(dir)
	if err != nil {
		return nil, err
	}
	stem := Slug(slugText, 48)
	by := Producer()
	if g := doc.Meta.Generated; g != nil && g.By != "" {
		by = g.By
	}
	doc.Meta.Generated = &frontmatter.Actor{By: by, At: frontmatter.NewTime(now)}
	givenID := doc.Meta.ID
	for range 20 {
		rel := filepath.ToSlash(filepath.Join(dir, stem+"-"+cmp.Or(suffix, randomSuffix())+".md"))
		doc.Meta.ID = strings.TrimSuffix(rel, ".md")
		if givenID != "" {
			doc.Meta.ID = givenID
		}
		data := doc.Marshal()
		path := filepath.Join(v.Root, filepath.FromSlash(rel))
		err := createExclusive(path, data)
		if errors.Is(err, os.ErrExist) && suffix == "" {
			continue
		}
		if err != nil {
			doc.Meta.ID = givenID
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return &Memory{Path: path, Rel: rel, ID: doc.Meta.ID, Doc: doc, Size: int64(len(data)), ModTime: now}, nil
	}
	return nil, fmt.Errorf("%s: could not find a free file name", absDir)
}

// destination makes the folder dir (relative to the vault) and returns it,
// refusing any folder the loader would not read back: outside the vault,
// ignored or skipped (spec §2), or reached through a symbolic link — the
// loader never follows a linked folder, so a file written through one
// would land somewhere no reader, commit or backup ever looks.
func (v *Vault) destination(dir string) (string, error) {
	rel := path.Clean(filepath.ToSlash(dir))
	absDir := filepath.Join(v.Root, filepath.FromSlash(rel))
	if rel == "." || !within(v.Root, absDir) {
		return "", fmt.Errorf("%s: outside the vault %s", dir, v.Root)
	}
	if !v.IsMemoryPath(rel + "/x.md") {
		return "", fmt.Errorf("%s: mem never reads this folder (a skipped folder or mem.yaml ignore:), so a file written there would be lost", rel)
	}
	cur := v.Root
	for _, part := range strings.Split(rel, "/") {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			break // MkdirAll makes real folders from here on
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(cur)
			return "", fmt.Errorf("%s is a symbolic link (to %s): mem never reads through a linked folder, so a file written there would be lost; replace the link with a real folder (move its files in) and try again", v.Rel(cur), target)
		}
		if !fi.IsDir() {
			return "", fmt.Errorf("%s: not a folder: move it aside so mem can make the folder %s", v.Rel(cur), rel)
		}
	}
	if err := os.MkdirAll(absDir, 0o777); err != nil {
		return "", err
	}
	return absDir, nil
}

// Hash is the content hash callers pass to Update for compare-and-swap.
func Hash[T string | []byte](data T) string {
	sum := sha256.Sum256([]byte(data))
	return hex.EncodeToString(sum[:])
}

// ErrConflict is returned by Update when the file changed since the caller
// read it: the compare-and-swap said no (exit 1).
var ErrConflict error = fail.As(fail.Check, errors.New("file changed since it was read"))

// Update rewrites an existing file under a per-file lock: it re-reads the
// file, checks its hash against expectHash (when not empty), lets edit change
// the document, stamps generated (unless edit set it) and writes atomically. Two updaters of the
// same file run one after the other, so neither loses the other's change.
func (v *Vault) Update(rel, expectHash string, now time.Time, edit func(*frontmatter.Document) error) error {
	path := filepath.Join(v.Root, filepath.FromSlash(rel))
	if !within(v.Root, path) {
		return fmt.Errorf("%s: outside the vault %s", rel, v.Root)
	}
	unlock, err := v.Lock("file-" + Hash([]byte(rel))[:16])
	if err != nil {
		return err
	}
	defer unlock()
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if expectHash != "" && Hash(data) != expectHash {
		return fmt.Errorf("%s: %w: read it again and retry", rel, ErrConflict)
	}
	doc, err := ParseFile(data)
	if err != nil {
		return fmt.Errorf("%s:%w (fix the file before mem can edit it)", rel, err)
	}
	before := doc.Meta.Generated
	if err := edit(doc); err != nil {
		return err
	}
	if doc.Meta.Generated == before {
		doc.Meta.Generated = &frontmatter.Actor{By: Producer(), At: frontmatter.NewTime(now)}
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return WriteFileAtomic(path, doc.Marshal(), fi.Mode().Perm())
}

// pendingDir holds the journal of note-and-pointer writes under way.
func (v *Vault) pendingDir() string { return filepath.Join(v.StateDir(), "pending") }

// CreatePair writes a note and the one-line pointer memory that links it,
// so that a crash leaves both or neither: the pointer's bytes are
// journalled under .mem/pending before the note is published, and
// CompletePending (which every writer runs first) writes a journalled
// pointer whose note exists, or drops the entry when the note never was.
// pointer builds the pointer's document from the note's id.
func (v *Vault) CreatePair(noteDir, noteSlug string, note *frontmatter.Document, ptrDir, ptrSlug string, pointer func(noteID string) *frontmatter.Document, now time.Time) (*Memory, *Memory, error) {
	if err := v.CompletePending(); err != nil {
		return nil, nil, err
	}
	noteAbs, err := v.destination(noteDir)
	if err != nil {
		return nil, nil, err
	}
	if _, err := v.destination(ptrDir); err != nil {
		return nil, nil, err
	}
	if err := os.MkdirAll(v.pendingDir(), 0o700); err != nil {
		return nil, nil, err
	}
	for range 20 {
		noteRel := path.Join(noteDir, Slug(noteSlug, 48)+"-"+randomSuffix()+".md")
		ptrRel := path.Join(ptrDir, Slug(ptrSlug, 48)+"-"+randomSuffix()+".md")
		nm, noteData := v.stamp(noteRel, note, now)
		pdoc := pointer(nm.ID)
		pm, ptrData := v.stamp(ptrRel, pdoc, now)
		if _, err := os.Lstat(pm.Path); err == nil {
			continue // the pointer's name is taken: pick two new names
		}
		release, err := v.journal(append([]byte(noteRel+"\n"+ptrRel+"\n"), ptrData...))
		if err != nil {
			return nil, nil, err
		}
		err = createExclusive(nm.Path, noteData)
		if errors.Is(err, os.ErrExist) {
			release()
			continue
		}
		if err != nil {
			release()
			return nil, nil, fmt.Errorf("%s: %w", noteAbs, err)
		}
		if err := createExclusive(pm.Path, ptrData); err != nil {
			// Both or neither: take the note back (the journal would
			// otherwise complete it later).
			os.Remove(nm.Path)
			release()
			return nil, nil, fmt.Errorf("the pointer memory %s was not written, so neither was the note: %w", ptrRel, err)
		}
		release()
		return nm, pm, nil
	}
	return nil, nil, fmt.Errorf("%s: could not find a free file name", noteAbs)
}

// journal records one pair write under way: X.pending holds the pointer's
// bytes (written atomically, so it is whole or absent), and X.lock is
// flocked by the writer until the pair is done, so CompletePending in
// another process never completes a pair whose writer is still at work —
// only one whose writer died (the kernel drops its lock) or is gone.
// release removes both, the journal first.
func (v *Vault) journal(data []byte) (release func(), err error) {
	base := filepath.Join(v.pendingDir(), randomSuffix())
	lockFile, err := os.OpenFile(base+".lock", os.O_RDWR|os.O_CREATE|os.O_EXCL, StateFileMode)
	if err != nil {
		return nil, err
	}
	if ok, err := tryLock(lockFile); !ok || err != nil {
		lockFile.Close()
		os.Remove(base + ".lock")
		return nil, fmt.Errorf("%s: cannot lock a new journal entry: %v", base+".lock", err)
	}
	release = func() {
		os.Remove(base + ".pending")
		os.Remove(base + ".lock")
		unlockFile(lockFile)
		lockFile.Close()
	}
	if err := WriteFileAtomic(base+".pending", data, StateFileMode); err != nil {
		release()
		return nil, err
	}
	return release, nil
}

// stamp sets the id and generated of doc as the file rel and returns the
// memory it will be, with its bytes.
func (v *Vault) stamp(rel string, doc *frontmatter.Document, now time.Time) (*Memory, []byte) {
	by := Producer()
	if g := doc.Meta.Generated; g != nil && g.By != "" {
		by = g.By
	}
	doc.Meta.Generated = &frontmatter.Actor{By: by, At: frontmatter.NewTime(now)}
	doc.Meta.ID = strings.TrimSuffix(rel, ".md")
	data := doc.Marshal()
	return &Memory{Path: filepath.Join(v.Root, filepath.FromSlash(rel)), Rel: rel, ID: doc.Meta.ID, Doc: doc, Size: int64(len(data)), ModTime: now}, data
}

// CompletePending finishes the note-and-pointer writes a crash cut short
// (see CreatePair): a journalled pointer whose note exists is written, an
// entry whose note never was is dropped.
func (v *Vault) CompletePending() error {
	entries, err := os.ReadDir(v.pendingDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if base, ok := strings.CutSuffix(filepath.Join(v.pendingDir(), e.Name()), ".pending"); ok {
			if err := v.completeOne(base); err != nil {
				return err
			}
		}
	}
	return nil
}

// completeOne finishes the write journalled at base+".pending", unless its
// writer still holds base+".lock".
func (v *Vault) completeOne(base string) error {
	journal := base + ".pending"
	lockFile, err := os.OpenFile(base+".lock", os.O_RDWR, 0)
	if err == nil {
		defer lockFile.Close()
		if locked, _ := tryLock(lockFile); !locked {
			return nil // its writer is still at work
		}
	}
	data, err := os.ReadFile(journal)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // its writer finished meanwhile
	}
	if err != nil {
		return err
	}
	noteRel, ptrRel, ptr, ok := v.readJournal(data)
	if !ok {
		os.Remove(journal) // torn or foreign: nothing to complete
		return nil
	}
	if _, err := os.Lstat(filepath.Join(v.Root, filepath.FromSlash(noteRel))); err == nil {
		if _, err := v.destination(path.Dir(ptrRel)); err != nil {
			return err
		}
		err := createExclusive(filepath.Join(v.Root, filepath.FromSlash(ptrRel)), []byte(ptr))
		if err != nil && !errors.Is(err, os.ErrExist) {
			return fmt.Errorf("completing the pointer of %s: %w", noteRel, err)
		}
	}
	if err := os.Remove(journal); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	os.Remove(base + ".lock")
	return nil
}

// readJournal reads a pending journal: the note's path, then the
// pointer's, then the pointer's bytes. ok is false for a torn journal or
// one naming files that are not memories of this vault.
func (v *Vault) readJournal(data []byte) (noteRel, ptrRel, ptr string, ok bool) {
	noteRel, rest, ok1 := strings.Cut(string(data), "\n")
	ptrRel, ptr, ok2 := strings.Cut(rest, "\n")
	ok = ok1 && ok2 && v.IsMemoryPath(noteRel) && v.IsMemoryPath(ptrRel) && within(v.Root, filepath.Join(v.Root, ptrRel))
	return noteRel, ptrRel, ptr, ok
}

// Batch replaces many files as WriteFileAtomic replaces one, with one
// durability barrier for all of them instead of two fsyncs per file: every
// temp file is written, then all are flushed at once (syncfs on Linux,
// elsewhere each file's fsync), then each is renamed into place and each
// folder synced once. A sync checking out one commit of 10,000 memories
// spent most of its time in those fsyncs (issue 41). Until Commit, no
// file is replaced; Abort removes the temp files.
//
// A folder missing when the batch first looks (and every folder under it)
// is written whole under a temp name beside it, its stage, whose files
// get their own names at once; Commit renames the stage into place after
// the flush, so the folder appears with every file complete, as a temp
// file does. A temp name and a rename per file cost twice the folder
// updates of one create: most of a wide commit's sync (100,000 new files
// in one new folder) was those.
type Batch struct {
	tmps, paths []string
	removes     []string // files to remove after the replacements
	removed     []string // files RemoveNow removed: their folders are synced on Commit

	exists map[string]bool   // folders looked at: whether each was there
	stages map[string]string // each topmost missing folder: its stage
	staged []string          // the files written in stages
	made   []string          // the folders made in stages, stages first
}

// Add writes data to a temp file beside path, to replace path on Commit
// (or, when path's folder is missing, to path in that folder's stage). It
// returns the file's stat as written: after Commit the file at path has
// the same inode, size and mtime (the rename changes its ctime alone),
// which lets a caller tell it from a later edit without reading it.
func (b *Batch) Add(path string, data []byte, perm os.FileMode) (fs.FileInfo, error) {
	dir := filepath.Dir(path)
	if root, ok := b.missingRoot(dir); ok {
		fi, err := b.addStaged(root, path, data, perm)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		return fi, nil
	}
	tmp, fi, err := writeTemp(dir, data, perm, false)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	b.tmps, b.paths = append(b.tmps, tmp), append(b.paths, path)
	return fi, nil
}

// Missing reports whether the folder dir was missing when the batch first
// looked: no file under it exists but the batch's own.
func (b *Batch) Missing(dir string) bool {
	_, ok := b.missingRoot(dir)
	return ok
}

// missingRoot is the topmost missing folder at or above dir, when dir is
// missing.
func (b *Batch) missingRoot(dir string) (string, bool) {
	if !b.missing(dir) {
		return "", false
	}
	for {
		parent := filepath.Dir(dir)
		if parent == dir || !b.missing(parent) {
			return dir, true
		}
		dir = parent
	}
}

// missing looks at the folder dir once per batch.
func (b *Batch) missing(dir string) bool {
	there, ok := b.exists[dir]
	if !ok {
		_, err := os.Lstat(dir)
		there = !errors.Is(err, fs.ErrNotExist)
		if b.exists == nil {
			b.exists = map[string]bool{}
		}
		b.exists[dir] = there
	}
	return !there
}

// addStaged writes data to path's place in the stage of root, the missing
// folder holding it, making the stage and its folders as needed.
func (b *Batch) addStaged(root, path string, data []byte, perm os.FileMode) (fs.FileInfo, error) {
	stage, ok := b.stages[root]
	if !ok {
		for try := 0; ; try++ {
			stage = tempName(filepath.Dir(root))
			err := os.Mkdir(stage, 0o777)
			if err == nil {
				break
			}
			if !errors.Is(err, fs.ErrExist) || try == 100 {
				return nil, err
			}
		}
		if b.stages == nil {
			b.stages = map[string]string{}
		}
		b.stages[root] = stage
		b.made = append(b.made, stage)
	}
	p := stage + path[len(root):]
	for _, d := range b.toMake(stage, filepath.Dir(p)) {
		if err := os.Mkdir(d, 0o777); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		b.made = append(b.made, d)
	}
	fi, err := writeNew(p, data, perm, false)
	if err != nil {
		return nil, err
	}
	b.staged = append(b.staged, p)
	return fi, nil
}

// toMake lists the folders from stage down to dir not made yet, outermost
// first.
func (b *Batch) toMake(stage, dir string) []string {
	var out []string
	for d := dir; d != stage && !b.exists[d]; d = filepath.Dir(d) {
		b.exists[d] = true
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}

// Remove marks path to be removed on Commit, after the replacements (a
// path already gone is no error); its folder is synced with theirs.
func (b *Batch) Remove(path string) { b.removes = append(b.removes, path) }

// RemoveNow removes path at once (a path already gone is no error), for a
// caller whose next Add needs the name free (a file that becomes a
// folder); its folder is synced on Commit with the others.
func (b *Batch) RemoveNow(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", path, err)
	}
	delete(b.exists, path) // a file that becomes a folder: looked at again
	b.removed = append(b.removed, path)
	return nil
}

// Commit flushes every temp file and stage, renames each into place,
// removes the files marked, then syncs each folder once. A file or stage
// whose rename fails is reported; the ones not yet renamed are removed.
func (b *Batch) Commit() error {
	if len(b.tmps) == 0 && len(b.staged) == 0 && len(b.removes) == 0 && len(b.removed) == 0 {
		b.Abort() // a stage made for a file whose write failed
		return nil
	}
	if flush := append(b.tmps[:len(b.tmps):len(b.tmps)], b.staged...); len(flush) > 0 {
		err := flushFiles(flush)
		for _, d := range b.made { // the stages' folders hold their files' names
			if err == nil {
				err = syncDir(d)
			}
		}
		if err != nil {
			dir := filepath.Dir(flush[0])
			b.Abort()
			return fmt.Errorf("flushing %d files to write under %s (nothing was replaced): %w", len(flush), dir, err)
		}
	}
	dirs := map[string]bool{}
	for _, p := range b.removed {
		dirs[filepath.Dir(p)] = true
	}
	for i, tmp := range b.tmps {
		if err := renameFile(tmp, b.paths[i]); err != nil {
			path := b.paths[i]
			b.tmps, b.paths = b.tmps[i:], b.paths[i:]
			b.Abort()
			return fmt.Errorf("%s: %w", path, err)
		}
		dirs[filepath.Dir(b.paths[i])] = true
	}
	b.tmps, b.paths = nil, nil
	for root, stage := range b.stages {
		if err := renameFile(stage, root); err != nil {
			b.Abort()
			return fmt.Errorf("%s: %w", root, err)
		}
		delete(b.stages, root)
		dirs[filepath.Dir(root)] = true
	}
	for _, p := range b.removes {
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", p, err)
		}
		dirs[filepath.Dir(p)] = true
	}
	*b = Batch{}
	for d := range dirs {
		if err := syncDir(d); err != nil {
			return err
		}
	}
	return nil
}

// Abort removes the temp files and stages not yet renamed.
func (b *Batch) Abort() {
	for _, tmp := range b.tmps {
		os.Remove(tmp)
	}
	for _, stage := range b.stages {
		os.RemoveAll(stage)
	}
	*b = Batch{}
}
