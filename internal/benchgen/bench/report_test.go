package bench

import (
	"strings"
	"testing"
	"time"
)

func TestMedian(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in   []time.Duration
		want time.Duration
	}{
		{[]time.Duration{3, 1, 2}, 2},
		{[]time.Duration{4, 1, 3, 2}, 2}, // (2+3)/2 in integer nanoseconds
		{[]time.Duration{5}, 5},
	} {
		r := result{times: c.in}
		if got := r.Median(); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestSpliceKeepsOtherSizes(t *testing.T) {
	t.Parallel()
	doc := Splice([]byte("# Performance\n\nhand-written analysis\n"), 1000, "table 1k v1\n")
	doc = Splice(doc, 10000, "table 10k\n")
	doc = Splice(doc, 1000, "table 1k v2\n")
	got := string(doc)
	for _, want := range []string{"hand-written analysis", "table 10k", "table 1k v2"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	if strings.Contains(got, "v1") || strings.Count(got, "<!-- bench:1000:begin -->") != 1 {
		t.Errorf("the 1k table was not replaced in place:\n%s", got)
	}
}

func TestMarkdownRatioAndVerdict(t *testing.T) {
	t.Parallel()
	sr := SizeResult{N: 1000, files: 1000, runs: 3, results: []result{
		{name: "floor", times: []time.Duration{100e6, 100e6, 100e6}, rss: []int64{1024, 1024, 1024}},
		{name: "render", ref: "floor", target: &target{ratio: 0.25}, times: []time.Duration{20e6, 30e6, 40e6}, rss: []int64{2048, 4096, 2048}},
		{name: "lint", ref: "floor", target: &target{ratio: 0.25}, runs: 3, times: []time.Duration{20e6}, rss: []int64{1024}},
		{name: "audit", ref: "floor", target: &target{ratio: 2}, skipped: "not built yet"},
	}}
	md := Markdown(sr, "test machine", "scripts/bench", time.Unix(0, 0))
	for _, want := range []string{
		"| render | 30 ms | 20 ms | 40 ms | 4 MiB | floor | 0.30× | 0.20× | ≤ 0.25× | **no** |",
		"| lint | 20 ms (1 run) | 20 ms | 20 ms | 1 MiB | floor | 0.20× | 0.20× | ≤ 0.25× | yes |",
		"| audit | not built yet |",
		"| floor | 100 ms | 100 ms | 100 ms | 1 MiB |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("missing %q in:\n%s", want, md)
		}
	}
}
