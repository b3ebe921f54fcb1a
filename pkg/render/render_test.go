package render

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/vault"
)

var testNow = time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)

// mem parses one file the way the loader does: rel is its path, src its
// whole text, and the id is the frontmatter id or rel without .md.
func mem(t testing.TB, rel, src string) *vault.Memory {
	t.Helper()
	m := &vault.Memory{Rel: rel, ID: strings.TrimSuffix(rel, ".md"), Raw: src}
	m.Doc, m.Err = vault.ParseFile([]byte(src))
	if m.Doc != nil && m.Doc.Meta.ID != "" {
		m.ID = m.Doc.Meta.ID
	}
	return m
}

// fact is a memory file with the given extra frontmatter lines.
func fact(t testing.TB, name, text string, fm ...string) *vault.Memory {
	t.Helper()
	src := "---\ntype: fact\nprovenance: stated\n" + strings.Join(fm, "\n")
	if len(fm) > 0 {
		src += "\n"
	}
	return mem(t, "memory/"+name+".md", src+"---\n"+text+"\n")
}

var webshop = &vault.Project{ID: "proj_webshop", Name: "Webshop"}

func opts() Options {
	return Options{Vault: "/v", Budget: 8192, Now: testNow, DurableTags: []string{"durable"}, MinGlobalImportance: 7}
}

func mustRender(t *testing.T, mems []*vault.Memory, o Options) *Result {
	t.Helper()
	r, err := Render(mems, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Doc) > o.Budget {
		t.Fatalf("output is %d bytes, over the %d budget", len(r.Doc), o.Budget)
	}
	return r
}

func reasonOf(r *Result, id string) string {
	for _, d := range r.Dropped {
		if d.ID == id {
			return d.Reason
		}
	}
	return ""
}

func itemOf(r *Result, id string) *Item {
	for i := range r.Items {
		if r.Items[i].ID == id {
			return &r.Items[i]
		}
	}
	return nil
}

