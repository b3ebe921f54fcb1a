package mcpserver

import (
	"context"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/consolidate"
	"github.com/mem-md/mem/pkg/stores"
	"github.com/mem-md/mem/pkg/vault"
)

// ConsolidateInput takes nothing; the struct gives the tool an object schema.
type ConsolidateInput struct{}

// consolidate returns `mem consolidate --json`: the proposals, never
// applied here. An agent carries one out with the other tools (remember
// with supersedes, retire, review), each under spec §8, so no proposal
// lets it silence what a person wrote.
func (s *server) consolidate(ctx context.Context, _ *mcp.CallToolRequest, _ ConsolidateInput) (*mcp.CallToolResult, any, error) {
	mems, err := s.load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return nil, nil, err
	}
	r, err := consolidate.Find(s.Vault, mems, consolidate.Options{Now: s.Now()})
	if err != nil {
		return nil, nil, err
	}
	return nil, r, nil
}

// addClean registers the consolidate tool and the session prompts.
func (s *server) addClean(srv *mcp.Server, readOnly *mcp.ToolAnnotations) {
	// No output schema, as audit: the report is the JSON of `mem consolidate --json`.
	s.inputs["consolidate"] = schemaFor[ConsolidateInput](nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "consolidate", Title: "Propose how to consolidate the vault", Annotations: readOnly,
		InputSchema: s.inputs["consolidate"],
		Description: "The proposals of `mem consolidate`: the same fact stored twice (merge), contradicting claims and " +
			"claims past stale_after (retire), imports waiting for review, views over budget; with counts, ids and paths. " +
			"Nothing is applied: carry a proposal out with remember (supersedes) and retire, never over a person's claim."}, s.consolidate)
	s.addPrompts(srv)
}

// loadedStore is one harness store loaded at start for the session's
// directory (mem stores), so an agent asked which memory it uses answers
// from data.
type loadedStore struct {
	Harness   string `json:"harness"`
	Kind      string `json:"kind"`
	Path      string `json:"path"`
	Bytes     int    `json:"bytes"`
	Lines     int    `json:"lines"`
	OverLimit bool   `json:"over_limit"`
	Pointed   bool   `json:"points_to_vault"`
}

// loadedStores lists the stores that exist and load at start for cwd;
// none when the server knows no home.
func (s *server) loadedStores(cwd string) []loadedStore {
	if s.Home == "" || cwd == "" {
		return nil
	}
	list, err := stores.Find(stores.Options{Dir: cwd, Home: s.Home, CodexHome: s.CodexHome})
	if err != nil {
		s.Logger.Warn("recall could not list the harness stores", "error", err)
		return nil
	}
	var out []loadedStore
	for _, st := range list {
		if st.Exists && st.Loaded == "at start" {
			out = append(out, loadedStore{Harness: st.Harness, Kind: st.Kind, Path: st.Path, Bytes: st.Bytes, Lines: st.Lines, OverLimit: st.Over, Pointed: st.Pointed})
		}
	}
	return out
}
