package importer

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/vault"
)

// An OpenClaw workspace (~/.openclaw/workspace) keeps the agent's memory
// as markdown: MEMORY.md, curated long-term memory, and memory/YYYY-MM-DD.md
// (also YYYY-MM-DD-HHMM.md), the daily logs, whose lines often carry a
// stamp (`2026-02-19 22:13`) and whose headings a time of day ("## 22:13 -
// deploy"). The agent wrote them, so what they say is inferred. Beside them
// sit the agent's instructions (AGENTS.md, SOUL.md, TOOLS.md, HEARTBEAT.md,
// BOOTSTRAP.md, IDENTITY.md): instructions, not memory, and never imported.

// openclawMemory are the workspace's top-level files that hold memory.
var openclawMemory = map[string]bool{"MEMORY.md": true, "memory.md": true, "USER.md": true, "DECISIONS.md": true}

// skipNames are folders of old or deleted copies inside a store: their
// files are not current memory.
var skipNames = map[string]bool{".archive": true, "archive": true, ".trash": true, ".git": true, "node_modules": true}

// dailyFiles lists the dated files of dir (not recursive).
func dailyFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, en := range entries {
		if en.Type().IsRegular() && !dailyDate(en.Name()).IsZero() {
			out = append(out, filepath.Join(dir, en.Name()))
		}
	}
	return out
}

// collectOpenClaw reads a workspace: MEMORY.md, USER.md, DECISIONS.md and
// every markdown file under memory/ (daily files dated by their names).
// Every other top-level markdown file is reported as skipped, with why.
func collectOpenClaw(src string, e env) ([]item, error) {
	fi, err := os.Stat(src)
	if err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return nil, fmt.Errorf("%s: %w (give the OpenClaw workspace folder, e.g. ~/.openclaw/workspace)", src, err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	var items []item
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	for _, en := range entries {
		name := en.Name()
		if !en.Type().IsRegular() || !strings.HasSuffix(name, ".md") {
			continue
		}
		p := filepath.Join(abs, name)
		if !openclawMemory[name] {
			items = append(items, item{locator: "skip/" + p, skipped: &Refused{Where: p, Rule: "not-memory",
				Msg: "the agent's instructions or a working file, not its memory (OpenClaw keeps memory in MEMORY.md, USER.md and memory/): import it with mem import memory-md if you want it"}})
			continue
		}
		got, err := storeFileItems(p, e, frontmatter.Inferred)
		if err != nil {
			return nil, err
		}
		items = append(items, got...)
	}
	got, err := storeTreeItems(filepath.Join(abs, "memory"), e, frontmatter.Inferred)
	if err != nil {
		return nil, err
	}
	return append(items, got...), nil
}

// storeTreeItems imports every markdown file under dir, skipping folders
// of old copies (skipNames) and hidden ones.
func storeTreeItems(dir string, e env, provenance string) ([]item, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil && p == dir && errors.Is(err, fs.ErrNotExist):
			return filepath.SkipDir
		case err != nil:
			return err
		case d.IsDir() && p != dir && (skipNames[d.Name()] || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir
		case d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".md"):
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", dir, err)
	}
	sort.Strings(files)
	var items []item
	for _, p := range files {
		got, err := storeFileItems(p, e, provenance)
		if err != nil {
			return nil, err
		}
		items = append(items, got...)
	}
	return items, nil
}

// storeFileItems reads one file of a store: its entries and bullets, dated
// by their own stamps, their headings and the file's name.
func storeFileItems(p string, e env, provenance string) ([]item, error) {
	data, err := vault.ReadInput(p, maxMemoryMD)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if !markdown.Safe(data) {
		return nil, tooBig(p)
	}
	var mod frontmatter.Time
	if fi, err := os.Stat(p); err == nil {
		mod = frontmatter.NewTime(fi.ModTime())
	}
	return fileItems(mdFile{data: data, abs: p, locator: e.sourceName(p), provenance: provenance,
		project: e.project(filepath.Dir(p)), mod: mod, day: dailyDate(p)}), nil
}
