package doctor

import (
	"context"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/daemon"
)

// A daemon that answers is ok; one that left its socket behind (killed) or
// that accepts and never answers (hung) is a problem with the restart.
func TestCheckDaemon(t *testing.T) {
	t.Parallel()
	v := testVault(t)
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	run := func() Check {
		t.Helper()
		r, err := Run(context.Background(), v, Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return check(t, r, "daemon")
	}
	if c := run(); c.Status != OK || !strings.Contains(c.Note, "no mem watch runs") {
		t.Fatalf("no daemon: %+v", c)
	}
	sock := daemon.SocketPath(v.Root)
	os.MkdirAll(filepath.Dir(v.LockPath(daemon.LockName)), 0o755)
	writePID := func(pid int) { os.WriteFile(v.LockPath(daemon.LockName), []byte(strconv.Itoa(pid)+"\n"), 0o644) }

	// Alive: it answers the status request.
	ln, err := daemon.Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	go daemon.Serve(ln, func() bool { return false }, func(daemon.Request) daemon.Response {
		return daemon.Response{Status: &daemon.Status{PID: os.Getpid(), Watching: "fsnotify"}}
	})
	writePID(os.Getpid())
	if c := run(); c.Status != OK || !strings.Contains(c.Note, "answers") {
		t.Fatalf("a daemon that answers: %+v", c)
	}
	ln.Close()

	// Hung: the process lives, the socket accepts, no greeting comes.
	hung, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	if c := run(); c.Status != Fail || !strings.Contains(strings.Join(c.Problems, "\n"), "does not answer") {
		t.Fatalf("a hung daemon: %+v", c)
	}
	hung.(*net.UnixListener).SetUnlinkOnClose(false) // as a SIGKILL leaves it
	hung.Close()

	// Killed: the socket is left, its pid gone.
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	writePID(gone.Process.Pid)
	c := run()
	if p := strings.Join(c.Problems, "\n"); c.Status != Fail || !strings.Contains(p, "stopped without cleaning up") ||
		!strings.Contains(p, "systemctl --user restart mem-watch") || !strings.Contains(p, "pid "+strconv.Itoa(gone.Process.Pid)+" is not running") {
		t.Fatalf("a killed daemon: %+v", c)
	}
}
