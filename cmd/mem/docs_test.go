package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"
)

// The pages whose ```console blocks run as printed: every "$ " line is a
// command, the lines under it its output (stdout and stderr as a terminal
// shows them), "[exit N]" its last line when it fails. Blocks of one page
// share one shell, in a fresh, empty home folder shown as /home/you, with
// mem's clock at docsNow and no git identity but what the page sets.
// MEM_DOCS_UPDATE=1 writes the real outputs into the pages.
var docPages = []string{"../../README.md", "../../docs/getting-started.md"}

const (
	docsNow  = "2026-12-01T09:56:15Z"
	docsHome = "/home/you"
)

// docsVolatile is what differs from run to run and so is compared as a
// placeholder: the random suffix of a new memory's id, commit hashes,
// content hashes, how long a step took.
var docsVolatile = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`\b[0-9a-f]{40,64}\b`), "HASH"},
	{regexp.MustCompile(`-[0-9a-f]{6}\b`), "-XXXXXX"},
	{regexp.MustCompile(`\b[0-9a-f]{7}\b`), "COMMIT"},
	{regexp.MustCompile(`\b[0-9]+(\.[0-9]+)?(ns|µs|ms|s)\b`), "DURATION"},
}

type docCommand struct {
	line     int    // the "$ " line's index in the page
	cmd      string // without the prompt
	out      []string
	outStart int // the page's lines [outStart, outEnd) are out and the blank lines after it
	outEnd   int
}

func TestDocsRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every command of the README's tour and getting-started.md")
	}
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, page := range docPages {
		t.Run(filepath.Base(page), func(t *testing.T) {
			data, err := os.ReadFile(page)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(string(data), "\n")
			cmds := docCommands(lines)
			if len(cmds) == 0 {
				t.Fatalf("%s has no ```console block with a $ line", page)
			}
			got := runDocCommands(t, exe, cmds)
			if os.Getenv("MEM_DOCS_UPDATE") != "" {
				writeDocOutputs(t, page, lines, cmds, got)
				return
			}
			for i, c := range cmds {
				want := docsNormalise(strings.Join(c.out, "\n"))
				if g := docsNormalise(got[i]); g != want {
					t.Errorf("%s:%d: $ %s\n--- the page shows:\n%s\n--- it prints:\n%s", page, c.line+1, c.cmd, want, g)
				}
			}
		})
	}
}

// docCommands reads the commands and shown outputs of every console block.
func docCommands(lines []string) []docCommand {
	var cmds []docCommand
	in := false
	for i, l := range lines {
		switch {
		case !in && strings.TrimSpace(l) == "```console":
			in = true
		case in && strings.TrimSpace(l) == "```":
			in = false
			if n := len(cmds); n > 0 && cmds[n-1].outEnd < 0 {
				cmds[n-1].outEnd = i
			}
		case in && strings.HasPrefix(l, "$ "):
			if n := len(cmds); n > 0 && cmds[n-1].outEnd < 0 {
				cmds[n-1].outEnd = i
			}
			cmds = append(cmds, docCommand{line: i, cmd: l[2:], outStart: i + 1, outEnd: -1})
		case in && len(cmds) > 0:
			cmds[len(cmds)-1].out = append(cmds[len(cmds)-1].out, l)
		}
	}
	for i := range cmds {
		cmds[i].out = trimBlank(cmds[i].out)
	}
	return cmds
}

func trimBlank(out []string) []string {
	for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
		out = out[:len(out)-1]
	}
	return out
}

