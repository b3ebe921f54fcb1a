package clients

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// call is one tool call a fake model makes: a tool of the mem server by
// its MCP name, and the arguments.
type call struct {
	tool string
	args map[string]any
}

// fakeModel is a model API on 127.0.0.1 that logs every request body and
// answers the agent loop with a script: the n-th request of a turn that
// already holds n tool results asks for script[n], then it says "done".
// Requests without tools (titles, summaries) get a plain "ok".
type fakeModel struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []string // every request body, in order
	script []call
}

func (f *fakeModel) log(body []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.bodies = append(f.bodies, string(body))
}

// requests returns the logged bodies so far.
func (f *fakeModel) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.bodies...)
}

// all is every logged request joined, for "did the model ever see X".
func (f *fakeModel) all() string { return strings.Join(f.requests(), "\n") }

// toolName finds the client's name for the mem tool (Claude Code says
// mcp__mem__recall; Codex has its own scheme) among the names it sent.
func toolName(names []string, tool string) string {
	for _, n := range names {
		if strings.Contains(n, "mem") && (strings.HasSuffix(n, "__"+tool) || strings.HasSuffix(n, "."+tool) || n == tool) {
			return n
		}
	}
	return ""
}

func sse(w http.ResponseWriter, event string, data any) {
	b, _ := json.Marshal(data)
	fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
	if fl, ok := w.(http.Flusher); ok {
		fl.Flush()
	}
}

// newAnthropic starts a fake Anthropic Messages API (POST /v1/messages,
// streaming or not).
func newAnthropic(t *testing.T, script ...call) *fakeModel {
	f := &fakeModel{script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.log(body)
		if !strings.HasSuffix(r.URL.Path, "/v1/messages") {
			// count_tokens and anything else: a harmless answer.
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, `{"input_tokens": 1}`)
			return
		}
		var req struct {
			Stream   bool `json:"stream"`
			Tools    []struct{ Name string }
			Messages []struct {
				Role    string
				Content json.RawMessage
			}
		}
		json.Unmarshal(body, &req)
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Name)
		}
		// Tool results of this turn: after the last plain user prompt.
		results := 0
		for _, m := range req.Messages {
			if m.Role != "user" {
				continue
			}
			var blocks []struct{ Type string }
			json.Unmarshal(m.Content, &blocks)
			isResult := false
			for _, b := range blocks {
				if b.Type == "tool_result" {
					isResult = true
					results++
				}
			}
			if !isResult {
				results = 0
			}
		}
		var block map[string]any
		stop := "end_turn"
		text := "ok"
		if toolName(names, "recall") != "" {
			text = "done"
			if results < len(f.script) {
				c := f.script[results]
				block = map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%02d", results), "name": toolName(names, c.tool), "input": map[string]any{}}
				stop = "tool_use"
			}
		}
		usage := map[string]any{"input_tokens": 10, "output_tokens": 5}
		msg := map[string]any{"id": "msg_fake", "type": "message", "role": "assistant", "model": "claude-fake",
			"content": []any{}, "stop_reason": nil, "stop_sequence": nil, "usage": usage}
		if !req.Stream {
			if block != nil {
				block["input"] = f.script[results].args
				msg["content"] = []any{block}
			} else {
				msg["content"] = []any{map[string]any{"type": "text", "text": text}}
			}
			msg["stop_reason"] = stop
			w.Header().Set("Content-Type", "application/json")
			json.NewEncoder(w).Encode(msg)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "message_start", map[string]any{"type": "message_start", "message": msg})
		if block != nil {
			args, _ := json.Marshal(f.script[results].args)
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": block})
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "input_json_delta", "partial_json": string(args)}})
		} else {
			sse(w, "content_block_start", map[string]any{"type": "content_block_start", "index": 0, "content_block": map[string]any{"type": "text", "text": ""}})
			sse(w, "content_block_delta", map[string]any{"type": "content_block_delta", "index": 0,
				"delta": map[string]any{"type": "text_delta", "text": text}})
		}
		sse(w, "content_block_stop", map[string]any{"type": "content_block_stop", "index": 0})
		sse(w, "message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]any{"output_tokens": 5}})
		sse(w, "message_stop", map[string]any{"type": "message_stop"})
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// newOpenAI starts a fake OpenAI Responses API (POST /v1/responses,
// streamed as Codex asks).
func newOpenAI(t *testing.T, script ...call) *fakeModel {
	f := &fakeModel{script: script}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.log(body)
		if !strings.HasSuffix(r.URL.Path, "/responses") {
			http.NotFound(w, r)
			return
		}
		var req struct {
			Tools []struct {
				Name  string
				Type  string
				Tools []struct{ Name string } // a namespace of tools
			}
			Input []struct{ Type, Role string }
		}
		json.Unmarshal(body, &req)
		var names []string
		for _, tl := range req.Tools {
			names = append(names, tl.Name)
			for _, sub := range tl.Tools {
				names = append(names, tl.Name+"."+sub.Name)
			}
		}
		// A namespaced tool is called by its own name plus the namespace.
		fcall := func(name string) map[string]any {
			ns, sub, ok := strings.Cut(name, ".")
			if !ok {
				return map[string]any{"name": name}
			}
			return map[string]any{"name": sub, "namespace": ns}
		}
		results := 0
		for _, in := range req.Input {
			switch {
			case in.Type == "function_call_output" || in.Type == "custom_tool_call_output" || in.Type == "mcp_tool_call_output":
				results++
			case in.Role == "user":
				results = 0
			}
		}
		id := fmt.Sprintf("resp_%d", len(f.requests()))
		w.Header().Set("Content-Type", "text/event-stream")
		sse(w, "response.created", map[string]any{"type": "response.created", "response": map[string]any{"id": id}})
		var item map[string]any
		name := toolName(names, "recall")
		if name != "" && results < len(f.script) {
			c := f.script[results]
			args, _ := json.Marshal(c.args)
			item = fcall(toolName(names, c.tool))
			item["type"], item["id"], item["call_id"], item["arguments"] = "function_call", fmt.Sprintf("fc_%02d", results), fmt.Sprintf("call_%02d", results), string(args)
		} else {
			item = map[string]any{"type": "message", "id": "msg_fake", "role": "assistant",
				"content": []any{map[string]any{"type": "output_text", "text": "done", "annotations": []any{}}}}
		}
		sse(w, "response.output_item.done", map[string]any{"type": "response.output_item.done", "output_index": 0, "item": item})
		sse(w, "response.completed", map[string]any{"type": "response.completed", "response": map[string]any{"id": id,
			"usage": map[string]any{"input_tokens": 10, "input_tokens_details": nil, "output_tokens": 5, "output_tokens_details": nil, "total_tokens": 15}}})
	}))
	t.Cleanup(f.srv.Close)
	return f
}
