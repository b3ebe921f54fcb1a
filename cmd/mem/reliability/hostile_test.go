//go:build unix

package reliability

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// hostileCase plants something hostile in a fresh vault.
type hostileCase struct {
	name  string
	plant func(t *testing.T, v *tv, outside string)
}

// memFile is a minimal valid memory around body.
func memFile(body string) string {
	return "---\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\n---\n" + body + "\n"
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

var hostileCases = []hostileCase{
	{"deep-nesting", func(t *testing.T, v *tv, _ string) {
		n := 20000
		write(t, filepath.Join(v.dir, "memory/deep-flow.md"), "---\ntype: fact\nprovenance: stated\nx: "+strings.Repeat("[", n)+strings.Repeat("]", n)+"\n---\nDeep flow.\n")
		var b strings.Builder
		b.WriteString("---\ntype: fact\nprovenance: stated\nx:\n")
		for i := range 3000 {
			b.WriteString(strings.Repeat(" ", i+2) + "a:\n")
		}
		b.WriteString("---\nDeep block.\n")
		write(t, filepath.Join(v.dir, "memory/deep-block.md"), b.String())
	}},
	{"alias-bomb", func(t *testing.T, v *tv, _ string) {
		var b strings.Builder
		b.WriteString("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n")
		for i := 1; i < 12; i++ {
			fmt.Fprintf(&b, "a%d: &a%d [", i, i)
			for j := range 10 {
				if j > 0 {
					b.WriteString(", ")
				}
				fmt.Fprintf(&b, "*a%d", i-1)
			}
			b.WriteString("]\n")
		}
		anchors := b.String() // 10^12 nodes once expanded
		write(t, filepath.Join(v.dir, "memory/bomb.md"), "---\ntype: fact\nprovenance: stated\n"+anchors+"tags: *a11\n---\nBillion laughs.\n")
		write(t, filepath.Join(v.dir, "mem.yaml"), anchors+"ignore: *a11\n")
	}},
	{"huge-file", func(t *testing.T, v *tv, _ string) {
		size := knob("MEM_HOSTILE_HUGE_MB", 100, 100) << 20
		f, err := os.Create(filepath.Join(v.dir, "memory/huge.md"))
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("---\ntype: fact\nprovenance: stated\n---\n")
		line := []byte(strings.Repeat("lighthouse huge ", 63) + "\n")
		for written := 0; written < size; written += len(line) {
			f.Write(line)
		}
		f.Close()
		// One huge frontmatter line too, under the limit of a file.
		write(t, filepath.Join(v.dir, "memory/long-line.md"), "---\ntype: fact\nprovenance: stated\ntitle: "+strings.Repeat("x", 900<<10)+"\n---\nLong line.\n")
	}},
	{"nul-bytes", func(t *testing.T, v *tv, _ string) {
		write(t, filepath.Join(v.dir, "memory/nul-body.md"), memFile("Text with a NUL \x00 inside lighthouse."))
		write(t, filepath.Join(v.dir, "memory/nul-meta.md"), "---\ntype: fa\x00ct\nprovenance: stated\n---\nNUL in a key.\n")
		write(t, filepath.Join(v.dir, "memory/all-nul.md"), strings.Repeat("\x00", 4096))
	}},
	{"invalid-utf8", func(t *testing.T, v *tv, _ string) {
		write(t, filepath.Join(v.dir, "memory/bad-utf8.md"), memFile("Bytes \xff\xfe\xc3\x28 lighthouse."))
		write(t, filepath.Join(v.dir, "memory/bad-utf8-meta.md"), "---\ntype: fact\nprovenance: stated\ntitle: \xff\xfe\n---\nBad title.\n")
		write(t, filepath.Join(v.dir, "memory/bom-crlf.md"), "\xef\xbb\xbf---\r\ntype: fact\r\nprovenance: stated\r\n---\r\nBOM and CRLF.\r\n")
	}},
	{"odd-names", func(t *testing.T, v *tv, _ string) {
		for _, name := range []string{"with space.md", "ünïcödé 記憶.md", "new\nline.md", "tab\there.md", "-dash.md", ".hidden.md", "quote\"'.md", "back\\slash.md"} {
			write(t, filepath.Join(v.dir, "memory", name), memFile("Odd name "+strings.ReplaceAll(name, "\n", " ")+" lighthouse."))
		}
	}},
	{"links-leaving", func(t *testing.T, v *tv, outside string) {
		must(t, os.Symlink(filepath.Join(outside, "secret.md"), filepath.Join(v.dir, "memory/escape.md")))
		must(t, os.Symlink(outside, filepath.Join(v.dir, "memory/outdir")))
		must(t, os.Symlink("../../outside/secret.md", filepath.Join(v.dir, "notes/rel-escape.md")))
		must(t, os.Symlink("loop.md", filepath.Join(v.dir, "memory/loop.md")))
		must(t, os.Symlink(filepath.Join(v.dir, "memory"), filepath.Join(v.dir, "memory/self")))
		must(t, os.Link(filepath.Join(outside, "hard.md"), filepath.Join(v.dir, "memory/hard.md")))
	}},
	{"dotdot-ids", func(t *testing.T, v *tv, _ string) {
		write(t, filepath.Join(v.dir, "memory/dotdot-id.md"), "---\nid: ../../outside/secret\ntype: fact\nprovenance: stated\nsupersedes: [../../outside/secret, /etc/passwd]\n---\nA claim with a hostile id.\n")
		write(t, filepath.Join(v.dir, "projects/evil.md"), "---\nid: proj_evil\ntype: project\nroots: [../../.., /, \"~/../..\"]\n---\nEvil project.\n")
		write(t, filepath.Join(v.dir, "memory/dotdot-project.md"), "---\ntype: fact\nprovenance: stated\nproject: ../../outside\n---\nHostile project.\n")
		write(t, filepath.Join(v.dir, "memory/lesson.md"), "---\nid: ../lesson\ntype: lesson\nprovenance: inferred\n---\nWhen X broke, Y fixed it.\n")
	}},
	{"garbage-config", func(t *testing.T, v *tv, _ string) {
		write(t, filepath.Join(v.dir, "mem.yaml"), "\x00\xff: [\n\tgarbage: {{{\n"+strings.Repeat("- ", 10000))
	}},
	{"wrong-config-types", func(t *testing.T, v *tv, _ string) {
		write(t, filepath.Join(v.dir, "mem.yaml"), "render:\n  budget: lots\n  outputs: {path: ../../outside/owned.md}\nignore: 7\nlint:\n  max_file_size: -1\nbackup:\n  to: [x]\n")
	}},
	{"outputs-outside", func(t *testing.T, v *tv, outside string) {
		write(t, filepath.Join(v.dir, "mem.yaml"), "render:\n  outputs:\n    - path: ../outside/secret.md\n    - path: memory/seed-0001.md\n")
	}},
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// hostileCommands are every command that reads the vault's files, and the
// id-taking commands fed hostile ids.
var hostileCommands = [][]string{
	{"lint"},
	{"lint", "memory"},
	{"render"},
	{"render", "--format", "json"},
	{"render", "-o", "MEMORY.md"},
	{"render", "--all"},
	{"rebuild-index", "--full"},
	{"rebuild-index"},
	{"search", "lighthouse"},
	{"commit"},
	{"log"},
	{"audit"},
	{"gate"},
	{"doctor"},
	{"doctor", "--fix"},
	{"remember", "--supersedes", "../../outside/secret", "A hostile supersedes."},
	{"remember", "--project", "../../outside", "A hostile project."},
	{"signal", "--session", "s1", "--evidence", "e", "../../outside/secret"},
	{"signal", "--session", "s1", "--evidence", "e", "../lesson"},
	{"promote", "../lesson"},
	{"log", "../../outside/secret"},
	{"import", "memory-md", "memory/seed-0001.md"},
}

// maxRSS bounds any one process: the 100 MB file must be refused, not read
// into memory several times over.
var maxRSS = int64(knob("MEM_HOSTILE_MAX_RSS_MB", 768, 768)) << 20

// TestHostileInput plants each hostile case in its own vault and runs every
// command over it: each exits 0, 1 or 2 with a message when not 0, within
// the timeout, in bounded memory, without a panic, and without changing
// anything outside the vault.
func TestHostileInput(t *testing.T) {
	t.Parallel()
	// The cases run in parallel, each in its own vault: they wait on the
	// processes they start. The figures come once all have finished.
	var runs atomic.Int64
	t.Cleanup(func() {
		figures(t, "hostile", "cases", len(hostileCases), "commands", len(hostileCommands), "runs", runs.Load())
	})
	// Every case starts from the same committed vault: made once, copied.
	tmpl := newVault(t)
	tmpl.seed(5)
	tmpl.must("commit", "-q")
	for _, hc := range hostileCases {
		t.Run(hc.name, func(t *testing.T) {
			t.Parallel()
			base := t.TempDir()
			v := vaultIn(t, base)
			copyTree(t, tmpl.dir, v.dir)
			t.Cleanup(v.fsck)
			outside := filepath.Join(base, "outside")
			write(t, filepath.Join(outside, "secret.md"), memFile("Outside secret."))
			write(t, filepath.Join(outside, "hard.md"), memFile("Outside hard link."))
			hc.plant(t, v, outside)
			before := snapshot(t, filepath.Dir(v.dir), v.dir)
			var codes []string
			var peak int64
			for _, args := range hostileCommands {
				r := v.run(nil, args...)
				runs.Add(1)
				codes = append(codes, fmt.Sprintf("%s=%d", args[0], r.code))
				peak = max(peak, r.maxRSS)
				what := fmt.Sprintf("%s: mem %s", hc.name, strings.Join(args, " "))
				switch {
				case r.timedOut:
					t.Errorf("%s: hung (killed after %s)", what, execTimeout)
				case strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine "):
					t.Errorf("%s: panicked:\n%s", what, r.stderr)
				case r.code < 0 || r.code > 2:
					t.Errorf("%s: exit %d: %s", what, r.code, r.stderr)
				case r.code != 0 && strings.TrimSpace(r.stderr+r.stdout) == "":
					t.Errorf("%s: exit %d without a word", what, r.code)
				case r.maxRSS > maxRSS:
					t.Errorf("%s: used %d MB of memory", what, r.maxRSS>>20)
				}
			}
			t.Logf("exit codes %s; peak memory %d MB", strings.Join(codes, " "), peak>>20)
			if after := snapshot(t, filepath.Dir(v.dir), v.dir); after != before {
				t.Errorf("%s: something outside the vault changed:\nbefore:\n%s\nafter:\n%s", hc.name, before, after)
			}
		})
	}
}

// snapshot lists every file under base but the vault (and git's backup)
// with its content hash, without following links.
func snapshot(t *testing.T, base, vaultDir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p == vaultDir || d.IsDir() && d.Name() == "home" {
			return filepath.SkipDir
		}
		if d.Type().IsRegular() {
			data, _ := os.ReadFile(p)
			sum := sha256.Sum256(data)
			fmt.Fprintf(&b, "%s %s\n", hex.EncodeToString(sum[:8]), p)
		} else if !d.IsDir() {
			fmt.Fprintf(&b, "%v %s\n", d.Type(), p)
		}
		return nil
	})
	return b.String()
}