// runDocCommands runs cmds in one bash, as a reader pastes them, and
// returns each one's output with home shown as docsHome.
func runDocCommands(t *testing.T, exe string, cmds []docCommand) []string {
	home := t.TempDir()
	bin := t.TempDir()
	if err := os.Symlink(exe, filepath.Join(bin, "mem")); err != nil {
		t.Fatal(err)
	}
	var script strings.Builder
	script.WriteString("cd \"$HOME\"\nexec 2>&1\n")
	for i, c := range cmds {
		fmt.Fprintf(&script, "printf '\\036cmd %d\\n'\n%s\nprintf '\\n\\036rc %%d\\n' $?\n", i, c.cmd)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	sh := exec.CommandContext(ctx, "bash", "--noprofile", "--norc")
	sh.Stdin = strings.NewReader(script.String())
	sh.Dir = home
	sh.Env = []string{"HOME=" + home, "PATH=" + bin + string(os.PathListSeparator) + os.Getenv("PATH"),
		"MEM_NOW=" + docsNow, "GIT_CONFIG_NOSYSTEM=1", "LANG=C.UTF-8", "TERM=dumb", "TMPDIR=" + os.TempDir()}
	var out bytes.Buffer
	sh.Stdout = &out
	if err := sh.Run(); err != nil {
		t.Fatalf("bash: %v\n%s", err, out.String())
	}
	got := make([]string, len(cmds))
	for _, rec := range strings.Split(out.String(), "\036cmd ")[1:] {
		num, rest, _ := strings.Cut(rec, "\n")
		i, err := strconv.Atoi(num)
		if err != nil || i >= len(cmds) {
			t.Fatalf("bad record %q", rec)
		}
		text, rc, _ := strings.Cut(rest, "\036rc ")
		text = strings.TrimRight(strings.ReplaceAll(text, home, docsHome), "\n")
		if rc = strings.TrimSpace(rc); rc != "0" {
			text += "\n[exit " + rc + "]"
		}
		got[i] = text
	}
	return got
}

func docsNormalise(s string) string {
	for _, v := range docsVolatile {
		s = v.re.ReplaceAllString(s, v.with)
	}
	return strings.TrimRight(s, "\n")
}

// writeDocOutputs puts got in place of each command's shown output.
func writeDocOutputs(t *testing.T, page string, lines []string, cmds []docCommand, got []string) {
	var out []string
	at := 0
	for i, c := range cmds {
		out = append(out, lines[at:c.outStart]...)
		if got[i] != "" {
			out = append(out, strings.Split(got[i], "\n")...)
		}
		blank := 0
		for j := c.outEnd - 1; j >= c.outStart && strings.TrimSpace(lines[j]) == ""; j-- {
			blank++
		}
		for range blank {
			out = append(out, "")
		}
		at = c.outEnd
	}
	out = append(out, lines[at:]...)
	if err := os.WriteFile(page, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestHelpCitesDocs: a help text points at a page in docs/, never at a
// section of a specification the repository does not hold.
func TestHelpCitesDocs(t *testing.T) {
	var walk func(prefix string, cmds []*cli.Command)
	walk = func(prefix string, cmds []*cli.Command) {
		for _, c := range cmds {
			texts := []string{c.Usage, c.UsageText, c.Description, c.ArgsUsage}
			for _, f := range c.Flags {
				_, usage := flagParts(f)
				texts = append(texts, usage)
			}
			for _, s := range texts {
				if strings.Contains(s, "§") {
					t.Errorf("mem %s%s: %q cites a spec section: cite a docs/ page", prefix, c.Name, s)
				}
			}
			walk(prefix+c.Name+" ", c.Commands)
		}
	}
	walk("", newRoot(io.Discard, io.Discard).Commands)
}

// TestIntegrationsListsEveryTool: docs/integrations.md's tool table names
// exactly the tools mem mcp's tools/list returns, and its count in words.
func TestIntegrationsListsEveryTool(t *testing.T) {
	page, err := os.ReadFile("../../docs/integrations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(page), "## The MCP server")
	section, _, _ = strings.Cut(section, "### ")
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\|").FindAllStringSubmatch(section, -1) {
		documented = append(documented, m[1])
	}
	home := t.TempDir()
	dir := filepath.Join(home, "memory")
	if _, e, c := memRun(t, nil, "init", dir); c != 0 {
		t.Fatalf("init: %s", e)
	}
	cs, _ := connectMem(t, dir)
	list, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, tool := range list.Tools {
		served = append(served, tool.Name)
	}
	slices.Sort(documented)
	slices.Sort(served)
	if !slices.Equal(documented, served) {
		t.Errorf("docs/integrations.md's table lists %v; tools/list returns %v", documented, served)
	}
	words := []string{"Zero", "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve", "Thirteen", "Fourteen", "Fifteen"}
	if n := len(served); n < len(words) && !strings.Contains(section, words[n]+" tools") {
		t.Errorf("docs/integrations.md does not say %q", words[n]+" tools")
	}
}
