// Package doctor checks a vault's integrity the way `git fsck` and `restic
// check` check theirs: every memory file parses, the index holds what the
// files say, no temp file or lock outlived the process that made it, the
// rendered views are complete, git is healthy and the last backup was
// verified. Fix repairs only what mem can rebuild (the index, the rendered
// views) or what is safe to remove (its own stale temp files); it never
// writes, moves or deletes a memory file.
package doctor

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/audit"
	"github.com/mem-md/mem/pkg/daemon"
	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/gitrepo"
	"github.com/mem-md/mem/pkg/history"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// Status of one check.
const (
	OK   = "ok"
	Warn = "warn" // worth knowing, not a failure (never backed up, no git)
	Fail = "fail"
)

// staleAfter is how old a temp or lock file must be before doctor calls it
// left over: every mem write finishes in well under a second, so a minute
// cannot be a live writer's file.
const staleAfter = time.Minute

// Options tunes Run.
type Options struct {
	Fix bool
	// Full reads every object of the last backup again; by default its
	// head, counts, connectivity and loose objects (history.CheckBackup).
	Full bool
	// Now is what views are rendered at, the caller's clock (cmd/mem's,
	// which MEM_NOW pins).
	Now   time.Time
	Views []render.Target // the rendered views to check (render.Outputs)
	// Notify receives progress messages for stderr (rebuilding the index).
	Notify func(string)
	// Env is what git runs with (fsck, reading the backup back).
	Env history.Env
}

// Check is one area the doctor examined.
type Check struct {
	Name     string   `json:"name"`
	Status   string   `json:"status"`
	Problems []string `json:"problems"` // what is wrong now (after any fix)
	Fixed    []string `json:"fixed"`    // what --fix repaired
	Note     string   `json:"note,omitempty"`
}

// Report is every check, in the order they ran.
type Report struct {
	Vault string `json:"vault"`
	// Counts are the files as audit and commit count them.
	audit.Counts
	Healthy bool    `json:"healthy"`
	Fix     bool    `json:"fix"`
	Checks  []Check `json:"checks"`
}

// Run examines v and, with opts.Fix, repairs what it safely can. The
// error is reserved for failures to examine at all, and for ctx done
// (Ctrl-C): the vault's load, the walk for temp files, an index rebuild
// and the git it runs stop, and Run returns a fail.Interrupted error.
func Run(ctx context.Context, v *vault.Vault, opts Options) (*Report, error) {
	opts.Env.Context = ctx
	mems, err := v.Load(vault.LoadOptions{Context: ctx})
	if err != nil {
		return nil, err
	}
	r := &Report{Vault: v.Root, Fix: opts.Fix, Counts: audit.Count(mems)}
	gitDir := findGitDir(v.Root)
	r.add(checkFiles(mems, r.Counts))
	r.add(checkTemp(ctx, v, opts))
	r.add(checkLocks(gitDir, opts.Fix))
	r.add(checkIndex(ctx, v, opts))
	r.add(checkViews(v, mems, opts))
	r.add(checkGit(v, gitDir, opts.Env))
	r.add(checkBackup(v, gitDir, opts.Full, opts.Env))
	r.add(checkDaemon(v))
	if err := fail.Stopped(ctx, "mem doctor"); err != nil {
		return nil, err // the checks it cut short would read as failures
	}
	r.Healthy = true
	for _, c := range r.Checks {
		if c.Status == Fail {
			r.Healthy = false
		}
	}
	return r, nil
}

func (r *Report) add(c Check) {
	if c.Status == "" {
		c.Status = OK
		if len(c.Problems) > 0 {
			c.Status = Fail
		}
	}
	if c.Problems == nil {
		c.Problems = []string{}
	}
	if c.Fixed == nil {
		c.Fixed = []string{}
	}
	r.Checks = append(r.Checks, c)
}

// checkFiles: every memory file parses. Never fixed: the file is the truth
// and only its author may change it.
func checkFiles(mems []*vault.Memory, n audit.Counts) Check {
	c := Check{Name: "files", Note: n.String()}
	for _, m := range mems {
		if m.Err != nil && !audit.IsPlainNote(m) { // a plain note is no problem (spec §2)
			c.Problems = append(c.Problems, fmt.Sprintf("%s:%v (edit the file by hand; 'mem lint %s' explains it)", m.Rel, m.Err, m.Rel))
		}
	}
	return c
}

