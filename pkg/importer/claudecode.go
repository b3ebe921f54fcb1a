package importer

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
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

// Claude Code keeps one folder per working directory under
// ~/.claude/projects (the cwd with '/' and '.' turned into '-'). In it,
// <session>.jsonl transcripts, one JSON object per line: user and assistant
// lines carry cwd, sessionId, an RFC 3339 timestamp and an Anthropic
// Messages `message` whose content is a string or a list of blocks; summary
// and custom-title lines name the session. Auto-memory lives in memory/:
// MEMORY.md, an index of pointer lines, and topic files whose frontmatter
// has name, description and type (user, feedback, project, reference).

type ccLine struct {
	Type        string `json:"type"`
	Cwd         string `json:"cwd"`
	SessionID   string `json:"sessionId"`
	Timestamp   string `json:"timestamp"`
	IsMeta      bool   `json:"isMeta"`
	IsSidechain bool   `json:"isSidechain"`
	Summary     string `json:"summary"`
	CustomTitle string `json:"customTitle"`
	Message     *struct {
		Content json.RawMessage `json:"content"`
	} `json:"message"`
}

type ccBlock struct {
	Type  string `json:"type"`
	Text  string `json:"text"`
	Name  string `json:"name"`
	Input struct {
		FilePath string `json:"file_path"`
	} `json:"input"`
}

type ccMessage struct {
	at   frontmatter.Time
	text string
}

// transcript is what one session file says.
type transcript struct {
	session     string
	cwds        map[string]int // how many lines ran in each cwd
	first, last frontmatter.Time
	summary     string // the first summary line
	customTitle string // a title the user set; wins over summary
	messages    []ccMessage
	// memWrites maps each path a Write or Edit tool call touched to its
	// latest time, so auto-memory files get the time Claude wrote them.
	memWrites map[string]frontmatter.Time
}

// title names the session: the user's title, else Claude Code's summary,
// else the first thing the user said.
func (t *transcript) title() string {
	switch {
	case t.customTitle != "":
		return t.customTitle
	case t.summary != "":
		return t.summary
	case len(t.messages) > 0:
		return t.messages[0].text
	}
	return t.session
}

// commandMarkup starts user lines that are slash-command plumbing, not
// something the user said.
var commandMarkup = []string{"<command-", "<local-command-", "[Request interrupted"}

// maxTranscriptLine caps one transcript line. Decoding a line costs several
// times its size (a one-line 300 MB transcript took 2.4 GB); lines this long
// carry tool output or pasted images, not what the user typed.
const maxTranscriptLine = 8 << 20

// parseTranscript reads one JSONL transcript. A line that is not JSON, or
// longer than maxTranscriptLine, is skipped with a warning naming
// file:line; the rest still import.
func parseTranscript(r io.Reader, name string, e env) (*transcript, error) {
	t := &transcript{cwds: map[string]int{}, memWrites: map[string]frontmatter.Time{}}
	br := bufio.NewReader(r)
	for n := 1; ; n++ {
		raw, size, err := readLine(br, e.transcriptLine())
		switch {
		case size > e.transcriptLine():
			e.warnf("%s:%d: line skipped: %d bytes, over the %d-byte limit of a transcript line", name, n, size, e.transcriptLine())
		case len(bytes.TrimSpace(raw)) > 0:
			var l ccLine
			if jerr := json.Unmarshal(raw, &l); jerr != nil {
				e.warnf("%s:%d: line skipped: %v", name, n, jerr)
			} else {
				t.add(&l)
			}
		}
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, n, err)
		}
	}
}

// readLine reads through the next newline and returns the line's size. A
// line over limit bytes is read to its end but not kept (line is nil), so
// memory stays bounded by limit.
func readLine(br *bufio.Reader, limit int) (line []byte, size int, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		size += len(chunk)
		if size <= limit {
			line = append(line, chunk...)
		} else {
			line = nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return line, size, err
		}
	}
}

