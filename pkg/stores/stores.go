// Package stores lists the memory stores the agent harnesses on this
// machine load for a directory — Claude Code's CLAUDE.md chain and its
// auto-memory folder, Codex's AGENTS.md chain and its memories folder —
// sizes them against each harness's load limit, finds the facts they share
// with the vault and the lines that contradict a current claim, and writes
// or removes a pointer saying the vault is canonical (spec §11).
package stores

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/mem-md/mem/pkg/claimtext"
	"github.com/mem-md/mem/pkg/rules"
)

// Options says where to look. Home and CodexHome come from the
// environment at the edge (cmd/mem), so tests give a fake one.
type Options struct {
	Dir       string // absolute working directory
	Home      string // the user's home: ~/.claude lives in it
	CodexHome string // $CODEX_HOME, default Home/.codex
	Claims    []Claim
}

// Claim is a current claim of the vault, by its summary (first line).
type Claim struct {
	ID   string
	Text string
}

// Limit is what a harness loads of a store at start; zero fields are
// unknown (no documented limit was found).
type Limit struct {
	Lines  int    `json:"lines,omitempty"`
	Bytes  int    `json:"bytes,omitempty"`
	Source string `json:"source"` // where the figure comes from, or "unknown"
}

// Store is one file a harness reads for the directory.
type Store struct {
	Harness  string  `json:"harness"` // claude-code or codex
	Kind     string  `json:"kind"`    // instructions, auto-memory, global, memories
	Path     string  `json:"path"`
	Scope    string  `json:"scope"`  // the folder it speaks for, or "every folder"
	Loaded   string  `json:"loaded"` // "at start" or "on demand"
	Exists   bool    `json:"exists"`
	Bytes    int     `json:"bytes"`
	Lines    int     `json:"lines"`
	Limit    Limit   `json:"limit"`
	Over     bool    `json:"over_limit"`
	Shared   []Match `json:"shared"`
	Conflict []Match `json:"contradicts"`
	Pointed  bool    `json:"pointed"`
}

// Match is a line of a store set against a vault claim.
type Match struct {
	Line  int    `json:"line"`
	Text  string `json:"text"`
	Claim string `json:"claim"` // the vault claim's id
}

// Load limits, each with where it is documented.
var (
	claudeMemoryLimit = Limit{Lines: 200, Bytes: 25 * 1024, Source: "Claude Code memory docs: the first 200 lines or 25 KB of MEMORY.md load at start"}
	codexDocLimit     = Limit{Bytes: 32 * 1024, Source: "Codex AGENTS.md docs: project_doc_max_bytes, 32 KiB by default, for the global file and the chain together"}
	unknownLimit      = Limit{Source: "unknown: no documented load limit"}
)

// ClaudeProjectDir is the folder name Claude Code gives a directory under
// ~/.claude/projects: every character that is not an ASCII letter or digit
// becomes '-', runs not collapsed, the leading '-' kept (observed on real
// folders; the rule other tools adopted, e.g. agentclientprotocol/
// claude-agent-acp#307, lossless-claude/lcm#534).
func ClaudeProjectDir(dir string) string {
	b := []byte(dir)
	for i, c := range b {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			b[i] = '-'
		}
	}
	return string(b)
}

// Find lists the stores loaded for o.Dir, in the order a harness reads
// them, with what they share with the vault and where they disagree.
func Find(o Options) ([]Store, error) {
	if !filepath.IsAbs(o.Dir) {
		return nil, fmt.Errorf("%s: give an absolute directory", o.Dir)
	}
	if o.CodexHome == "" {
		o.CodexHome = filepath.Join(o.Home, ".codex")
	}
	out := append(claudeStores(o), codexStores(o)...)
	if err := readStores(out, index(o.Claims)); err != nil {
		return nil, err
	}
	return out, nil
}

// claudeStores are Claude Code's: ~/.claude/CLAUDE.md, then CLAUDE.md
// files from the root down to the directory (it reads every one up to, not
// including, /), then the auto-memory index for the directory.
func claudeStores(o Options) []Store {
	out := []Store{{Harness: "claude-code", Kind: "global", Scope: everyFolder, Path: filepath.Join(o.Home, ".claude", "CLAUDE.md"), Loaded: "at start", Limit: unknownLimit}}
	for _, d := range ancestors(o.Dir) {
		for _, name := range []string{"CLAUDE.md", filepath.Join(".claude", "CLAUDE.md"), "CLAUDE.local.md"} {
			if p := filepath.Join(d, name); isFile(p) {
				out = append(out, Store{Harness: "claude-code", Kind: "instructions", Scope: d, Path: p, Loaded: "at start", Limit: unknownLimit})
			}
		}
	}
	// Claude Code keys the folder by the directory, and recent versions by
	// the git root it is in: list both when they differ.
	roots := []string{o.Dir}
	if g := gitRoot(o.Dir); g != "" && g != o.Dir {
		roots = append(roots, g)
	}
	for _, r := range roots {
		p := filepath.Join(o.Home, ".claude", "projects", ClaudeProjectDir(r), "memory", "MEMORY.md")
		if r == o.Dir || isFile(p) {
			out = append(out, Store{Harness: "claude-code", Kind: "auto-memory", Scope: r, Path: p, Loaded: "at start", Limit: claudeMemoryLimit})
		}
	}
	return out
}

