package gate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// claim builds a loaded memory. valid is "", "YYYY-MM-DD" or RFC 3339.
func claim(t *testing.T, id, prov, valid string, edit ...func(*frontmatter.Meta)) *vault.Memory {
	t.Helper()
	meta := frontmatter.Meta{ID: id, Type: frontmatter.TypeFact, Provenance: prov}
	if valid != "" {
		at, err := frontmatter.ParseTime(valid)
		if err != nil {
			t.Fatal(err)
		}
		meta.ValidAt = at
	}
	for _, e := range edit {
		e(&meta)
	}
	return &vault.Memory{ID: id, Rel: "memory/" + id + ".md", Doc: &frontmatter.Document{Meta: meta, HasFrontmatter: true}}
}

func key(k string) func(*frontmatter.Meta) { return func(m *frontmatter.Meta) { m.Key = k } }
func supersedes(ids ...string) func(*frontmatter.Meta) {
	return func(m *frontmatter.Meta) { m.Supersedes = ids }
}
func retired(at string) func(*frontmatter.Meta) {
	return func(m *frontmatter.Meta) { m.InvalidAt, _ = frontmatter.ParseTime(at) }
}
func written(at string) func(*frontmatter.Meta) {
	return func(m *frontmatter.Meta) {
		t, _ := frontmatter.ParseTime(at)
		m.Generated = &frontmatter.Actor{By: "human:test", At: t}
	}
}
func project(p string) func(*frontmatter.Meta) { return func(m *frontmatter.Meta) { m.Project = p } }

func lostMap(r Resolution) string {
	var s []string
	for l, w := range r.Lost {
		s = append(s, l+"<"+w)
	}
	slices.Sort(s)
	return strings.Join(s, " ")
}

// TestReconcileProvenancePairs walks every provenance pair for claims
// sharing a key and for a supersedes entry, with the newer claim being
// each side in turn.
func TestReconcileProvenancePairs(t *testing.T) {
	t.Parallel()
	for _, pa := range frontmatter.Provenances {
		for _, pb := range frontmatter.Provenances {
			ra, rb := frontmatter.ProvenanceRank(pa), frontmatter.ProvenanceRank(pb)
			t.Run("key/"+pa+"-newer/"+pb, func(t *testing.T) {
				a := claim(t, "a", pa, "2026-11-20", key("db-port"))
				b := claim(t, "b", pb, "2026-11-01", key("db-port"))
				r := Reconcile([]*vault.Memory{a, b}, testNow)
				want, reason := "b<a", ReasonValidAt // equal provenance: the later valid_at
				if rb > ra {
					want, reason = "a<b", ReasonProvenance
				} else if ra > rb {
					reason = ReasonProvenance
				}
				if got := lostMap(r); got != want {
					t.Errorf("lost %q, want %q", got, want)
				}
				if len(r.Conflicts) != 1 || r.Conflicts[0].Reason != reason || r.Conflicts[0].Subject != "db-port" {
					t.Errorf("conflicts %+v, want one %s on db-port", r.Conflicts, reason)
				}
			})
			t.Run("supersedes/"+pa+"-over/"+pb, func(t *testing.T) {
				a := claim(t, "a", pa, "2026-11-20", supersedes("b"))
				b := claim(t, "b", pb, "2026-11-01")
				r := Reconcile([]*vault.Memory{a, b}, testNow)
				want, reason := "b<a", ReasonSupersedes
				if ra < rb {
					want, reason = "a<b", ReasonRefused
				}
				if got := lostMap(r); got != want {
					t.Errorf("lost %q, want %q", got, want)
				}
				if len(r.Conflicts) != 1 || r.Conflicts[0].Reason != reason {
					t.Errorf("conflicts %+v, want one %s", r.Conflicts, reason)
				}
			})
		}
	}
}

func TestReconcileKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		mems   func(t *testing.T) []*vault.Memory
		lost   string
		reason string
	}{
		{"equal dates tie to the smaller id", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "b", "stated", "2026-11-20", key("k")), claim(t, "a", "stated", "2026-11-20", key("k"))}
		}, "b<a", ReasonTie},
		{"date-only and datetime on one day tie", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-20", key("k")), claim(t, "b", "stated", "2026-11-20T18:00:00Z", key("k"))}
		}, "b<a", ReasonTie},
		{"two datetimes on one day: the later wins", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-20T09:00:00Z", key("k")), claim(t, "b", "stated", "2026-11-20T18:00:00Z", key("k"))}
		}, "a<b", ReasonValidAt},
		{"undated loses to dated", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "", key("k")), claim(t, "b", "stated", "2020-01-01", key("k"))}
		}, "a<b", ReasonValidAt},
		{"undated stated still beats dated inferred", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "", key("k")), claim(t, "b", "inferred", "2026-11-20", key("k"))}
		}, "b<a", ReasonProvenance},
		{"both undated tie", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "b", "observed", "", key("k")), claim(t, "a", "observed", "", key("k"))}
		}, "b<a", ReasonTie},
		{"keys are trimmed and case-folded", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-01", key(" DB-Port")), claim(t, "b", "stated", "2026-11-02", key("db-port"))}
		}, "a<b", ReasonValidAt},
		{"three claims: all losers point to the winner", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "inferred", "2026-11-25", key("k")), claim(t, "b", "stated", "2026-11-01", key("k")), claim(t, "c", "stated", "2026-10-01", key("k"))}
		}, "a<b c<b", ReasonValidAt}, // the reason is against the runner-up, c
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Reconcile(tt.mems(t), testNow)
			if got := lostMap(r); got != tt.lost {
				t.Errorf("lost %q, want %q", got, tt.lost)
			}
			if len(r.Conflicts) != 1 || r.Conflicts[0].Reason != tt.reason || r.Conflicts[0].Detail == "" {
				t.Errorf("conflicts %+v, want one %s with a detail", r.Conflicts, tt.reason)
			}
		})
	}
}

func TestReconcileProjectsAreSeparateSubjects(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		claim(t, "a", "stated", "2026-11-01", key("db-port"), project("proj_a")),
		claim(t, "b", "stated", "2026-11-02", key("db-port"), project("proj_b")),
		claim(t, "c", "stated", "2026-11-03", key("db-port")),
		claim(t, "d", "stated", "2026-11-04", key("db-port"), project("proj_a")),
	}
	r := Reconcile(mems, testNow)
	if got := lostMap(r); got != "a<d" {
		t.Errorf("lost %q, want only a<d", got)
	}
	if len(r.Conflicts) != 1 || r.Conflicts[0].Subject != "proj_a:db-port" {
		t.Errorf("conflicts %+v, want one on proj_a:db-port", r.Conflicts)
	}
}

