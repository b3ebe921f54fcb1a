//go:build unix

package reliability

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
)

// sshd makes Debian's openssh-server reachable with a host key and an
// authorized key made for the test, and returns the GIT_SSH_COMMAND that
// reaches it. ssh runs sshd in inetd mode (-i) as its ProxyCommand, one per
// connection, over a pipe: no port is picked, so none can be taken by
// another process before sshd binds it. It skips when sshd is not
// installed (.ci/run installs it, so CI always runs this).
func sshd(t *testing.T) (sshCommand string) {
	t.Helper()
	bin := "/usr/sbin/sshd"
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("sshd"); err != nil {
			t.Skip("sshd is not installed (apt-get install openssh-server; .ci/run does): the ssh transport is not tested here")
		}
	}
	dir := t.TempDir()
	for _, k := range []string{"host", "client"} {
		if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", filepath.Join(dir, k)).CombinedOutput(); err != nil {
			t.Fatalf("ssh-keygen: %v\n%s", err, out)
		}
	}
	pub, err := os.ReadFile(filepath.Join(dir, "client.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600); err != nil {
		t.Fatal(err)
	}
	// sshd run as root needs its privilege-separation folder.
	if os.Geteuid() == 0 {
		os.MkdirAll("/run/sshd", 0o755)
	}
	cfg := filepath.Join(dir, "sshd_config")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`HostKey %s
AuthorizedKeysFile %s
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
StrictModes no
UsePAM no
PidFile none
LogLevel ERROR
`, filepath.Join(dir, "host"), filepath.Join(dir, "authorized_keys"))), 0o600)
	return fmt.Sprintf("ssh -i %s -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes -o ProxyCommand='%s -i -f %s'", filepath.Join(dir, "client"), bin, cfg)
}

// mem sync and mem clone over ssh, through the git program, against a real
// sshd on the loopback: a vault made on one machine is cloned on another,
// each writes, and both end at the same head.
func TestSyncOverSSH(t *testing.T) {
	t.Parallel()
	sshCmd := sshd(t)
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	a := newVault(t)
	a.env = append(a.env, "GIT_SSH_COMMAND="+sshCmd)
	remote := filepath.Join(filepath.Dir(a.dir), "remote.git")
	a.git("init", "-q", "--bare", remote)
	// The ProxyCommand never dials the port: it stays in the URL so the
	// ssh://user@host:port form is what mem hands to git.
	url := fmt.Sprintf("ssh://%s@127.0.0.1:2222%s", u.Username, remote)
	a.must("remember", "the ssh machine remembers this")
	out := a.must("sync", url)
	if !strings.Contains(out, "pushed") {
		t.Fatalf("first sync over ssh did not push:\n%s", out)
	}
	b := &tv{t: t, dir: filepath.Join(filepath.Dir(a.dir), "b"), home: a.home, env: a.env}
	if r := b.exec(memBin, nil, "clone", url, b.dir); r.code != 0 || !strings.Contains(r.stdout, "verified") {
		t.Fatalf("mem clone over ssh: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	b.must("remember", "the second machine adds this")
	b.must("sync")
	a.must("sync")
	if ha, hb := a.git("-C", a.dir, "rev-parse", "HEAD"), b.git("-C", b.dir, "rev-parse", "HEAD"); ha != hb {
		t.Fatalf("heads differ after syncing over ssh: %s vs %s", ha, hb)
	}
	if got := len(a.load()); got != 2 {
		t.Fatalf("machine a holds %d memories, want 2", got)
	}
	b.fsck()
}
