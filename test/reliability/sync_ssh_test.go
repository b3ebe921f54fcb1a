//go:build unix

package reliability

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// sshd starts Debian's openssh-server on 127.0.0.1 with a host key and an
// authorized key made for the test, and returns the GIT_SSH_COMMAND that
// reaches it and the port. It skips when sshd is not installed (.ci/run
// installs it, so CI always runs this).
func sshd(t *testing.T) (sshCommand string, port int) {
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
	// sshd cannot be handed a listener or asked for a free port (-p 0 is
	// refused), so a port is picked, closed and given to sshd; if another
	// process takes it in between, sshd fails to bind and exits, and the
	// next try picks a fresh port.
	cfg := filepath.Join(dir, "sshd_config")
	os.WriteFile(cfg, []byte(fmt.Sprintf(`ListenAddress 127.0.0.1
HostKey %s
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
	for try := 0; ; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port = l.Addr().(*net.TCPAddr).Port
		l.Close()
		if startSSHD(t, bin, cfg, port) {
			break
		}
		if try == 4 {
			t.Fatalf("sshd did not listen on 5 ports in a row")
		}
	}
	return fmt.Sprintf("ssh -i %s -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes", filepath.Join(dir, "client")), port
}

// mem sync and mem clone over ssh, through the git program, against a real
// sshd on the loopback: a vault made on one machine is cloned on another,
// each writes, and both end at the same head.
func TestSyncOverSSH(t *testing.T) {
	sshCmd, port := sshd(t)
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	a := newVault(t)
	a.env = append(a.env, "GIT_SSH_COMMAND="+sshCmd)
	remote := filepath.Join(filepath.Dir(a.dir), "remote.git")
	a.git("init", "-q", "--bare", remote)
	url := fmt.Sprintf("ssh://%s@127.0.0.1:%d%s", u.Username, port, remote)
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

// startSSHD runs sshd on port and waits until it greets, false when it
// exits first (the port was taken). The greeting, not a connection alone,
// tells it from another program that took the port.
func startSSHD(t *testing.T, bin, cfg string, port int) bool {
	cmd := exec.Command(bin, "-D", "-e", "-f", cfg, "-p", fmt.Sprint(port))
	cmd.Stderr = testLog{t} // sshd's complaints go to the test log
	if err := cmd.Start(); err != nil {
		t.Fatalf("start sshd: %v", err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-exited })
	// sshd binds after reading its keys: poll until it greets or exits.
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		select {
		case <-exited:
			return false
		case <-time.After(25 * time.Millisecond):
		}
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", port))
		if err != nil {
			continue
		}
		c.SetDeadline(time.Now().Add(5 * time.Second))
		line, _ := bufio.NewReader(c).ReadString('\n')
		c.Close()
		if strings.HasPrefix(line, "SSH-2.0-") {
			return true
		}
	}
	t.Fatalf("sshd did not listen on 127.0.0.1:%d", port)
	return false
}

// testLog writes each line to the test log.
type testLog struct{ t *testing.T }

func (w testLog) Write(p []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimRight(string(p), "\n"), "\n") {
		w.t.Log("sshd:", l)
	}
	return len(p), nil
}