// add takes one line of the transcript: its title or summary, its
// session, time and cwd, and what a user said or which files an
// assistant's tools wrote.
func (t *transcript) add(l *ccLine) {
	switch l.Type {
	case "summary":
		if t.summary == "" {
			t.summary = strings.TrimSpace(l.Summary)
		}
		return
	case "custom-title":
		t.customTitle = strings.TrimSpace(l.CustomTitle)
		return
	}
	if t.session == "" {
		t.session = l.SessionID
	}
	at := t.seen(l.Timestamp)
	if l.Cwd != "" {
		t.cwds[l.Cwd]++
	}
	if l.Message == nil || l.IsSidechain {
		return
	}
	var blocks []ccBlock
	var text string
	if json.Unmarshal(l.Message.Content, &text) == nil {
		blocks = []ccBlock{{Type: "text", Text: text}}
	} else if json.Unmarshal(l.Message.Content, &blocks) != nil {
		return
	}
	switch {
	case l.Type == "user" && !l.IsMeta:
		t.said(at, blocks)
	case l.Type == "assistant":
		t.wrote(at, blocks)
	}
}

// seen is a line's timestamp in whole seconds (zero when it has none),
// widening the span of the transcript.
func (t *transcript) seen(stamp string) frontmatter.Time {
	at, _ := frontmatter.ParseTime(stamp)
	if at.IsZero() {
		return at
	}
	at = frontmatter.NewTime(at.Time) // whole seconds, always a datetime
	if t.first.IsZero() || at.Before(t.first.Time) {
		t.first = at
	}
	if at.After(t.last.Time) {
		t.last = at
	}
	return at
}

// said keeps what the user typed at at: the text blocks, not a command's
// markup.
func (t *transcript) said(at frontmatter.Time, blocks []ccBlock) {
	var parts []string
	for _, b := range blocks {
		if s := strings.TrimSpace(b.Text); b.Type == "text" && s != "" && !isMarkup(s) {
			parts = append(parts, s)
		}
	}
	if len(parts) > 0 {
		t.messages = append(t.messages, ccMessage{at, strings.Join(parts, "\n\n")})
	}
}

// wrote notes, for each file an assistant's tool wrote at at, the latest
// time it did.
func (t *transcript) wrote(at frontmatter.Time, blocks []ccBlock) {
	for _, b := range blocks {
		if b.Type == "tool_use" && b.Input.FilePath != "" && !at.IsZero() && at.After(t.memWrites[b.Input.FilePath].Time) {
			t.memWrites[b.Input.FilePath] = at
		}
	}
}

