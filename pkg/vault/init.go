package vault

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/viewfmt"
)

// defaultConfig is the mem.yaml that `mem init` writes: every key optional.
const defaultConfig = `# mem vault configuration. Every key is optional; see docs/config.md.
# ignore: [drafts/]          # paths (globs) mem never reads
# durable_tags: [durable]     # global memories with these tags render
# render:
#   budget: 8192              # bytes of the whole rendered view
#   min_global_importance: 7
`

// NoTransform is the attribute line that keeps git from changing a file
// between the repository and the disk: no end-of-line conversion, no
// filter (a clean/smudge command), no keyword expansion and no
// re-encoding. A memory is read by mem byte for byte; a .gitattributes a
// remote sends (`* text eol=crlf working-tree-encoding=UTF-16`) must not
// make every checkout differ from what was committed.
const NoTransform = "* -text -filter -ident -working-tree-encoding"

// gitignoreLines keep machine state, a killed writer's temp files and
// the rendered view out of git.
var gitignoreLines = []string{".mem/", TempPrefix + "*", "/" + DefaultView}

// InitResult is what Init did: the paths it created and, per existing file
// it changed, what it changed (only .gitignore ever is: lines appended).
type InitResult struct {
	Created []string
	// Appended are the lines added to an existing .gitignore.
	Appended []string
}

// Init creates a vault in dir: mem.yaml, the conventional folders and
// .gitignore. It takes nothing (spec §2): existing files are left alone
// (lines are only appended to .gitignore), so running it twice is
// harmless, and a root MEMORY.md that mem did not render is the user's
// and is not git-ignored. When example is not nil its files are copied in
// where absent.
func Init(dir string, example fs.FS) (res InitResult, err error) { return Options{}.Init(dir, example) }

// Init creates a vault in dir, as the package's Init, refusing the home
// folder o names.
func (o Options) Init(dir string, example fs.FS) (res InitResult, err error) {
	var created []string
	defer func() { res.Created = created }()
	abs, err := filepath.Abs(dir)
	if err != nil {
		return res, err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if err := o.CheckRoot(abs, "a vault"); err != nil {
		return res, err
	}
	if created, err = makeFolders(dir); err != nil {
		return res, err
	}
	privateState(filepath.Join(abs, ".mem"))
	if ok, err := createIfAbsent(filepath.Join(dir, ConfigFile), []byte(defaultConfig)); err != nil {
		return res, err
	} else if ok {
		created = append(created, ConfigFile)
	}
	lines := gitignoreLines
	if data, err := readHead(filepath.Join(dir, DefaultView), len(viewfmt.Header)); err == nil && !viewfmt.IsView(data) {
		lines = lines[:len(lines)-1] // a hand-kept MEMORY.md stays tracked
	}
	existed, added, err := ensureLines(filepath.Join(dir, ".gitignore"), lines)
	if err != nil {
		return res, err
	}
	if !existed {
		created = append(created, ".gitignore")
	} else {
		res.Appended = added
	}
	// The vault's own attributes say git never transforms a memory (no
	// eol conversion, filter, keyword or re-encoding): tracked, so a plain
	// git clone checks memories out byte for byte too. A remote's change
	// to it is held back (spec §9), and $GIT_DIR/info/attributes pins the
	// same line where no commit reaches (gitrepo.PinAttributes).
	existed, _, err = ensureLines(filepath.Join(dir, ".gitattributes"), []string{NoTransform})
	if err != nil {
		return res, err
	}
	if !existed {
		created = append(created, ".gitattributes")
	}
	if example != nil {
		copied, err := copyExample(dir, example)
		created = append(created, copied...)
		if err != nil {
			return res, err
		}
	}
	return res, nil
}

// makeFolders creates the vault's folders that are missing, and returns
// those it created ("memory/").
func makeFolders(dir string) (created []string, err error) {
	for _, d := range []string{"memory", "notes", "projects"} {
		p := filepath.Join(dir, d)
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if err := os.MkdirAll(p, 0o777); err != nil {
				return created, err
			}
			created = append(created, d+"/")
		}
	}
	return created, nil
}

// copyExample writes the example vault's files into dir, each one that is
// not there yet, and returns those it created (slash paths).
func copyExample(dir string, example fs.FS) (created []string, err error) {
	err = fs.WalkDir(example, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(example, p)
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(target), 0o777); err != nil {
			return err
		}
		ok, err := createIfAbsent(target, data)
		if ok {
			created = append(created, p)
		}
		return err
	})
	return created, err
}

// readHead reads the first n bytes of a file (fewer when it is shorter).
func readHead(path string, n int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, n)
	k, err := io.ReadFull(f, buf)
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		err = nil
	}
	return buf[:k], err
}

func createIfAbsent(path string, data []byte) (bool, error) {
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	}
	if err := WriteFileAtomic(path, data, FileMode()); err != nil {
		return false, err
	}
	return true, nil
}

// ensureLines appends the missing lines to a text file, creating it if
// needed; it reports whether the file existed and the lines it added.
func ensureLines(path string, lines []string) (existed bool, added []string, err error) {
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return false, nil, fmt.Errorf("%s: %w", path, err)
	}
	existed = err == nil
	have := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var buf bytes.Buffer
	buf.Write(data)
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		buf.WriteByte('\n')
	}
	for _, l := range lines {
		if !have[l] {
			buf.WriteString(l + "\n")
			added = append(added, l)
		}
	}
	if len(added) == 0 {
		return existed, nil, nil
	}
	return existed, added, WriteFileAtomic(path, buf.Bytes(), FileMode())
}