// codexStores are Codex's: the global file in its home (an override
// first), then one file per directory from the git root down to the
// directory (only the directory outside a repository); memory_summary.md
// of its memories folder is loaded at start, MEMORY.md searched on demand.
func codexStores(o Options) []Store {
	out := []Store{{Harness: "codex", Kind: "global", Scope: everyFolder, Path: codexFile(o.CodexHome), Loaded: "at start", Limit: codexDocLimit}}
	chain := []string{o.Dir}
	if g := gitRoot(o.Dir); g != "" {
		chain = chain[:0]
		for _, d := range ancestors(o.Dir) {
			if d == g || strings.HasPrefix(d, g+string(filepath.Separator)) {
				chain = append(chain, d)
			}
		}
	}
	for _, d := range chain {
		if p := codexFile(d); isFile(p) {
			out = append(out, Store{Harness: "codex", Kind: "instructions", Scope: d, Path: p, Loaded: "at start", Limit: codexDocLimit})
		}
	}
	mdir := filepath.Join(o.CodexHome, "memories")
	return append(out,
		Store{Harness: "codex", Kind: "memories", Scope: everyFolder, Path: filepath.Join(mdir, "memory_summary.md"), Loaded: "at start", Limit: unknownLimit},
		Store{Harness: "codex", Kind: "memories", Scope: everyFolder, Path: filepath.Join(mdir, "MEMORY.md"), Loaded: "on demand", Limit: unknownLimit})
}

// readStores fills in each store that exists: its size, whether it is over its
// limit (Codex's instruction files together, as it concatenates them) or
// points to the vault, and what it shares with idx's claims or contradicts.
func readStores(list []Store, idx claimIndex) error {
	codexTotal := 0
	for i := range list {
		s := &list[i]
		data, err := os.ReadFile(s.Path)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return err
		}
		s.Exists, s.Bytes, s.Lines = true, len(data), lineCount(data)
		s.Pointed = bytes.Contains(data, []byte(pointerStart))
		if s.Harness == "codex" && s.Limit == codexDocLimit {
			codexTotal += s.Bytes // the limit is on the concatenation
			s.Over = codexTotal > s.Limit.Bytes
		} else {
			s.Over = s.Limit.Lines > 0 && s.Lines > s.Limit.Lines || s.Limit.Bytes > 0 && s.Bytes > s.Limit.Bytes
		}
		s.Shared, s.Conflict = idx.compare(data)
	}
	return nil
}

const everyFolder = "every folder"

// ancestors is dir and every folder above it, from the top down, without /.
func ancestors(dir string) []string {
	var up []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if d == filepath.Dir(d) {
			break
		}
		up = append(up, d)
	}
	for i, j := 0, len(up)-1; i < j; i, j = i+1, j-1 {
		up[i], up[j] = up[j], up[i]
	}
	return up
}

func gitRoot(dir string) string {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return ""
		}
	}
}

// codexFile is the file Codex reads in dir: AGENTS.override.md when it
// exists, else AGENTS.md.
func codexFile(dir string) string {
	if p := filepath.Join(dir, "AGENTS.override.md"); isFile(p) {
		return p
	}
	return filepath.Join(dir, "AGENTS.md")
}

func isFile(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

func lineCount(data []byte) int {
	n := bytes.Count(data, []byte("\n"))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// claimIndex holds the current claims by their normalised text and by
// their subject.
type claimIndex struct {
	byText    map[string]string
	bySubject map[string][]subjectClaim
}

type subjectClaim struct {
	id   string
	fact claimtext.Fact
}

func index(claims []Claim) claimIndex {
	x := claimIndex{byText: map[string]string{}, bySubject: map[string][]subjectClaim{}}
	for _, c := range claims {
		t := normalise(c.Text)
		if t == "" {
			continue
		}
		if _, ok := x.byText[t]; !ok {
			x.byText[t] = c.ID
		}
		if f, ok := claimtext.ParseFact(c.Text); ok {
			x.bySubject[f.Subject] = append(x.bySubject[f.Subject], subjectClaim{c.ID, f})
		}
	}
	return x
}

// compare sets each line of a store against the claims: the same
// normalised text is a shared fact; the same subject and relation with a value that
// denies the claim's (claimtext.ParseFact, Fact.Contradicts)
// contradicts it.
func (x claimIndex) compare(data []byte) (shared, conflict []Match) {
	inZone := false
	for i, line := range strings.Split(string(data), "\n") {
		switch strings.TrimSpace(line) {
		case zoneBegin:
			inZone = true
		case zoneEnd:
			inZone = false
		}
		t := normalise(line)
		if inZone || t == "" {
			continue // mem's own zone holds the pointer or a rendered view
		}
		shown := rules.Show(strings.TrimSpace(line))
		if id, ok := x.byText[t]; ok {
			shared = append(shared, Match{Line: i + 1, Text: shown, Claim: id})
			continue
		}
		f, ok := claimtext.ParseFact(strip(line))
		if !ok {
			continue
		}
		for _, c := range x.bySubject[f.Subject] {
			if c.fact.Contradicts(f) {
				conflict = append(conflict, Match{Line: i + 1, Text: shown, Claim: c.id})
				break
			}
		}
	}
	return shared, conflict
}

// listMarker is what a markdown line starts with before its text.
var listMarker = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\s*(?:[-*+]\s+(?:\[[ xX]\]\s+)?|\d+[.)]\s+|#+\s+|>\s*)`)
})

// normalise is a line's text as claims are compared (claimtext.Normalise),
// without its list marker and emphasis.
func normalise(line string) string {
	return claimtext.Normalise(strings.ReplaceAll(strip(line), "`", ""))
}

// strip is a line's text without its list marker and emphasis.
func strip(line string) string {
	line = listMarker().ReplaceAllString(line, "")
	return strings.TrimSpace(strings.NewReplacer("**", "", "__", "").Replace(line))
}
