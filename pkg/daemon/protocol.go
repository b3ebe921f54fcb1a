// Package daemon is `mem watch` and the daemon of `mem serve` (spec §10):
// what it watches, when it indexes, renders, commits and syncs, and what it
// answers (Daemon); the socket in .mem/ that answers search, render and MCP
// recall/search, the one-per-vault lock, and the file watcher (fsnotify, or
// polling where watching is impossible). It answers by calling the package
// functions a command calls (index.Search, render.RunEmit, mcpserver.Call),
// so an answer is the same either way.
//
// The protocol is three JSON lines on a unix socket: the daemon greets
// (its version and pid), the client sends one typed Request, the daemon
// sends one Response. A client that is not greeted within HelloWait, or not
// answered within answerWait, or greeted by another version, does the
// work itself: a daemon can only make a command faster, never block it.
package daemon

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/mem-md/mem/pkg/clock"
	"github.com/mem-md/mem/pkg/index"
	"github.com/mem-md/mem/pkg/inspect"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/vault"
)

// socketDir is the folder of the daemon's socket inside the vault's .mem/,
// the user's only (0700): whoever cannot enter it cannot connect, whatever
// the socket's own mode and the umask were when it was made.
const (
	socketDir  = "run"
	socketName = "watch.sock"
)

// SocketPath is the socket of the daemon of the vault at root.
func SocketPath(root string) string { return filepath.Join(root, ".mem", socketDir, socketName) }

// HelloWait bounds connecting and being greeted: a stuck daemon (one that
// accepts but never answers) costs a client at most this. answerWait bounds
// the answer once greeted. A daemon in the middle of an update says so in
// its greeting, and the client does the work itself rather than queue.
// A client that can afford a longer wait passes it to Ask.
const (
	HelloWait  = 20 * time.Millisecond
	answerWait = time.Second
)

// maxLine bounds one line a client reads (a render is at most a few
// hundred KiB; a search answer less); maxRequest the line the daemon reads:
// a typed request is a few hundred bytes, and reading 60 MB ones left the
// daemon holding ~600 MB (issue 28).
const (
	maxLine    = 64 << 20
	maxRequest = 1 << 20
)

// Version is what a client and a daemon must agree on: VersionOf this
// executable.
var Version = sync.OnceValue(func() string {
	exe, _ := os.Executable()
	return VersionOf(exe)
})

// VersionOf is mem's version and the size and time of the executable exe,
// so a rebuilt binary never talks to a daemon still running the old code.
func VersionOf(exe string) string {
	v := vault.Version
	if fi, err := os.Stat(exe); err == nil {
		v += " " + strconv.FormatInt(fi.Size(), 10) + "-" + strconv.FormatInt(fi.ModTime().UnixNano(), 10)
	}
	return v
}

// Hello is the daemon's greeting.
type Hello struct {
	Version string `json:"version"`
	PID     int    `json:"pid"`
	Busy    bool   `json:"busy,omitempty"`
}

