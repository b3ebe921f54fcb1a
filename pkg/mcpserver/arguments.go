package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// inputs holds each tool's input schema by tool name, for checkArguments.
type inputs map[string]*jsonschema.Schema

// checkArguments answers a tools/call whose arguments have the wrong JSON
// type, or a name the tool does not take, with a message naming the
// argument and what it wants. The SDK's own validation would refuse the
// call too, but its text is the schema validator's ("type: <invalid
// reflect.Value> has type "null", want "integer""), which an agent cannot
// act on. Values are never quoted back: they may be long or secret.
func checkArguments(schemas inputs) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || method != "tools/call" || call.Params == nil {
				return next(ctx, method, req)
			}
			if msg := argumentProblem(call.Params.Name, schemas[call.Params.Name], call.Params.Arguments); msg != "" {
				var res mcp.CallToolResult
				res.SetError(fmt.Errorf("%s", msg))
				return &res, nil
			}
			return next(ctx, method, req)
		}
	}
}

// argumentProblem is what is wrong with args for the tool, or "" when
// their names and JSON types fit its schema (the SDK checks the rest).
func argumentProblem(tool string, schema *jsonschema.Schema, args json.RawMessage) string {
	if schema == nil || len(args) == 0 {
		return ""
	}
	var given map[string]json.RawMessage
	if err := json.Unmarshal(args, &given); err != nil {
		return "" // not an object: the SDK's message says so
	}
	names := make([]string, 0, len(given))
	for name := range given {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		prop, ok := schema.Properties[name]
		if !ok {
			return fmt.Sprintf("%s takes no argument %q: it takes %s", tool, name, takes(schema))
		}
		want := prop.Types
		if prop.Type != "" {
			want = []string{prop.Type}
		}
		got := jsonType(given[name])
		if len(want) == 0 || slices.Contains(want, got) || (got == "integer" && slices.Contains(want, "number")) {
			continue
		}
		msg := fmt.Sprintf("argument %q is %s; give %s", name, article(got), article(want[0]))
		if got == "null" && !slices.Contains(schema.Required, name) {
			msg += " or leave it out"
		}
		return msg
	}
	return ""
}

// takes lists the schema's argument names, required ones first.
func takes(schema *jsonschema.Schema) string {
	var optional []string
	for name := range schema.Properties {
		if !slices.Contains(schema.Required, name) {
			optional = append(optional, name)
		}
	}
	sort.Strings(optional)
	all := append(slices.Clone(schema.Required), optional...)
	if len(all) == 0 {
		return "none"
	}
	return strings.Join(all, ", ")
}

// jsonType is the JSON Schema type name of a raw value.
func jsonType(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	switch {
	case s == "null":
		return "null"
	case s == "true" || s == "false":
		return "boolean"
	case strings.HasPrefix(s, `"`):
		return "string"
	case strings.HasPrefix(s, "["):
		return "array"
	case strings.HasPrefix(s, "{"):
		return "object"
	}
	// A number with no fraction is an integer, as JSON Schema counts: 2.0 is.
	if f, err := strconv.ParseFloat(s, 64); err == nil && f != math.Trunc(f) {
		return "number"
	}
	return "integer"
}

func article(jsonType string) string {
	switch jsonType {
	case "null":
		return "null"
	case "integer", "object", "array":
		return "an " + jsonType
	default:
		return "a " + jsonType
	}
}
