package importer

import (
	"archive/zip"
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
)

// The ChatGPT export (Settings → Data controls → Export data) is a zip
// holding conversations.json: an array of conversations, each a tree of
// messages in `mapping` (node id → {message, parent, children}) whose
// visible branch ends at `current_node`. Times are Unix seconds as floats.
// When ChatGPT saves a memory, the assistant addresses a message to its
// `bio` tool (`recipient: "bio"`) holding the memory's text: that is what
// the export itself marks as memory.

type gptConversation struct {
	ID             string             `json:"id"`
	ConversationID string             `json:"conversation_id"`
	Title          string             `json:"title"`
	CreateTime     *float64           `json:"create_time"`
	UpdateTime     *float64           `json:"update_time"`
	Mapping        map[string]gptNode `json:"mapping"`
	CurrentNode    string             `json:"current_node"`
}

type gptNode struct {
	Message *gptMessage `json:"message"`
	Parent  string      `json:"parent"`
}

type gptMessage struct {
	ID     string `json:"id"`
	Author struct {
		Role string `json:"role"`
	} `json:"author"`
	CreateTime *float64 `json:"create_time"`
	Content    struct {
		Parts []json.RawMessage `json:"parts"`
	} `json:"content"`
	Recipient string `json:"recipient"`
	Metadata  struct {
		Hidden bool `json:"is_visually_hidden_from_conversation"`
	} `json:"metadata"`
}

// text joins the message's string parts; images and other objects are skipped.
func (m *gptMessage) text() string {
	var parts []string
	for _, raw := range m.Content.Parts {
		var s string
		if json.Unmarshal(raw, &s) == nil && strings.TrimSpace(s) != "" {
			parts = append(parts, strings.TrimSpace(s))
		}
	}
	return strings.Join(parts, "\n\n")
}

// gptTime converts an export timestamp; absent or absurd values are zero.
func gptTime(f *float64) frontmatter.Time {
	if f == nil || *f <= 0 || *f > 253402300799 || math.IsNaN(*f) {
		return frontmatter.Time{}
	}
	sec, frac := math.Modf(*f)
	return frontmatter.NewTime(time.Unix(int64(sec), int64(frac*1e9)))
}

// collectChatGPT reads conversations.json, a directory holding it, or the
// export zip.
func collectChatGPT(src string, e env) ([]Item, error) {
	fi, err := os.Stat(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (give the export's .zip or its conversations.json)", src, err)
	}
	if fi.IsDir() {
		src = filepath.Join(src, "conversations.json")
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return nil, err
	}
	if strings.EqualFold(filepath.Ext(src), ".zip") {
		zr, err := zip.OpenReader(src)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", src, err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			if path.Base(f.Name) != "conversations.json" {
				continue
			}
			r, err := f.Open()
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %w", src, f.Name, err)
			}
			defer r.Close()
			return parseChatGPT(r, abs+"/"+f.Name, e)
		}
		return nil, fmt.Errorf("%s: no conversations.json inside: is this a ChatGPT data export?", src)
	}
	f, err := os.Open(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (give the export's .zip or its conversations.json)", src, err)
	}
	defer f.Close()
	return parseChatGPT(f, abs, e)
}

