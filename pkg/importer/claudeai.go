package importer

import (
	"archive/zip"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
)

// Claude.ai's data export (Settings → Privacy → Export data) is a zip
// holding conversations.json, users.json and projects.json.
// conversations.json is an array of conversations: uuid, name, created_at,
// updated_at and chat_messages, each message with uuid, sender ("human" or
// "assistant"), text and/or content blocks ({type: "text", text}) and an
// RFC 3339 created_at. projects.json lists projects with their knowledge
// docs (uuid, filename, content, created_at). users.json is the account.

type claudeConversation struct {
	UUID         string          `json:"uuid"`
	Name         string          `json:"name"`
	CreatedAt    string          `json:"created_at"`
	UpdatedAt    string          `json:"updated_at"`
	ChatMessages []claudeMessage `json:"chat_messages"`
	// Mapping is ChatGPT's field, never Claude.ai's: its presence names
	// the export given to the wrong importer.
	Mapping json.RawMessage `json:"mapping"`
}

type claudeMessage struct {
	UUID      string `json:"uuid"`
	Sender    string `json:"sender"`
	Text      string `json:"text"`
	CreatedAt string `json:"created_at"`
	Content   []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
}

// text is the message's text: its text blocks, else its text field.
func (m *claudeMessage) text() string {
	var parts []string
	for _, c := range m.Content {
		if t := strings.TrimSpace(c.Text); c.Type == "text" && t != "" {
			parts = append(parts, t)
		}
	}
	if len(parts) == 0 {
		return strings.TrimSpace(m.Text)
	}
	return strings.Join(parts, "\n\n")
}

type claudeProject struct {
	UUID      string `json:"uuid"`
	Name      string `json:"name"`
	CreatedAt string `json:"created_at"`
	Docs      []struct {
		UUID      string `json:"uuid"`
		Filename  string `json:"filename"`
		Content   string `json:"content"`
		CreatedAt string `json:"created_at"`
	} `json:"docs"`
}

// claudeTime reads an export timestamp; one that does not parse is no date.
func claudeTime(s string) frontmatter.Time {
	t, err := frontmatter.ParseTime(s)
	if err != nil {
		return frontmatter.Time{}
	}
	return frontmatter.NewTime(t.Time)
}

