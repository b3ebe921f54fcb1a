package vault

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/mem-md/mem/pkg/gitrepo/ignore"
)

// ConfigFile is the file whose presence marks a vault root.
const ConfigFile = "mem.yaml"

// Config is mem.yaml. Every key is optional; Defaults fills the gaps.
type Config struct {
	// Ignore are paths mem never reads, in .gitignore's syntax (Ignores).
	Ignore      []string     `yaml:"ignore,omitempty"`
	DurableTags []string     `yaml:"durable_tags,omitempty"`
	Author      AuthorConfig `yaml:"author,omitempty"`
	Render      RenderConfig `yaml:"render,omitempty"`
	Gate        GateConfig   `yaml:"gate,omitempty"`
	Lint        LintConfig   `yaml:"lint,omitempty"`
	Audit       AuditConfig  `yaml:"audit,omitempty"`
	Backup      BackupConfig `yaml:"backup,omitempty"`
	Sync        SyncConfig   `yaml:"sync,omitempty"`
	Commit      CommitConfig `yaml:"commit,omitempty"`
	Consolidate struct {
		// ReviewAfter: an import waiting longer for review is proposed
		// for a decision by mem consolidate ("336h"; default 14 days).
		ReviewAfter time.Duration `yaml:"review_after,omitempty"`
	} `yaml:"consolidate,omitempty"`
	// OKF declares the vault an OKF bundle: OKF's file rules (index.md,
	// log.md, attested computations) apply to it (docs/lint.md).
	OKF bool `yaml:"okf,omitempty"`

	ignore ignore.Patterns // Ignore, parsed once by decodeConfig
}

// Ignores reports whether mem.yaml's ignore: leaves out rel, a slash path
// from the vault root (isDir: a folder, whose files are then all left
// out). The patterns mean what they mean in a .gitignore, the dialect of
// the commit path too: a pattern without a slash ("*.draft.md", "drafts/")
// matches at any depth, one with a slash is anchored at the vault root,
// "**" crosses folders, a trailing "/" matches only folders and a leading
// "!" takes a path back; the last matching pattern wins.
func (c *Config) Ignores(rel string, isDir bool) bool {
	if len(c.Ignore) == 0 {
		return false
	}
	pats := c.ignore
	if len(pats) != len(c.Ignore) {
		pats = ignore.Parse(c.Ignore, nil) // a Config built by hand, not decoded
	}
	return pats.Match(strings.Split(rel, "/"), isDir)
}

// SyncConfig holds the settings of mem sync (docs/sync.md).
type SyncConfig struct {
	// Remote is the default remote of mem sync: a path, a URL or a git
	// remote name, written by the first 'mem sync REMOTE' or 'mem clone'.
	Remote string `yaml:"remote,omitempty"`
	// Interval between mem watch's syncs ("15m"); unset, it does not sync.
	Interval time.Duration `yaml:"interval,omitempty"`
}

// CommitConfig holds the settings of mem watch's commits (docs/watch.md).
type CommitConfig struct {
	// Interval between mem watch's commits ("30m", "2h"; default 1h).
	Interval time.Duration `yaml:"interval,omitempty"`
}

// AuthorConfig names the git author of mem commit.
type AuthorConfig struct {
	Name  string `yaml:"name,omitempty"`
	Email string `yaml:"email,omitempty"`
}

// BackupConfig holds the settings of mem backup (docs/history.md).
type BackupConfig struct {
	// To is the default backup target (a path, a URL or a git remote name)
	// used when mem backup runs without --to, as a schedule does; the
	// first verified 'mem backup --to' writes it when it is unset.
	To string `yaml:"to,omitempty"`
}

