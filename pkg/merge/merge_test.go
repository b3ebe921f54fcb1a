package merge

import (
	"strings"
	"testing"
)

// The merge of one memory is decided the same way whichever machine
// merges: the same body wins, the same sibling keeps the other.
func TestMergeFileIsSymmetric(t *testing.T) {
	base := []byte("---\nid: m\ntype: fact\nprovenance: inferred\nvalid_at: 2026-11-01\ntags:\n  - x\n---\nold text\n")
	one := []byte("---\nid: m\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\ntags:\n  - x\n  - one\n---\ntext of one\n")
	two := []byte("---\nid: m\ntype: fact\nprovenance: inferred\nvalid_at: 2026-11-05\ntags:\n  - two\n---\ntext of two\n")
	s := func(data []byte, label string, later bool) Side {
		return Side{Data: data, Present: true, Label: label, Later: later}
	}
	ab := File("memory/m.md", s(base, "base", false), s(one, "one", false), s(two, "two", true))
	ba := File("memory/m.md", s(base, "base", false), s(two, "two", true), s(one, "one", false))
	for _, m := range []Result{ab, ba} {
		text := string(m.Data)
		if !strings.Contains(text, "text of one") || strings.Contains(text, "text of two") {
			t.Errorf("stated beats inferred: want one's body, got\n%s", text)
		}
		if !strings.Contains(text, "- one") || !strings.Contains(text, "- two") || !strings.Contains(text, "- x\n") {
			t.Errorf("tags: want the union of both sides, got\n%s", text)
		}
		if !strings.Contains(string(m.SiblingData), "text of two") || !strings.Contains(text, "supersedes:\n  - "+strings.TrimSuffix(strings.TrimPrefix(m.Sibling, "memory/"), ".md")) {
			t.Errorf("the losing body: want a sibling the winner supersedes, got %s\n%s\n%s", m.Sibling, text, m.SiblingData)
		}
	}
	if ab.Sibling != ba.Sibling || string(ab.SiblingData) != string(ba.SiblingData) {
		t.Errorf("sibling differs by merge direction: %s vs %s", ab.Sibling, ba.Sibling)
	}
}

// mem.yaml merges key by key; a key both set differently takes the later
// commit's value and is named in the decisions.
func TestMergeConfigKeyByKey(t *testing.T) {
	base := Side{Data: []byte("render:\n  budget: 8000\n"), Present: true}
	ours := Side{Data: []byte("render:\n  budget: 6000\nlint:\n  max_file_size: 10\n"), Present: true, Label: "this machine"}
	theirs := Side{Data: []byte("render:\n  budget: 7000\ngate:\n  min_weight: 4\n"), Present: true, Label: "the remote", Later: true}
	m := File("mem.yaml", base, ours, theirs)
	got := string(m.Data)
	for _, want := range []string{"budget: 7000", "max_file_size: 10", "min_weight: 4"} {
		if !strings.Contains(got, want) {
			t.Errorf("merged mem.yaml lacks %q:\n%s", want, got)
		}
	}
	if len(m.Decisions) != 1 || !strings.Contains(m.Decisions[0], "render.budget") {
		t.Errorf("decisions: %q", m.Decisions)
	}
}

// A decision names the fields as the user wrote them, by their YAML keys.
func TestMergeDecisionNamesYAMLKeys(t *testing.T) {
	base := Side{Data: []byte("---\nid: m\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-01\nstale_after: 2026-12-01\n---\ntext\n"), Present: true}
	ours := Side{Data: []byte("---\nid: m\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-02\nstale_after: 2026-12-02\n---\ntext\n"), Present: true, Label: "this machine"}
	theirs := Side{Data: []byte("---\nid: m\ntype: fact\nprovenance: stated\nvalid_at: 2026-11-03\nstale_after: 2026-12-03\n---\ntext\n"), Present: true, Label: "the remote", Later: true}
	m := File("memory/m.md", base, ours, theirs)
	want := "memory/m.md: valid_at, stale_after set differently on both machines: kept the remote's (provenance, then the later valid_at); this machine's stays in history"
	if len(m.Decisions) != 1 || m.Decisions[0] != want {
		t.Errorf("decisions:\n got %q\nwant %q", m.Decisions, want)
	}
	if text := string(m.Data); !strings.Contains(text, "valid_at: 2026-11-03\nstale_after: 2026-12-03\n") {
		t.Errorf("want the remote's valid_at and stale_after, got\n%s", text)
	}
}
