//go:build unix

// Package reliability runs the real mem binary the way agents, cron and
// people run it, and tries to make it lose or tear data: SIGKILL at random
// moments, writers racing each other and the scheduled jobs, hostile files.
// The CI settings finish in a few minutes; scripts/soak runs the same tests
// with larger numbers (docs/reliability.md).
package reliability

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// memBin is the binary under test: $MEM_BIN when set (the soak script
// builds once), else built by TestMain into a temp directory.
var memBin string

func TestMain(m *testing.M) {
	os.Exit(runMain(m))
}

func runMain(m *testing.M) int {
	memBin = os.Getenv("MEM_BIN")
	if memBin == "" {
		dir, err := os.MkdirTemp("", "mem-reliability-")
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		defer os.RemoveAll(dir)
		memBin = filepath.Join(dir, "mem")
		if err := vaulttest.BuildMem(memBin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
	}
	return vaulttest.ProcessTests{M: m}.Run()
}

// seeded is the test's random source: $MEM_RELIABILITY_SEED replays a
// run, else the clock picks a seed, which is logged so a failure can be
// replayed.
func seeded(t testing.TB) *rand.Rand {
	seed := uint64(knob("MEM_RELIABILITY_SEED", 0, 0))
	if seed == 0 {
		seed = uint64(time.Now().UnixNano())
	}
	t.Logf("seed %d (replay with MEM_RELIABILITY_SEED=%d)", seed, seed)
	return rand.New(rand.NewPCG(seed, 0))
}

// knob reads a test size from the environment (scripts/soak raises them);
// unset, it is short, or full with MEM_SOAK=1. `go test ./...` runs the
// short sizes, so the README's test command passes on a busy 2-core
// machine within Go's default timeout; .ci/run's soak stage runs the full
// ones (docs/performance.md).
func knob(name string, short, full int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	if os.Getenv("MEM_SOAK") != "" {
		return full
	}
	return short
}

// execTimeout is the suite's watchdog: a command that waits longer on
// anything (a lock, a git child, a pipe) fails the test, and never holds
// up CI. mem's own waits are bounded well below it.
const execTimeout = 30 * time.Second

// pinnedNow keeps renders byte-for-byte comparable across processes.
const pinnedNow = "2026-11-29T12:00:00Z"

// env is the environment of every mem and git process the tests start.
func env(home string) []string {
	return append(os.Environ(),
		"HOME="+home, "MEM_VAULT=", "MEM_NOW="+pinnedNow,
		"GIT_AUTHOR_NAME=mem test", "GIT_AUTHOR_EMAIL=test@example.com",
		"GIT_COMMITTER_NAME=mem test", "GIT_COMMITTER_EMAIL=test@example.com",
		"GIT_CONFIG_NOSYSTEM=1",
	)
}

// result is one finished process.
type result struct {
	stdout, stderr string
	code           int
	timedOut       bool
	maxRSS         int64 // bytes
}

// tv is a test vault and the way to run commands in it.
type tv struct {
	t    testing.TB
	dir  string // the vault root
	home string
	env  []string
}

func newVault(t testing.TB) *tv {
	t.Helper()
	v := vaultIn(t, t.TempDir())
	v.init()
	t.Cleanup(v.fsck)
	return v
}

// vaultIn is the vault base/v, not made yet, with a HOME of its own at
// base/home.
func vaultIn(t testing.TB, base string) *tv {
	t.Helper()
	v := &tv{t: t, dir: filepath.Join(base, "v"), home: filepath.Join(base, "home")}
	must(t, os.MkdirAll(v.home, 0o755))
	v.env = env(v.home)
	return v
}

// init makes v with mem init.
func (v *tv) init() {
	v.t.Helper()
	if r := v.exec(memBin, nil, "init", v.dir); r.code != 0 {
		v.t.Fatalf("mem init: exit %d: %s", r.code, r.stderr)
	}
}

// fsck checks, after every test, that what the test did left the vault's
// repository and any backup beside it whole by git's strictest reading.
func (v *tv) fsck() {
	repos := []string{v.dir}
	if more, _ := filepath.Glob(filepath.Join(filepath.Dir(v.dir), "bk*")); more != nil {
		repos = append(repos, more...)
	}
	for _, repo := range repos {
		if _, err := os.Stat(repo); err != nil {
			continue
		}
		if r := v.exec("git", nil, "-C", repo, "fsck", "--strict", "--no-progress", "--no-dangling"); r.code != 0 {
			v.t.Errorf("git fsck --strict %s: exit %d\n%s%s", repo, r.code, r.stdout, r.stderr)
		}
	}
}

// copyTree copies the folder from, built once for many tests, to to.
// Files keep their modes and times; the few text files git and mem write
// an absolute path into (a clone's origin and reflogs, FETCH_HEAD, the
// backup record) get to's path instead of from's. A binary file holding
// the path fails the test (it could not be rewritten), but for a cache
// under .mem/cache, which is left out: a kept render names its vault, and
// is kept only when the template's files were older than the racy window
// when it rendered, as on a busy machine.
func copyTree(t testing.TB, from, to string) {
	t.Helper()
	old := []byte(from)
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		info, err := d.Info()
		if err != nil {
			return err
		}
		switch {
		case d.IsDir():
			return os.MkdirAll(dst, info.Mode().Perm()|0o700)
		case d.Type()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(target, dst)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Contains(data, old) {
			if bytes.IndexByte(data, 0) >= 0 {
				if strings.Contains(filepath.ToSlash(rel), ".mem/cache/") {
					return nil // derived from the files: the copy remakes it
				}
				return fmt.Errorf("%s holds the path %s and is binary", rel, from)
			}
			data = bytes.ReplaceAll(data, old, []byte(to))
		}
		if err := os.WriteFile(dst, data, info.Mode().Perm()); err != nil {
			return err
		}
		return os.Chtimes(dst, info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
}

// run runs mem in the vault with stdin (may be nil) and a timeout.
func (v *tv) run(stdin []byte, args ...string) result {
	return v.exec(memBin, stdin, append([]string{"--vault", v.dir}, args...)...)
}

func (v *tv) exec(bin string, stdin []byte, args ...string) result {
	ctx, cancel := context.WithTimeout(context.Background(), execTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = v.dir, v.env
	if _, err := os.Stat(v.dir); err != nil {
		cmd.Dir = filepath.Dir(v.dir)
	}
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), timedOut: ctx.Err() != nil}
	if r.timedOut {
		v.t.Errorf("watchdog: %s %s still running after %s", filepath.Base(bin), strings.Join(args, " "), execTimeout)
	}
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			r.maxRSS = ru.Maxrss * 1024 // Linux reports kilobytes
		}
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		r.code = -1
		r.stderr += err.Error()
	}
	return r
}