func TestReconcileSupersedes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		mems    func(t *testing.T) []*vault.Memory
		lost    string
		reasons string
	}{
		{"newer supersedes older", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "new", "stated", "2026-11-20", supersedes("old")), claim(t, "old", "stated", "2026-11-01")}
		}, "old<new", "supersedes"},
		{"equal dates: the supersedes decides", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-20", supersedes("b")), claim(t, "b", "stated", "2026-11-20")}
		}, "b<a", "supersedes"},
		{"backwards: the newer claim stands", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "stale", "stated", "2026-11-01", supersedes("fresh")), claim(t, "fresh", "stated", "2026-11-20")}
		}, "stale<fresh", "refused"},
		{"backwards but stronger: provenance still wins", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "said", "stated", "2026-11-01", supersedes("guess")), claim(t, "guess", "inferred", "2026-11-20")}
		}, "guess<said", "refused"},
		{"two refusals and a supersedes never hide everything", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "x", "stated", "2026-11-01", supersedes("y")),
				claim(t, "y", "inferred", "2026-11-20"),
				claim(t, "w", "observed", "2026-11-25", supersedes("x", "y")),
			}
		}, "w<x y<x", "refused refused supersedes"},
		{"undated cannot supersede dated", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "", supersedes("b")), claim(t, "b", "stated", "2026-11-20")}
		}, "a<b", "refused"},
		{"dated supersedes undated", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-20", supersedes("b")), claim(t, "b", "stated", "")}
		}, "b<a", "supersedes"},
		{"both undated: the supersedes decides", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "", supersedes("b")), claim(t, "b", "stated", "")}
		}, "b<a", "supersedes"},
		{"missing target and self are ignored", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-20", supersedes("gone", "a"))}
		}, "", ""},
		{"chain: each loses to its successor", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "c", "stated", "2026-11-20", supersedes("b")),
				claim(t, "b", "stated", "2026-11-10", supersedes("a")),
				claim(t, "a", "stated", "2026-11-01"),
			}
		}, "a<b b<c", "supersedes supersedes"},
		{"cycle of ties: one survives", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{claim(t, "a", "stated", "2026-11-20", supersedes("b")), claim(t, "b", "stated", "2026-11-20", supersedes("a"))}
		}, "b<a", "supersedes"},
		{"two supersede one: the best is its winner, the other its rival's loser", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "x", "observed", "2026-11-25", supersedes("old")),
				claim(t, "y", "stated", "2026-11-20", supersedes("old")),
				claim(t, "old", "observed", "2026-11-01"),
			}
		}, "old<y x<y", "supersedes rival"},
		{"rivals of one moment: the later write wins", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "a", "stated", "2026-11-20", supersedes("old"), written("2026-11-20T10:00:00Z")),
				claim(t, "b", "stated", "2026-11-20", supersedes("old"), written("2026-11-20T11:00:00Z")),
				claim(t, "old", "stated", "2026-11-01"),
			}
		}, "a<b old<b", "supersedes rival"},
		{"rivals: a retired winner leaves the other current, the old claim stays superseded", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "a", "stated", "2026-11-20", supersedes("old"), written("2026-11-20T10:00:00Z")),
				claim(t, "b", "stated", "2026-11-20", supersedes("old"), written("2026-11-20T11:00:00Z"), retired("2026-11-25")),
				claim(t, "old", "stated", "2026-11-01"),
			}
		}, "old<a", "supersedes"},
		{"a superseder of its rival is no rival", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "a", "stated", "2026-11-10", supersedes("old")),
				claim(t, "b", "stated", "2026-11-20", supersedes("old", "a")),
				claim(t, "old", "stated", "2026-11-01"),
			}
		}, "a<b old<b", "supersedes supersedes"},
		{"retiring a correction never revives what it corrected", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "fix", "stated", "2026-11-20", supersedes("old"), retired("2026-11-25")),
				claim(t, "old", "stated", "2026-11-01"),
			}
		}, "old<fix", "supersedes"},
		{"a retired claim wins no key", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "gone", "stated", "2026-11-20", key("k"), retired("2026-11-25")),
				claim(t, "here", "stated", "2026-11-01", key("k")),
			}
		}, "", ""},
		{"a retraction (deprecated) revives what it corrected", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "fix", "stated", "2026-11-20", supersedes("old"), func(m *frontmatter.Meta) { m.Status = frontmatter.StatusDeprecated }),
				claim(t, "old", "stated", "2026-11-01"),
			}
		}, "", ""},
		{"a claim lost to supersession leaves its key group", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "a", "stated", "2026-11-20", key("k"), supersedes("b")),
				claim(t, "b", "stated", "2026-11-01", key("k")),
				claim(t, "c", "stated", "2026-11-10", key("k")),
			}
		}, "b<a c<a", "supersedes valid_at"},
		{"a refused superseder leaves its key group", func(t *testing.T) []*vault.Memory {
			return []*vault.Memory{
				claim(t, "a", "stated", "2026-11-20", key("k"), supersedes("b")),
				claim(t, "b", "stated", "2026-11-25", key("k")),
			}
		}, "a<b", "refused"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Reconcile(tt.mems(t), testNow)
			if got := lostMap(r); got != tt.lost {
				t.Errorf("lost %q, want %q", got, tt.lost)
			}
			var reasons []string
			for _, c := range r.Conflicts {
				reasons = append(reasons, c.Reason)
			}
			if got := strings.Join(reasons, " "); got != tt.reasons {
				t.Errorf("reasons %q, want %q", got, tt.reasons)
			}
		})
	}
}

// TestReconcileOrderIndependent checks that shuffling the input never
// changes the verdict, ties and cycles included.
func TestReconcileOrderIndependent(t *testing.T) {
	t.Parallel()
	mems := []*vault.Memory{
		claim(t, "a", "stated", "2026-11-20", supersedes("b")),
		claim(t, "b", "stated", "2026-11-20", supersedes("a")),
		claim(t, "c", "stated", "2026-11-20", key("k")),
		claim(t, "d", "stated", "2026-11-20", key("k")),
		claim(t, "e", "inferred", "2026-11-01", supersedes("c")),
	}
	want := lostMap(Reconcile(mems, testNow))
	for i := range 20 {
		perm := slices.Clone(mems)
		for j := range perm { // a fixed, varied permutation per round
			k := (j*7 + i*3) % len(perm)
			perm[j], perm[k] = perm[k], perm[j]
		}
		if got := lostMap(Reconcile(perm, testNow)); got != want {
			t.Fatalf("round %d: lost %q, want %q", i, got, want)
		}
	}
}

