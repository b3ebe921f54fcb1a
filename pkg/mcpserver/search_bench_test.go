package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"strconv"
	"strings"
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
	benchSearchHeld(b, benchgen.ServeQueries)
}

// BenchmarkSearchHeldVaried is BenchmarkSearchHeld with a question not
// asked before each time: what the held index keeps about the files it
// read (index.Reader) helps only where questions find the same files.
func BenchmarkSearchHeldVaried(b *testing.B) {
	benchSearchHeld(b, benchgen.Questions(10000))
}

func benchSearchHeld(b *testing.B, queries []string) {
	v := benchgen.BenchVault(b, 1000)
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
		in, _ := json.Marshal(SearchInput{Query: queries[i%len(queries)]})
		if a := Call(context.Background(), opts, "search", in); a.Error != "" {
			b.Fatal(a.Error)
		}
	}
	for i := range len(benchgen.ServeQueries) {
		ask(i) // warm, as the daemon is
	}
	b.ReportAllocs()
	cpu := cpuTime()
	i := len(benchgen.ServeQueries)
	for b.Loop() {
		ask(i)
		i++
	}
	// CPU time, all threads and the GC with them: on a shared machine
	// the wall time per search is mostly waiting for a core.
	if spent := cpuTime() - cpu; spent > 0 {
		b.ReportMetric(float64(spent.Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

// cpuTime is the CPU time this process has used (utime + stime of
// /proc/self/stat, in Linux's clock ticks of 10 ms); 0 where there is no
// /proc.
func cpuTime() time.Duration {
	data, err := os.ReadFile("/proc/self/stat")
	if err != nil {
		return 0
	}
	// The fields after the command name, which ends with the last ')'.
	f := strings.Fields(string(data[bytes.LastIndexByte(data, ')')+1:]))
	if len(f) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond
}