// TestEligibility walks every rule of spec §5.2 and the tier rules of §5.3:
// each case is one memory that must render in the given tier, or drop with
// a reason containing the given text.
func TestEligibility(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		m       func(t testing.TB) *vault.Memory
		project *vault.Project
		tier    string // "" = must drop
		reason  string
	}{
		{"pinned renders", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true") }, nil, tierPinned, ""},
		{"importance 7 is global", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "importance: 7") }, nil, tierGlobal, ""},
		{"importance 6 is not global", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "importance: 6") }, nil, "", "below render.min_global_importance"},
		{"default importance 5 is not global", func(t testing.TB) *vault.Memory { return fact(t, "a", "A") }, nil, "", "below"},
		{"durable tag is global", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "tags: [x, durable]") }, nil, tierGlobal, ""},
		{"durable tag matches case and # loosely", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "tags: ['#Durable']") }, nil, tierGlobal, ""},
		{"project memory in its project", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "project: proj_webshop") }, webshop, tierProject, ""},
		{"project memory with low importance still renders in its project", func(t testing.TB) *vault.Memory {
			return fact(t, "a", "A", "project: proj_webshop", "importance: 1")
		}, webshop, tierProject, ""},
		{"project memory elsewhere", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "project: proj_other", "importance: 9") }, webshop, "", "belongs to proj_other, not this session's proj_webshop"},
		{"project memory without a session project", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "project: proj_webshop") }, nil, "", "belongs to proj_webshop, but the session has no project"},
		{"pinned project memory elsewhere", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "project: proj_other", "pinned: true") }, webshop, "", "belongs to proj_other, not this session's proj_webshop"},
		{"pinned project memory in its project is pinned", func(t testing.TB) *vault.Memory {
			return fact(t, "a", "A", "project: proj_webshop", "pinned: true")
		}, webshop, tierPinned, ""},
		{"import", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "source: import:chatgpt") }, nil, "", "import"},
		{"capture", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "source: capture:claude") }, nil, "", "capture"},
		{"native source renders", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "source: native") }, nil, tierPinned, ""},
		{"retired yesterday", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "invalid_at: 2026-11-28") }, nil, "", "retired"},
		{"retired exactly now", func(t testing.TB) *vault.Memory {
			return fact(t, "a", "A", "pinned: true", "invalid_at: 2026-11-29T12:00:00Z")
		}, nil, "", "retired"},
		{"retires tomorrow", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "invalid_at: 2026-11-30") }, nil, tierPinned, ""},
		{"deprecated", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "status: deprecated") }, nil, "", "deprecated"},
		{"draft renders", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "status: draft") }, nil, tierPinned, ""},
		{"stale unpinned", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "importance: 9", "stale_after: 2026-11-29") }, nil, "", "stale"},
		{"stale tomorrow is fresh", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "importance: 9", "stale_after: 2026-11-30") }, nil, tierGlobal, ""},
		{"stale pinned stays", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "stale_after: 2026-01-01") }, nil, tierPinned, ""},
		{"note", func(t testing.TB) *vault.Memory {
			return mem(t, "notes/n.md", "---\ntype: note\npinned: true\n---\nLong text.\n")
		}, nil, "", "note"},
		{"unknown type is a note", func(t testing.TB) *vault.Memory {
			return mem(t, "notes/n.md", "---\ntype: recipe\nprovenance: stated\npinned: true\n---\nSoup.\n")
		}, nil, "", "note"},
		{"project note", func(t testing.TB) *vault.Memory {
			return mem(t, "projects/w.md", "---\nid: proj_webshop\ntype: project\npinned: true\n---\nThe shop.\n")
		}, webshop, "", "project note"},
		{"index.md", func(t testing.TB) *vault.Memory {
			return mem(t, "memory/index.md", "---\ntype: fact\npinned: true\n---\n- [[a]]\n")
		}, nil, "", "reserved"},
		{"log.md", func(t testing.TB) *vault.Memory { return mem(t, "log.md", "---\ntype: fact\npinned: true\n---\nx\n") }, nil, "", "reserved"},
		{"broken frontmatter", func(t testing.TB) *vault.Memory { return mem(t, "memory/b.md", "---\ntype: [fact\n---\nx\n") }, nil, "", "broken"},
		{"bad invalid_at is broken, not current", func(t testing.TB) *vault.Memory {
			return fact(t, "a", "A", "pinned: true", "invalid_at: last tuesday")
		}, nil, "", "broken"},
		{"bad unrelated key still renders", func(t testing.TB) *vault.Memory { return fact(t, "a", "A", "pinned: true", "aliases: {x: 1}") }, nil, tierPinned, ""},
		{"empty body", func(t testing.TB) *vault.Memory { return fact(t, "a", "  ", "pinned: true") }, nil, "", "empty"},
		{"secret", func(t testing.TB) *vault.Memory {
			return fact(t, "a", "The deploy key is AKIAZ7QW3RT5YU2PL4XM for CI.", "pinned: true")
		}, nil, "", "secret"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := tc.m(t)
			o := opts()
			o.Project = tc.project
			r := mustRender(t, []*vault.Memory{m}, o)
			it := itemOf(r, m.ID)
			if tc.tier == "" {
				if it != nil {
					t.Fatalf("%s rendered in %s as %q; want it dropped (%s)", m.ID, it.Tier, it.Line, tc.reason)
				}
				if got := reasonOf(r, m.ID); !strings.Contains(got, tc.reason) {
					t.Fatalf("drop reason %q, want it to mention %q", got, tc.reason)
				}
				return
			}
			if it == nil {
				t.Fatalf("%s dropped (%s); want it in tier %s", m.ID, reasonOf(r, m.ID), tc.tier)
			}
			if it.Tier != tc.tier {
				t.Fatalf("tier %s, want %s", it.Tier, tc.tier)
			}
			if !strings.Contains(string(r.Doc), it.Line+"\n") {
				t.Fatalf("item line %q is not in the document:\n%s", it.Line, r.Doc)
			}
		})
	}
}

