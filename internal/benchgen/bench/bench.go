// Package bench runs the workloads of docs/performance.md against generated
// vaults and the references they are judged by (the I/O floor, rg, git, a
// plain bleve program), all measured in the same run on the same files, and
// writes the results table.
package bench

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/internal/benchgen"
)

// Config says what to run.
type Config struct {
	Sizes   []int
	Seed    uint64
	Runs    int           // timed runs per workload, after one warm-up
	Dir     string        // scratch directory for vaults and indexes (git-ignored)
	Mem     string        // the mem binary under test
	Self    string        // the mem-bench binary (runs the plain bleve program)
	Timeout time.Duration // per command
	Log     io.Writer     // progress
}

// result is one workload's measurements.
type result struct {
	name    string
	ref     string // name of the reference it is judged by ("" for a reference)
	times   []time.Duration
	rss     []int64 // peak resident set, KiB
	skipped string  // why it did not run (not built yet, tool not installed)
	failed  string  // first line of the error when a run failed
	target  *target
	runs    int // timed runs asked for (times may hold fewer, see slowRun)
}

// target is the goal of a workload at 50,000 notes (issue 12).
type target struct {
	ratio  float64 // at most this times the reference's median
	maxRSS int64   // KiB; 0 = no limit
}

// SizeResult is everything measured on one generated vault.
type SizeResult struct {
	N       int
	files   int
	bytes   int64
	runs    int
	results []result
}

func (r *result) ok() bool { return r.skipped == "" && r.failed == "" && len(r.times) > 0 }

