package clients

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mem-md/mem/pkg/stores"
	"github.com/mem-md/mem/pkg/vault"
)

// lesson is an inferred lesson the signal call adds evidence to.
const (
	lessonID   = "memory/retry-lesson"
	lessonBody = "When the deploy timed out, a retry after 30s worked."
)

// toolScript seeds the lesson and one fact per editing tool, and returns
// one call of each of mem's tools, with what the model must then see from
// each: the tool's data, not just that it ran.
func toolScript(t *testing.T, s *session) ([]call, map[string][]string) {
	t.Helper()
	data := "---\ntype: lesson\nprovenance: inferred\nvalid_at: 2026-05-06\n---\n" + lessonBody + "\n"
	write(t, filepath.Join(s.vault, lessonID+".md"), data)
	facts := map[string]string{}
	for _, tool := range []string{"pin", "retire", "correct", "update"} {
		facts[tool] = "---\ntype: fact\nprovenance: observed\nvalid_at: 2026-05-06\n---\nThe client test fact for " + tool + " holds.\n"
	}
	// An agent retires only an agent's claim (spec §8: a person's is not
	// its to silence), so the one it retires is an agent's earlier write.
	facts["retire"] = "---\ntype: fact\nprovenance: observed\nvalid_at: 2026-05-06\ngenerated: {by: \"process:client-test\", at: 2026-05-06T00:00:00Z}\n---\nThe client test fact for retire holds.\n"
	for _, tool := range []string{"pin", "retire", "correct", "update"} {
		write(t, filepath.Join(s.vault, "memory", "client-"+tool+".md"), facts[tool])
	}
	hash := func(tool string) string { return vault.Hash([]byte(facts[tool])) }
	loaded := s.harnessStores(t)
	calls := []call{
		{"recall", map[string]any{"cwd": s.project}},
		{"search", map[string]any{"query": "deploys"}},
		{"get", map[string]any{"id": lessonID}},
		{"remember", map[string]any{"text": "The checkout test is flaky on CI.", "provenance": "observed", "evidence": "the CI log of run 7 shows it failing then passing", "project": "proj_webshop"}},
		{"note", map[string]any{"title": "Payments retry design", "body": "Retries back off exponentially.", "provenance": "stated"}},
		{"signal", map[string]any{"id": lessonID, "expected_hash": vault.Hash([]byte(data)), "session": "client-test", "evidence": "The retry worked again today."}},
		{"audit", map[string]any{}},
		{"consolidate", map[string]any{}},
		{"show", map[string]any{"id": lessonID}},
		{"list", map[string]any{"type": "lesson"}},
		{"pin", map[string]any{"id": "memory/client-pin", "expected_hash": hash("pin"), "pinned": true}},
		{"retire", map[string]any{"id": "memory/client-retire", "expected_hash": hash("retire"), "reason": "moved"}},
		{"correct", map[string]any{"id": "memory/client-correct", "text": "The client test fact was corrected.", "provenance": "stated"}},
		{"update", map[string]any{"id": "memory/client-update", "expected_hash": hash("update"), "importance": 8}},
	}
	want := map[string][]string{
		"recall":      append([]string{projectLine, "The user is Dana."}, loaded...),
		"search":      {"memory/webshop-deploys-with-make-deploy-"},
		"get":         {lessonBody, vault.Hash([]byte(data))},
		"remember":    {"memory/the-checkout-test-is-flaky-on-ci-"},
		"note":        {"notes/payments-retry-design"},
		"signal":      {`"added":true`, "needs 2 more signals"},
		"audit":       {"valid_at"},
		"consolidate": {`"proposals"`},
		"show":        {lessonBody},
		"list":        {lessonID},
		"pin":         {`"changed":true`, "memory/client-pin"},
		"retire":      {`"changed":true`, "memory/client-retire"},
		"correct":     {"memory/the-client-test-fact-was-corrected-"},
		"update":      {`"changed":true`, "memory/client-update"},
	}
	return calls, want
}

// Lines of the harness stores harnessStores writes, so a test can tell
// that the client itself loaded the file recall names.
const (
	autoMemoryLine = "- The auto-memory of the client test says deploys need a tag."
	claudeMDLine   = "The CLAUDE.md of the client test says run make check."
	agentsMDLine   = "The AGENTS.md of the client test says run make check."
	summaryLine    = "- The Codex memories of the client test say the shop runs Go."
)

// harnessStores gives the project the stores Claude Code and Codex load
// there besides mem's view — a CLAUDE.md and an AGENTS.md, Claude Code's
// auto-memory folder for the project and Codex's memories summary — and
// returns their paths: recall's `stores` must name each one.
func (s *session) harnessStores(t *testing.T) []string {
	t.Helper()
	paths := []string{
		filepath.Join(s.project, "CLAUDE.md"),
		filepath.Join(s.home, ".claude", "projects", stores.ClaudeProjectDir(s.project), "memory", "MEMORY.md"),
		filepath.Join(s.project, "AGENTS.md"),
		filepath.Join(s.home, ".codex", "memories", "memory_summary.md"),
	}
	for i, data := range []string{claudeMDLine, autoMemoryLine, agentsMDLine, summaryLine} {
		write(t, paths[i], data+"\n")
	}
	return paths
}

// toolNames are the tools of `mem mcp`.
var toolNames = []string{"audit", "consolidate", "correct", "get", "list", "note", "pin", "recall", "remember", "retire", "search", "show", "signal", "update"}

// checkResults checks that each scripted call's result reached the model
// with its data. results are the tool results the client sent back, in
// call order; each is what the model reads (Claude Code and Codex both
// hand it the structured content as JSON).
func checkResults(t *testing.T, calls []call, want map[string][]string, results []string) {
	t.Helper()
	if len(results) != len(calls) {
		t.Fatalf("the model got %d tool results for %d calls:\n%s", len(results), len(calls), strings.Join(results, "\n---\n"))
	}
	for i, c := range calls {
		r := results[i]
		for _, w := range want[c.tool] {
			if !strings.Contains(r, w) {
				t.Errorf("%s: the model's tool result lacks %q:\n%s", c.tool, w, r)
			}
		}
	}
	// recall's structured content carries the whole view: the text the
	// hook would give, bar the time it was rendered.
	var out struct{ View string }
	if err := json.Unmarshal([]byte(jsonPart(results[0])), &out); err != nil || !strings.Contains(out.View, "## Project: Webshop\n- [2026-11-29] "+projectLine) {
		t.Errorf("recall's result has no view (%v):\n%s", err, results[0])
	}
}

// jsonPart is the JSON object in a tool result (Codex puts a "Wall time"
// line before it).
func jsonPart(s string) string {
	if i := strings.Index(s, "{"); i >= 0 {
		return s[i:]
	}
	return s
}

var renderedAt = regexp.MustCompile(`<!-- rendered at [^>]* -->`)

// sameView compares views bar the time line (a client may not pass
// MEM_NOW on to the servers and hooks it starts).
func sameView(a, b string) bool {
	return renderedAt.ReplaceAllString(a, "") == renderedAt.ReplaceAllString(b, "")
}