func TestEveryMemoryIsExplained(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		fact(t, "a", "A", "pinned: true"), fact(t, "b", "B"), fact(t, "c", "C", "source: import:x"),
		mem(t, "notes/n.md", "---\ntype: note\n---\nN\n"), mem(t, "memory/broken.md", "no frontmatter\n"),
	}
	r := mustRender(t, mems, opts())
	if got := len(r.Items) + len(r.Dropped); got != len(mems) {
		t.Fatalf("%d items + %d drops for %d memories: every memory needs one decision", len(r.Items), len(r.Dropped), len(mems))
	}
}

func TestBrokenFileWarns(t *testing.T) {
	t.Parallel()
	r := mustRender(t, []*vault.Memory{
		mem(t, "memory/b.md", "---\ntype: fact\n---\nok\n"),
		mem(t, "memory/x.md", "---\ntype: fact\nvalid_at: soon\n---\nx\n"),
		mem(t, "memory/y.md", "---\ntype: fact\n"),
		mem(t, "notes/plain.md", "no frontmatter here: a plain note, which never warns (spec §2)\n"),
	}, opts())
	want := []string{"memory/x.md:3:11: valid_at: ", "memory/y.md:1:1: "}
	if len(r.Warnings) != len(want) {
		t.Fatalf("warnings %q, want %d", r.Warnings, len(want))
	}
	for i, w := range want {
		if !strings.HasPrefix(r.Warnings[i], w) || !strings.Contains(r.Warnings[i], "mem lint") {
			t.Errorf("warning %q, want it to start %q and say to run mem lint", r.Warnings[i], w)
		}
	}
}

func TestSecretWarningHidesTheSecret(t *testing.T) {
	t.Parallel()
	secret := "AKIAZ7QW3RT5YU2PL4XM"
	m := fact(t, "a", "Deploy notes\nkey "+secret, "pinned: true")
	r := mustRender(t, []*vault.Memory{m}, opts())
	if len(r.Warnings) != 1 || !strings.HasPrefix(r.Warnings[0], "memory/a.md:7:5: secret-aws-access-token: not rendered: a key gitleaks calls aws-access-token") {
		t.Fatalf("warnings %q: want one naming memory/a.md:7:5 and the kind of secret", r.Warnings)
	}
	if strings.Contains(r.Warnings[0], secret) || strings.Contains(string(r.Doc), secret) {
		t.Fatal("the secret leaked into the warning or the document")
	}
}

func TestSupersession(t *testing.T) {
	t.Parallel()
	old := fact(t, "old", "Node 18", "importance: 8", "valid_at: 2026-01-01")
	newer := fact(t, "new", "Node 20", "importance: 8", "valid_at: 2026-08-01", "supersedes: [memory/old]")
	r := mustRender(t, []*vault.Memory{old, newer}, opts())
	if itemOf(r, "memory/new") == nil || reasonOf(r, "memory/old") != "superseded by memory/new" {
		t.Fatalf("want new rendered and old superseded; items %v drops %v", r.Items, r.Dropped)
	}

	// A deprecated claim is not eligible, so what it superseded stands again.
	newer = fact(t, "new", "Node 20", "importance: 8", "valid_at: 2026-08-01", "supersedes: [memory/old]", "status: deprecated")
	r = mustRender(t, []*vault.Memory{old, newer}, opts())
	if itemOf(r, "memory/old") == nil {
		t.Fatalf("a deprecated superseder must not hide the claim it replaced: %v", r.Dropped)
	}

	// A stale claim still outdates the one it replaced: neither renders.
	newer = fact(t, "new", "Node 20", "importance: 8", "valid_at: 2026-08-01", "supersedes: [memory/old]", "stale_after: 2026-11-01")
	r = mustRender(t, []*vault.Memory{old, newer}, opts())
	if len(r.Items) != 0 || reasonOf(r, "memory/old") != "superseded by memory/new" || reasonOf(r, "memory/new") != reasonStale {
		t.Fatalf("want old superseded and new stale, got items %v drops %v", r.Items, r.Dropped)
	}
}

