package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Answer is a tool call answered elsewhere (by mem watch, through Call):
// the text content and structured output, or the error's message.
type Answer struct {
	Text  string          `json:"text,omitempty"`
	Out   json.RawMessage `json:"out,omitempty"`
	Error string          `json:"error,omitempty"`
}

// answered turns an Answer back into what the handler returns, so the
// client sees the same result whoever did the work.
func answered[Out any](a Answer, out *Out) (*mcp.CallToolResult, Out, error) {
	if a.Error != "" {
		return nil, *out, errors.New(a.Error)
	}
	if err := json.Unmarshal(a.Out, out); err != nil {
		return nil, *out, err
	}
	return text(a.Text), *out, nil
}

// Call runs the recall or search tool with in (its JSON arguments, cwd
// filled in by the asking server) the way a connected server would.
func Call(ctx context.Context, opts Options, tool string, in json.RawMessage) Answer {
	s := &server{Options: opts}
	var (
		res *mcp.CallToolResult
		out any
		err error
	)
	switch tool {
	case "recall":
		var args RecallInput
		if err = json.Unmarshal(in, &args); err == nil {
			res, out, err = s.recall(ctx, nil, args)
		}
	case "search":
		var args SearchInput
		if err = json.Unmarshal(in, &args); err == nil {
			res, out, err = s.search(ctx, args)
		}
	default:
		err = fmt.Errorf("tool %q is not answered by the daemon", tool)
	}
	if err != nil {
		return Answer{Error: err.Error()}
	}
	raw, ok := out.(json.RawMessage) // search's, encoded already
	if !ok {
		if raw, err = json.Marshal(out); err != nil {
			return Answer{Error: err.Error()}
		}
	}
	return Answer{Text: res.Content[0].(*mcp.TextContent).Text, Out: raw}
}