// RenderConfig holds the render settings (spec §5).
type RenderConfig struct {
	Budget              int            `yaml:"budget,omitempty"`
	Sections            []string       `yaml:"sections,omitempty"`
	MinGlobalImportance int            `yaml:"min_global_importance,omitempty"`
	Outputs             []RenderOutput `yaml:"outputs,omitempty"`
	// Unreviewed says where an agent's claim no person accepted renders
	// (spec §5.2b): UnreviewedTier (the default), UnreviewedHold or
	// UnreviewedRender; UnreviewedBudget bounds the tier's bytes.
	Unreviewed       string `yaml:"unreviewed,omitempty"`
	UnreviewedBudget int    `yaml:"unreviewed_budget,omitempty"`
}

// The values of render.unreviewed (docs/config.md).
const (
	UnreviewedTier   = "tier"   // a last tier of its own, marked, within render.unreviewed_budget
	UnreviewedHold   = "hold"   // never, until a person accepts it
	UnreviewedRender = "render" // as any claim: the old behaviour, unsafe
)

// RenderOutput is one file kept up to date by `mem render --all` and `mem watch`.
type RenderOutput struct {
	Path    string `yaml:"path"`
	Cwd     string `yaml:"cwd,omitempty"`
	Project string `yaml:"project,omitempty"`
	Splice  bool   `yaml:"splice,omitempty"`
	Budget  int    `yaml:"budget,omitempty"`
}

// GateConfig holds the promotion gate thresholds (spec §6).
type GateConfig struct {
	MinWeight   float64 `yaml:"min_weight,omitempty"`
	MinSessions int     `yaml:"min_sessions,omitempty"`
	HalfAfter   int     `yaml:"half_after_days,omitempty"`
}

// LintConfig holds lint limits.
type LintConfig struct {
	MaxFileSize     int64   `yaml:"max_file_size,omitempty"`
	MassDeleteShare float64 `yaml:"mass_delete_share,omitempty"`
	// MassDeleteMin is the fewest deleted memories that can trip the
	// mass-deletion guard, so pruning a small vault is not refused.
	MassDeleteMin int `yaml:"mass_delete_min,omitempty"`
	// RequireFrontmatter makes a plain note (no frontmatter) a lint error
	// instead of a warning, for vaults that want every file typed.
	RequireFrontmatter bool `yaml:"require_frontmatter,omitempty"`
}

// IsMassDeletion is the one mass-deletion rule that lint --staged, commit
// and backup share: removing at least MassDeleteMin of before memories, and
// more than MassDeleteShare of them.
func (c LintConfig) IsMassDeletion(removed, before int) bool {
	return before > 0 && removed >= c.MassDeleteMin && float64(removed) > c.MassDeleteShare*float64(before)
}

// AuditConfig holds the thresholds past which `mem audit` exits 1.
// Pointers, so that an explicit 0 (zero tolerance) differs from an absent
// key (pkg/audit's default); a negative value turns the check off.
// docs/audit.md lists the defaults and why.
type AuditConfig struct {
	MaxMissingValidAtShare *float64 `yaml:"max_missing_valid_at_share,omitempty"`
	MaxImportClusterShare  *float64 `yaml:"max_import_cluster_share,omitempty"`
	// MinImportCluster is the fewest imported memories on one day that can
	// count as a collapse, so a small import on one afternoon does not.
	MinImportCluster  *int     `yaml:"min_import_cluster,omitempty"`
	MaxOrphanProjects *int     `yaml:"max_orphan_projects,omitempty"`
	MaxStale          *int     `yaml:"max_stale,omitempty"`
	MaxConflicts      *int     `yaml:"max_conflicts,omitempty"`
	MaxDuplicates     *int     `yaml:"max_duplicates,omitempty"`
	MaxFossils        *int     `yaml:"max_fossils,omitempty"`
	MaxIndexChanged   *int     `yaml:"max_index_changed,omitempty"`
	MaxCommitAgeHours *float64 `yaml:"max_commit_age_hours,omitempty"`
	MaxBackupAgeHours *float64 `yaml:"max_backup_age_hours,omitempty"`
}