func TestSameKeyConflict(t *testing.T) {
	t.Parallel()
	stated := fact(t, "said", "Staging has its own DB", "key: staging-db", "importance: 8", "valid_at: 2026-07-01")
	inferred := mem(t, "memory/guess.md", "---\ntype: fact\nprovenance: inferred\nkey: staging-db\nimportance: 9\nvalid_at: 2026-10-01\n---\nStaging is a prod copy\n")
	r := mustRender(t, []*vault.Memory{inferred, stated}, opts())
	if itemOf(r, "memory/said") == nil || !strings.HasPrefix(reasonOf(r, "memory/guess"), "lost to memory/said") {
		t.Fatalf("stated must beat inferred on one key: items %v drops %v", r.Items, r.Dropped)
	}
}

func TestLineFormat(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		fact(t, "dated", "  Dated claim  \nsecond line", "pinned: true", "valid_at: 2026-03-04T23:30:00Z"),
		fact(t, "undated", "Undated claim", "pinned: true", "importance: 4"),
		fact(t, "stale", "Stale claim", "pinned: true", "importance: 3", "valid_at: 2025-01-01", "stale_after: 2026-06-01"),
		mem(t, "memory/weird.md", "---\ntype: fact\nprovenance: gospel\npinned: true\nimportance: 2\n---\nWeird provenance\n"),
	}
	r := mustRender(t, mems, opts())
	want := []string{
		"- [2026-03-04] Dated claim (stated)",
		"- [undated] Undated claim (stated)",
		"- [2025-01-01] Stale claim (stated) [stale]",
		"- [undated] Weird provenance (unknown)",
	}
	for i, w := range want {
		if r.Items[i].Line != w {
			t.Errorf("line %d = %q, want %q", i, r.Items[i].Line, w)
		}
	}
}

func TestHeaderAndEmptyVault(t *testing.T) {
	t.Parallel()
	r := mustRender(t, nil, opts())
	want := "<!-- generated by mem render from /v; do not edit -->\n<!-- rendered at 2026-11-29T12:00:00Z -->\n" + safetyLine
	if string(r.Doc) != want {
		t.Fatalf("empty vault renders\n%s\nwant\n%s", r.Doc, want)
	}
	if len(r.Doc) > 300 {
		t.Errorf("empty render is %d bytes; it should be small", len(r.Doc))
	}
}