// Request is one question to the daemon. It is typed, never a command
// line: a client names what it wants answered (a search query, render
// targets, an MCP tool's arguments), and the daemon calls the package
// function that answers it, so no request can make it run anything else
// (issue 28: an argv that looked like a render to an allow-list ran
// `sync` to a remote the client chose).
type Request struct {
	Version string `json:"version"`
	// Op is "search", "render", "mcp" (the MCP recall and search tools) or
	// "status". The daemon declines any other.
	Op string `json:"op"`
	// Home is the client's home folder: the daemon declines another one
	// (~ in a project's roots is the home of whoever reads it).
	Home   string       `json:"home,omitempty"`
	Search *index.Query `json:"search,omitempty"`
	Render *Render      `json:"render,omitempty"`
	// For "mcp": the tool, its arguments and the client's clock.
	Tool  string          `json:"tool,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	Now   time.Time       `json:"now,omitzero"`
}

// Render is mem render's question: the targets (every path absolute), or
// All for mem.yaml's render.outputs, and the run's options (the client's
// clock and working directory among them).
type Render struct {
	All     bool              `json:"all,omitempty"`
	Targets []render.Target   `json:"targets,omitempty"`
	Options render.RunOptions `json:"options"`
}

// Response is the daemon's answer. Declined means the daemon would not do
// it, or that the command failed in a way the client reports better itself
// (a usage error): the client then does the work itself, so an unusual
// case is never wrong.
type Response struct {
	Declined string `json:"declined,omitempty"`
	// Code 1: the search or render failed its check, Error says why.
	Code int `json:"code,omitempty"`
	// For "search": the answer and what the search said on the way.
	Search *inspect.Result `json:"search,omitempty"`
	Notes  []string        `json:"notes,omitempty"`
	// For "render": each render, as mem render shows it.
	Render []render.Emitted `json:"render,omitempty"`
	// For "mcp": the text content and structured output, or the error.
	Text  string          `json:"text,omitempty"`
	Out   json.RawMessage `json:"out,omitempty"`
	Error string          `json:"error,omitempty"`
	// For "status".
	Status *Status `json:"status,omitempty"`
}

// Status is what `mem watch --status` prints.
type Status struct {
	Vault   string    `json:"vault"`
	PID     int       `json:"pid"`
	Version string    `json:"version"`
	Started time.Time `json:"started"`
	// Watching is "fsnotify" or "polling", Why the reason for polling.
	Watching string `json:"watching"`
	Why      string `json:"why,omitempty"`
	Dirs     int    `json:"dirs"`
	// Queue counts changes seen and not yet handled.
	Queue  int   `json:"queue"`
	Index  Event `json:"index"`
	Render Event `json:"render"`
	Commit Event `json:"commit"`
	Sync   Event `json:"sync"`
	// Merge is the last idle merge of the held index into one segment;
	// while one is due or running, a Result and no At.
	Merge  Event `json:"merge,omitzero"`
	Served int   `json:"served"`
	// Warm counts the searches answered from the index held open, with no
	// look at the files.
	Warm int `json:"warm"`
}

// Event is the last run of one kind of work.
type Event struct {
	At     time.Time `json:"at,omitzero"`
	Result string    `json:"result,omitempty"`
	OK     bool      `json:"ok"`
}

// ErrNoDaemon is why Ask did not get an answer.
var ErrNoDaemon = errors.New("no daemon answered")

// ForeignError is a socket answered by a process of another user: a
// client never takes its answer (it could print anything as search
// results or a view), and does the work itself.
type ForeignError struct {
	Sock     string
	UID, Own int // the peer's user id, and this process's
	Err      error
}

func (e *ForeignError) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("the daemon socket %s was not used: its peer's user cannot be checked here (%v); doing the work here", e.Sock, e.Err)
	}
	return fmt.Sprintf("the daemon socket %s is answered by a process of uid %d, not of this user (uid %d), so its answer was not taken; doing the work here (stop that process, and remove %s)",
		e.Sock, e.UID, e.Own, filepath.Dir(e.Sock))
}

// OtherVersionError is a daemon running another mem.
type OtherVersionError struct {
	PID     int
	Version string
}

func (e *OtherVersionError) Error() string {
	return "the daemon (pid " + strconv.Itoa(e.PID) + ") runs another mem: " + e.Version
}

// Ask sends req to the daemon at sock, waiting up to wait for the
// greeting: HelloWait for a command that would rather do the work itself,
// longer for a person asking (mem watch --status, mem doctor), who can wait
// for a busy daemon. Any failure (no socket, a stuck or dead daemon,
// another version, a declined request) returns an error, and the caller
// does the work itself.
func Ask(sock string, req Request, wait time.Duration) (Response, error) {
	var resp Response
	start := clock.Now()
	conn, err := net.DialTimeout("unix", sock, wait)
	if err != nil {
		return resp, ErrNoDaemon
	}
	defer conn.Close()
	// Whoever can write .mem/ can listen on the path: only a process of
	// this user may answer.
	if uid, err := peerUID(conn); err != nil || uid != os.Getuid() {
		return resp, &ForeignError{Sock: sock, UID: uid, Own: os.Getuid(), Err: err}
	}
	conn.SetDeadline(start.Add(wait))
	r := bufio.NewReaderSize(conn, 64<<10)
	var hello Hello
	if err := readLine(r, maxLine, &hello); err != nil {
		return resp, ErrNoDaemon
	}
	if hello.Version != Version() {
		return resp, &OtherVersionError{PID: hello.PID, Version: hello.Version}
	}
	if hello.Busy && req.Op != "status" {
		return resp, ErrNoDaemon
	}
	req.Version = Version()
	conn.SetDeadline(clock.Now().Add(answerWait))
	if err := writeLine(conn, req); err != nil {
		return resp, ErrNoDaemon
	}
	if err := readLine(r, maxLine, &resp); err != nil {
		return resp, ErrNoDaemon
	}
	if resp.Declined != "" {
		return resp, errors.New("the daemon declined: " + resp.Declined)
	}
	return resp, nil
}

func readLine(r *bufio.Reader, limit int, v any) error {
	var line []byte
	for {
		chunk, isPrefix, err := r.ReadLine()
		if err != nil {
			return err
		}
		line = append(line, chunk...)
		if len(line) > limit {
			return errors.New("line too long")
		}
		if !isPrefix {
			break
		}
	}
	return json.Unmarshal(line, v)
}

func writeLine(conn net.Conn, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = conn.Write(append(b, '\n'))
	return err
}

// Listen opens the socket at sock, replacing a stale one (the caller holds
// the vault's watch lock, so no live daemon owns it), reachable by the
// user only: whoever connects runs searches and renders as that user. Its
// folder is made 0700 before the socket exists (socketFolder), so there is
// no moment, whatever the umask, at which another user can connect.
func Listen(sock string) (net.Listener, error) {
	if err := socketFolder(filepath.Dir(sock)); err != nil {
		return nil, err
	}
	os.Remove(sock)
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, err
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(true)
	return ln, nil
}

// socketFolder makes dir, the socket's folder, this user's only: created
// 0700 (a umask only takes bits away), or, when it is there, a real folder
// (not a link) of this user, set to 0700. One of another user is refused:
// it would let them replace the socket.
func socketFolder(dir string) error {
	if err := os.Mkdir(dir, 0o700); err == nil || !errors.Is(err, fs.ErrExist) {
		return err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a folder (a link or a file): remove it, and mem watch makes its socket's folder again", dir)
	}
	if uid, ok := ownerUID(fi); ok && uid != os.Getuid() {
		return fmt.Errorf("%s belongs to uid %d, not to this user (uid %d): another user could replace the socket; remove it, and mem watch makes it again", dir, uid, os.Getuid())
	}
	if fi.Mode().Perm() != 0o700 {
		return os.Chmod(dir, 0o700) // no socket is in it yet: nobody connects meanwhile
	}
	return nil
}

// Serve greets each connection (saying whether busy), reads its request
// and answers it with handle, until ln is closed. A request whose version
// differs is declined.
func Serve(ln net.Listener, busy func() bool, handle func(Request) Response) error {
	for {
		conn, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) {
				return nil
			}
			return err
		}
		go serveConn(conn, busy(), handle)
	}
}

func serveConn(conn net.Conn, busy bool, handle func(Request) Response) {
	defer conn.Close()
	// The folder keeps other users out; a peer of another uid got in some
	// other way (root, a folder changed under us) and is told nothing.
	if uid, err := peerUID(conn); err != nil || uid != os.Getuid() {
		return
	}
	conn.SetDeadline(clock.Now().Add(answerWait + time.Second))
	if writeLine(conn, Hello{Version: Version(), PID: os.Getpid(), Busy: busy}) != nil {
		return
	}
	var req Request
	if err := readLine(bufio.NewReaderSize(conn, 64<<10), maxRequest, &req); err != nil {
		writeLine(conn, Response{Declined: "request unreadable or over " + strconv.Itoa(maxRequest) + " bytes: " + err.Error()})
		return
	}
	var resp Response
	if req.Version != Version() {
		resp.Declined = "another mem version: " + req.Version
	} else {
		resp = handle(req)
	}
	writeLine(conn, resp)
}
