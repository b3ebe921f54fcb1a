package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// Claim is what a memory carries besides its text: the flags of
// `mem remember`. Provenance has no default here, unlike the CLI's
// (stated): an agent must say whether the user said it, a tool showed it,
// or it is a guess, rather than inherit "the user said it".
type Claim struct {
	Provenance string   `json:"provenance" jsonschema:"stated (the user said it), observed (verified with a tool) or inferred (your guess)"`
	Type       string   `json:"type,omitempty" jsonschema:"what kind of claim (default fact)"`
	Project    string   `json:"project,omitempty" jsonschema:"auto (default: the project whose roots hold cwd), a project id like proj_name, or none (global)"`
	Cwd        string   `json:"cwd,omitempty" jsonschema:"absolute working directory for project auto (default: where the server started)"`
	Tags       []string `json:"tags,omitempty"`
	Aliases    []string `json:"aliases,omitempty" jsonschema:"other words a later question may use for it (names, synonyms): searched, never rendered"`
	Importance int      `json:"importance,omitempty" jsonschema:"1 to 10 (default 5); 7 or more renders in every session of every project"`
	Pin        bool     `json:"pin,omitempty" jsonschema:"render first in every session of its scope: every session when global, only its project's sessions when it has a project"`
	Section    string   `json:"section,omitempty" jsonschema:"pinned section: Identity, Preferences, Decisions or Notes"`
	Key        string   `json:"key,omitempty" jsonschema:"subject key: claims sharing it are reconciled, the strongest and newest wins"`
	ValidAt    string   `json:"valid_at,omitempty" jsonschema:"when the claim became true, YYYY-MM-DD or RFC 3339 (default now)"`
	StaleAfter string   `json:"stale_after,omitempty" jsonschema:"date the claim goes stale, YYYY-MM-DD"`
	TTL        string   `json:"ttl,omitempty" jsonschema:"time to live instead of stale_after: 30d, 2w, 6m, 1y"`
	Supersedes []string `json:"supersedes,omitempty" jsonschema:"ids of claims this one replaces"`
	Session    string   `json:"session,omitempty" jsonschema:"the session writing this"`
	Evidence   string   `json:"evidence,omitempty" jsonschema:"required for observed, and for an action you report as done: what you checked (the command and its result, a file and its hash, a commit, a URL and when)"`
}

// rememberInput is one memory to write.
type rememberInput struct {
	Text string `json:"text" jsonschema:"the claim, a fact in the third person: at most 2 lines and 280 characters"`
	Claim
}

// noteInput is a long-form note; the claim fields go to its pointer memory.
type noteInput struct {
	Title string `json:"title" jsonschema:"the note's title, one line"`
	Body  string `json:"body" jsonschema:"the note's markdown text"`
	Claim
}

// Written names a file a write created, with its content hash.
type Written struct {
	ID   string `json:"id"`
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// noteOutput names the note and its pointer memory.
type noteOutput struct {
	Written
	Pointer Written `json:"pointer"`
}

// front is the writer's view of the agent behind req: refusals name the
// tool's arguments (the writer's own names) and writes are stamped with
// Options.Agent, or else the client's name from initialize, the only
// identity MCP gives.
func (s *server) front(req *mcp.CallToolRequest) writer.Front {
	if s.Agent != "" {
		return writer.Front{Agent: s.Agent}
	}
	name := ""
	if req != nil {
		if ci := req.ClientInfo(); ci != nil {
			name = ci.Name
		}
	}
	return writer.Front{Agent: clientName(name)}
}

// clientName keeps a client's self-chosen name to a short token: it is
// written into generated.by, so it may carry no text a model would read.
func clientName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 128 && (r == '-' || r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) && b.Len() < 64 {
			b.WriteRune(r)
		}
	}
	// A name that holds a key ("agentAKIA…") is no name: generated.by
	// is committed and pushed, and a write would be refused for it.
	if b.Len() == 0 || len(rules.Secrets(b.String())) > 0 {
		return "unknown-client"
	}
	return b.String()
}