func TestOrderWithinTiers(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		fact(t, "g-undated", "g undated", "importance: 8"),
		fact(t, "g-old", "g old", "importance: 8", "valid_at: 2026-01-01"),
		fact(t, "g-new", "g new", "importance: 8", "valid_at: 2026-05-01"),
		fact(t, "g-top", "g top", "importance: 9", "valid_at: 2020-01-01"),
		fact(t, "g-tie-b", "g tie b", "importance: 7", "valid_at: 2026-01-01"),
		fact(t, "g-tie-a", "g tie a", "importance: 7", "valid_at: 2026-01-01"),
		fact(t, "p", "p", "project: proj_webshop", "importance: 1"),
		fact(t, "notes", "n", "pinned: true", "importance: 10"),
		mem(t, "memory/id.md", "---\ntype: identity\nprovenance: stated\npinned: true\nimportance: 1\n---\nid\n"),
		mem(t, "memory/pref.md", "---\ntype: preference\nprovenance: stated\npinned: true\n---\npref\n"),
		mem(t, "memory/dec.md", "---\ntype: decision\nprovenance: stated\npinned: true\n---\ndec\n"),
		mem(t, "memory/moved.md", "---\ntype: fact\nprovenance: stated\npinned: true\nsection: identity\n---\nmoved\n"),
		mem(t, "memory/typo.md", "---\ntype: identity\nprovenance: stated\npinned: true\nsection: Identiy\n---\ntypo\n"),
	}
	o := opts()
	o.Project = webshop
	r := mustRender(t, mems, o)
	var got []string
	for _, it := range r.Items {
		got = append(got, it.Section+":"+strings.TrimPrefix(it.ID, "memory/"))
	}
	want := "Identity:moved Identity:typo Identity:id Preferences:pref Decisions:dec Notes:notes Project: Webshop:p " +
		"Global:g-top Global:g-new Global:g-old Global:g-undated Global:g-tie-a Global:g-tie-b"
	if strings.Join(got, " ") != want {
		t.Fatalf("order\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	doc := string(r.Doc)
	for _, h := range []string{"## Identity", "## Preferences", "## Decisions", "## Notes", "## Project: Webshop", "## Global"} {
		if strings.Count(doc, "\n"+h+"\n") != 1 {
			t.Errorf("heading %q should appear exactly once in\n%s", h, doc)
		}
	}

	// Configured sections set the order; a type's section missing from
	// the list falls back to Notes.
	o.Sections = []string{"Decisions", "Notes", "Identity"}
	r = mustRender(t, mems, o)
	got = got[:0]
	for _, it := range r.Items[:6] {
		got = append(got, it.Section+":"+strings.TrimPrefix(it.ID, "memory/"))
	}
	if want := "Decisions:dec Notes:notes Notes:pref Identity:moved Identity:typo Identity:id"; strings.Join(got, " ") != want {
		t.Fatalf("configured sections\n got %s\nwant %s", strings.Join(got, " "), want)
	}
}

func TestBudget(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		fact(t, "pin", "Pinned one", "pinned: true"),
		fact(t, "proj", "Project one", "project: proj_webshop"),
		fact(t, "glob", "Global one", "importance: 9"),
	}
	o := opts()
	o.Project = webshop
	full := mustRender(t, mems, o)
	if len(full.Items) != 3 {
		t.Fatalf("items %v", full.Items)
	}
	// Exactly the full size keeps everything; one byte less drops the
	// global line and its heading.
	o.Budget = len(full.Doc)
	if r := mustRender(t, mems, o); len(r.Items) != 3 || string(r.Doc) != string(full.Doc) {
		t.Fatalf("a budget of exactly %d bytes must keep everything", o.Budget)
	}
	o.Budget--
	r := mustRender(t, mems, o)
	if len(r.Items) != 2 || reasonOf(r, "memory/glob") != reasonBudget || strings.Contains(string(r.Doc), "## Global") {
		t.Fatalf("budget-1 must drop the global item with its heading:\n%s", r.Doc)
	}
	// The header alone fits; nothing else does.
	o.Budget = minBudget(o)
	r = mustRender(t, mems, o)
	if len(r.Items) != 0 || len(r.Doc) != o.Budget {
		t.Fatalf("header-only budget rendered %d items, %d bytes", len(r.Items), len(r.Doc))
	}
	o.Budget--
	var be *BudgetError
	if _, err := Render(mems, o); !errors.As(err, &be) || be.Min != o.Budget+1 {
		t.Fatalf("budget below the header: got %v, want a BudgetError naming %d", err, o.Budget+1)
	}
}

