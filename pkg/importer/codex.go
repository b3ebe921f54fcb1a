package importer

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/markdown"
	"github.com/mem-md/mem/pkg/vault"
)

// Codex keeps generated memory in ~/.codex/memories (openai/codex,
// codex-rs/core/templates/memories/consolidation.md): MEMORY.md, blocks of
// a `---` header (rollout_summary_files, each annotated with
// updated_at=<time>; description; keywords) and bullets; memory_summary.md,
// a profile and tips; rollout_summaries/*.md, one recap per session
// ("thread_id: …", "updated_at: …" lines, or a <timestamp>-<slug> name);
// raw_memories.md, the merge the next consolidation reads; skills/,
// procedures. A model wrote all of it: inferred.

var (
	codexUpdatedRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`updated_at\s*[=:]\s*(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})?)`)
	})
	codexThreadRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^thread_id:\s*(\S+)`) })
	// A rollout summary named <timestamp>-<slug>.md: 2026-02-12T10-30-00-fix-ci.md.
	codexNameTimeRe = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^(\d{4}-\d{2}-\d{2})(?:T(\d{2})[-:](\d{2})(?:[-:](\d{2}))?)?`)
	})
)

// collectCodex reads a Codex memories folder.
func collectCodex(src string, e env) ([]item, error) {
	fi, err := os.Stat(src)
	if err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return nil, fmt.Errorf("%s: %w (give Codex's memories folder, ~/.codex/memories by default)", src, err)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", src, err)
	}
	var items []item
	for _, en := range entries {
		got, err := codexEntry(filepath.Join(abs, en.Name()), en, e)
		if err != nil {
			return nil, err
		}
		items = append(items, got...)
	}
	return items, nil
}

// codexEntry reads one entry of the memories folder at p by what Codex
// keeps there.
func codexEntry(p string, en fs.DirEntry, e env) ([]item, error) {
	skip := func(why string) ([]item, error) {
		return []item{{locator: "skip/" + p, skipped: &Refused{Where: p, Rule: "not-memory", Msg: why}}}, nil
	}
	name := en.Name()
	switch {
	case en.IsDir() && name == "rollout_summaries":
		return codexRollouts(p, e)
	case en.IsDir() && name == "skills":
		return skip("Codex's skills are procedures for the agent, not memories")
	case en.IsDir() && !skipNames[name] && !strings.HasPrefix(name, "."):
		return storeTreeItems(p, e, frontmatter.Inferred)
	case !en.Type().IsRegular() || !strings.HasSuffix(name, ".md"):
		return nil, nil
	case name == "raw_memories.md":
		return skip("Codex's working merge of the sessions' raw memories, which rollout_summaries/ and MEMORY.md hold")
	case name == "MEMORY.md":
		return codexMemory(p, e)
	}
	return storeFileItems(p, e, frontmatter.Inferred)
}

// codexMemory reads MEMORY.md: each `---` header block is replaced by one
// heading holding its description and its latest updated_at, so the
// bullets under it are dated by the sessions they came from, and the
// file's lines keep their numbers.
func codexMemory(p string, e env) ([]item, error) {
	data, err := vault.ReadInput(p, maxMemoryMD)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", p, err)
	}
	if !markdown.Safe(data) {
		return nil, tooBig(p)
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	codexHeaders(lines)
	codexGroups(lines)
	var mod frontmatter.Time
	if fi, err := os.Stat(p); err == nil {
		mod = frontmatter.NewTime(fi.ModTime())
	}
	return fileItems(mdFile{data: []byte(strings.Join(lines, "\n")), abs: p, locator: e.sourceName(p),
		provenance: frontmatter.Inferred, mod: mod}), nil
}

// codexHeaders replaces, in place, each `---` header block of MEMORY.md
// that describes sessions by one heading: its latest updated_at and its
// description. The other lines of the block are blanked, so lines keep
// their numbers.
func codexHeaders(lines []string) {
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "---" {
			continue
		}
		end := slices.IndexFunc(lines[i+1:], func(l string) bool { return strings.TrimSpace(l) == "---" })
		if end < 0 {
			break
		}
		end += i + 1
		header := strings.Join(lines[i+1:end], "\n")
		if !strings.Contains(header, "rollout_summary_files") && !strings.Contains(header, "description:") {
			continue
		}
		desc := "Codex memory"
		for _, l := range lines[i+1 : end] {
			if d, ok := strings.CutPrefix(strings.TrimSpace(l), "description:"); ok && strings.TrimSpace(d) != "" {
				desc = strings.TrimSpace(d)
			}
		}
		for j := i; j <= end; j++ {
			lines[j] = ""
		}
		lines[i] = strings.TrimSpace("## " + latestUpdated(header, "") + " " + desc)
		i = end
	}
}

