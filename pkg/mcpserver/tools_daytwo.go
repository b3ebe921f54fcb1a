package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/vault"
	"github.com/mem-md/mem/pkg/writer"
)

// The day-two tools (spec §4, as `mem show`, `list`, `retire`, `pin`,
// `correct` and edits of fields). Each returns its output as structured
// content, and the SDK sends the same JSON as text for clients that show
// only text. Writes that edit a file need the hash the caller read
// (get or show), so no agent overwrites a change it has not seen.

// addDaytwo registers the day-two tools on srv.
func (s *server) addDaytwo(srv *mcp.Server) {
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: new(false)}
	edit := &mcp.ToolAnnotations{DestructiveHint: new(false), IdempotentHint: true, OpenWorldHint: new(false)}
	addTool(srv, s, &mcp.Tool{Name: "show", Title: "Show one memory with its status", Annotations: readOnly,
		Description: "One memory or note by id, path or a unique prefix of either: text (secrets redacted), fields, status " +
			"(current, stale, superseded, retired, deprecated, import), where it renders or why not, what it supersedes and " +
			"what supersedes it, and its content hash for expected_hash."}, nil, s.show)
	addTool(srv, s, &mcp.Tool{Name: "list", Title: "List memories", Annotations: readOnly,
		Description: "Memories as one-line entries with their status, filtered by pinned, project (an id or none), type, " +
			"status and since (valid_at on or after)."},
		map[string][]string{"status": inspect.Statuses}, s.list)
	addTool(srv, s, &mcp.Tool{Name: "retire", Title: "Retire a claim", Annotations: edit,
		Description: "Mark a claim as no longer true (sets invalid_at, default now); the file stays. A claim a person " +
			"stated is corrected with correct instead."}, nil, s.retire)
	addTool(srv, s, &mcp.Tool{Name: "pin", Title: "Pin or unpin a memory", Annotations: edit,
		Description: "Set pinned (it renders first, under its section, in every session of its scope: a project memory only in that project's sessions) or clear it with pinned false."}, nil, s.pin)
	addTool(srv, s, &mcp.Tool{Name: "correct", Title: "Correct a claim",
		Annotations: &mcp.ToolAnnotations{DestructiveHint: new(false), OpenWorldHint: new(false)},
		Description: "Write a correction that supersedes id and keeps its project, importance, pin and section unless " +
			"given, so it renders where the old claim did. provenance stated only when the user said it."},
		map[string][]string{"provenance": provenances}, s.correct)
	addTool(srv, s, &mcp.Tool{Name: "update", Title: "Change a memory's fields", Annotations: edit,
		Description: "Change text, importance, section, tags, key or stale_after of one memory; fields left out stay. " +
			"expected_hash is the hash get or show returned: refused if the file changed since."}, nil, s.update)
}

// showInput names one file.
type showInput struct {
	ID string `json:"id" jsonschema:"the id, the path relative to the vault, or a unique prefix of either"`
}

func (s *server) show(_ context.Context, _ *mcp.CallToolRequest, in showInput) (*mcp.CallToolResult, inspect.Detail, error) {
	x, err := inspect.Load(s.Vault, s.Now(), s.Env)
	if err != nil {
		return nil, inspect.Detail{}, err
	}
	d, err := x.Show(in.ID)
	if err != nil {
		return nil, inspect.Detail{}, fmt.Errorf("id: %w", err)
	}
	return nil, *d, nil
}

// listInput is the filters of `mem list`.
type listInput struct {
	Pinned  bool   `json:"pinned,omitempty" jsonschema:"only pinned memories"`
	Project string `json:"project,omitempty" jsonschema:"only memories of this project id, or none for global ones"`
	Type    string `json:"type,omitempty" jsonschema:"only this type"`
	Status  string `json:"status,omitempty" jsonschema:"only this status"`
	Since   string `json:"since,omitempty" jsonschema:"only claims with valid_at on or after this date (YYYY-MM-DD or RFC 3339)"`
}

// listOutput is the entries list selected.
type listOutput struct {
	Memories []inspect.Entry `json:"memories"`
}

func (s *server) list(_ context.Context, _ *mcp.CallToolRequest, in listInput) (*mcp.CallToolResult, listOutput, error) {
	f := inspect.Filter{Pinned: in.Pinned, Project: in.Project, Type: in.Type, Status: in.Status}
	if in.Since != "" {
		t, err := frontmatter.ParseTime(in.Since)
		if err != nil {
			return nil, listOutput{}, fmt.Errorf("since: %w", err)
		}
		f.Since = t.Time
	}
	if err := f.Check(func(name string) string { return name }); err != nil {
		return nil, listOutput{}, err
	}
	x, err := inspect.Load(s.Vault, s.Now(), s.Env)
	if err != nil {
		return nil, listOutput{}, err
	}
	if err := x.CheckProject(f, func(name string) string { return name }); err != nil {
		return nil, listOutput{}, err
	}
	return nil, listOutput{Memories: x.List(f)}, nil
}

// edited is a file an edit changed (or found already as asked), with its new hash.
type edited struct {
	Written
	Changed bool `json:"changed"`
}

