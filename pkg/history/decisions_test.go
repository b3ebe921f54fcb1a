package history

import (
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/gitrepo"
)

// Every kind of decision mergeFile records is read back with the parent
// that lost, and told to the losing machine with the sides turned round.
func TestDecisionsToldToTheLosingSide(t *testing.T) {
	t.Parallel()
	ours, theirs := gitrepo.NewHash(strings.Repeat("a", 40)), gitrepo.NewHash(strings.Repeat("b", 40))
	cases := []struct {
		line string
		lost gitrepo.Hash
		told string
	}{
		{"memory/x.md: importance set differently on both machines: kept this machine's (the later commit); the remote's stays in history",
			theirs, "importance set differently on both machines: kept the other machine's (the later commit); this machine's stays in history; 'mem show x' lists"},
		{"memory/x.md: body changed on both machines: kept the remote's (provenance, then the later valid_at); this machine's is kept as memory/x-merged-1234567.md, superseded",
			ours, "body changed on both machines: kept the other machine's (provenance, then the later valid_at); this machine's is kept as memory/x-merged-1234567.md, superseded"},
		{"memory/x.md: deleted on the remote, edited on this machine: kept the edit",
			theirs, "deleted on this machine, edited on the other machine: kept the edit"},
		{"mem.yaml: render.budget set differently on both machines: kept the remote's (the later commit); the other stays in history",
			ours, "kept the other machine's (the later commit); the other stays in history; 'git show aaaaaaa:mem.yaml' shows this machine's version"},
	}
	var msg strings.Builder
	msg.WriteString("mem sync: merge bbbbbbb from /r.git\n\n" + decisionsHeader + "\n")
	for _, c := range cases {
		msg.WriteString("- " + c.line + "\n")
	}
	merge := &gitrepo.Commit{Hash: gitrepo.NewHash(strings.Repeat("c", 40)), Message: msg.String(),
		ParentHashes: []gitrepo.Hash{ours, theirs}, Committer: gitrepo.Signature{When: time.Date(2026, 11, 29, 13, 0, 0, 0, time.UTC)}}
	got := decisionsOf(merge)
	if len(got) != len(cases) {
		t.Fatalf("read %d decisions, want %d: %+v", len(got), len(cases), got)
	}
	for i, c := range cases {
		d := got[i]
		if d.Line != c.line || d.Lost != c.lost.String() {
			t.Errorf("decision %d: %q lost %s, want %q lost %s", i, d.Line, d.Lost, c.line, c.lost)
		}
		if told := toldLine(d); !strings.Contains(told, c.told) || !strings.Contains(told, "on 2026-11-29 in ccccccc") {
			t.Errorf("decision %d told as %q, want it to hold %q", i, told, c.told)
		}
	}
}