// checkTemp finds mem's temp files (vault.TempPrefix) anywhere in the
// vault and its state directory, git's own directory aside. Their names
// never end in .md, so none is ever read as a memory; a stale one is only
// litter, which --fix removes.
func checkTemp(ctx context.Context, v *vault.Vault, opts Options) Check {
	c := Check{Name: "temp"}
	filepath.WalkDir(v.Root, func(p string, d fs.DirEntry, err error) error {
		if ctx.Err() != nil {
			return ctx.Err() // Run reports the interruption
		}
		if err != nil {
			return nil
		}
		if d.IsDir() && d.Name() == ".git" {
			return filepath.SkipDir
		}
		if !strings.HasPrefix(d.Name(), vault.TempPrefix) {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil || time.Since(fi.ModTime()) < staleAfter {
			return nil // a live writer's file, or already gone
		}
		rel := v.Rel(p)
		if opts.Fix {
			if err := os.RemoveAll(p); err == nil {
				c.Fixed = append(c.Fixed, "removed "+rel)
				return skipIfDir(d)
			}
		}
		c.Problems = append(c.Problems, rel+": temp file left by an interrupted write (remove it, or run 'mem doctor --fix')")
		return skipIfDir(d)
	})
	return c
}

func skipIfDir(d fs.DirEntry) error {
	if d.IsDir() {
		return filepath.SkipDir
	}
	return nil
}

// checkLocks finds stale git lock files. mem's own locks under .mem/locks
// are kernel flocks the kernel drops with the process, so they cannot go
// stale. git's are files: a process killed while holding one leaves it,
// and every later commit refuses to run. A lock mem wrote ("mem pid N"
// inside) is stale as soon as process N is gone, and --fix removes it; any
// other lock older than staleAfter is reported with the command to run but
// never removed, since it may belong to a `git commit` waiting in an
// editor.
func checkLocks(gitDir string, fix bool) Check {
	c := Check{Name: "locks"}
	if gitDir == "" {
		return c
	}
	for _, l := range gitrepo.LockFiles(gitDir) {
		// A lock mem wrote names its process: if that process is gone the
		// lock is stale whatever its age.
		if l.MemPid > 0 && !pidAlive(l.MemPid) {
			if fix && l.Remove() == nil {
				c.Fixed = append(c.Fixed, fmt.Sprintf("removed %s, left by mem process %d, which is gone", l.Path, l.MemPid))
			} else {
				c.Problems = append(c.Problems, fmt.Sprintf("%s: git lock file left by mem process %d, which is gone: every commit waits on it (rm %s, or run 'mem doctor --fix')", l.Path, l.MemPid, l.Path))
			}
			continue
		}
		if age := time.Since(l.ModTime); age >= staleAfter {
			c.Problems = append(c.Problems, fmt.Sprintf("%s: git lock file %s old; if no git or mem process is running, remove it (rm %s)", l.Path, age.Round(time.Second), l.Path))
		}
	}
	return c
}

// checkIndex compares the index with the files through index.Freshness and
// rebuilds it with --fix (a full build when it is missing or damaged).
func checkIndex(ctx context.Context, v *vault.Vault, opts Options) Check {
	c := Check{Name: "index"}
	st, err := index.Freshness(v)
	full := err != nil || !st.Exists // damaged or missing: build afresh
	problem := ""
	switch {
	case err != nil:
		problem = err.Error()
	case !st.Exists:
		problem = st.Reason
	case st.Changed > 0:
		problem = audit.Quantity(st.Changed, "file", "files") + " changed since the index was built"
		// Behind by a few files is what every write leaves until the next
		// search refreshes it: a failure only past audit's own threshold.
		if limit := audit.IndexLimit(v.Config.Audit); !opts.Fix && (limit < 0 || st.Changed <= limit) {
			c.Note = problem + " (the next search refreshes it)"
			return c
		}
	default:
		c.Note = audit.Quantity(st.Files, "file", "files") + " indexed"
		return c
	}
	if !opts.Fix {
		if _, err := os.Stat(index.Dir(v)); errors.Is(err, fs.ErrNotExist) {
			// Never built is not broken: the first search builds it.
			c.Status, c.Note = Warn, "no index yet (the first 'mem search' builds it, or 'mem doctor --fix')"
			return c
		}
		c.Problems = append(c.Problems, index.Dir(v)+": "+problem+" (run 'mem rebuild-index' or 'mem doctor --fix')")
		return c
	}
	stats, err := index.Update(v, index.Options{Full: full, Notify: opts.Notify, Context: ctx})
	if err != nil {
		c.Problems = append(c.Problems, index.Dir(v)+": "+problem+"; rebuilding failed: "+err.Error())
		return c
	}
	c.Fixed = append(c.Fixed, fmt.Sprintf("%s: %s; rebuilt (%d indexed, %d updated, %d removed)", index.Dir(v), problem, stats.Indexed, stats.Updated, stats.Removed))
	return c
}

// checkViews renders each configured view as `mem render --all` would and
// compares it with the file. A view that differs is a view that was never
// finished or is out of date; --fix writes it again through render's own
// atomic writer, which refuses to replace a file mem did not render.
func checkViews(v *vault.Vault, mems []*vault.Memory, opts Options) Check {
	c := Check{Name: "views"}
	projects := v.Projects(mems)
	for _, vw := range opts.Views {
		rel := v.Rel(vw.Output)
		res, _, err := vw.Render(v, mems, projects, opts.Now)
		if err != nil {
			c.Problems = append(c.Problems, rel+": "+err.Error())
			continue
		}
		problem := viewProblem(vw, res.Doc)
		if problem == "" {
			continue
		}
		if opts.Fix {
			if _, err := vw.Write(res.Doc); err != nil {
				c.Problems = append(c.Problems, rel+": "+problem+"; rendering failed: "+err.Error())
			} else {
				c.Fixed = append(c.Fixed, rel+": "+problem+"; rendered again")
			}
			continue
		}
		c.Problems = append(c.Problems, rel+": "+problem+" (run 'mem render --all' or 'mem doctor --fix')")
	}
	c.Note = audit.Quantity(len(opts.Views), "view", "views")
	return c
}

// viewProblem says what is wrong with the file behind vw against doc, the
// render of now; "" when it holds doc but for its time line.
func viewProblem(vw render.Target, doc []byte) string {
	data, err := os.ReadFile(vw.Output)
	if errors.Is(err, fs.ErrNotExist) {
		return "missing"
	}
	if err != nil {
		return err.Error()
	}
	switch {
	case vw.Holds(data, doc):
		return ""
	case vw.Splice:
		return "its mem zone is out of date or missing"
	case len(data) == 0:
		return "empty"
	}
	return "out of date or incomplete"
}

// checkGit runs `git fsck` when git is installed (the reference checker);
// otherwise it reads HEAD's commit through go-git. A vault outside git is
// a warning: history and backups are off, nothing is broken.
func checkGit(v *vault.Vault, gitDir string, env history.Env) Check {
	c := Check{Name: "git"}
	if gitDir == "" {
		c.Status, c.Note = Warn, "the vault is not in a git repository: no history, no backup ('git init' it, or 'mem init' it again)"
		return c
	}
	if _, _, _, err := history.LastCommit(v); err != nil {
		c.Problems = append(c.Problems, err.Error())
	}
	if _, err := exec.LookPath("git"); err != nil {
		c.Note = "git is not installed: checked HEAD through go-git only"
		return c
	}
	if _, err := env.Git().Fsck(gitDir, "--no-progress", "--no-dangling"); err != nil {
		c.Problems = append(c.Problems, "git fsck failed: "+err.Error())
	} else {
		c.Note = "git fsck passed"
	}
	return c
}

// checkBackup reads the last verified backup again (history.CheckBackup):
// a record alone said "ok" of a backup whose objects were gone. Never
// having verified one is a failure only when mem.yaml names a backup
// target: then a backup is expected and none was ever read back.
func checkBackup(v *vault.Vault, gitDir string, full bool, env history.Env) Check {
	c := Check{Name: "backup"}
	chk, err := history.CheckBackup(v, full, env)
	switch {
	case err != nil:
		c.Problems = append(c.Problems, err.Error())
	case chk == nil && v.Config.Backup.To != "":
		c.Problems = append(c.Problems, fmt.Sprintf("backup.to is %s but no backup was ever verified (run 'mem backup')", v.Config.Backup.To))
	case chk == nil:
		c.Status = Warn
		if gitDir != "" {
			c.Note = "no backup was ever verified (run 'mem backup --to DIR|REMOTE')"
		}
	default:
		rec := chk.Record
		c.Problems = chk.Problems
		c.Note = fmt.Sprintf("last verified %s to %s at %s (%s)", rec.Time.UTC().Format(time.RFC3339), rec.Target, short(rec.Head), audit.Quantity(rec.Memories, "memory", "memories"))
		if chk.Checked != "" {
			c.Note += "; read again: " + chk.Checked
		}
	}
	return c
}

func short(h string) string {
	if len(h) > 7 {
		return h[:7]
	}
	return h
}

// findGitDir is the .git directory of the repository holding root, or ""
// when there is none. A .git file (a submodule's gitdir: pointer) is
// followed.
func findGitDir(root string) string {
	for dir := root; ; dir = filepath.Dir(dir) {
		p := filepath.Join(dir, ".git")
		if fi, err := os.Stat(p); err == nil {
			if fi.IsDir() {
				return p
			}
			if data, err := os.ReadFile(p); err == nil {
				if g, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir: "); ok {
					if !filepath.IsAbs(g) {
						g = filepath.Join(dir, g)
					}
					return g
				}
			}
		}
		if filepath.Dir(dir) == dir {
			return ""
		}
	}
}

