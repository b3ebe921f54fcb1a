package mcpserver

import (
	"context"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/wiring"
)

// AuditInput takes nothing; the struct gives the tool an object schema.
type AuditInput struct{}

// audit runs `mem audit` (pkg/audit, with the state wiring.AuditState reads)
// over the vault and the views mem.yaml lists. The text is the report
// `mem audit` prints; the structured content is its JSON report. The
// report publishes no output schema: its nullable fields (a measure with
// nothing to measure is null) would not survive the one-type schemas
// other tools use.
func (s *server) audit(ctx context.Context, _ *mcp.CallToolRequest, _ AuditInput) (*mcp.CallToolResult, any, error) {
	r, err := wiring.Audit(ctx, s.Vault, s.Now())
	if err != nil {
		return nil, nil, err
	}
	var b strings.Builder
	if err := audit.WriteText(&b, r); err != nil {
		return nil, nil, err
	}
	return text(b.String()), r, nil
}
