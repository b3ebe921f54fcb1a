package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func readRepo(t *testing.T, rel string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("..", "..", rel))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestDocsNameTheGoVersion: the install docs name the Go version go.mod
// requires, not a looser one (issue 42: "Go 1.26 or later" for 1.26.8).
func TestDocsNameTheGoVersion(t *testing.T) {
	m := regexp.MustCompile(`(?m)^go (\S+)$`).FindStringSubmatch(readRepo(t, "go.mod"))
	if m == nil {
		t.Fatal("go.mod has no go line")
	}
	for _, doc := range []string{"README.md", "docs/getting-started.md"} {
		text := readRepo(t, doc)
		if !strings.Contains(text, "Go "+m[1]+" or later") {
			t.Errorf("%s does not say Go %s or later", doc, m[1])
		}
		for _, v := range regexp.MustCompile(`Go (1\.\d+(?:\.\d+)?) or later`).FindAllStringSubmatch(text, -1) {
			if v[1] != m[1] {
				t.Errorf("%s says Go %s or later; go.mod needs %s", doc, v[1], m[1])
			}
		}
	}
}

// TestScheduleUsesTheInstalledMem: the crontab calls mem by the path
// 'command -v mem' gives, not a hard-coded $HOME/go/bin/mem (issue 42).
func TestScheduleUsesTheInstalledMem(t *testing.T) {
	text := readRepo(t, "docs/schedule.md")
	block := text[strings.Index(text, "```crontab"):]
	block = block[:strings.Index(block[3:], "```")+3]
	if strings.Contains(block, "go/bin/mem --vault") {
		t.Errorf("the crontab hard-codes the binary's path:\n%s", block)
	}
	if !strings.Contains(block, "\nMEM=") || !strings.Contains(text, "command -v mem") {
		t.Errorf("docs/schedule.md does not say to set MEM from 'command -v mem'")
	}
}

// TestManPageInstallDocumented: the README says how to install docs/mem.1
// without make install (issue 42).
func TestManPageInstallDocumented(t *testing.T) {
	text := readRepo(t, "README.md")
	for _, want := range []string{"cp docs/mem.1 ~/.local/share/man/man1/", "man mem", "man -l docs/mem.1"} {
		if !strings.Contains(text, want) {
			t.Errorf("README.md does not say %q", want)
		}
	}
}