// edited answers an edit: the file's id, path and new hash.
func (s *server) edited(m *vault.Memory, changed bool, err error) (*mcp.CallToolResult, edited, error) {
	if errors.Is(err, vault.ErrConflict) {
		return nil, edited{}, fmt.Errorf("refused: expected_hash: %w (call get or show, look at the change, then try again with its hash)", err)
	}
	if err != nil {
		return nil, edited{}, err
	}
	h, err := fileHash(m)
	if err != nil {
		return nil, edited{}, err
	}
	if changed {
		s.Logger.Info("wrote", "path", m.Rel)
	}
	return nil, edited{Written: Written{ID: m.ID, Path: m.Rel, Hash: h}, Changed: changed}, nil
}

// hashOf is a write's expected_hash, required.
func hashOf(h string) (string, error) {
	if h = strings.TrimSpace(h); h == "" {
		return "", errors.New("expected_hash is empty: read the file with get or show and pass the hash it returns")
	}
	return h, nil
}

// retireInput names the claim to retire.
type retireInput struct {
	ID           string `json:"id" jsonschema:"the claim's id, path or a unique prefix"`
	ExpectedHash string `json:"expected_hash" jsonschema:"the hash get or show returned for the file"`
	At           string `json:"at,omitempty" jsonschema:"when it stopped being true, YYYY-MM-DD or RFC 3339 (default now)"`
	Reason       string `json:"reason,omitempty" jsonschema:"why, in a few words"`
}

func (s *server) retire(_ context.Context, req *mcp.CallToolRequest, in retireInput) (*mcp.CallToolResult, edited, error) {
	h, err := hashOf(in.ExpectedHash)
	if err != nil {
		return nil, edited{}, err
	}
	var at frontmatter.Time
	if in.At != "" {
		if at, err = frontmatter.ParseTime(in.At); err != nil {
			return nil, edited{}, fmt.Errorf("at: %w", err)
		}
	}
	return s.edited(writer.Retire(s.Vault, s.front(req), in.ID, h, at, in.Reason, s.Now()))
}

// pinInput sets or clears pinned.
type pinInput struct {
	ID           string `json:"id" jsonschema:"the memory's id, path or a unique prefix"`
	ExpectedHash string `json:"expected_hash" jsonschema:"the hash get or show returned for the file"`
	Pinned       bool   `json:"pinned" jsonschema:"true to pin, false to unpin"`
	Section      string `json:"section,omitempty" jsonschema:"pinned section: Identity, Preferences, Decisions or Notes"`
}

func (s *server) pin(_ context.Context, req *mcp.CallToolRequest, in pinInput) (*mcp.CallToolResult, edited, error) {
	h, err := hashOf(in.ExpectedHash)
	if err != nil {
		return nil, edited{}, err
	}
	return s.edited(writer.Pin(s.Vault, s.front(req), in.ID, h, in.Pinned, in.Section, s.Now()))
}

// correctInput is a correction of one claim.
type correctInput struct {
	ID   string `json:"id" jsonschema:"the claim being corrected: id, path or a unique prefix"`
	Text string `json:"text" jsonschema:"what is true instead: at most 2 lines and 280 characters"`
	Claim
}

func (s *server) correct(_ context.Context, req *mcp.CallToolRequest, in correctInput) (*mcp.CallToolResult, Written, error) {
	f := s.front(req)
	n, err := s.newMemory(f, in.Claim, in.Text)
	if err != nil {
		return nil, Written{}, err
	}
	m, err := writer.Correct(s.Vault, f, in.ID, n, s.Now())
	if err != nil {
		return nil, Written{}, err
	}
	w, err := s.written(m)
	return nil, w, err
}

// updateInput changes fields of one memory; what is left out stays.
type updateInput struct {
	ID           string   `json:"id" jsonschema:"the memory's id, path or a unique prefix"`
	ExpectedHash string   `json:"expected_hash" jsonschema:"the hash get or show returned for the file"`
	Text         string   `json:"text,omitempty" jsonschema:"new text (not for a claim a person stated: correct it instead)"`
	Importance   int      `json:"importance,omitempty" jsonschema:"1 to 10"`
	Section      string   `json:"section,omitempty" jsonschema:"pinned section: Identity, Preferences, Decisions or Notes"`
	Tags         []string `json:"tags,omitempty" jsonschema:"replaces the tags"`
	Key          string   `json:"key,omitempty" jsonschema:"subject key: claims sharing it are reconciled"`
	StaleAfter   string   `json:"stale_after,omitempty" jsonschema:"date the claim goes stale, YYYY-MM-DD or RFC 3339"`
}

func (s *server) update(_ context.Context, req *mcp.CallToolRequest, in updateInput) (*mcp.CallToolResult, edited, error) {
	h, err := hashOf(in.ExpectedHash)
	if err != nil {
		return nil, edited{}, err
	}
	x := writer.Fields{Text: in.Text, Importance: in.Importance, Section: in.Section, Tags: in.Tags, Key: in.Key}
	if in.StaleAfter != "" {
		if x.StaleAfter, err = frontmatter.ParseTime(in.StaleAfter); err != nil {
			return nil, edited{}, fmt.Errorf("stale_after: %w", err)
		}
	}
	return s.edited(writer.SetFields(s.Vault, s.front(req), in.ID, h, x, s.Now()))
}
