package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mem-md/mem/pkg/vault"
)

// TestRecallNamesStoresWhenTheDaemonAnswers: a recall answered by mem
// watch (Ask) still lists the harness stores, which only the server the
// harness started knows.
func TestRecallNamesStoresWhenTheDaemonAnswers(t *testing.T) {
	t.Parallel()
	base := t.TempDir()
	root, home, code := filepath.Join(base, "v"), filepath.Join(base, "home"), filepath.Join(base, "code")
	for _, d := range []string{filepath.Join(root, "memory"), filepath.Join(home, ".claude"), code} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(code, "CLAUDE.md"), []byte("Be brief.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	now := func() time.Time { return testNow }
	daemon := Options{Vault: v, Now: now, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	asked := false
	opts := daemon
	opts.Home, opts.Cwd = home, code
	opts.Ask = func(tool string, in any, _ time.Time) (Answer, bool) {
		asked = true
		data, _ := json.Marshal(in)
		return Call(context.Background(), daemon, tool, data), true
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := New(opts).Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Wait() })
	var out recallOutput
	if _, isErr := call(t, cs, "recall", map[string]any{"cwd": code}, &out); isErr || !asked {
		t.Fatalf("recall: error %v, asked the daemon %v", isErr, asked)
	}
	if len(out.Stores) != 1 || out.Stores[0].Path != filepath.Join(code, "CLAUDE.md") {
		t.Fatalf("stores = %+v, want the one CLAUDE.md of %s", out.Stores, code)
	}
}