// collectClaudeAI reads conversations.json (and projects.json beside it,
// when the export holds one): one note of the person's messages per
// conversation, one note per project document.
func collectClaudeAI(src string, e env) ([]item, error) {
	var items []item
	err := readExport(src, "conversations.json", "a Claude.ai data export", e, func(r io.Reader, resource string) error {
		return scanArray(r, resource, "a Claude.ai conversations.json (an array of conversations)", e, func(raw []byte, n int) error {
			var c claudeConversation
			if err := json.Unmarshal(raw, &c); err != nil {
				return err
			}
			if c.Mapping != nil && c.ChatMessages == nil {
				return wrongKind(resource, kindChatGPT, kindClaudeAI)
			}
			items = append(items, claudeConversationItem(&c, n, resource))
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	err = readExport(src, "projects.json", "a Claude.ai data export", e, func(r io.Reader, resource string) error {
		return scanArray(r, resource, "a Claude.ai projects.json (an array of projects)", e, func(raw []byte, _ int) error {
			var p claudeProject
			if err := json.Unmarshal(raw, &p); err != nil {
				return err
			}
			items = append(items, claudeProjectItems(&p, resource)...)
			return nil
		})
	})
	if err != nil && !isMissingMember(src, "projects.json") {
		return nil, err
	}
	return items, nil
}

// isMissingMember reports an export without name: an older export, or a
// conversations.json given alone.
func isMissingMember(src, name string) bool {
	fi, err := os.Stat(src)
	switch {
	case err != nil:
		return true
	case fi.IsDir():
		_, err := os.Stat(filepath.Join(src, name))
		return err != nil
	case !strings.EqualFold(filepath.Ext(src), ".zip"):
		return true // a conversations.json given alone holds no projects
	}
	zr, err := zip.OpenReader(src)
	if err != nil {
		return true
	}
	defer zr.Close()
	for _, f := range zr.File {
		if path.Base(f.Name) == name {
			return false
		}
	}
	return true
}

// claudeConversationItem is one note of what the person said in a
// conversation, each message under its own created_at, plus its pointer.
// The assistant's replies are not the person's claims and stay out; a
// conversation in which the person said nothing is reported as skipped.
func claudeConversationItem(c *claudeConversation, n int, resource string) item {
	locator := "conversation/" + c.UUID
	if c.UUID == "" {
		locator = fmt.Sprintf("conversation#%d", n)
	}
	title := strings.TrimSpace(c.Name)
	if title == "" {
		title = "Untitled conversation"
	}
	created := claudeTime(c.CreatedAt)
	var body strings.Builder
	fmt.Fprintf(&body, "The user's messages in the Claude.ai conversation \"%s\"", title)
	if !created.IsZero() {
		fmt.Fprintf(&body, ", started %s", created)
	}
	body.WriteString(".\n")
	count := 0
	for _, m := range c.ChatMessages {
		text := m.text()
		if m.Sender != "human" || text == "" {
			continue
		}
		count++
		if at := claudeTime(m.CreatedAt); !at.IsZero() {
			fmt.Fprintf(&body, "\n## %s\n\n", at)
		} else {
			fmt.Fprintf(&body, "\n## Message %d\n\n", count)
		}
		body.WriteString(text + "\n")
		if created.IsZero() {
			created = claudeTime(m.CreatedAt) // the first message's time, when the conversation has none
		}
	}
	if count == 0 {
		return item{locator: locator, skipped: &Refused{Where: fmt.Sprintf("%s: conversation %d (%s)", resource, n, cmp.Or(c.UUID, "no uuid")),
			Rule: "no-user-message", Msg: "the person wrote nothing in it (no human message with text): nothing to import"}}
	}
	return item{
		locator: locator, Type: frontmatter.TypeFact, provenance: frontmatter.Stated,
		text: "Claude.ai conversation: " + firstLine(title, 120), title: firstLine(title, 120),
		note: body.String(), validAt: created,
		source: frontmatter.Source{Resource: resource, ID: c.UUID, Title: title, LastModified: claudeTime(c.UpdatedAt)},
	}
}

// claudeProjectItems is one note per knowledge document of a project,
// dated by the document's created_at.
func claudeProjectItems(p *claudeProject, resource string) []item {
	var items []item
	for _, d := range p.Docs {
		content := strings.TrimSpace(d.Content)
		if content == "" {
			continue
		}
		title := firstLine(strings.TrimSpace(p.Name+": "+d.Filename), 120)
		items = append(items, item{
			locator: "project/" + p.UUID + "/doc/" + d.UUID, Type: frontmatter.TypeFact, provenance: frontmatter.Stated,
			text: "Claude.ai project document: " + title, title: title, note: content, validAt: claudeTime(d.CreatedAt),
			source: frontmatter.Source{Resource: resource, ID: d.UUID, Title: title},
		})
	}
	return items
}

// WrongKind is an export given to the importer of another kind: a usage
// error naming the command that reads it.
type WrongKind struct {
	Path, Is, Given string
}

func (w *WrongKind) Error() string {
	return fmt.Sprintf("%s: this is %s, not %s: run mem import %s %s", w.Path, kindNames[w.Is], kindNames[w.Given], w.Is, w.Path)
}

// Kind: exit 2, the command line is wrong.
func (w *WrongKind) Kind() fail.Kind { return fail.Usage }

func wrongKind(path, is, given string) error { return &WrongKind{Path: path, Is: is, Given: given} }

// kindNames says what each kind reads, for messages.
var kindNames = map[string]string{
	kindChatGPT:    "a ChatGPT export",
	kindClaudeAI:   "a Claude.ai export",
	kindClaudeCode: "Claude Code's projects folder",
	kindCodex:      "a Codex memories folder",
	kindOpenClaw:   "an OpenClaw workspace",
	kindMemoryMD:   "a hand-kept MEMORY.md",
}

// sniff names the kind src looks like, from its shape alone (a folder's
// files, the first bytes of a conversations.json), or "" when it cannot
// tell. Run refuses a source that looks like another kind than the one
// given, naming the right command, instead of importing nothing.
func sniff(src string) string {
	fi, err := os.Stat(src)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		return sniffFolder(src)
	case !fi.Mode().IsRegular():
		// Opening a FIFO or a device would block or never end: the
		// importer itself refuses them, naming what they are.
		return ""
	case strings.EqualFold(filepath.Ext(src), ".zip"):
		return sniffZip(src)
	case strings.EqualFold(filepath.Ext(src), ".json"):
		return sniffJSON(src)
	}
	return ""
}

// sniffFolder names the kind of the folder dir by the files it holds.
func sniffFolder(dir string) string {
	has := func(name string) bool { _, err := os.Stat(filepath.Join(dir, name)); return err == nil }
	switch {
	case has("conversations.json"):
		return sniffJSON(filepath.Join(dir, "conversations.json"))
	case has("memory_summary.md") || has("raw_memories.md") || has("rollout_summaries"):
		return kindCodex
	case hasTranscripts(dir):
		// A Claude Code project folder, whatever its memory/ holds (a
		// topic file may carry a dated name).
		return kindClaudeCode
	case has("memory") && len(dailyFiles(filepath.Join(dir, "memory"))) > 0:
		return kindOpenClaw
	}
	return ""
}

// sniffZip names the kind of an export archive by its conversations.json.
func sniffZip(src string) string {
	zr, err := zip.OpenReader(src)
	if err != nil {
		return ""
	}
	defer zr.Close()
	for _, f := range zr.File {
		if path.Base(f.Name) == "conversations.json" {
			r, err := f.Open()
			if err != nil {
				return ""
			}
			defer r.Close()
			return sniffBytes(r)
		}
	}
	return ""
}

func hasTranscripts(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	return len(m) > 0
}

func sniffJSON(p string) string {
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return "" // a FIFO would block the open itself
	}
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	return sniffBytes(f)
}

// sniffBytes tells a Claude.ai conversations.json from a ChatGPT one by
// whichever field of its own comes first in the first 4 MiB.
func sniffBytes(r io.Reader) string {
	head, _ := io.ReadAll(io.LimitReader(r, 4<<20))
	c, g := bytes.Index(head, []byte(`"chat_messages"`)), bytes.Index(head, []byte(`"mapping"`))
	switch {
	case c >= 0 && (g < 0 || c < g):
		return kindClaudeAI
	case g >= 0:
		return kindChatGPT
	}
	return ""
}