// Defaults used where mem.yaml is silent.
const (
	DefaultBudget              = 8192
	DefaultUnreviewedBudget    = 1024
	defaultMinGlobalImportance = 7
	defaultMaxFileSize         = 1 << 20
	defaultMassDeleteShare     = 0.20
	defaultMassDeleteMin       = 5
)

func (c *Config) applyDefaults() {
	if c.Render.Budget == 0 {
		c.Render.Budget = DefaultBudget
	}
	if len(c.Render.Sections) == 0 {
		c.Render.Sections = []string{"Identity", "Preferences", "Decisions", "Notes"}
	}
	if c.Render.MinGlobalImportance == 0 {
		c.Render.MinGlobalImportance = defaultMinGlobalImportance
	}
	if c.Render.Unreviewed == "" {
		c.Render.Unreviewed = UnreviewedTier
	}
	if c.Render.UnreviewedBudget == 0 {
		c.Render.UnreviewedBudget = DefaultUnreviewedBudget
	}
	if c.Gate.MinWeight == 0 {
		c.Gate.MinWeight = 3
	}
	if c.Gate.MinSessions == 0 {
		c.Gate.MinSessions = 2
	}
	if c.Gate.HalfAfter == 0 {
		c.Gate.HalfAfter = 30
	}
	if c.Lint.MaxFileSize == 0 {
		c.Lint.MaxFileSize = defaultMaxFileSize
	}
	if c.Lint.MassDeleteShare == 0 {
		c.Lint.MassDeleteShare = defaultMassDeleteShare
	}
	if c.Lint.MassDeleteMin == 0 {
		c.Lint.MassDeleteMin = defaultMassDeleteMin
	}
	if len(c.DurableTags) == 0 {
		c.DurableTags = []string{"durable"}
	}
}

// maxConfigSize caps mem.yaml. Every command reads it first, and YAML
// decoding costs far more than the bytes (a 50 MB file took 6-21 s and
// 400-630 MB in every command); settings fit in a few KiB.
const maxConfigSize = 1 << 20

// loadConfig reads root/mem.yaml. A missing or empty file is all defaults;
// garbage is an error naming the file and line.
func loadConfig(root string) (Config, error) {
	path := filepath.Join(root, ConfigFile)
	data, err := readConfig(path)
	if err != nil && !os.IsNotExist(err) {
		return Config{}, err
	}
	return decodeConfig(path, data)
}

func decodeConfig(path string, data []byte) (Config, error) {
	var c Config
	if len(bytes.TrimSpace(data)) > 0 {
		dec := yaml.NewDecoder(bytes.NewReader(data))
		dec.KnownFields(true)
		if err := dec.Decode(&c); err != nil && err != io.EOF {
			return c, fmt.Errorf("%s: %v (fix mem.yaml; every key is optional, see docs/config.md)", path, err)
		}
	}
	switch c.Render.Unreviewed {
	case "", UnreviewedTier, UnreviewedHold, UnreviewedRender:
	default:
		return c, fmt.Errorf("%s: render.unreviewed: %q: want tier (the default), hold or render (see docs/config.md)", path, c.Render.Unreviewed)
	}
	if c.Render.UnreviewedBudget < 0 {
		return c, fmt.Errorf("%s: render.unreviewed_budget: %d: give a number of bytes (default 1024), or render.unreviewed: hold to render none", path, c.Render.UnreviewedBudget)
	}
	c.applyDefaults()
	c.ignore = ignore.Parse(c.Ignore, nil)
	return c, nil
}

// readConfig reads path, refusing a file over maxConfigSize. It reads at
// most one byte past the cap, so the check holds for a file that grows
// while it is read, or whose size stat cannot tell (a FIFO).
func readConfig(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, err
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxConfigSize+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(data) > maxConfigSize {
		size := int64(len(data))
		if fi, err := f.Stat(); err == nil && fi.Size() > size {
			size = fi.Size()
		}
		return nil, fmt.Errorf("%s: %d bytes, over the %d-byte limit of mem.yaml: it holds settings only (see docs/config.md); remove what is not a setting", path, size, maxConfigSize)
	}
	return data, nil
}