func TestReconcileSkipsBrokenFiles(t *testing.T) {
	t.Parallel()
	broken := &vault.Memory{ID: "x", Rel: "x.md", Err: errors.New("bad")}
	r := Reconcile([]*vault.Memory{broken, claim(t, "a", "stated", "2026-11-20", supersedes("x"))}, testNow)
	if len(r.Lost) != 0 || len(r.Conflicts) != 0 {
		t.Errorf("broken file took part: %+v", r)
	}
}

func TestCheckSupersedes(t *testing.T) {
	t.Parallel()
	day := func(s string) frontmatter.Time {
		if s == "" {
			return frontmatter.Time{}
		}
		at, err := frontmatter.ParseTime(s)
		if err != nil {
			t.Fatal(err)
		}
		return at
	}
	tests := []struct {
		byProv, byAt, oldProv, oldAt string
		rule                         string
	}{
		{"stated", "2026-11-20", "stated", "2026-11-01", ""},
		{"stated", "2026-11-20", "stated", "2026-11-20", ""},
		{"stated", "2026-11-20T08:00:00Z", "stated", "2026-11-20", ""},
		{"stated", "2026-11-19", "stated", "2026-11-20", ruleSupersedesBackwards},
		{"stated", "2026-11-20T08:00:00Z", "stated", "2026-11-20T09:00:00Z", ruleSupersedesBackwards},
		{"stated", "", "stated", "2026-11-20", ruleSupersedesBackwards},
		{"stated", "2026-11-20", "stated", "", ""},
		{"stated", "", "stated", "", ""},
		{"stated", "2026-11-01", "inferred", "2026-11-20", ruleSupersedesBackwards},
		{"observed", "2026-11-20", "stated", "2026-11-01", ruleSupersedesWeaker},
		{"inferred", "2026-11-20", "stated", "2026-11-01", ruleSupersedesWeaker},
		{"inferred", "2026-11-20", "observed", "2026-11-01", ruleSupersedesWeaker},
		{"observed", "2026-11-20", "inferred", "2026-11-01", ""},
		{"stated", "2026-11-20", "observed", "2026-11-01", ""},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s@%s over %s@%s", tt.byProv, tt.byAt, tt.oldProv, tt.oldAt)
		err := CheckSupersedes(&frontmatter.Meta{Provenance: tt.byProv, ValidAt: day(tt.byAt)}, "memory/old",
			&frontmatter.Meta{Provenance: tt.oldProv, ValidAt: day(tt.oldAt)})
		var se *SupersessionError
		switch {
		case tt.rule == "" && err != nil:
			t.Errorf("%s: refused: %v", name, err)
		case tt.rule != "" && !errors.As(err, &se):
			t.Errorf("%s: allowed, want %s", name, tt.rule)
		case tt.rule != "" && (se.Rule != tt.rule || se.Old != "memory/old" || !strings.Contains(se.Msg, "memory/old")):
			t.Errorf("%s: got %s %q, want %s naming memory/old", name, se.Rule, se.Msg, tt.rule)
		}
	}
}