// newMemory turns a claim into the writer's input, as the CLI's flags do.
func (s *server) newMemory(f writer.Front, c Claim, text string) (vault.NewMemory, error) {
	n := vault.NewMemory{
		Text: text, Type: c.Type, Provenance: c.Provenance, Project: c.Project, Tags: c.Tags, Aliases: c.Aliases,
		Importance: c.Importance, Pinned: c.Pin, Section: c.Section, Key: c.Key,
		Supersedes: c.Supersedes, Session: c.Session, Evidence: c.Evidence,
	}
	if n.Provenance == "" {
		return n, errors.New("provenance is required: stated (the user said it), observed (verified with a tool) or inferred (a guess)")
	}
	var err error
	if n.Cwd, err = s.cwd(c.Cwd); err != nil {
		return n, err
	}
	n.ValidAt, n.StaleAfter, err = writer.Dates(f, c.ValidAt, c.StaleAfter, c.TTL, s.Now())
	return n, err
}

// written names a file a write created, with its hash, and logs it.
func (s *server) written(m *vault.Memory) (Written, error) {
	h, err := fileHash(m)
	if err != nil {
		return Written{}, err
	}
	s.Logger.Info("wrote", "path", m.Rel)
	return Written{ID: m.ID, Path: m.Rel, Hash: h}, nil
}

func (s *server) remember(_ context.Context, req *mcp.CallToolRequest, in rememberInput) (*mcp.CallToolResult, Written, error) {
	f := s.front(req)
	n, err := s.newMemory(f, in.Claim, in.Text)
	if err != nil {
		return nil, Written{}, err
	}
	m, err := writer.Remember(s.Vault, f, n, s.Now())
	if err != nil {
		return nil, Written{}, err
	}
	w, err := s.written(m)
	return nil, w, err
}

// note writes the note, then its pointer memory (writer.Note checks the
// pointer first, so a bad claim field never leaves a note without it).
func (s *server) note(_ context.Context, req *mcp.CallToolRequest, in noteInput) (*mcp.CallToolResult, noteOutput, error) {
	var out noteOutput
	f := s.front(req)
	claim, err := s.newMemory(f, in.Claim, "")
	if err != nil {
		return nil, out, err
	}
	note, pointer, err := writer.Note(s.Vault, f, in.Title, in.Body, claim, s.Now())
	if err != nil {
		return nil, out, err
	}
	if out.Written, err = s.written(note); err == nil {
		out.Pointer, err = s.written(pointer)
	}
	return nil, out, err
}

// signalInput is one piece of evidence for an inferred lesson or rule.
type signalInput struct {
	ID           string `json:"id" jsonschema:"the lesson's id or path"`
	ExpectedHash string `json:"expected_hash" jsonschema:"the hash get returned for the file: the write is refused if it changed since"`
	Session      string `json:"session" jsonschema:"the session that saw the evidence"`
	Evidence     string `json:"evidence" jsonschema:"one line: what happened"`
	At           string `json:"at,omitempty" jsonschema:"when it happened, YYYY-MM-DD or RFC 3339 (default now; not after today)"`
}

// signalOutput is the gate's verdict after the signal, and the file's new hash.
type signalOutput struct {
	gate.Entry
	// Added is false when this session already gave this evidence (nothing changed).
	Added bool   `json:"added"`
	Hash  string `json:"hash"`
}

func (s *server) signal(_ context.Context, req *mcp.CallToolRequest, in signalInput) (*mcp.CallToolResult, signalOutput, error) {
	var out signalOutput
	t := s.Now()
	sig := frontmatter.Signal{Session: in.Session, Evidence: in.Evidence, At: frontmatter.NewTime(t)}
	if in.At != "" {
		var err error
		if sig.At, err = frontmatter.ParseTime(in.At); err != nil {
			return nil, out, fmt.Errorf("at: %w", err)
		}
	}
	if strings.TrimSpace(in.ExpectedHash) == "" {
		return nil, out, errors.New("expected_hash is empty: read the file with get and pass the hash it returns")
	}
	res, err := writer.Signal(s.Vault, s.front(req), in.ID, strings.TrimSpace(in.ExpectedHash), sig, t)
	switch {
	case errors.Is(err, vault.ErrConflict):
		// No fresh hash in the answer: the caller must read what the other
		// writer changed before deciding again.
		return nil, out, fmt.Errorf("refused: %w (call get for %s, look at the change, then signal again with its hash)", err, in.ID)
	case err != nil:
		return nil, out, err
	}
	m := res.Memory
	out.Added = res.Added
	if out.Added {
		s.Logger.Info("wrote", "path", m.Rel)
	}
	out.Entry = gate.Entry{ID: m.ID, Path: m.Rel, Weight: res.Verdict.Weight, Sessions: res.Verdict.Sessions,
		Eligible: res.Verdict.Eligible, Missing: res.Verdict.Missing}
	out.Hash, err = fileHash(m)
	return nil, out, err
}
