package bench

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"
)

func dur(d time.Duration) string {
	switch {
	case d >= 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	}
	return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
}

func mib(kib int64) string { return fmt.Sprintf("%.0f MiB", float64(kib)/1024) }

// Machine describes where the figures were taken.
func Machine() string {
	cpu, mem := "unknown CPU", "unknown memory"
	if f, err := os.Open("/proc/cpuinfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
				cpu = strings.TrimSpace(v)
				break
			}
		}
		f.Close()
	}
	if data, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		if _, err := fmt.Sscanf(string(data), "MemTotal: %d kB", &kb); err == nil {
			mem = fmt.Sprintf("%.1f GiB RAM", float64(kb)/(1<<20))
		}
	}
	tools := []string{runtime.Version()}
	for _, t := range [][]string{{"git", "--version"}, {"rg", "--version"}} {
		if out, err := exec.Command(t[0], t[1:]...).Output(); err == nil {
			first, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
			tools = append(tools, first)
		}
	}
	return fmt.Sprintf("%d cores (%s), %s, %s/%s, %s", runtime.NumCPU(), cpu, mem, runtime.GOOS, runtime.GOARCH, strings.Join(tools, ", "))
}

// Markdown renders one size's results: the references, then the workloads
// with their ratio against their reference and whether the target is met.
// The verdict uses the ratio of medians; the ratio of the fastest runs is
// shown beside it because on a shared machine the minimum is the figure
// least disturbed by other people's work.
// The targets are stated for 50,000 notes; at smaller sizes the verdict is
// shown for orientation.
func Markdown(sr SizeResult, machine, command string, when time.Time) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %d files (%.1f MB)\n\n", sr.files, float64(sr.bytes)/1e6)
	fmt.Fprintf(&b, "Measured %s on %s; %d timed runs after one warm-up.\nReproduce: `%s`\n\n", when.UTC().Format("2006-01-02 15:04 MST"), machine, sr.runs, command)
	refs := map[string]*result{}
	b.WriteString("| reference | median | min | max | peak RSS |\n|---|---:|---:|---:|---:|\n")
	for i := range sr.results {
		r := &sr.results[i]
		if r.ref != "" {
			continue
		}
		refs[r.name] = r
		if !r.ok() {
			fmt.Fprintf(&b, "| %s | %s | | | |\n", r.name, status(r))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", r.name, dur(r.Median())+once(r), dur(r.Min()), dur(r.Max()), mib(r.peakRSS()))
	}
	b.WriteString("\n| workload | median | min | max | peak RSS | reference | ratio | ratio of mins | target | met |\n|---|---:|---:|---:|---:|---|---:|---:|---|---|\n")
	for i := range sr.results {
		r := &sr.results[i]
		if r.ref == "" {
			continue
		}
		target := ""
		if r.target != nil {
			target = fmt.Sprintf("≤ %g×", r.target.ratio)
			if r.target.maxRSS > 0 {
				target += ", RSS ≤ " + mib(r.target.maxRSS)
			}
		}
		if !r.ok() {
			fmt.Fprintf(&b, "| %s | %s | | | | %s | | | %s | |\n", r.name, status(r), r.ref, target)
			continue
		}
		ratio, minRatio, met := "", "", ""
		if ref := refs[r.ref]; ref != nil && ref.ok() && ref.Median() > 0 {
			x := float64(r.Median()) / float64(ref.Median())
			ratio = fmt.Sprintf("%.2f×", x)
			minRatio = fmt.Sprintf("%.2f×", float64(r.Min())/float64(ref.Min()))
			if r.target != nil {
				met = "yes"
				if x > r.target.ratio || (r.target.maxRSS > 0 && r.peakRSS() > r.target.maxRSS) {
					met = "**no**"
				}
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", r.name, dur(r.Median())+once(r), dur(r.Min()), dur(r.Max()), mib(r.peakRSS()), r.ref, ratio, minRatio, target, met)
	}
	return b.String()
}

// once marks a workload timed only once (its warm-up took over a minute).
func once(r *result) string {
	if len(r.times) == 1 && r.runs > 1 {
		return " (1 run)"
	}
	return ""
}

func status(r *result) string {
	if r.skipped != "" {
		return r.skipped
	}
	return "failed: " + strings.ReplaceAll(r.failed, "|", `\|`)
}

// Splice puts block into doc between the markers of size n, replacing what
// was there, or appends it (with its markers) at the end. Each size has its
// own markers so a run of one size keeps the others' latest figures.
func Splice(doc []byte, n int, block string) []byte {
	begin := fmt.Sprintf("<!-- bench:%d:begin -->\n", n)
	end := fmt.Sprintf("<!-- bench:%d:end -->\n", n)
	i := bytes.Index(doc, []byte(begin))
	j := bytes.Index(doc, []byte(end))
	if i < 0 || j < i {
		out := bytes.TrimRight(doc, "\n")
		if len(out) > 0 {
			out = append(out, "\n\n"...)
		}
		return append(out, begin+block+end...)
	}
	out := append([]byte{}, doc[:i+len(begin)]...)
	out = append(out, block...)
	return append(out, doc[j:]...)
}