// must runs mem and fails the test unless it exits 0.
func (v *tv) must(args ...string) string {
	v.t.Helper()
	r := v.run(nil, args...)
	if r.code != 0 || r.timedOut {
		v.t.Fatalf("mem %s: exit %d (timed out: %v)\nstdout: %s\nstderr: %s", strings.Join(args, " "), r.code, r.timedOut, r.stdout, r.stderr)
	}
	return r.stdout
}

// git runs git in the vault and fails the test unless it exits 0.
func (v *tv) git(args ...string) string {
	v.t.Helper()
	r := v.exec("git", nil, args...)
	if r.code != 0 || r.timedOut {
		v.t.Fatalf("git %s: exit %d\n%s%s", strings.Join(args, " "), r.code, r.stdout, r.stderr)
	}
	return r.stdout
}

// seed writes n memories straight to disk (faster than n processes), each
// holding its own token so a search can find exactly it.
func (v *tv) seed(n int) {
	v.t.Helper()
	dir := filepath.Join(v.dir, "memory")
	for i := range n {
		body := fmt.Sprintf("---\ntype: fact\nprovenance: stated\nvalid_at: 2026-10-%02d\nimportance: %d\n---\nSeed fact number %d mentions seedtok%d and the shared word lighthouse.\n", i%28+1, i%10+1, i, i)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("seed-%04d.md", i)), []byte(body), 0o644); err != nil {
			v.t.Fatal(err)
		}
	}
}

// load reads the vault as every view does.
func (v *tv) load() []*vault.Memory {
	v.t.Helper()
	vv, err := vault.Open(v.dir)
	if err != nil {
		v.t.Fatal(err)
	}
	mems, err := vv.Load(vault.LoadOptions{})
	if err != nil {
		v.t.Fatal(err)
	}
	return mems
}

// searchIDs asks `mem search --json` and returns the ids of the hits.
func (v *tv) searchIDs(query string, limit int) ([]string, error) {
	r := v.run(nil, "--json", "search", "--limit", strconv.Itoa(limit), query)
	if r.code != 0 {
		return nil, fmt.Errorf("mem search %s: exit %d: %s", query, r.code, r.stderr)
	}
	var res struct {
		Hits []struct {
			ID string `json:"id"`
		} `json:"hits"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
		return nil, fmt.Errorf("mem search %s: %v: %s", query, err, r.stdout)
	}
	var ids []string
	for _, h := range res.Hits {
		ids = append(ids, h.ID)
	}
	return ids, nil
}

// figures records what a test did for scripts/soak, one line per test
// appended to $MEM_RELIABILITY_REPORT: "name key=value ...".
func figures(t testing.TB, name string, kv ...any) {
	var b strings.Builder
	b.WriteString(name)
	for i := 0; i+1 < len(kv); i += 2 {
		fmt.Fprintf(&b, " %v=%v", kv[i], kv[i+1])
	}
	t.Log(b.String())
	p := os.Getenv("MEM_RELIABILITY_REPORT")
	if p == "" {
		return
	}
	reportMu.Lock()
	defer reportMu.Unlock()
	f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Errorf("%s: %v", p, err)
		return
	}
	defer f.Close()
	fmt.Fprintln(f, b.String())
}

var reportMu sync.Mutex