func isMarkup(s string) bool {
	for _, p := range commandMarkup {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// dominant is the cwd most lines ran in (ties to the smaller path).
func dominant(cwds map[string]int) string {
	best, n := "", 0
	for _, c := range sortedKeys(cwds) {
		if cwds[c] > n {
			best, n = c, cwds[c]
		}
	}
	return best
}

// collectClaudeCode reads ~/.claude/projects (every folder in it) or one
// project folder.
func collectClaudeCode(src string, e env) ([]item, error) {
	fi, err := os.Stat(src)
	if err != nil || !fi.IsDir() {
		if err == nil {
			err = errors.New("not a folder")
		}
		return nil, fmt.Errorf("%s: %w (give ~/.claude/projects or one project folder in it)", src, err)
	}
	dirs := []string{src}
	if !isProjectDir(src) {
		entries, err := os.ReadDir(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		dirs = nil
		for _, en := range entries {
			if d := filepath.Join(src, en.Name()); en.IsDir() && isProjectDir(d) {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%s: no Claude Code transcripts (*.jsonl) or memory/ folder here: give ~/.claude/projects or one project folder in it", src)
	}
	var items []item
	for _, d := range dirs {
		got, err := projectDirItems(d, e)
		if err != nil {
			return nil, err
		}
		items = append(items, got...)
	}
	return items, nil
}

func isProjectDir(dir string) bool {
	if m, _ := filepath.Glob(filepath.Join(dir, "*.jsonl")); len(m) > 0 {
		return true
	}
	fi, err := os.Stat(filepath.Join(dir, "memory"))
	return err == nil && fi.IsDir()
}

// projectDirItems yields a note per transcript, stamped with the project of
// the transcript's dominant cwd, and the folder's auto-memory, stamped with
// the project of the folder's dominant cwd. A folder name is never decoded
// into a path: the '-' encoding is lossy, and a guessed project hides a
// memory from every other project.
func projectDirItems(dir string, e env) ([]item, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(abs)
	files, _ := filepath.Glob(filepath.Join(abs, "*.jsonl"))
	sort.Strings(files)
	var items []item
	dirCwds := map[string]int{}
	writes := map[string]frontmatter.Time{}
	for _, path := range files {
		f, err := vault.OpenInput(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		t, err := parseTranscript(f, path, e)
		f.Close()
		if err != nil {
			return nil, err
		}
		for c, n := range t.cwds {
			dirCwds[c] += n
		}
		for p, at := range t.memWrites {
			if at.After(writes[p].Time) {
				writes[p] = at
			}
		}
		if it, ok := transcriptItem(t, path, base+"/"+filepath.Base(path), e); ok {
			items = append(items, it)
		}
	}
	mems, err := autoMemoryItems(filepath.Join(abs, "memory"), base, e.project(dominant(dirCwds)), writes)
	if err != nil {
		return nil, err
	}
	return append(items, mems...), nil
}

func transcriptItem(t *transcript, path, locator string, e env) (item, bool) {
	if len(t.messages) == 0 {
		return item{}, false
	}
	cwd := dominant(t.cwds)
	// A first message used as a title loses its closing punctuation, so the
	// pointer reads "…: see [[note]]".
	title := strings.TrimRight(firstLine(t.title(), 120), ".:;!? ")
	var body strings.Builder
	fmt.Fprintf(&body, "The user's messages in Claude Code session %s", t.session)
	if cwd != "" {
		fmt.Fprintf(&body, " in %s", cwd)
	}
	if !t.first.IsZero() {
		fmt.Fprintf(&body, ", %s to %s", t.first, t.last)
	}
	body.WriteString(".\n")
	for i, m := range t.messages {
		if m.at.IsZero() {
			fmt.Fprintf(&body, "\n## Message %d\n\n", i+1)
		} else {
			fmt.Fprintf(&body, "\n## %s\n\n", m.at)
		}
		body.WriteString(m.text + "\n")
	}
	return item{
		locator: locator, Type: frontmatter.TypeFact, provenance: frontmatter.Stated,
		text: "Claude Code session: " + title, title: title, note: body.String(),
		validAt: t.first, project: e.project(cwd),
		source: frontmatter.Source{Resource: path, ID: t.session, Title: title, LastModified: t.last},
	}, true
}

// ccTypes maps Claude Code's auto-memory types to mem's: who the user is
// (a preference when it says what they prefer: prefers), how they want
// work done (a correction when it corrects: corrects),
// facts about projects, and notes on where things live.
var ccTypes = map[string]string{
	"user":      frontmatter.TypeIdentity,
	"feedback":  frontmatter.TypePreference,
	"project":   frontmatter.TypeFact,
	"reference": frontmatter.TypeNote, // where things live: a note, read on demand
}

func ccType(t string) string {
	if m, ok := ccTypes[t]; ok {
		return m
	}
	if frontmatter.IsMemoryType(t) {
		return t
	}
	return frontmatter.TypeFact
}

// whyLine starts the reason Claude Code writes under a feedback or project
// memory's rule ("**Why:** …", then "**How to apply:** …").
var whyLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?im)^\s*\**\s*(why|how to apply)\s*:`) })

// insteadRe is the mark of a correction: the rule says what to do in place
// of what was done ("don't mock the database; use the test container
// instead", "use pnpm instead of npm").
var insteadRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?i)\binstead\b`) })

// corrects reports a feedback memory that corrects Claude: its rule (the
// body above **Why:**) or its description holds "instead". Conservative on
// purpose (docs/import.md): "a real database, not mocks" is a preference
// stated with a contrast, and Claude Code also keeps confirmations as
// feedback; only a rule that names the replacement is a correction.
func corrects(body, description string) bool {
	if loc := whyLine().FindStringIndex(body); loc != nil {
		body = body[:loc[0]]
	}
	return insteadRe().MatchString(body) || insteadRe().MatchString(description)
}

// preferRe marks a user memory that says what the user prefers rather than
// who they are ("prefers short answers", "would rather", "likes").
var preferRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?i)\b(prefers?|preferred|would rather|likes|dislikes|wants)\b`)
})

// prefers reports a Claude Code user memory that states a preference: its
// text or description holds one of preferRe's words. "A data engineer new
// to Kubernetes" stays an identity.
func prefers(body, description string) bool {
	return preferRe().MatchString(body) || preferRe().MatchString(description)
}

// autoMemoryItems imports memory/: each topic file as a memory (a note and
// a pointer when it is longer than a memory), and MEMORY.md's bullets
// except those that only point at a topic file. Claude wrote these from
// the conversation, so they are inferred; valid_at is the last time a
// transcript shows Claude writing the file, else absent.
func autoMemoryItems(dir, base, project string, writes map[string]frontmatter.Time) ([]item, error) {
	files, _ := filepath.Glob(filepath.Join(dir, "*.md"))
	sort.Strings(files)
	var items []item
	for _, path := range files {
		data, err := vault.ReadInput(path, maxMemoryMD)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		var mod frontmatter.Time
		if fi, err := os.Stat(path); err == nil {
			mod = frontmatter.NewTime(fi.ModTime())
		}
		name := filepath.Base(path)
		locator := "claude-code/" + base + "/memory/" + name
		if name == "MEMORY.md" {
			if !markdown.Safe(data) {
				return nil, tooBig(path)
			}
			var kept []Bullet
			for _, b := range parseBullets(data) {
				if !pointsAtTopic(b.Text, dir) {
					kept = append(kept, b)
				}
			}
			items = append(items, bulletItems(kept, mdFile{abs: path, locator: locator, provenance: frontmatter.Inferred, project: project, mod: mod})...)
			continue
		}
		if it, ok := topicItem(data, path, locator, project, mod, lastWrite(writes, path)); ok {
			it.links = topicLinks(it.text+"\n"+it.note, dir, "claude-code/"+base+"/memory/")
			items = append(items, it)
		}
	}
	return items, nil
}

// lastWrite finds when a transcript last wrote path. Transcripts may name
// the file through another home directory or a symlink, so the match is on
// the project folder, memory/ and the file name.
func lastWrite(writes map[string]frontmatter.Time, path string) frontmatter.Time {
	tail := string(filepath.Separator) + filepath.Join(filepath.Base(filepath.Dir(filepath.Dir(path))), "memory", filepath.Base(path))
	var at frontmatter.Time
	for p, t := range writes {
		if strings.HasSuffix(filepath.Clean(p), tail) && t.After(at.Time) {
			at = t
		}
	}
	return at
}

// topicLinks maps the relative links of text that name another topic file
// of dir to that file's locator (prefix + name), for item.links, keyed by
// the Target RewriteLinks asks for: every form Claude Code writes, markdown
// links ([x](x.md)), reference links and their definitions ([x]: x.md) and
// wikilinks ([[x]], [[x.md]]). Links are read by markdown.Scan, so none in
// code, with #headings.
func topicLinks(text, dir, prefix string) map[string]string {
	var links map[string]string
	for _, l := range markdown.Scan(text, len(text)).Links {
		target := l.Target
		switch {
		case l.Kind == markdown.Embed, strings.Contains(target, "://"), target == "":
			continue
		case l.Kind == markdown.Wiki && !strings.HasSuffix(target, ".md"):
			target += ".md" // a wikilink names the file without it
		case !strings.HasSuffix(target, ".md"):
			continue
		}
		name := topicName(target)
		if name == "MEMORY.md" {
			continue
		}
		if fi, err := os.Stat(filepath.Join(dir, name)); err == nil && !fi.IsDir() {
			if links == nil {
				links = map[string]string{}
			}
			links[l.Target] = prefix + name
		}
	}
	return links
}

// topicName is the file name a link target names, %20 and the like
// decoded.
func topicName(target string) string {
	if u, err := url.PathUnescape(target); err == nil {
		target = u
	}
	return filepath.Base(target)
}

// pointsAtTopic reports a MEMORY.md bullet that links a topic file of dir,
// by a markdown link or a wikilink ([[name]], [[name\|alias]] in a table,
// [[name#heading]]), outside code: Claude Code's pointer to the file.
func pointsAtTopic(text, dir string) bool {
	for _, l := range markdown.Scan(text, len(text)).Links {
		target, md := l.Target, strings.HasSuffix(l.Target, ".md")
		switch {
		case target == "", strings.Contains(target, "://"), l.Kind == markdown.Inline && !md:
			continue
		case !md:
			target += ".md" // a wikilink names the file without it
		}
		if fi, err := os.Stat(filepath.Join(dir, topicName(target))); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

// ccKeys are the topic keys the importer reads into mem's fields; every
// other key it does not know is kept as written (ccExtra).
var ccKeys = map[string]bool{"name": true, "description": true, "type": true}

// topicKeys are a topic file's name (its name key, else its file name)
// and the keys neither the importer nor mem reads, kept as written.
func topicKeys(doc *frontmatter.Document, path string) (name string, extra []frontmatter.KeyValue) {
	name = strings.TrimSuffix(filepath.Base(path), ".md")
	for _, kv := range doc.Extra {
		switch {
		case kv.Key == "name" && strings.TrimSpace(kv.Value.Text()) != "":
			name = strings.TrimSpace(kv.Value.Text())
		case !ccKeys[kv.Key] && !slices.Contains(frontmatter.KnownKeys, kv.Key):
			extra = append(extra, kv) // originSessionId, related: kept as written
		}
	}
	return name, extra
}

// topicType is mem's type for a topic: Claude Code's, made a correction
// or a preference when the feedback or the user fact reads as one.
func topicType(doc *frontmatter.Document, body string) string {
	switch {
	case doc.Meta.Type == "feedback" && corrects(body, doc.Meta.Description):
		return frontmatter.TypeCorrection
	case doc.Meta.Type == "user" && prefers(body, doc.Meta.Description):
		return frontmatter.TypePreference
	}
	return ccType(doc.Meta.Type)
}

// topicItem reads one auto-memory topic file. A file without frontmatter is
// all memory; one whose frontmatter does not parse is refused (unreadable),
// never imported with its type and description thrown away.
func topicItem(data []byte, path, locator, project string, mod, at frontmatter.Time) (item, bool) {
	doc, err := frontmatter.Parse(data)
	var fe *frontmatter.Error
	if errors.As(err, &fe) && fe.Rule != "frontmatter-missing" || doc == nil {
		r := &Refused{Where: path + ":1", Rule: "file-unreadable", Msg: "cannot read the file"}
		if fe != nil {
			r.Where, r.Rule, r.Msg = fmt.Sprintf("%s:%d", path, max(fe.Pos.Line, 1)), fe.Rule, fe.Msg
		}
		r.Msg += "; its frontmatter would be lost: fix it and import again"
		return item{locator: locator, unreadable: r}, true
	}
	body := strings.TrimSpace(doc.Body)
	if body == "" {
		return item{}, false
	}
	name, extra := topicKeys(doc, path)
	it := item{
		locator: locator, Type: topicType(doc, body), provenance: frontmatter.Inferred,
		text: body, validAt: at, project: project,
		source: frontmatter.Source{Resource: path, ID: filepath.Base(path), Title: name, LastModified: mod},
		extra:  extra,
	}
	if vault.CheckBoundary(body) != nil {
		it.title, it.note = firstLine(name, 120), body
		it.text = it.title
		if d := strings.TrimSpace(doc.Meta.Description); d != "" {
			it.text = firstLine(d, 150)
		}
	}
	return it, true
}