func TestJSONShape(t *testing.T) {
	t.Parallel()
	o := opts()
	r := mustRender(t, nil, o)
	j := r.JSON()
	if j.Project != nil || j.Items == nil || j.Dropped == nil || j.Bytes != len(r.Doc) || j.Budget != 8192 {
		t.Fatalf("json %+v: want project null, empty lists (not null), bytes and budget", j)
	}
	o.Project = webshop
	if j := mustRender(t, nil, o).JSON(); j.Project == nil || *j.Project != "proj_webshop" {
		t.Fatalf("project %v", j.Project)
	}
	h := r.Hook()
	if h.HookSpecificOutput.HookEventName != "SessionStart" || h.HookSpecificOutput.AdditionalContext != string(r.Doc) {
		t.Fatalf("hook %+v", h)
	}
}

func TestRefusedSupersession(t *testing.T) {
	t.Parallel()
	// An inferred claim cannot supersede a stated one: the gate refuses,
	// and the stated claim is the one that renders.
	stated := fact(t, "stated", "Deploys go to Fly.io", "importance: 8", "valid_at: 2026-01-01")
	guess := mem(t, "memory/guess.md", "---\ntype: fact\nprovenance: inferred\nimportance: 8\nvalid_at: 2026-06-01\nsupersedes: [memory/stated]\n---\nDeploys go to Heroku\n")
	r := mustRender(t, []*vault.Memory{stated, guess}, opts())
	if itemOf(r, "memory/stated") == nil || !strings.HasPrefix(reasonOf(r, "memory/guess"), "its supersedes of memory/stated was refused") {
		t.Fatalf("items %v drops %v", r.Items, r.Dropped)
	}
}

// A note is said to have a pointer memory only when a claim links to it;
// another tool's type and an untyped file say what they are instead.
func TestNoteDropReasons(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		mem(t, "notes/pointed.md", "---\ntype: note\ntitle: Pointed\n---\nLong text.\n"),
		mem(t, "notes/linked.md", "---\ntype: note\n---\nLinked by a markdown link.\n"),
		mem(t, "notes/alone.md", "---\ntype: note\n---\nNo claim links here.\n"),
		mem(t, "metrics/margin.md", "---\ntype: Metric\n---\nGross margin.\n"),
		mem(t, "Daily.md", "---\ntags: [daily]\n---\nToday.\n"),
		mem(t, "memory/project_freeze.md", "---\nname: Freeze\nmetadata:\n  type: project\n---\nMerges freeze on Friday.\n"),
		fact(t, "p", "Pointed: see [[notes/pointed]]"),
		fact(t, "q", "See [the linked note](../notes/linked.md) for details."),
	}
	r := mustRender(t, mems, opts())
	for id, want := range map[string]string{
		"notes/pointed":         reasonNote,
		"notes/linked":          reasonNote,
		"notes/alone":           reasonLoneNote,
		"metrics/margin":        reasonOtherType,
		"Daily":                 reasonUntyped,
		"memory/project_freeze": reasonOtherType, // Claude Code's memory about a project
	} {
		if got := reasonOf(r, id); got != want {
			t.Errorf("%s: %q, want %q", id, got, want)
		}
	}
}

// TestLinkTargetsAsTheRegexpReadThem: the scan that finds what claims link
// to reads the same targets as the regexp it replaced, for speed.
func TestLinkTargetsAsTheRegexpReadThem(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`\[\[([^\[\]|#\n]+)|\]\(([^()\s#]+?)(?:\.md)?(?:#[^()\s]*)?\)`)
	for _, body := range []string{
		"see [[notes/x|alias]] and [[y#Heading]] and [[z]]",
		"a [link](notes/a.md) and [b](../notes/b.md#part) and [c](c)",
		"[broken](no close and [[open",
		"[sp](has space.md) [q](x(y).md) [h](#only) [e]() [[]] [[a\nb]]",
		"nested [[a [[b]] c]] and ](x.md) bare",
	} {
		var want, got []string
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			want = append(want, strings.TrimSuffix(m[1]+m[2], ".md"))
		}
		linkTargets(body, func(s string) { got = append(got, strings.TrimSuffix(s, ".md")) })
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("%q: got %q, want %q", body, got, want)
		}
	}
}
