package importer

import (
	"archive/zip"
	"bufio"
	"cmp"
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
	"github.com/mem-md/mem/pkg/vault"
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
	// ChatMessages is Claude.ai's field, never ChatGPT's: its presence
	// names the export given to the wrong importer.
	ChatMessages json.RawMessage `json:"chat_messages"`
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

// maxZipMember caps what is inflated from conversations.json in a zip: a
// deflated run of spaces inflates a thousandfold (a 2 MB zip to 2 GB), so
// the zip's size says nothing about the work. A larger export can still be
// unzipped: a conversations.json given directly is read whatever its size.
const maxZipMember = 1 << 30

// maxConversation caps one conversation's bytes (whitespace between tokens
// not counted), which are held whole while decoded.
const maxConversation = 64 << 20

// collectChatGPT reads conversations.json, a directory holding it, or the
// export zip.
func collectChatGPT(src string, e env) ([]item, error) {
	var items []item
	err := readExport(src, "conversations.json", "a ChatGPT data export", e, func(r io.Reader, resource string) error {
		var err error
		items, err = parseChatGPT(r, resource, e)
		return err
	})
	return items, err
}

// readExport hands read the member name of an export given as a zip, a
// folder holding it, or the file itself, with the resource that names it
// in sources (for a zip, <zip>/<member>). what names the export in errors.
func readExport(src, name, what string, e env, read func(r io.Reader, resource string) error) error {
	fi, err := os.Stat(src)
	if err != nil {
		return fmt.Errorf("%s: %w (give the export's .zip or its %s)", src, err, name)
	}
	if fi.IsDir() {
		src = filepath.Join(src, name)
	}
	abs, err := filepath.Abs(src)
	if err != nil {
		return err
	}
	if !strings.EqualFold(filepath.Ext(src), ".zip") {
		f, err := vault.OpenInput(src)
		if err != nil {
			return fmt.Errorf("%s: %w (give the export's .zip or its %s)", src, err, name)
		}
		defer f.Close()
		return read(f, abs)
	}
	zf, err := vault.OpenInput(src)
	if err != nil {
		return err
	}
	defer zf.Close()
	zi, err := zf.Stat()
	if err != nil {
		return err
	}
	zr, err := zip.NewReader(zf, zi.Size())
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	for _, f := range zr.File {
		if path.Base(f.Name) != name {
			continue
		}
		// archive/zip fails a member that inflates past the size in its
		// header, so checking the header caps what is read.
		if f.UncompressedSize64 > uint64(e.zipMember()) {
			return fmt.Errorf("%s: %s inflates to %d bytes, over the %d bytes mem reads from a zip: unzip the export and import its %s itself", src, f.Name, f.UncompressedSize64, e.zipMember(), name)
		}
		r, err := f.Open()
		if err != nil {
			return fmt.Errorf("%s: %s: %w", src, f.Name, err)
		}
		defer r.Close()
		err = read(r, abs+"/"+f.Name)
		if errors.Is(err, zip.ErrFormat) || errors.Is(err, zip.ErrChecksum) {
			err = fmt.Errorf("%w: the zip is damaged: download the export again", err)
		}
		return err
	}
	return fmt.Errorf("%s: no %s inside: is this %s?", src, name, what)
}

// parseChatGPT reads ChatGPT's conversations array (scanArray).
func parseChatGPT(r io.Reader, resource string, e env) ([]item, error) {
	var items []item
	err := scanArray(r, resource, "a ChatGPT conversations.json (an array of conversations)", e, func(raw []byte, n int) error {
		var conv gptConversation
		if err := json.Unmarshal(raw, &conv); err != nil {
			return err
		}
		if conv.Mapping == nil && conv.ChatMessages != nil {
			return wrongKind(resource, kindClaudeAI, kindChatGPT)
		}
		items = append(items, conversationItems(&conv, n, resource)...)
		return nil
	})
	return items, err
}

// scanArray reads a JSON array one element at a time, so time is linear
// in the file and memory bounded by one element whatever the whitespace
// between tokens (json.Decoder held every blank between two values, and a
// newline count per line, in memory: 64 MB of newlines took 3.4 GB). each
// decodes one element; an element of an unexpected shape (a
// json.UnmarshalTypeError) is skipped with a warning, and any other error
// stops the scan. resource names the file; what says what it should be.
func scanArray(r io.Reader, resource, what string, e env, each func(raw []byte, n int) error) error {
	s := &gptScanner{r: bufio.NewReaderSize(r, 64<<10), line: 1}
	fail := func(format string, args ...any) error {
		if s.err != nil {
			return s.readErr(resource)
		}
		return fmt.Errorf("%s:%d: %s: not %s", resource, s.line, fmt.Sprintf(format, args...), what)
	}
	c, ok := s.skipSpace()
	if !ok || c != '[' {
		return fail("found %s, want [", s.describe(c, ok))
	}
	if c, ok = s.skipSpace(); ok && c == ']' {
		return nil
	}
	for n := 1; ; n++ {
		if !ok {
			return fail("the file ends before conversation %d", n)
		}
		if err := s.element(c, n, resource, e, each); err != nil {
			return err
		}
		c, ok = s.skipSpace()
		if ok && c == ']' {
			return nil
		}
		if !ok || c != ',' {
			return fail("found %s after conversation %d, want , or ]", s.describe(c, ok), n)
		}
		c, ok = s.skipSpace()
	}
}

// element reads the array's nth element, starting with c, and hands it to
// each: one over the size limit, or of an unexpected shape, is skipped
// with a warning.
func (s *gptScanner) element(c byte, n int, resource string, e env, each func(raw []byte, n int) error) error {
	start := s.line
	raw, size, err := s.value(c, e.conversation())
	if err != nil {
		if s.err != nil {
			return s.readErr(resource)
		}
		return fmt.Errorf("%s:%d: conversation %d: %v: fix or remove it, or export again", resource, start, n, err)
	}
	if size > e.conversation() {
		e.warnf("%s:%d: conversation %d skipped: %d bytes, over the %d-byte limit of one conversation", resource, start, n, size, e.conversation())
		return nil
	}
	err = each(raw, n)
	var typeErr *json.UnmarshalTypeError
	var wrong *WrongKind
	switch {
	case err == nil, errors.As(err, &wrong):
		return err
	case errors.As(err, &typeErr):
		// A field of an unexpected shape: skip just this one.
		e.warnf("%s: conversation %d skipped: %v", resource, n, err)
		return nil
	}
	return fmt.Errorf("%s:%d: conversation %d: %v: fix or remove it, or export again", resource, start, n, err)
}

// gptScanner walks the bytes of a JSON array, counting lines. It only
// finds where each element ends; encoding/json checks the element.
type gptScanner struct {
	r    *bufio.Reader
	line int   // the line of the last byte read
	err  error // a read error other than the end of the file
}

// next reads one byte; ok is false at the end of the file or on an error.
func (s *gptScanner) next() (byte, bool) {
	b, err := s.r.ReadByte()
	if err != nil {
		if err != io.EOF {
			s.err = err
		}
		return 0, false
	}
	if b == '\n' {
		s.line++
	}
	return b, true
}

func isJSONSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// skipSpace returns the next byte that is not whitespace.
func (s *gptScanner) skipSpace() (byte, bool) {
	for {
		b, ok := s.next()
		if !ok || !isJSONSpace(b) {
			return b, ok
		}
	}
}

func (s *gptScanner) describe(b byte, ok bool) string {
	if !ok {
		return "the end of the file"
	}
	return fmt.Sprintf("%q", b)
}

// readErr is the read error that stopped the scan, where it stopped.
func (s *gptScanner) readErr(resource string) error {
	return fmt.Errorf("%s:%d: %w", resource, s.line, s.err)
}

// value reads the JSON value starting with c, keeping at most limit bytes:
// whitespace outside strings is cut to one space, so a padded value costs
// what its tokens do. size counts the bytes kept, or that would have been;
// past limit, raw is nil.
func (s *gptScanner) value(c byte, limit int) (raw []byte, size int, err error) {
	v := &kept{limit: limit}
	if c != '{' && c != '[' && c != '"' {
		err = s.scalar(c, v)
	} else if err = s.compound(c, v); err != nil {
		return nil, v.size, err
	}
	return v.raw, v.size, err
}

// kept is a value's bytes as far as limit: size counts them all, raw is
// nil once they pass limit.
type kept struct {
	raw         []byte
	size, limit int
}

func (v *kept) keep(b byte) {
	v.size++
	if v.size <= v.limit {
		v.raw = append(v.raw, b)
	} else {
		v.raw = nil
	}
}

// scalar reads a number, true, false, null, or garbage encoding/json
// names: it runs to the next delimiter, which belongs to the array.
func (s *gptScanner) scalar(c byte, v *kept) error {
	for b, ok := c, true; ok; b, ok = s.next() {
		if isJSONSpace(b) || strings.IndexByte(",:[]{}\"", b) >= 0 {
			if b == '\n' {
				s.line--
			}
			return s.r.UnreadByte()
		}
		v.keep(b)
	}
	return nil
}

// compound reads an object, an array or a string, starting with c, to its
// end: whitespace outside strings is cut to one space, so a padded value
// costs what its tokens do.
func (s *gptScanner) compound(c byte, v *kept) error {
	depth := 0
	for b, ok := c, true; ; b, ok = s.next() {
		if !ok {
			return errUnexpectedEOF
		}
		switch {
		case isJSONSpace(b):
			// One space survives, so `1 2` stays invalid instead of `12`.
			if v.size > v.limit || v.raw[len(v.raw)-1] != ' ' {
				v.keep(' ')
			}
		case b == '"':
			v.keep(b)
			if err := s.stringRest(v); err != nil {
				return err
			}
		case b == '{' || b == '[':
			depth++
			v.keep(b)
		case b == '}' || b == ']':
			depth--
			v.keep(b)
		default:
			v.keep(b)
		}
		if depth == 0 {
			return nil
		}
	}
}

var errUnexpectedEOF = errors.New("unexpected end of file")

// stringRest reads a string after its opening quote, to the closing one.
func (s *gptScanner) stringRest(v *kept) error {
	escaped := false
	for {
		b, ok := s.next()
		if !ok {
			return errUnexpectedEOF
		}
		v.keep(b)
		switch {
		case escaped:
			escaped = false
		case b == '\\':
			escaped = true
		case b == '"':
			return nil
		}
	}
}

// conversationItems yields the memories ChatGPT saved in the conversation
// when there are any, else one note of the user's messages with a pointer.
func conversationItems(c *gptConversation, n int, resource string) []item {
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
	src := frontmatter.Source{Resource: resource, ID: id, Title: title, LastModified: gptTime(c.UpdateTime)}
	if items := bioItems(c, locator, src); len(items) > 0 {
		return items
	}
	return []item{userNote(c, n, locator, src)}
}

// bioItems are the memories ChatGPT saved in the conversation (its
// messages to the bio tool), on any branch.
func bioItems(c *gptConversation, locator string, src frontmatter.Source) []item {
	created := gptTime(c.CreateTime)
	var items []item
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
		items = append(items, item{
			locator: locator + "/message/" + msgID, Type: frontmatter.TypeFact,
			// ChatGPT wrote the memory from what the user said: a model's
			// reading, not the user's words.
			provenance: frontmatter.Inferred, text: text, validAt: at, source: src,
		})
	}
	return items
}

// userNote is one note of the user's messages on the visible branch, with
// a pointer; skipped when the user wrote nothing there.
func userNote(c *gptConversation, n int, locator string, src frontmatter.Source) item {
	title, created := src.Title, gptTime(c.CreateTime)
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
		return item{locator: locator, skipped: &Refused{Where: fmt.Sprintf("%s: conversation %d (%s)", src.Resource, n, cmp.Or(src.ID, "no id")),
			Rule: "no-user-message", Msg: "the user wrote nothing on its visible branch and ChatGPT saved no memory in it: nothing to import"}}
	}
	return item{
		locator: locator, Type: frontmatter.TypeFact, provenance: frontmatter.Stated,
		text: "ChatGPT conversation: " + firstLine(title, 120), title: firstLine(title, 120),
		note: body.String(), validAt: created, source: src,
	}
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
