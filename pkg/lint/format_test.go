package lint

import (
	"bytes"
	"strings"
	"testing"
)

func TestWriteFormats(t *testing.T) {
	rep := &Report{Files: 2, Problems: []Problem{
		{Path: "memory/a,b.md", Line: 3, Column: 1, Severity: Error, Rule: "provenance-enum", Message: "100% bad:\nfix it"},
		{Path: "notes/n.md", Line: 1, Column: 2, Severity: Warning, Rule: "link-broken", Message: "no file"},
	}}
	cases := map[string]string{
		"text": "memory/a,b.md:3:1: error: provenance-enum: 100% bad:\nfix it\nnotes/n.md:1:2: warning: link-broken: no file\n",
		"github": "::error file=memory/a%2Cb.md,line=3,col=1,title=mem lint provenance-enum::100%25 bad:%0Afix it\n" +
			"::warning file=notes/n.md,line=1,col=2,title=mem lint link-broken::no file\n",
	}
	for format, want := range cases {
		var buf bytes.Buffer
		if err := Write(&buf, rep, format); err != nil {
			t.Fatal(err)
		}
		if buf.String() != want {
			t.Errorf("%s:\n got %q\nwant %q", format, buf.String(), want)
		}
	}
	var buf bytes.Buffer
	if err := Write(&buf, &Report{Problems: []Problem{}}, "json"); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "{\n  \"files\": 0,\n  \"problems\": []\n}\n" {
		t.Errorf("json = %q", got)
	}
	if err := Write(&buf, rep, "xml"); err == nil {
		t.Error("Write accepted format xml")
	}
}

func TestStrictMakesWarningsErrors(t *testing.T) {
	rep := &Report{Problems: []Problem{{Path: "b", Severity: Warning}, {Path: "a", Severity: Error}}}
	Finish(rep, true)
	if rep.Errors() != 2 || rep.Problems[0].Path != "a" {
		t.Errorf("Finish(strict) = %+v", rep.Problems)
	}
}

func TestHookRunsStagedLint(t *testing.T) {
	if !strings.HasPrefix(PreCommitHook, "#!/bin/sh\n") || !strings.Contains(PreCommitHook, "\nexec mem lint --staged\n") {
		t.Errorf("hook script does not run mem lint --staged:\n%s", PreCommitHook)
	}
}