// restartDaemon is how to start mem watch again (docs/watch.md).
const restartDaemon = "restart it: 'systemctl --user restart mem-watch', 'launchctl kickstart -k gui/$(id -u)/md.mem.watch', or run 'mem watch' (docs/watch.md); meanwhile every command does its own work"

// checkDaemon: a mem watch that once ran here and stopped without
// cleaning up (killed, crashed, hung) is reported, as the views and the
// index then lag the files. A daemon removes its socket when it stops
// cleanly, so a socket nobody answers on is one that did not. Never
// fixed: starting a daemon is the service manager's job.
func checkDaemon(v *vault.Vault) Check {
	c := Check{Name: "daemon"}
	sock := daemon.SocketPath(v.Root)
	if _, err := os.Lstat(sock); err != nil {
		c.Note = "no mem watch runs for this vault (optional: docs/watch.md)"
		return c
	}
	resp, err := daemon.Ask(sock, daemon.Request{Op: "status"}, time.Second)
	var other *daemon.OtherVersionError
	var foreign *daemon.ForeignError
	switch pid := v.LockPID(daemon.LockName); {
	case err == nil && resp.Status != nil:
		c.Note = fmt.Sprintf("mem watch (pid %d) answers, watching with %s", resp.Status.PID, resp.Status.Watching)
	case errors.As(err, &foreign):
		c.Problems = append(c.Problems, foreign.Error())
	case errors.As(err, &other):
		c.Problems = append(c.Problems, fmt.Sprintf("mem watch (pid %d) runs another mem than this one (mem was upgraded since it started), so no command asks it: %s", other.PID, restartDaemon))
	case pidAlive(pid):
		c.Problems = append(c.Problems, fmt.Sprintf("mem watch (pid %d) does not answer on %s (stopped with Ctrl-Z, or hung): %s", pid, sock, restartDaemon))
	default:
		c.Problems = append(c.Problems, fmt.Sprintf("mem watch stopped without cleaning up (killed or crashed): %s is left and %s is not running: %s", sock, pidName(pid), restartDaemon))
	}
	return c
}

