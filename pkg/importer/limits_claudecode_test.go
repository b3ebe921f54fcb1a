package importer

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A transcript line over maxTranscriptLine is skipped with a warning naming
// file:line and its size, the lines around it still import, and memory
// stays bounded by the cap, not the line (a one-line 300 MB transcript
// took 2.4 GB).
func TestTranscriptLineCap(t *testing.T) {
	const lineCap = 64 << 10
	user := func(text string) string {
		return `{"type":"user","sessionId":"s1","cwd":"/w","timestamp":"2025-02-10T10:00:00Z","message":{"role":"user","content":"` + text + `"}}` + "\n"
	}
	huge := 64 * lineCap
	src := user("before the paste") + user(strings.Repeat("x", huge)) + user("after the paste")

	var warns []string
	e := env{warn: func(s string) { warns = append(warns, s) }, limits: limits{transcriptLine: lineCap}}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	tr, err := parseTranscript(strings.NewReader(src), "s1.jsonl", e)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	if len(warns) != 1 || len(warns[0]) > 200 || !strings.HasPrefix(warns[0], "s1.jsonl:2: line skipped: ") || !strings.Contains(warns[0], fmt.Sprint(lineCap)) {
		t.Errorf("warnings %.300q, want one naming s1.jsonl:2 and the cap", warns)
	}
	var got []string
	for _, m := range tr.messages {
		got = append(got, fmt.Sprintf("%.40s", m.text))
	}
	if strings.Join(got, "|") != "before the paste|after the paste" {
		t.Errorf("messages %q, want the lines around the skipped one", got)
	}
	// The reader grows a buffer up to the cap (append's growth allocates
	// about five times what it ends with) before it learns the line is too
	// long; decoding the line whole costs several times the line.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(8*lineCap) {
		t.Errorf("parsing allocated %d KiB for a %d KiB line; want it bounded by the %d KiB cap", alloc>>10, huge>>10, lineCap>>10)
	}
}