// setString sets the dotted key in the mapping m to the string value,
// making the mappings on the way that are missing.
func setString(m *yaml.Node, key, value string) error {
	parts := strings.Split(key, ".")
	for i, part := range parts {
		if m.Kind != yaml.MappingNode {
			return fmt.Errorf("%s is not a mapping: fix mem.yaml, see docs/config.md", strings.Join(parts[:i], "."))
		}
		if i == len(parts)-1 {
			setKey(m, part, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value})
			break
		}
		next := mapGet(m, part)
		if next == nil {
			next = &yaml.Node{Kind: yaml.MappingNode}
			setKey(m, part, next)
		}
		m = next
	}
	return nil
}

// SetConfig sets one string key of root/mem.yaml, such as "sync.remote",
// keeping the rest of the file (comments and order) as it is. The file is
// written atomically and read back, so a write that would make mem.yaml
// unreadable is refused and leaves it unchanged.
func SetConfig(root, key, value string) error {
	path := filepath.Join(root, ConfigFile)
	data, err := readConfig(path)
	if err != nil && !os.IsNotExist(err) {
		return err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %v (fix mem.yaml, see docs/config.md)", path, err)
	}
	// A file of comments alone (as mem init writes it) has no node to keep
	// them on: the new mapping goes after them, as text.
	var head []byte
	if len(doc.Content) == 0 {
		doc = yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{{Kind: yaml.MappingNode}}}
		if head = data; len(head) > 0 && head[len(head)-1] != '\n' {
			head = append(head, '\n')
		}
	}
	if err := setString(doc.Content[0], key, value); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	var buf bytes.Buffer
	buf.Write(head)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	enc.Close()
	if _, err := decodeConfig(path, buf.Bytes()); err != nil {
		return fmt.Errorf("setting %s would make mem.yaml unreadable, so nothing was changed: %v", key, err)
	}
	return WriteFileAtomic(path, buf.Bytes(), FileMode())
}

// configMapping is mem.yaml's top-level mapping node: an empty one for an
// empty or absent file, nil when the text is not YAML or not a mapping.
func configMapping(data []byte) *yaml.Node {
	var n yaml.Node
	if yaml.Unmarshal(data, &n) != nil {
		return nil
	}
	// A key given twice is refused by the decoder that loads mem.yaml,
	// while a node tree keeps both and every lookup sees the first: such a
	// file is no mapping to merge or compare key by key (a remote's
	// second sync: would pass unseen and break every command here).
	var strict any
	if yaml.Unmarshal(data, &strict) != nil {
		return nil
	}
	if len(n.Content) == 0 {
		return &yaml.Node{Kind: yaml.MappingNode}
	}
	if n.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return n.Content[0]
}

// MergeConfig is mem sync's three-way merge of mem.yaml: key by key, nested
// mappings recursively, and a key both sides set differently takes
// theirs when theirsLater (the later commit), else ours; decided names
// those keys ("sync.remote"). ok is false when ours or theirs is not a
// YAML mapping (the caller keeps the later file whole); an unreadable
// base counts as empty. Like SetConfig it edits yaml.v3 nodes, so
// comments and key order stay; pkg/vault is the one reader of mem.yaml's
// YAML (internal/archtest).
func MergeConfig(base, ours, theirs []byte, theirsLater bool) (merged []byte, decided []string, ok bool) {
	o, t, b := configMapping(ours), configMapping(theirs), configMapping(base)
	if o == nil || t == nil {
		return nil, nil, false
	}
	if b == nil {
		b = &yaml.Node{Kind: yaml.MappingNode}
	}
	mergeMapping(o, t, b, "", theirsLater, &decided)
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2) // as mem init and people write it
	if err := enc.Encode(o); err != nil || enc.Close() != nil {
		return nil, nil, false
	}
	return buf.Bytes(), decided, true
}