func TestSupersede(t *testing.T) {
	t.Parallel()
	keyed := claim(t, "memory/old", "stated", "2026-11-01", key("db-port"))
	other := claim(t, "memory/other", "stated", "2026-11-01", key("db-host"))
	plain := claim(t, "memory/plain", "stated", "2026-11-01")
	newer := func(k string, refs ...string) *frontmatter.Meta {
		at, _ := frontmatter.ParseTime("2026-11-20")
		return &frontmatter.Meta{Provenance: "stated", ValidAt: at, Key: k, Supersedes: refs}
	}
	tests := []struct {
		name    string
		meta    *frontmatter.Meta
		olds    []*vault.Memory
		wantKey string
		wantIDs string
	}{
		{"takes the target's key, stores ids", newer("", "memory/old.md", "memory/plain"), []*vault.Memory{keyed, plain}, "db-port", "memory/old memory/plain"},
		{"an explicit key is kept", newer("db", "memory/old"), []*vault.Memory{keyed}, "db", "memory/old"},
		{"targets disagreeing on a key give none", newer("", "memory/old", "memory/other"), []*vault.Memory{keyed, other}, "", "memory/old memory/other"},
		{"no keyed target gives none", newer("", "memory/plain"), []*vault.Memory{plain}, "", "memory/plain"},
	}
	for _, tt := range tests {
		if err := Supersede(tt.meta, tt.olds); err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if tt.meta.Key != tt.wantKey || strings.Join(tt.meta.Supersedes, " ") != tt.wantIDs {
			t.Errorf("%s: key %q supersedes %v, want %q %s", tt.name, tt.meta.Key, tt.meta.Supersedes, tt.wantKey, tt.wantIDs)
		}
	}
	backwards := newer("", "memory/fresh")
	backwards.ValidAt, _ = frontmatter.ParseTime("2026-10-01")
	var se *SupersessionError
	if err := Supersede(backwards, []*vault.Memory{keyed}); !errors.As(err, &se) || se.Rule != ruleSupersedesBackwards || backwards.Key != "" {
		t.Errorf("backwards: %v, key %q; want a supersedes-backwards refusal and no key", err, backwards.Key)
	}
	if err := Supersede(newer("", "a", "b"), []*vault.Memory{keyed}); err == nil {
		t.Error("mismatched targets accepted")
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	at := func(s string) frontmatter.Time { x, _ := frontmatter.ParseTime(s); return x }
	m := func(p string, v frontmatter.Time) *frontmatter.Meta {
		return &frontmatter.Meta{Provenance: p, ValidAt: v}
	}
	later := frontmatter.NewTime(time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC))
	tests := []struct {
		a, b *frontmatter.Meta
		sign int
	}{
		{m("stated", at("2020-01-01")), m("observed", later), 1},
		{m("inferred", later), m("observed", at("2020-01-01")), -1},
		{m("stated", later), m("stated", at("2026-11-19")), 1},
		{m("stated", at("2026-11-20")), m("stated", at("2026-11-20T23:59:00Z")), 0},
		{m("stated", frontmatter.Time{}), m("stated", at("1990-01-01")), -1},
		{m("stated", frontmatter.Time{}), m("stated", frontmatter.Time{}), 0},
		{m("", later), m("inferred", frontmatter.Time{}), -1},
	}
	for i, tt := range tests {
		got := Compare(tt.a, tt.b)
		if (got > 0) != (tt.sign > 0) || (got < 0) != (tt.sign < 0) {
			t.Errorf("case %d: Compare = %d, want sign %d", i, got, tt.sign)
		}
		if back := Compare(tt.b, tt.a); (back > 0) != (tt.sign < 0) || (back < 0) != (tt.sign > 0) {
			t.Errorf("case %d: Compare is not antisymmetric: %d then %d", i, got, back)
		}
	}
}

// FuzzReconcile builds small vaults from fuzz bytes and checks the
// reconciler's invariants: it never panics, following Lost from any loser
// ends at a claim that did not lose (no cycle hides a whole subject), every
// loser and winner is in the input, and input order does not matter.
func FuzzReconcile(f *testing.F) {
	f.Add([]byte{0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0xde, 0xf0})
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17})
	f.Add([]byte("supersedes backwards and weaker, with ties"))
	f.Fuzz(func(t *testing.T, data []byte) {
		const n = 6
		var mems []*vault.Memory
		for i := 0; i+2 < len(data) && len(mems) < n; i += 3 {
			a, b, c := data[i], data[i+1], data[i+2]
			id := string(rune('a' + len(mems)))
			valid := ""
			if a%4 != 0 { // a few days, often equal, sometimes undated
				valid = fmt.Sprintf("2026-11-%02d", 1+int(a%4))
			}
			var edits []func(*frontmatter.Meta)
			if b%3 != 0 {
				edits = append(edits, key(string(rune('k'+b%2))))
			}
			var sup []string
			for j := range n {
				if c&(1<<j) != 0 {
					sup = append(sup, string(rune('a'+j)))
				}
			}
			edits = append(edits, supersedes(sup...))
			if a&0x40 != 0 { // sometimes retired: its supersedes still hold
				edits = append(edits, retired("2026-11-03"))
			}
			mems = append(mems, claim(t, id, frontmatter.Provenances[int(b/3)%3], valid, edits...))
		}
		r := Reconcile(mems, testNow)
		ids := map[string]bool{}
		for _, m := range mems {
			ids[m.ID] = true
		}
		for loser, winner := range r.Lost {
			if !ids[loser] || !ids[winner] || loser == winner {
				t.Fatalf("Lost[%s] = %s: not a pair of input claims", loser, winner)
			}
			at := loser
			for range len(mems) + 1 {
				next, lost := r.Lost[at]
				if !lost {
					break
				}
				at = next
			}
			if _, lost := r.Lost[at]; lost {
				t.Fatalf("losses from %s form a cycle: %s", loser, lostMap(r))
			}
		}
		rev := slices.Clone(mems)
		slices.Reverse(rev)
		if a, b := lostMap(r), lostMap(Reconcile(rev, testNow)); a != b {
			t.Fatalf("order changed the verdict: %q vs %q", a, b)
		}
	})
}