// Median, Min and Max of the timed runs.
func (r *result) Median() time.Duration {
	s := slices.Clone(r.times)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func (r *result) Min() time.Duration { return slices.Min(r.times) }
func (r *result) Max() time.Duration { return slices.Max(r.times) }

// peakRSS is the largest resident set over the timed runs, in KiB.
func (r *result) peakRSS() int64 { return slices.Max(r.rss) }

// step is one workload: setup runs before every run (untimed), argv is
// timed. okCodes are the exit codes that count as a result (lint and audit
// exit 1 when they find problems, which is an answer, not a failure).
type step struct {
	name    string
	ref     string
	target  *target
	mem     string // the mem subcommand it needs ("" for references)
	needs   string // an external tool it needs
	setup   func(round int) error
	argv    func() []string
	okCodes []int
	after   func() error // restores the vault for the next workloads
}

type runner struct {
	cfg   Config
	vault string
	index string // the plain bleve program's index directory
	edits []string
	word  string
}

// Run generates a vault of each size and measures every workload on it.
// each is called after every size so a caller can write results as they come.
func Run(ctx context.Context, cfg Config, each func(SizeResult) error) error {
	for _, n := range cfg.Sizes {
		sr, err := runSize(ctx, cfg, n)
		if err != nil {
			return err
		}
		if err := each(sr); err != nil {
			return err
		}
	}
	return nil
}

func runSize(ctx context.Context, cfg Config, n int) (SizeResult, error) {
	r := &runner{cfg: cfg, vault: filepath.Join(cfg.Dir, fmt.Sprintf("vault-%d", n)), index: filepath.Join(cfg.Dir, fmt.Sprintf("plainbleve-%d", n)), word: benchgen.QueryWord}
	for _, p := range []string{r.vault, r.index} {
		if err := os.RemoveAll(p); err != nil {
			return SizeResult{}, err
		}
	}
	r.logf("generating %d files into %s", n, r.vault)
	st, err := benchgen.Write(r.vault, benchgen.Options{N: n, Seed: cfg.Seed})
	if err != nil {
		return SizeResult{}, err
	}
	if err := r.gitInit(); err != nil {
		return SizeResult{}, err
	}
	if r.edits, err = r.pickEdits(10); err != nil {
		return SizeResult{}, err
	}
	sr := SizeResult{N: n, files: st.Files, bytes: st.Bytes, runs: cfg.Runs}
	for _, s := range r.steps() {
		res := r.measure(ctx, s)
		r.logf("  %-34s %s", s.name, summary(&res))
		sr.results = append(sr.results, res)
		if s.after != nil {
			if err := s.after(); err != nil {
				return sr, fmt.Errorf("%s: restoring the vault after %q: %w", r.vault, s.name, err)
			}
		}
	}
	return sr, nil
}

func summary(r *result) string {
	switch {
	case r.skipped != "":
		return "skipped: " + r.skipped
	case r.failed != "":
		return "FAILED: " + r.failed
	}
	return fmt.Sprintf("median %s  min %s  max %s  rss %s", dur(r.Median()), dur(r.Min()), dur(r.Max()), mib(r.peakRSS()))
}

func (r *runner) logf(format string, args ...any) {
	if r.cfg.Log != nil {
		fmt.Fprintf(r.cfg.Log, format+"\n", args...)
	}
}

// Names of the references, used by the workloads that are judged by them.
const (
	refFloor     = "I/O floor (cat every file, warm)"
	refRg        = "rg -il WORD"
	refGitStatus = "git status"
	refGit10     = "git add + git commit, 10 files"
	refGitFirst  = "git add -A + git commit, whole vault"
	refBleve     = "plain bleve program, batches of 500"
	refBleveLean = "plain bleve, mem's fields and analyzers"
)

func (r *runner) steps() []step {
	sh := func(script string) func() []string { return func() []string { return []string{"sh", "-c", script} } }
	cmd := func(args ...string) func() []string { return func() []string { return args } }
	memArgs := func(args ...string) func() []string {
		return func() []string { return append([]string{r.cfg.Mem}, args...) }
	}
	// commitAll leaves a clean tree whatever the mem command did (or failed
	// to do), so the git references that follow start from the same state.
	commitAll := func() error {
		if err := r.git("add", "-A"); err != nil {
			return err
		}
		return r.git("commit", "-q", "--allow-empty", "-m", "bench: restore")
	}
	ten := func() []string { return r.edits }
	return []step{
		{name: refFloor, argv: sh(`find . -name '*.md' -not -path './.git/*' -not -path './.mem/*' -print0 | xargs -0 cat > /dev/null`)},
		{name: refRg, needs: "rg", argv: cmd("rg", "-il", "--glob", "*.md", r.word, "."), okCodes: []int{0, 1}},
		{name: refGitFirst, setup: func(int) error { return r.gitReset() }, argv: sh(`git add -A && git commit -q -m "first commit"`)},
		{name: "commit (first, whole vault)", ref: refGitFirst, target: &target{ratio: 1.5}, mem: "commit",
			setup: func(int) error { return r.gitReset() }, argv: memArgs("commit"),
			after: commitAll},
		{name: refGitStatus, argv: cmd("git", "status", "--porcelain")},
		{name: refGit10, setup: r.edit, argv: func() []string {
			return append([]string{"sh", "-c", `git add -- "$@" && git commit -q -m "ten files"`, "sh"}, ten()...)
		}},
		{name: "commit (10 changed files)", ref: refGit10, target: &target{ratio: 2}, mem: "commit",
			setup: r.edit, argv: memArgs("commit"), after: commitAll},
		{name: refBleve, setup: func(int) error { return os.RemoveAll(r.index) },
			argv: func() []string { return []string{r.cfg.Self, "plainbleve", "-index", r.index, r.vault} }},
		{name: refBleveLean, setup: func(int) error { return os.RemoveAll(r.index) },
			argv: func() []string { return []string{r.cfg.Self, "plainbleve", "-lean", "-index", r.index, r.vault} }},
		{name: "rebuild-index --full", ref: refBleveLean, target: &target{ratio: 1.0, maxRSS: 150 << 10}, mem: "rebuild-index",
			argv: memArgs("rebuild-index", "--full", "--quiet")},
		{name: "rebuild-index (nothing changed)", ref: refGitStatus, target: &target{ratio: 2}, mem: "rebuild-index",
			argv: memArgs("rebuild-index", "--quiet")},
		{name: "rebuild-index (10 files changed)", ref: refGitStatus, target: &target{ratio: 3}, mem: "rebuild-index",
			setup: r.edit, argv: memArgs("rebuild-index", "--quiet")},
		{name: "search WORD", ref: refRg, target: &target{ratio: 0.75}, mem: "search",
			argv: memArgs("search", r.word), okCodes: []int{0, 1}},
		{name: "render (nothing cached)", ref: refFloor, target: &target{ratio: 1.5}, mem: "render",
			setup: func(int) error { return os.RemoveAll(filepath.Join(r.vault, ".mem", "cache")) },
			argv:  func() []string { return append([]string{r.cfg.Mem, "render"}, projectArgs(firstProject(r.vault))...) }},
		{name: "render (warm, session boot)", ref: refFloor, target: &target{ratio: 0.25}, mem: "render",
			argv: func() []string { return append([]string{r.cfg.Mem, "render"}, projectArgs(firstProject(r.vault))...) }},
		{name: "lint (10 named files)", ref: refFloor, target: &target{ratio: 0.25}, mem: "lint",
			argv: func() []string { return append([]string{r.cfg.Mem, "lint"}, ten()...) }, okCodes: []int{0, 1}},
		{name: "lint (whole vault)", ref: refFloor, target: &target{ratio: 2}, mem: "lint",
			argv: memArgs("lint"), okCodes: []int{0, 1}},
		{name: "audit", ref: refFloor, target: &target{ratio: 2}, mem: "audit",
			argv: memArgs("audit"), okCodes: []int{0, 1}},
	}
}

// firstProject is the id of the alphabetically first project note of the
// vault at root, so a render has a project tier to fill; "" when it has
// none (an unknown --project is a usage error).
func firstProject(root string) string {
	entries, err := os.ReadDir(filepath.Join(root, "projects"))
	if err != nil || len(entries) == 0 {
		return ""
	}
	return "proj_" + strings.TrimSuffix(entries[0].Name(), ".md")
}

// projectArgs is --project id, or nothing for no project.
func projectArgs(id string) []string {
	if id == "" {
		return nil
	}
	return []string{"--project", id}
}

// available reports whether the mem binary has the subcommand: `mem X --help`
// exits 0 only for a command that exists.
func (r *runner) available(sub string) bool {
	return exec.Command(r.cfg.Mem, sub, "--help").Run() == nil
}

func (r *runner) measure(ctx context.Context, s step) result {
	res := result{name: s.name, ref: s.ref, target: s.target, runs: r.cfg.Runs}
	if s.mem != "" && !r.available(s.mem) {
		res.skipped = "not built yet"
		return res
	}
	if s.needs != "" {
		if _, err := exec.LookPath(s.needs); err != nil {
			res.skipped = s.needs + " not installed"
			return res
		}
	}
	okCodes := s.okCodes
	if okCodes == nil {
		okCodes = []int{0}
	}
	runs := r.cfg.Runs
	for round := 0; round <= runs; round++ { // round 0 is the warm-up
		if s.setup != nil {
			if err := s.setup(round); err != nil {
				res.failed = "setup: " + err.Error()
				return res
			}
		}
		wall, rss, err := r.run(ctx, s.argv(), okCodes)
		if err != nil {
			res.failed = err.Error()
			return res
		}
		if round > 0 {
			res.times = append(res.times, wall)
			res.rss = append(res.rss, rss)
		} else if wall > slowRun {
			runs = 1 // the machine is shared: one timed run of a slow workload
		}
	}
	return res
}

// slowRun: a workload whose warm-up takes longer is timed once only.
const slowRun = time.Minute

// timeBin reports peak RSS. Go starts children with vfork, so the kernel's
// rusage of a child counts the parent's own resident set (this process
// holds a generated vault's worth of heap) as the child's floor; a small C
// parent like GNU time does not inflate it.
const timeBin = "/usr/bin/time"

// run times one command in the vault. The peak RSS is the kernel's rusage of
// the child, which includes the children it waited for (so a `sh -c`
// pipeline reports its largest process).
func (r *runner) run(ctx context.Context, argv []string, okCodes []int) (time.Duration, int64, error) {
	ctx, cancel := context.WithTimeout(ctx, r.cfg.Timeout)
	defer cancel()
	rssFile := ""
	if _, err := os.Stat(timeBin); err == nil {
		f, err := os.CreateTemp("", "mem-bench-rss-")
		if err != nil {
			return 0, 0, err
		}
		f.Close()
		rssFile = f.Name()
		defer os.Remove(rssFile)
		argv = append([]string{timeBin, "-q", "-f", "%M", "-o", rssFile}, argv...)
	}
	c := exec.CommandContext(ctx, argv[0], argv[1:]...)
	c.Dir = r.vault
	c.Env = append(os.Environ(), "MEM_VAULT="+r.vault, "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com")
	var stderr bytes.Buffer
	c.Stdout = io.Discard
	c.Stderr = &stderr
	start := time.Now()
	err := c.Run()
	wall := time.Since(start)
	if c.ProcessState == nil {
		return 0, 0, err
	}
	rss := maxRSS(c.ProcessState)
	if rssFile != "" {
		argv = argv[6:]
		if data, err := os.ReadFile(rssFile); err == nil {
			fmt.Sscanf(string(data), "%d", &rss)
		}
	}
	if ctx.Err() != nil {
		return 0, 0, fmt.Errorf("timed out after %s", r.cfg.Timeout)
	}
	if code := c.ProcessState.ExitCode(); !slices.Contains(okCodes, code) {
		first, _, _ := strings.Cut(strings.TrimSpace(stderr.String()), "\n")
		return 0, 0, fmt.Errorf("%s exited %d: %s", filepath.Base(argv[0])+" "+strings.Join(argv[1:min(len(argv), 3)], " "), code, first)
	}
	return wall, rss, nil
}

func (r *runner) git(args ...string) error {
	c := exec.Command("git", args...)
	c.Dir = r.vault
	c.Env = append(os.Environ(), "GIT_AUTHOR_NAME=bench", "GIT_AUTHOR_EMAIL=bench@example.com",
		"GIT_COMMITTER_NAME=bench", "GIT_COMMITTER_EMAIL=bench@example.com")
	out, err := c.CombinedOutput()
	if err != nil {
		return fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func (r *runner) gitInit() error {
	if err := r.git("init", "-q"); err != nil {
		return err
	}
	return r.git("config", "commit.gpgsign", "false")
}

// gitReset gives the vault a fresh, empty repository for a first commit.
func (r *runner) gitReset() error {
	if err := os.RemoveAll(filepath.Join(r.vault, ".git")); err != nil {
		return err
	}
	return r.gitInit()
}

// pickEdits chooses n long-form notes spread over the vault: appending a
// paragraph to a note keeps it valid, which a one-line memory would not be.
func (r *runner) pickEdits(n int) ([]string, error) {
	var notes []string
	err := filepath.WalkDir(filepath.Join(r.vault, "notes"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(r.vault, p)
			notes = append(notes, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(notes) < n {
		return nil, errors.New("the generated vault has fewer than 10 notes: use at least 100 files")
	}
	out := make([]string, n)
	for i := range out {
		out[i] = notes[i*len(notes)/n]
	}
	return out, nil
}

// edit appends a paragraph to each of the ten files, different every round
// so each round is a real change.
func (r *runner) edit(round int) error {
	for _, rel := range r.edits {
		f, err := os.OpenFile(filepath.Join(r.vault, filepath.FromSlash(rel)), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(f, "\nEdited by the benchmark, round %d at %s.\n", round, time.Now().Format(time.RFC3339Nano))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}
