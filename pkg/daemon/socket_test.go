//go:build linux

package daemon

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/index"
)

// The helper modes run in a child process of the test binary, as another
// user: a fake daemon that listens where a real one would, and a second
// user trying to connect to the real one.
const (
	helperEnv  = "MEM_DAEMON_TEST_HELPER"
	nobody     = 65534
	askTimeout = 5 * time.Second
)

func TestMain(m *testing.M) {
	switch os.Getenv(helperEnv) {
	case "fake":
		fakeDaemon(os.Args[len(os.Args)-1], os.Getenv("MEM_DAEMON_TEST_VERSION"))
	case "poll":
		poll(os.Args[len(os.Args)-1])
	default:
		os.Exit(m.Run())
	}
}

// fakeDaemon listens on sock and answers every request as a daemon of the
// client's version would: "forged" as the MCP answer.
func fakeDaemon(sock, version string) {
	os.MkdirAll(filepath.Dir(sock), 0o777)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(3)
	}
	os.Chmod(sock, 0o777)
	fmt.Println("listening")
	for {
		c, err := ln.Accept()
		if err != nil {
			os.Exit(0)
		}
		writeLine(c, Hello{Version: version, PID: os.Getpid()})
		var req Request
		readLine(bufio.NewReader(c), maxRequest, &req)
		writeLine(c, Response{Text: "forged"})
		c.Close()
	}
}

// poll connects to sock as fast as it can until stdin closes, and prints
// how many connections were made and how many greetings read.
func poll(sock string) {
	stop := make(chan struct{})
	go func() { io.Copy(io.Discard, os.Stdin); close(stop) }()
	conns, hellos := 0, 0
	for {
		select {
		case <-stop:
			fmt.Println(conns, hellos)
			os.Exit(0)
		default:
		}
		c, err := net.Dial("unix", sock)
		if err != nil {
			continue
		}
		conns++
		c.SetDeadline(time.Now().Add(time.Second))
		var h Hello
		if readLine(bufio.NewReader(c), maxLine, &h) == nil {
			hellos++
		}
		c.Close()
	}
}

// asNobody starts the test binary in a helper mode as the user nobody;
// the binary is copied where nobody can run it. Skipped unless root.
func asNobody(t *testing.T, mode, arg string, env ...string) *exec.Cmd {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("running a process as another user needs root: run these tests as root (CI's container does) to check the peer's uid")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := openDir(t)
	bin := filepath.Join(dir, "helper")
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, arg)
	cmd.Env = append(append(os.Environ(), helperEnv+"="+mode), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	return cmd
}

// openDir is a temporary folder every user may enter and write (as a
// shared or careless .mem/ would be).
func openDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "mem-daemon-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o777); err != nil {
		t.Fatal(err)
	}
	return dir
}

// Listen makes the socket's folder 0700 before the socket, whatever the
// umask; puts a folder left 0755 right; refuses a link in its place.
func TestListenFolder(t *testing.T) {
	old := syscall.Umask(0)
	defer syscall.Umask(old)
	root := t.TempDir()
	sock := SocketPath(root)
	os.Mkdir(filepath.Join(root, ".mem"), 0o777)
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Dir(sock))
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("socket folder under umask 000: %v %v, want 0700", fi.Mode(), err)
	}
	ln.Close()
	if err := os.Chmod(filepath.Dir(sock), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err = Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	if fi, _ := os.Stat(filepath.Dir(sock)); fi.Mode().Perm() != 0o700 {
		t.Fatalf("a folder left 0755: now %v, want 0700", fi.Mode())
	}
	os.RemoveAll(filepath.Dir(sock))
	os.Symlink(t.TempDir(), filepath.Dir(sock))
	if _, err := Listen(sock); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Fatalf("a link as the socket folder: %v, want a refusal", err)
	}
}

