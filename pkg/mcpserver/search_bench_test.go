package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/vault"
)

// BenchmarkSearchHeld is one MCP search as a running daemon answers it
// (mem serve's /mcp, mem mcp through the socket): Call from the index held
// open, the queries of mem-bench serve in turn. The vault is
// $MEM_BENCH_VAULT (mem-bench gen -n 50000, its index built), else a
// generated 1,000-file one.
func BenchmarkSearchHeld(b *testing.B) {
	dir := os.Getenv("MEM_BENCH_VAULT")
	if dir == "" {
		dir = b.TempDir()
		if _, err := benchgen.Write(dir, benchgen.Options{N: 1000, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	v, err := vault.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := index.Update(v, index.Options{}); err != nil {
		b.Fatal(err)
	}
	r, err := index.OpenReader(v)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	opts := Options{Vault: v, Now: func() time.Time { return time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC) },
		Held: func(*vault.Vault) *index.Reader { return r }, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	ask := func(i int) {
		in, _ := json.Marshal(SearchInput{Query: benchgen.ServeQueries[i%len(benchgen.ServeQueries)]})
		if a := Call(context.Background(), opts, "search", in); a.Error != "" {
			b.Fatal(a.Error)
		}
	}
	for i := range len(benchgen.ServeQueries) {
		ask(i) // warm, as the daemon is
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ask(i)
		i++
	}
}
