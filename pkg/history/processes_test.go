package history

import (
	"errors"
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

// What the remote holds is read from the outgoing commits' rev-list; a
// branch or tag the secret scan starts from outside them is answered from
// the remote's whole history, as before: a secret on another branch the
// remote lacks is still refused, and a tag on a commit it holds is not
// scanned again.
func TestSyncSecretScanBeyondTheBranch(t *testing.T) {
	t.Parallel()
	_, b, remote := twoMachines(t)
	run(t, b.Root, "git", "tag", "old", "HEAD")
	run(t, b.Root, "git", "checkout", "-q", "-b", "side")
	os.WriteFile(filepath.Join(b.Root, "memory", "deploy.md"), []byte("---\ntype: fact\nprovenance: stated\n---\nThe deploy key is "+awsKey+".\n"), 0o644)
	run(t, b.Root, "git", "add", "memory/deploy.md")
	run(t, b.Root, "git", "commit", "-q", "-m", "deploy notes")
	bad := run(t, b.Root, "git", "rev-parse", "--short=7", "HEAD")
	run(t, b.Root, "git", "checkout", "-q", "main")
	memory(t, b, "memory/three.md", "fact", "", "three")
	_, err := Sync(b, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(time.Hour)})
	var refused *RefusedError
	if !errors.As(err, &refused) || !strings.Contains(err.Error(), "commit "+bad+" adds memory/deploy.md") {
		t.Fatalf("a secret on another branch: %v, want a refusal naming commit %s", err, bad)
	}
	run(t, b.Root, "git", "branch", "-q", "-D", "side")
	if res, err := Sync(b, SyncOptions{Env: testEnv(), Remote: remote, Now: t0.Add(2 * time.Hour)}); err != nil || !res.Pushed {
		t.Fatalf("with the branch gone: %+v %v", res, err)
	}
}
