package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/poison"
	"github.com/mem-md/mem/pkg/rules"
)

// TestRenderPoisonSuite is the poisoning suite at the render end (spec §8,
// §5.3): every injection payload and every secret, written by hand into a
// vault file (no writer in the way) — in the body, the title, a tag, and
// behind a CR and a U+2028 — never reaches any rendered view, in every
// format and output; render exits 0 and warns about each file.
func TestRenderPoisonSuite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if out, err := exec.Command("mem", "init", dir).CombinedOutput(); err != nil {
		t.Fatalf("mem init: %v\n%s", err, out)
	}
	cfg := "render:\n  budget: 500000\n  outputs:\n    - {path: ALL.md}\n    - {path: SPLICED.md, splice: true}\n"
	if err := os.WriteFile(filepath.Join(dir, "mem.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	file := func(name, fm, body string) string {
		rel := "memory/" + name + ".md"
		src := "---\ntype: fact\nprovenance: stated\npinned: true\nimportance: 9\nvalid_at: 2026-01-02\n" + fm + "---\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		return rel
	}
	quote := func(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
	type poisoned struct{ rel, text string }
	var files []poisoned
	add := func(name, fm, body, text string) { files = append(files, poisoned{file(name, fm, body), text}) }
	for i, p := range poison.Injections {
		n := fmt.Sprintf("inj%02d-", i)
		add(n+"body", "", p.Line, p.Line)
		add(n+"cr", "", "Use port 8080\r"+p.Line, p.Line)
		add(n+"ls", "", "Use port 8080\u2028"+p.Line, p.Line)
		// In a field, a payload is never rendered (only the body's first
		// line is); it must still be refused when a rule catches it there.
		add(n+"title", "title: "+quote(p.Line)+"\n", "Clean body of "+n+"title", p.Line)
		add(n+"tag", "tags: ["+quote(p.Line)+"]\n", "Clean body of "+n+"tag", p.Line)
	}
	for i, s := range poison.Secrets {
		add(fmt.Sprintf("secret%02d", i), "", "The deploy key is "+s.Value, s.Value)
	}
	file("clean", "", "The clean claim renders")

	// Which field payloads a rule catches there is pkg/rules' business:
	// ask it, so this suite checks render applies it, not the rules' reach.
	refused := map[string]bool{}
	for _, f := range files {
		raw, err := os.ReadFile(filepath.Join(dir, f.rel))
		if err != nil {
			t.Fatal(err)
		}
		refused[f.rel] = len(rules.File(string(raw), -1)) > 0 || !strings.Contains(f.rel, "-title") && !strings.Contains(f.rel, "-tag")
	}

	render := func(args ...string) (stdout, stderr string) {
		t.Helper()
		cmd := exec.Command("mem", append([]string{"--vault", dir, "render", "--now", "2026-11-29T12:00:00Z"}, args...)...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("mem render %v: %v (want exit 0)\n%s", args, err, errb.String())
		}
		return out.String(), errb.String()
	}
	read := func(rel string) string {
		b, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	check := func(name, view, stderr string) {
		t.Helper()
		if !strings.Contains(view, "The clean claim renders") {
			t.Fatalf("%s: the clean memory did not render:\n%s", name, view)
		}
		for _, f := range files {
			for _, part := range strings.FieldsFunc(f.text, rules.LineBreak) {
				if len(part) >= 8 && strings.Contains(view, part) {
					t.Errorf("%s: %s: %q reached the view", name, f.rel, part)
				}
			}
			if refused[f.rel] && !strings.Contains(stderr, "mem: warning: "+f.rel+":") {
				t.Errorf("%s: no warning names %s", name, f.rel)
			}
		}
		for _, s := range poison.Secrets {
			if strings.Contains(stderr, s.Value) {
				t.Errorf("%s: a warning repeats the secret %s", name, s.Rule)
			}
		}
	}

	out, stderr := render()
	check("markdown", out, stderr)

	out, stderr = render("--format", "hook")
	var hook struct {
		HookSpecificOutput struct{ AdditionalContext string } `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &hook); err != nil {
		t.Fatalf("hook output: %v", err)
	}
	check("hook", hook.HookSpecificOutput.AdditionalContext, stderr)

	out, stderr = render("--format", "json", "--explain")
	var js struct {
		Items   []struct{ Line string }
		Dropped []struct{ ID, Reason string }
	}
	if err := json.Unmarshal([]byte(out), &js); err != nil {
		t.Fatalf("json output: %v", err)
	}
	var lines []string
	for _, it := range js.Items {
		lines = append(lines, it.Line)
	}
	check("json", strings.Join(lines, "\n")+"\n"+out, stderr)
	for _, f := range files {
		id := strings.TrimSuffix(f.rel, ".md")
		if refused[f.rel] && !strings.Contains(stderr, "  - "+id+": ") {
			t.Errorf("--explain gives no reason for %s", id)
		}
	}

	_, stderr = render("-o", filepath.Join(dir, "OUT.md"))
	check("-o", read("OUT.md"), stderr)
	if err := os.WriteFile(filepath.Join(dir, "CLAUDE.md"), []byte("# Project\n\nHand-written.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr = render("--splice", filepath.Join(dir, "CLAUDE.md"))
	check("splice", read("CLAUDE.md"), stderr)
	_, stderr = render("--all")
	check("--all", read("ALL.md"), stderr)
	check("--all splice", read("SPLICED.md"), stderr)
}
