package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWatchStatusFailsOnAFailedStep: mem watch --status exits 1 when a
// step's last run failed (issue 34, item 11: it printed "render: FAILED"
// and exited 0).
func TestWatchStatusFailsOnAFailedStep(t *testing.T) {
	dir := exampleVault(t)
	yaml := "render:\n  outputs:\n    - {path: MEMORY.md, cwd: code/nowhere}\n"
	if err := os.WriteFile(filepath.Join(dir, "mem.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	startDaemon(t, dir)
	var out string
	var code int
	eventually(t, "the daemon reports the failed render", func() bool {
		out, _, code = memRun(t, nil, "--vault", dir, "watch", "--status")
		return strings.Contains(out, "render:") && strings.Contains(out, "FAILED")
	})
	if code != 1 {
		t.Fatalf("mem watch --status with a failed render exited %d, want 1:\n%s", code, out)
	}
	if _, _, code := memRun(t, nil, "--vault", dir, "--json", "watch", "--status"); code != 1 {
		t.Fatalf("mem --json watch --status with a failed render exited %d, want 1", code)
	}
}

// TestWatchDocSettingsRender: the render.outputs of docs/watch.md's
// settings block render as written, from a home holding ~/code/webshop
// (issue 34, item 11: its cwd was relative to the vault and failed).
func TestWatchDocSettingsRender(t *testing.T) {
	page, err := os.ReadFile("../../docs/watch.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(page), "## Settings")
	_, rest, ok2 := strings.Cut(rest, "```yaml\n")
	block, _, ok3 := strings.Cut(rest, "```")
	if !ok || !ok2 || !ok3 || !strings.Contains(block, "outputs:") {
		t.Fatal("docs/watch.md has no ```yaml settings block with render.outputs")
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("MEM_NOW", "2026-11-29T12:00:00Z")
	dir := filepath.Join(home, "memory")
	if _, e, c := memRun(t, nil, "init", dir); c != 0 {
		t.Fatalf("init: %s", e)
	}
	if err := os.WriteFile(filepath.Join(dir, "mem.yaml"), []byte(block), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, "code", "webshop"), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, e, c := memRun(t, nil, "--vault", dir, "render", "--all"); c != 0 {
		t.Fatalf("render --all with docs/watch.md's settings: exit %d\n%s%s\n%s", c, out, e, block)
	}
	for _, f := range []string{filepath.Join(dir, "MEMORY.md"), filepath.Join(home, "code", "webshop", "CLAUDE.md")} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("render --all wrote no %s: %v", f, err)
		}
	}
}