func mapGet(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func nodeText(n *yaml.Node) string {
	if n == nil {
		return "\x00absent"
	}
	b, _ := yaml.Marshal(n)
	return string(b)
}

// mergeMapping merges t into o against b, in place.
func mergeMapping(o, t, b *yaml.Node, prefix string, theirsLater bool, decided *[]string) {
	var keys []string
	seen := map[string]bool{}
	for _, m := range []*yaml.Node{o, t, b} {
		for i := 0; i+1 < len(m.Content); i += 2 {
			if k := m.Content[i].Value; !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	for _, k := range keys {
		ov, tv, bv := mapGet(o, k), mapGet(t, k), mapGet(b, k)
		os_, ts, bs := nodeText(ov), nodeText(tv), nodeText(bv)
		switch {
		case os_ == ts, ts == bs:
			continue
		case os_ == bs:
			setKey(o, k, tv)
		case ov != nil && tv != nil && ov.Kind == yaml.MappingNode && tv.Kind == yaml.MappingNode:
			if bv == nil || bv.Kind != yaml.MappingNode {
				bv = &yaml.Node{Kind: yaml.MappingNode}
			}
			mergeMapping(ov, tv, bv, prefix+k+".", theirsLater, decided)
		default:
			if theirsLater {
				setKey(o, k, tv)
			}
			*decided = append(*decided, prefix+k)
		}
	}
}

// setKey sets, adds (v non-nil) or removes (v nil) key k of mapping m.
func setKey(m *yaml.Node, k string, v *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == k {
			if v == nil {
				m.Content = append(m.Content[:i], m.Content[i+2:]...)
			} else {
				m.Content[i+1] = v
			}
			return
		}
	}
	if v != nil {
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: k}, v)
	}
}

// ContentKeys are the mem.yaml keys that describe the vault's content and
// change nothing this machine does, so a remote may change them (spec §9,
// docs/sync.md): every other key is this machine's.
var ContentKeys = []string{"okf"}

// ConfigChanges lists the keys whose values differ between two versions
// of mem.yaml, dotted ("sync.remote", "render.outputs"): nested mappings
// key by key, any other value whole; comments and order do not count. ok
// is false when either version is not a YAML mapping (absent or empty is
// an empty one).
func ConfigChanges(a, b []byte) (keys []string, ok bool) {
	na, nb := configMapping(a), configMapping(b)
	if na == nil || nb == nil {
		return nil, false
	}
	diffMapping(na, nb, "", &keys)
	return keys, true
}

func diffMapping(a, b *yaml.Node, prefix string, out *[]string) {
	seen := map[string]bool{}
	for _, m := range []*yaml.Node{a, b} {
		for i := 0; i+1 < len(m.Content); i += 2 {
			k := m.Content[i].Value
			if seen[k] {
				continue
			}
			seen[k] = true
			av, bv := mapGet(a, k), mapGet(b, k)
			empty := &yaml.Node{Kind: yaml.MappingNode}
			if av == nil && bv != nil && bv.Kind == yaml.MappingNode {
				av = empty // a section one side adds: named key by key
			}
			if bv == nil && av != nil && av.Kind == yaml.MappingNode {
				bv = empty
			}
			switch {
			case av != nil && bv != nil && av.Kind == yaml.MappingNode && bv.Kind == yaml.MappingNode:
				diffMapping(av, bv, prefix+k+".", out)
			case nodeValue(av) != nodeValue(bv):
				*out = append(*out, prefix+k)
			}
		}
	}
}

// nodeValue is a node's value without its comments, to compare.
func nodeValue(n *yaml.Node) string {
	if n == nil {
		return "\x00absent"
	}
	var v any
	if n.Decode(&v) != nil {
		return nodeText(n)
	}
	b, _ := yaml.Marshal(v)
	return string(b)
}
