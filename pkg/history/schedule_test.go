package history

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mem-md/mem/internal/vaulttest"
	"github.com/mem-md/mem/pkg/vault"
)

// scheduleLines extracts the command lines of docs/schedule.md: the
// commands of the crontab block (after the five time fields) and the
// ExecStart= lines of the systemd units.
func scheduleLines(t *testing.T) (cron, systemd []string) {
	t.Helper()
	f, err := os.Open("../../docs/schedule.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	block := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "```") {
			if block == "" {
				block = strings.TrimPrefix(line, "```")
				if block == "" {
					block = "text"
				}
			} else {
				block = ""
			}
			continue
		}
		switch {
		case block == "crontab" && strings.HasPrefix(line, "MEM="):
			// The path to mem, as the reader puts it there: the test sets
			// its own (TestScheduleLines).
		case block == "crontab" && line != "" && !strings.HasPrefix(line, "#"):
			fields := strings.Fields(line)
			if len(fields) < 6 {
				t.Fatalf("crontab line without a command: %q", line)
			}
			// The command is everything after the fifth time field.
			rest := line
			for range 5 {
				rest = strings.TrimLeft(rest, " \t")
				rest = rest[strings.IndexAny(rest, " \t"):]
			}
			cron = append(cron, strings.TrimSpace(rest))
		case block == "ini" && strings.HasPrefix(line, "ExecStart="):
			systemd = append(systemd, strings.TrimPrefix(line, "ExecStart="))
		}
	}
	return cron, systemd
}

// TestScheduleLines runs every command line of docs/schedule.md, exactly
// as written, against a vault in a temporary home: cron's through sh with
// cron's minimal environment, systemd's with %h expanded and no shell.
func TestScheduleLines(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the mem binary")
	}
	cron, systemd := scheduleLines(t)
	if len(cron) != 4 || len(systemd) != 4 {
		t.Fatalf("docs/schedule.md: %d crontab and %d ExecStart lines, want 4 of each", len(cron), len(systemd))
	}
	// Built before GitEnv moves HOME: go keeps its caches under it.
	home := t.TempDir()
	bin := filepath.Join(home, "go", "bin", "mem")
	if err := vaulttest.BuildMem(bin); err != nil {
		t.Fatal(err)
	}
	vaulttest.GitEnv(t)
	root := filepath.Join(home, "memory")
	env := []string{"HOME=" + home, "PATH=/usr/bin:/bin", "SHELL=/bin/sh", "LOGNAME=mem",
		"GIT_CONFIG_NOSYSTEM=1", "MEM=" + bin} // MEM: the crontab's own variable line
	mem := func(args ...string) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Env = env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("mem %v: %v\n%s", args, err, out)
		}
	}
	var v *vault.Vault
	mem("init", root)
	if err := os.Mkdir(filepath.Join(home, "backups"), 0o755); err != nil { // as docs/schedule.md says
		t.Fatal(err)
	}
	// Cron and systemd do not pass git's author variables: mem.yaml names it.
	if err := os.WriteFile(filepath.Join(root, "mem.yaml"), []byte("author:\n  name: Vault Owner\n  email: owner@example.com\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	v, err := vault.Open(root)
	if err != nil {
		t.Fatal(err)
	}
	for pass, lines := range [][]string{cron, systemd} {
		memory(t, v, "memory/pass"+string(rune('a'+pass))+".md", "fact", "", "written before pass "+string(rune('a'+pass))) // two copies of one text would be merged by the nightly consolidate
		for _, line := range lines {
			var cmd *exec.Cmd
			if pass == 0 {
				cmd = exec.Command("/bin/sh", "-c", line)
			} else {
				args := strings.Fields(strings.ReplaceAll(line, "%h", home))
				cmd = exec.Command(args[0], args[1:]...)
			}
			cmd.Env, cmd.Dir = env, home
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%q: %v\n%s", line, err, out)
			}
			if len(out) > 0 && !strings.Contains(line, "rebuild-index") {
				t.Errorf("%q is not silent under --quiet:\n%s", line, out)
			}
		}
		// Each pass commits its memory; the first backup also commits the
		// backup.to it records in mem.yaml, so the vault stays clean.
		if n := run(t, root, "git", "rev-list", "--count", "HEAD"); n != string(rune('2'+pass)) {
			t.Fatalf("pass %d: %s commits, want %d", pass, n, pass+2)
		}
		if st := run(t, root, "git", "status", "--porcelain"); st != "" {
			t.Fatalf("pass %d: the vault is not clean after the schedule's lines:\n%s", pass, st)
		}
		rec, err := LastBackup(v)
		if err != nil || rec == nil || rec.Head != run(t, root, "git", "rev-parse", "HEAD") || rec.Memories != pass+1 {
			t.Fatalf("pass %d: last backup %+v %v", pass, rec, err)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "backups", "memory.git", "HEAD")); err != nil {
		t.Fatal("no backup repository at ~/backups/memory.git")
	}
}