// latestUpdated is the later of latest and every updated_at time text
// names, as "2006-01-02 15:04:05" ("" when neither is).
func latestUpdated(text, latest string) string {
	for _, m := range codexUpdatedRe().FindAllStringSubmatch(text, -1) {
		if t, err := frontmatter.ParseTime(m[1]); err == nil {
			latest = max(latest, t.UTC().Format("2006-01-02 15:04:05"))
		}
	}
	return latest
}

// codexGroups reads Codex's later MEMORY.md layout in place: "# Task
// Group: …" sections whose "## Task N" parts list their sessions under
// "### rollout_summary_files" (each annotated with updated_at=…) and
// "### keywords", then "## User preferences", "## Reusable knowledge" …
// bullets. The lists of sessions and keywords are the block's metadata,
// not claims: they are blanked (lines keep their numbers), and the group's
// heading gains the latest updated_at they name, so every claim under it is
// dated by the sessions it came from.
func codexGroups(lines []string) {
	group, latest := -1, ""
	finish := func() {
		if group >= 0 && latest != "" {
			lines[group] += " (" + latest + ")"
		}
	}
	meta := false
	for i, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case strings.HasPrefix(t, "# "):
			finish()
			group, latest, meta = i, "", false
		case strings.HasPrefix(t, "#"):
			name := strings.ToLower(strings.TrimSpace(strings.TrimLeft(t, "#")))
			meta = name == "rollout_summary_files" || name == "keywords"
		}
		if group >= 0 {
			latest = latestUpdated(l, latest)
		}
		if meta {
			lines[i] = ""
		}
	}
	finish()
}

// codexRollouts makes each rollout summary a note, dated by its updated_at
// line or its name's timestamp, else undated.
func codexRollouts(dir string, e env) ([]item, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	sort.Strings(files)
	var items []item
	for _, p := range files {
		data, err := vault.ReadInput(p, maxMemoryMD)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, err)
		}
		body := strings.TrimSpace(string(data))
		if body == "" {
			continue
		}
		var at frontmatter.Time
		if m := codexUpdatedRe().FindStringSubmatch(body); m != nil {
			if t, err := frontmatter.ParseTime(m[1]); err == nil {
				at = frontmatter.NewTime(t.Time)
			}
		} else if m := codexNameTimeRe().FindStringSubmatch(filepath.Base(p)); m != nil {
			s := m[1]
			if m[2] != "" {
				s += " " + m[2] + ":" + m[3]
			}
			if t, err := frontmatter.ParseTime(s); err == nil {
				at = t
			}
		}
		id := strings.TrimSuffix(filepath.Base(p), ".md")
		if m := codexThreadRe().FindStringSubmatch(body); m != nil {
			id = m[1]
		}
		title := firstLine(codexTitle(body, id), 120)
		items = append(items, item{
			locator: "rollout/" + id, Type: frontmatter.TypeFact, provenance: frontmatter.Inferred,
			text: "Codex session summary: " + title, title: title, note: body, validAt: at, project: "",
			source: frontmatter.Source{Resource: p, ID: id, Title: title},
		})
	}
	return items, nil
}

// codexTitle is a rollout summary's first heading, else its first line
// that is not a header field (thread_id:, updated_at:, cwd: …), else the
// thread id.
func codexTitle(body, id string) string {
	first := ""
	for _, l := range strings.Split(body, "\n") {
		l = strings.TrimSpace(l)
		if h, ok := strings.CutPrefix(l, "#"); ok {
			return strings.TrimSpace(strings.TrimLeft(h, "#"))
		}
		if first == "" && l != "" && labelOf(l) == "" {
			first = l
		}
	}
	return cmp.Or(first, "session "+id)
}
