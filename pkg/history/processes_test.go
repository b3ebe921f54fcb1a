package history

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

// A sync starts only the git processes docs/sync.md lists: the fetch and
// the push move the objects, merge-base says how the two heads stand,
// one rev-list lists the commits each way, and for-each-ref the refs the
// secret scan starts from. The rest is read in-process (FETCH_HEAD, what
// the remote holds, which sides a decision was taken between).
func TestSyncGitProcesses(t *testing.T) {
	// Not parallel: the git mem finds on PATH records what starts it.
	a, b, remote := twoMachines(t)
	real, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	// It records its parent and the subcommand (the first argument that
	// is neither an option nor an option's value).
	wrapper := "#!/bin/sh\nppid=$PPID skip=\nfor a; do\n[ -n \"$skip\" ] && { skip=; continue; }\ncase $a in -c|-C|--git-dir) skip=1;; -*) ;; *) break;; esac\ndone\n" +
		"printf '%s %s\\n' \"$ppid\" \"$a\" >> '" + log + "'\nexec '" + real + "' \"$@\"\n"
	if err := os.WriteFile(filepath.Join(dir, "git"), []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	started := func() []string {
		t.Helper()
		data, _ := os.ReadFile(log)
		os.Remove(log)
		var cmds []string
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			if pid, cmd, ok := strings.Cut(line, " "); ok && pid == strconv.Itoa(os.Getpid()) {
				cmds = append(cmds, cmd)
			}
		}
		return cmds
	}
	sync := func(v *vault.Vault, name string, want ...string) {
		t.Helper()
		if _, err := Sync(v, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
		if got := started(); !slices.Equal(got, want) {
			t.Errorf("%s: git %v started, want %v", name, got, want)
		}
	}
	memory(t, b, "memory/three.md", "fact", "", "three")
	sync(b, "a local commit to push", "fetch", "merge-base", "rev-list", "for-each-ref", "push")
	sync(a, "the remote ahead", "fetch", "merge-base", "rev-list")
	sync(a, "nothing on either side", "fetch")
}