func pidName(pid int) string {
	if pid <= 0 {
		return "its process"
	}
	return "pid " + strconv.Itoa(pid)
}

// pidAlive reports whether a process with this id may still exist (where
// the system cannot tell, it may).
func pidAlive(pid int) bool {
	return pid > 0 && vault.ProcessState(pid) != "not running"
}

// WriteProblems prints what `mem doctor --quiet` says: the checks that are
// not ok, and the verdict only when it is not healthy.
func WriteProblems(w io.Writer, r *Report) error {
	if r.Healthy {
		return nil
	}
	return write(w, r, false)
}

// WriteText prints the report for a person: one line per check, then its
// problems and fixes indented under it, then the verdict.
func WriteText(w io.Writer, r *Report) error { return write(w, r, true) }

func write(w io.Writer, r *Report, ok bool) error {
	bw := bufio.NewWriter(w)
	for _, c := range r.Checks {
		if !ok && c.Status == OK && len(c.Fixed) == 0 {
			continue
		}
		line := fmt.Sprintf("%-4s  %s", c.Status, c.Name)
		if c.Note != "" {
			line += ": " + c.Note
		}
		fmt.Fprintln(bw, line)
		for _, f := range c.Fixed {
			fmt.Fprintln(bw, "      fixed:", f)
		}
		for _, p := range c.Problems {
			fmt.Fprintln(bw, "      "+p)
		}
	}
	switch {
	case r.Healthy:
		fmt.Fprintln(bw, "healthy")
	case r.Fix:
		fmt.Fprintln(bw, "NOT healthy: the problems above need a person")
	default:
		fmt.Fprintln(bw, "NOT healthy: 'mem doctor --fix' repairs the index, views and temp files; the rest needs a person")
	}
	return bw.Flush()
}
