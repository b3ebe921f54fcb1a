package vault

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DefaultConfig is the mem.yaml that `mem init` writes: every key optional.
const DefaultConfig = `# mem vault configuration. Every key is optional; see docs/config.md.
# ignore: [drafts/]          # paths (globs) mem never reads
# durable_tags: [durable]     # global memories with these tags render
# render:
#   budget: 8192              # bytes of the whole rendered view
#   min_global_importance: 7
`

// gitignoreLines keep machine state, a killed writer's temp files and
// rendered views out of git.
var gitignoreLines = []string{".mem/", TempPrefix + "*", "MEMORY.md"}

// Init creates a vault in dir: mem.yaml, the conventional folders and
// .gitignore. It never overwrites: existing files are left alone (lines are
// only appended to .gitignore), so running it twice is harmless. When
// example is not nil its files are copied in where absent. It returns the
// paths it created.
func Init(dir string, example fs.FS) ([]string, error) {
	var created []string
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	if err := CheckRoot(abs, "a vault"); err != nil {
		return nil, err
	}
	for _, d := range []string{"memory", "notes", "projects"} {
		p := filepath.Join(dir, d)
		if _, err := os.Stat(p); os.IsNotExist(err) {
			if err := os.MkdirAll(p, 0o777); err != nil {
				return created, err
			}
			created = append(created, d+"/")
		}
	}
	if ok, err := createIfAbsent(filepath.Join(dir, ConfigFile), []byte(DefaultConfig)); err != nil {
		return created, err
	} else if ok {
		created = append(created, ConfigFile)
	}
	if err := ensureLines(filepath.Join(dir, ".gitignore"), gitignoreLines); err != nil {
		return created, err
	}
	if example != nil {
		err := fs.WalkDir(example, ".", func(p string, d fs.DirEntry, err error) error {
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
		if err != nil {
			return created, err
		}
	}
	return created, nil
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

// ensureLines appends the missing lines to a text file, creating it if needed.
func ensureLines(path string, lines []string) error {
	data, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("%s: %w", path, err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(data), "\n") {
		have[strings.TrimSpace(l)] = true
	}
	var buf bytes.Buffer
	buf.Write(data)
	if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
		buf.WriteByte('\n')
	}
	changed := false
	for _, l := range lines {
		if !have[l] {
			buf.WriteString(l + "\n")
			changed = true
		}
	}
	if !changed {
		return nil
	}
	return WriteFileAtomic(path, buf.Bytes(), FileMode())
}