// parseChatGPT streams the conversations array, so a large export is never
// held in memory whole. resource names the file in each sources entry.
func parseChatGPT(r io.Reader, resource string, e env) ([]Item, error) {
	lines := &lineCounter{r: bufio.NewReader(r), cur: -1}
	dec := json.NewDecoder(lines)
	fail := func(err error) error {
		return fmt.Errorf("%s:%d: %v: not a ChatGPT conversations.json (an array of conversations)", resource, lines.line(dec.InputOffset()), err)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, fail(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fail(fmt.Errorf("found %v", tok))
	}
	var items []Item
	for n := 1; dec.More(); n++ {
		var c gptConversation
		start := dec.InputOffset()
		if err := dec.Decode(&c); err != nil {
			var typeErr *json.UnmarshalTypeError
			if !errors.As(err, &typeErr) {
				// The decoder's offsets inside a failed value are not
				// reliable; name the line where the conversation starts.
				return nil, fmt.Errorf("%s:%d: conversation %d: %v: fix or remove it, or export again", resource, lines.valueLine(start), n, err)
			}
			// A field of an unexpected shape: the decoder has consumed the
			// whole conversation, so skip just this one.
			e.warnf("%s: conversation %d skipped: %v", resource, n, err)
			continue
		}
		items = append(items, conversationItems(&c, n, resource)...)
	}
	if _, err := dec.Token(); err != nil {
		return nil, fail(err)
	}
	return items, nil
}

// lineCounter remembers where each line ends and where its last non-space
// byte is, so an error can name its line without keeping the file in memory.
type lineCounter struct {
	r      io.Reader
	read   int64
	ends   []int64 // offset of each newline
	lastNS []int64 // per finished line: offset of its last non-space byte, or -1
	cur    int64   // the same for the line being read
}

func (l *lineCounter) Read(p []byte) (int, error) {
	n, err := l.r.Read(p)
	for i, b := range p[:n] {
		switch b {
		case '\n':
			l.ends = append(l.ends, l.read+int64(i))
			l.lastNS = append(l.lastNS, l.cur)
			l.cur = -1
		case ' ', '\t', '\r':
		default:
			l.cur = l.read + int64(i)
		}
	}
	l.read += int64(n)
	return n, err
}

// line is the 1-based line holding offset.
func (l *lineCounter) line(offset int64) int {
	return sort.Search(len(l.ends), func(i int) bool { return l.ends[i] >= offset }) + 1
}

// valueLine is the line where the value following offset starts: the json
// decoder reports a failed value at the separator before it, and a
// pretty-printed export puts the value on a later line.
func (l *lineCounter) valueLine(offset int64) int {
	line := l.line(offset)
	for line <= len(l.lastNS) && l.lastNS[line-1] <= offset {
		line++
	}
	return line
}

// conversationItems yields the memories ChatGPT saved in the conversation
// when there are any, else one note of the user's messages with a pointer.
func conversationItems(c *gptConversation, n int, resource string) []Item {
	id := c.ID
	if id == "" {
		id = c.ConversationID
	}
	locator := "conversation/" + id
	if id == "" {
		// Exports always carry ids; position is the fallback identity.
		locator = fmt.Sprintf("conversation#%d", n)
	}
	title := strings.TrimSpace(c.Title)
	if title == "" {
		title = "Untitled conversation"
	}
	created := gptTime(c.CreateTime)
	src := frontmatter.Source{Resource: resource, ID: id, Title: title, LastModified: gptTime(c.UpdateTime)}

	var items []Item
	for _, node := range sortedNodes(c.Mapping) {
		m := node.msg
		if m.Author.Role != "assistant" || m.Recipient != "bio" {
			continue
		}
		text := m.text()
		if text == "" {
			continue
		}
		at := gptTime(m.CreateTime)
		if at.IsZero() {
			at = created
		}
		msgID := m.ID
		if msgID == "" {
			msgID = node.id
		}
		items = append(items, Item{
			Locator: locator + "/message/" + msgID, Type: frontmatter.TypeFact,
			// ChatGPT wrote the memory from what the user said: a model's
			// reading, not the user's words.
			Provenance: frontmatter.Inferred, Text: text, ValidAt: at, Source: src,
		})
	}
	if len(items) > 0 {
		return items
	}

	var body strings.Builder
	fmt.Fprintf(&body, "The user's messages in the ChatGPT conversation \"%s\"", title)
	if !created.IsZero() {
		fmt.Fprintf(&body, ", started %s", created)
	}
	body.WriteString(".\n")
	count := 0
	for _, m := range visibleBranch(c) {
		text := m.text()
		if m.Author.Role != "user" || m.Metadata.Hidden || text == "" {
			continue
		}
		count++
		if at := gptTime(m.CreateTime); !at.IsZero() {
			fmt.Fprintf(&body, "\n## %s\n\n", at)
		} else {
			fmt.Fprintf(&body, "\n## Message %d\n\n", count)
		}
		body.WriteString(text + "\n")
	}
	if count == 0 {
		return nil
	}
	return []Item{{
		Locator: locator, Type: frontmatter.TypeFact, Provenance: frontmatter.Stated,
		Text: "ChatGPT conversation: " + firstLine(title, 120), Title: firstLine(title, 120),
		Note: body.String(), ValidAt: created, Source: src,
	}}
}

type idNode struct {
	id  string
	msg *gptMessage
}

// sortedNodes lists every message of the tree (all branches: a memory saved
// on an abandoned branch was still saved) by time, then id.
func sortedNodes(mapping map[string]gptNode) []idNode {
	var out []idNode
	for _, id := range sortedKeys(mapping) {
		if m := mapping[id].Message; m != nil {
			out = append(out, idNode{id, m})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return gptTime(out[i].msg.CreateTime).Before(gptTime(out[j].msg.CreateTime).Time)
	})
	return out
}

// visibleBranch is the conversation as the user last saw it: the path from
// the root to current_node. Without a usable current_node, every message
// in time order.
func visibleBranch(c *gptConversation) []*gptMessage {
	var path []*gptMessage
	seen := map[string]bool{}
	for id := c.CurrentNode; id != "" && !seen[id]; {
		node, ok := c.Mapping[id]
		if !ok {
			break
		}
		seen[id] = true
		if node.Message != nil {
			path = append(path, node.Message)
		}
		id = node.Parent
	}
	if len(path) == 0 {
		for _, n := range sortedNodes(c.Mapping) {
			path = append(path, n.msg)
		}
		return path
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}