// A daemon of this user answers; the answer is what it sent.
func TestAskServe(t *testing.T) {
	t.Parallel()
	sock := SocketPath(t.TempDir())
	os.MkdirAll(filepath.Dir(filepath.Dir(sock)), 0o755)
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go Serve(ln, func() bool { return false }, func(r Request) Response { return Response{Text: r.Search.Text} })
	resp, err := Ask(sock, Request{Op: "search", Search: &index.Query{Text: "hello"}}, askTimeout)
	if err != nil || resp.Text != "hello" {
		t.Fatalf("Ask: %q %v", resp.Text, err)
	}
}

// A fake daemon on the socket path, run by another user, is refused by
// the client, which says whose it is: its answer is never taken.
func TestAskRefusesAnotherUser(t *testing.T) {
	dir := openDir(t)
	sock := filepath.Join(dir, ".mem", socketDir, socketName)
	fake := asNobody(t, "fake", sock, "MEM_DAEMON_TEST_VERSION="+Version())
	out, err := fake.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	fake.Stderr = os.Stderr
	if err := fake.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { fake.Process.Kill(); fake.Wait() }()
	if line, _ := bufio.NewReader(out).ReadString('\n'); line != "listening\n" {
		t.Fatalf("the fake daemon did not start: %q", line)
	}
	resp, err := Ask(sock, Request{Op: "search", Search: &index.Query{Text: "x"}}, askTimeout)
	var foreign *ForeignError
	if !errors.As(err, &foreign) || foreign.UID != nobody || foreign.Own != 0 || resp.Text != "" {
		t.Fatalf("Ask of another user's daemon: %q, %v; want a ForeignError naming uid %d", resp.Text, err, nobody)
	}
	if msg := err.Error(); !strings.Contains(msg, "uid 65534") || !strings.Contains(msg, "doing the work here") {
		t.Errorf("message: %s", msg)
	}
}

// 200 starts of the socket under umask 000, each making its folder anew,
// with another user connecting as fast as it can: no connection, ever.
// And a daemon whose folder was opened to everyone still greets no other
// user (the server checks its peer too).
func TestNoOtherUserConnects(t *testing.T) {
	dir := openDir(t)
	sock := filepath.Join(dir, ".mem", socketDir, socketName)
	if err := os.Mkdir(filepath.Join(dir, ".mem"), 0o777); err != nil {
		t.Fatal(err)
	}
	poller := asNobody(t, "poll", sock)
	stdin, err := poller.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	poller.Stdout = &out
	if err := poller.Start(); err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0)
	for range 200 {
		ln, err := Listen(sock)
		if err != nil {
			syscall.Umask(old)
			t.Fatal(err)
		}
		go Serve(ln, func() bool { return false }, func(Request) Response { return Response{} })
		time.Sleep(time.Millisecond)
		ln.Close()
		os.RemoveAll(filepath.Dir(sock))
	}
	syscall.Umask(old)
	stdin.Close()
	if err := poller.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(out.String()); got != "0 0" {
		t.Fatalf("another user's connections and greetings over 200 starts: %s, want 0 0", got)
	}

	// The folder opened by hand: nobody connects, and is told nothing.
	ln, err := Listen(sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go Serve(ln, func() bool { return false }, func(Request) Response { return Response{} })
	os.Chmod(filepath.Dir(sock), 0o777)
	os.Chmod(sock, 0o777)
	poller = asNobody(t, "poll", sock)
	stdin, _ = poller.StdinPipe()
	out.Reset()
	poller.Stdout = &out
	if err := poller.Start(); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	stdin.Close()
	poller.Wait()
	f := strings.Fields(out.String())
	if len(f) != 2 || f[1] != "0" {
		t.Fatalf("another user on an opened socket: %q (connections, greetings), want no greeting", out.String())
	}
	if n, _ := strconv.Atoi(f[0]); n == 0 {
		t.Logf("the poller never connected (%s): the server's own check was not reached", out.String())
	}
}
