// Package gate decides between claims: the promotion gate for inferred
// lessons (spec §6) and the reconciler that picks the winner when claims
// supersede or contradict each other (spec §1, principles 3–5). Pure
// functions over loaded memories; render, lint and audit all call these.
// docs/gate.md states the rules with a worked example.
package gate

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/mem-md/mem/pkg/fail"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/vault"
)

// Compare orders two claims about one subject: positive when a beats b.
// Stated beats observed beats inferred; among equals the later valid_at
// wins; an undated claim loses to a dated one. Zero means a tie. When
// either valid_at is a date without a clock the two are compared by
// calendar day, since "2026-11-20" says nothing about the hour.
func Compare(a, b *frontmatter.Meta) int {
	if d := frontmatter.ProvenanceRank(a.Provenance) - frontmatter.ProvenanceRank(b.Provenance); d != 0 {
		return d
	}
	return compareValidAt(a.ValidAt, b.ValidAt)
}

// compareValidAt orders event times: undated first, then by time, at day
// precision when either side is date-only.
func compareValidAt(a, b frontmatter.Time) int {
	switch {
	case a.IsZero() && b.IsZero():
		return 0
	case a.IsZero():
		return -1
	case b.IsZero():
		return 1
	case a.DateOnly || b.DateOnly:
		// Truncate counts from the zero time, a UTC midnight: UTC days.
		return a.Truncate(24 * time.Hour).Compare(b.Truncate(24 * time.Hour))
	}
	return a.Compare(b.Time)
}

// Reasons a Conflict was resolved the way it was.
const (
	ReasonSupersedes = "supersedes" // an accepted supersedes entry
	ReasonRefused    = "refused"    // a supersedes entry refused by CheckSupersedes; Compare decided instead
	ReasonProvenance = "provenance" // same key, stronger provenance won
	ReasonValidAt    = "valid_at"   // same key and provenance, later valid_at won
	ReasonTie        = "tie"        // same key, provenance and valid_at: the smaller id won
	ReasonRival      = "rival"      // two claims supersede one claim: provenance, valid_at, then generated.at decided
	ReasonReviewed   = "reviewed"   // same key: a claim a person wrote or accepted beat an unreviewed one (spec §5.2b)
)

// Conflict is one resolved disagreement: the winner and who lost, and why.
type Conflict struct {
	Subject string // the shared key ("proj_x:key" inside a project), or the superseded id
	Winner  *vault.Memory
	Losers  []*vault.Memory
	Reason  string // one of the Reason constants
	Detail  string // one sentence a person can act on, for audit and lint
}

// Resolution is the reconciler's verdict over a set of memories.
type Resolution struct {
	// Lost maps the id of every memory that must not render to the id of
	// the memory that beat it.
	Lost      map[string]string
	Conflicts []Conflict
	now       time.Time
}

// Status is m's status as every read says it (render, search, list,
// show, MCP, audit): its own (vault.OwnStatus), or superseded, with the id
// of the claim that beat it, when it stands on its own fields but lost.
func (r Resolution) Status(m *vault.Memory) (status, by string) {
	s := vault.OwnStatus(m, r.now)
	if s != vault.StatusCurrent && s != vault.StatusStale {
		return s, ""
	}
	if w, ok := r.Lost[m.ID]; ok {
		return vault.StatusSuperseded, w
	}
	return s, ""
}

// Rules of a refused supersession, used as lint rule names.
const (
	ruleSupersedesBackwards = "supersedes-backwards"
	ruleSupersedesWeaker    = "supersedes-weaker"
)

// SupersessionError is a supersedes entry that would let a weaker or older
// claim replace a stronger or newer one.
type SupersessionError struct {
	Rule string // ruleSupersedesBackwards or ruleSupersedesWeaker
	Old  string // the id the claim tried to supersede
	Msg  string
}

func (e *SupersessionError) Error() string { return e.Msg }

// Kind: the reconciler refused the supersession (exit 1).
func (e *SupersessionError) Kind() fail.Kind { return fail.Check }

// CheckSupersedes decides whether a claim (by) may supersede the claim old
// (whose id is oldID): nil when it may, else a *SupersessionError saying
// why not and what to do. A claim may not supersede one of stronger
// provenance (principle 3: the stronger claim must be retired, or the
// new one stated), nor one whose valid_at is later than its own — a newer
// write of an older fact (principle 5). An undated claim cannot show it is
// newer than a dated one. Equal valid_at is allowed: same moment, the
// explicit supersedes decides.
func CheckSupersedes(by *frontmatter.Meta, oldID string, old *frontmatter.Meta) error {
	if rb, ro := frontmatter.ProvenanceRank(by.Provenance), frontmatter.ProvenanceRank(old.Provenance); rb < ro {
		return &SupersessionError{Rule: ruleSupersedesWeaker, Old: oldID, Msg: fmt.Sprintf(
			"%s cannot supersede %s, which is %s: stated beats observed beats inferred; "+
				"ask the user to confirm it (provenance stated), or retire %s by setting its invalid_at",
			claimName(by.Provenance), oldID, old.Provenance, oldID)}
	}
	switch {
	case old.ValidAt.IsZero():
		return nil
	case by.ValidAt.IsZero():
		return &SupersessionError{Rule: ruleSupersedesBackwards, Old: oldID, Msg: fmt.Sprintf(
			"an undated claim cannot supersede %s, valid at %s: give this claim a valid_at (when it became true)",
			oldID, old.ValidAt)}
	case compareValidAt(by.ValidAt, old.ValidAt) < 0:
		return &SupersessionError{Rule: ruleSupersedesBackwards, Old: oldID, Msg: fmt.Sprintf(
			"valid_at %s is before %s's valid_at %s: a newer write of an older fact cannot replace a newer one; "+
				"if this became true later, give it that valid_at, otherwise do not supersede %s",
			by.ValidAt, oldID, old.ValidAt, oldID)}
	}
	return nil
}

// Supersede prepares a new claim's supersedes for writing: olds[i] is the
// loaded memory meta.Supersedes[i] names (callers look refs up their own
// way, by id or path). Each entry must pass CheckSupersedes; it is then
// stored as the target's id, so the reconciler can match it. A claim with
// no key takes the key its targets share: it is about their subject and
// must keep beating the other claims keyed to it. Every writer that
// supersedes (mem remember, the MCP server) calls this.
func Supersede(meta *frontmatter.Meta, olds []*vault.Memory) error {
	if len(olds) != len(meta.Supersedes) {
		return fmt.Errorf("gate.Supersede: %d targets for %d supersedes entries", len(olds), len(meta.Supersedes))
	}
	keys := map[string]bool{}
	for i, old := range olds {
		if err := CheckSupersedes(meta, old.ID, old.Meta()); err != nil {
			return err
		}
		meta.Supersedes[i] = old.ID
		if k := strings.TrimSpace(old.Meta().Key); k != "" {
			keys[k] = true
		}
	}
	if strings.TrimSpace(meta.Key) == "" && len(keys) == 1 {
		for k := range keys {
			meta.Key = k
		}
	}
	return nil
}

// claimName is "an inferred claim", "a stated claim", "a claim without provenance".
func claimName(p string) string {
	switch {
	case p == "":
		return "a claim without provenance"
	case p[0] == 'i' || p[0] == 'o':
		return "an " + p + " claim"
	}
	return "a " + p + " claim"
}

// Reconcile resolves supersession and same-subject claims among mems, at
// now. It is the one judge of whether a claim stands: every read asks it
// (through Resolution.Status or Lost), so a claim is current in one view
// exactly when it is in all of them. mems may hold any loaded files; only
// claims take part (memory types, not OKF's reserved files, parsed):
//
//   - a claim that stands on its own fields (current or stale) takes full part;
//   - a retired claim (invalid_at passed) keeps its supersedes: a supersession
//     says the older claim was wrong, and retiring the newer one never
//     revives it; it wins nothing else;
//   - a deprecated claim (a retraction) stands for nothing, so what it
//     superseded stands again; imports wait for review and take no part.
//
// A memory listed in another's supersedes loses to it when CheckSupersedes
// allows it; a refused supersedes only says the two claim one subject, and
// Compare picks the winner (so a stated claim that wrongly supersedes a
// newer inferred one still wins on provenance). Two standing claims that
// supersede one claim are rivals: the best (Compare, then the later
// generated.at, then the smaller id) wins and the others lose to it, so
// exactly one claim of the chain stays current. Memories sharing a
// non-empty `key` (trimmed, case-folded) within one project, or among
// global memories, are claims about one subject: the best by Compare wins,
// ties go to the smaller id. Trust comes before all of it (spec §5.2b,
// trust.go): an unreviewed claim's supersedes of a reviewed one waits for
// a person's accept and decides nothing, and among rivals or claims
// sharing a key a reviewed claim beats an unreviewed one whatever their
// provenance. The result depends only on the set of memories, never on
// their order.
func Reconcile(mems []*vault.Memory, now time.Time) Resolution {
	res := Resolution{Lost: map[string]string{}, now: now}
	ok := make([]*vault.Memory, 0, len(mems))
	retired := map[*vault.Memory]bool{}
	for _, m := range mems {
		if !m.OK() || !frontmatter.IsMemoryType(m.Meta().Type) || vault.IsReserved(m.Rel) {
			continue
		}
		switch vault.OwnStatus(m, now) {
		case vault.StatusCurrent, vault.StatusStale:
			ok = append(ok, m)
		case vault.StatusRetired:
			if !strings.HasPrefix(m.Meta().Source, "import:") {
				ok = append(ok, m)
				retired[m] = true
			}
		}
	}
	slices.SortStableFunc(ok, func(a, b *vault.Memory) int {
		if c := strings.Compare(a.ID, b.ID); c != 0 {
			return c
		}
		return strings.Compare(a.Rel, b.Rel)
	})
	byID := make(map[string]*vault.Memory, len(ok))
	for _, m := range ok {
		if _, dup := byID[m.ID]; !dup { // duplicate ids are lint's to report
			byID[m.ID] = m
		}
	}
	reconcileSupersedes(ok, byID, retired, &res)
	standing := ok[:0:0]
	for _, m := range ok {
		if !retired[m] {
			standing = append(standing, m)
		}
	}
	reconcileKeys(standing, &res)
	return res
}

// reconcileSupersedes applies every supersedes entry, in id order, then
// decides between rivals. A retired claim's entries hold; a retired claim
// superseded or refused loses nothing it had not already lost.
func reconcileSupersedes(mems []*vault.Memory, byID map[string]*vault.Memory, retired map[*vault.Memory]bool, res *Resolution) {
	beatenBy := res.supersessions(mems, byID, retired)
	olds := slices.Sorted(maps.Keys(beatenBy))
	res.superseded(olds, beatenBy, byID, retired)
	res.rivals(olds, beatenBy, retired)
}

// supersessions collects, per superseded id, the memories that validly
// supersede it; a refused entry is decided on the spot (refused).
func (res *Resolution) supersessions(mems []*vault.Memory, byID map[string]*vault.Memory, retired map[*vault.Memory]bool) map[string][]*vault.Memory {
	beatenBy := map[string][]*vault.Memory{}
	edges := map[string][]string{} // accepted: superseder id → superseded ids
	for _, m := range mems {
		olds := slices.Clone(m.Meta().Supersedes)
		slices.Sort(olds)
		for _, id := range slices.Compact(olds) {
			old, found := byID[id]
			if !found || old == m || retired[old] {
				continue
			}
			if !Reviewed(m.Meta()) && Reviewed(old.Meta()) {
				// Spec §5.2b: an agent's or an importer's supersedes of what a
				// person wrote or accepted waits for a person to accept it;
				// until then it decides nothing, and neither claim loses.
				continue
			}
			if err := CheckSupersedes(m.Meta(), id, old.Meta()); err != nil {
				if !retired[m] { // a refused entry of a claim that no longer stands says nothing
					res.refused(m, old, err)
				}
				continue
			}
			// Accepted supersessions only ever go from a claim to one no
			// stronger and no newer, so only a tie can close a cycle (and
			// only ties pay for the walk); the first edge in id order
			// stands, the closing one is dropped.
			if Compare(m.Meta(), old.Meta()) == 0 && reaches(edges, id, m.ID) {
				continue
			}
			edges[m.ID] = append(edges[m.ID], id)
			beatenBy[id] = append(beatenBy[id], m)
		}
	}
	return beatenBy
}

// refused decides m's refused supersedes of old (err says why). A refused
// supersedes still says the two claim one subject; Compare decides between
// them, as for a shared key. It never ties here (a refusal needs a
// provenance or a valid_at between them), so every loss goes to a strictly
// better claim or along an accepted supersedes, and losses cannot form a
// cycle that would hide every claim of a subject.
func (res *Resolution) refused(m, old *vault.Memory, err error) {
	w, l := old, m
	if rank(m, old) < 0 {
		w, l = m, old
	}
	if _, lost := res.Lost[l.ID]; !lost {
		res.Lost[l.ID] = w.ID
	}
	res.Conflicts = append(res.Conflicts, Conflict{Subject: old.ID, Winner: w, Losers: []*vault.Memory{l},
		Reason: ReasonRefused, Detail: m.Rel + ": " + err.Error() + "; " + w.ID + " stands"})
}

// superseded records, for each superseded id in olds, the best of the
// claims that supersede it as its winner; a standing superseder is named
// before a retired one.
func (res *Resolution) superseded(olds []string, beatenBy map[string][]*vault.Memory, byID map[string]*vault.Memory, retired map[*vault.Memory]bool) {
	for _, id := range olds {
		w := slices.MinFunc(beatenBy[id], func(a, b *vault.Memory) int {
			if retired[a] != retired[b] {
				if retired[a] {
					return 1
				}
				return -1
			}
			return rivalRank(a, b)
		})
		if _, lost := res.Lost[id]; !lost {
			res.Lost[id] = w.ID
		}
		res.Conflicts = append(res.Conflicts, Conflict{Subject: id, Winner: w, Losers: []*vault.Memory{byID[id]},
			Reason: ReasonSupersedes, Detail: fmt.Sprintf("%s supersedes %s", w.ID, id)})
	}
}

// rivals decides between standing claims that supersede one claim and
// have not lost otherwise. Each loses to a claim strictly ahead of it in
// rivalRank's order, which no supersedes beat, so losses cannot hide a
// whole chain.
func (res *Resolution) rivals(olds []string, beatenBy map[string][]*vault.Memory, retired map[*vault.Memory]bool) {
	beaten := maps.Clone(res.Lost)
	for _, id := range olds {
		var rivals []*vault.Memory
		for _, m := range beatenBy[id] {
			if _, lost := beaten[m.ID]; !lost && !retired[m] {
				rivals = append(rivals, m)
			}
		}
		if len(rivals) < 2 {
			continue
		}
		slices.SortFunc(rivals, rivalRank)
		w := rivals[0]
		for _, l := range rivals[1:] {
			if _, lost := res.Lost[l.ID]; !lost {
				res.Lost[l.ID] = w.ID
			}
		}
		res.Conflicts = append(res.Conflicts, Conflict{Subject: id, Winner: w, Losers: rivals[1:], Reason: ReasonRival,
			Detail: fmt.Sprintf("%s and %s both supersede %s; %s stands (%s): retire the other, or let one supersede the other",
				w.ID, strings.Join(ids(rivals[1:]), ", "), id, w.ID, rivalWhy(w, rivals[1]))})
	}
}

// rivalRank sorts rival superseders best first: Compare, then the later
// generated.at (the later write of the same moment, as sync's field merge
// decides), then the smaller id.
func rivalRank(a, b *vault.Memory) int {
	if c := trustRank(a, b); c != 0 {
		return c
	}
	if c := Compare(a.Meta(), b.Meta()); c != 0 {
		return -c
	}
	if c := generatedAt(b).Compare(generatedAt(a)); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}

func generatedAt(m *vault.Memory) time.Time {
	if g := m.Meta().Generated; g != nil {
		return g.At.Time
	}
	return time.Time{}
}

// rivalWhy names the step of rivalRank that put w before l.
func rivalWhy(w, l *vault.Memory) string {
	wm, lm := w.Meta(), l.Meta()
	switch {
	case Reviewed(wm) != Reviewed(lm):
		return "reviewed by a person"
	case frontmatter.ProvenanceRank(wm.Provenance) != frontmatter.ProvenanceRank(lm.Provenance):
		return "stronger provenance"
	case Compare(wm, lm) != 0:
		return "later valid_at"
	case !generatedAt(w).Equal(generatedAt(l)):
		return "written later"
	}
	return "a tie, decided by id"
}

func ids(ms []*vault.Memory) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// reaches reports whether to is reachable from from over edges.
func reaches(edges map[string][]string, from, to string) bool {
	seen := map[string]bool{}
	stack := []string{from}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n == to {
			return true
		}
		if seen[n] {
			continue
		}
		seen[n] = true
		stack = append(stack, edges[n]...)
	}
	return false
}

// reconcileKeys resolves memories sharing a subject key that nothing has
// beaten yet.
func reconcileKeys(mems []*vault.Memory, res *Resolution) {
	groups := map[string][]*vault.Memory{}
	for _, m := range mems {
		if _, lost := res.Lost[m.ID]; lost {
			continue
		}
		if s := Subject(m.Meta()); s != "" {
			groups[s] = append(groups[s], m)
		}
	}
	subjects := make([]string, 0, len(groups))
	for s, g := range groups {
		if len(g) > 1 {
			subjects = append(subjects, s)
		}
	}
	slices.Sort(subjects)
	for _, s := range subjects {
		g := groups[s]
		slices.SortStableFunc(g, rank)
		reason, detail := explain(g[0], g[1])
		c := Conflict{Subject: s, Winner: g[0], Losers: g[1:], Reason: reason, Detail: detail}
		for _, l := range c.Losers {
			res.Lost[l.ID] = g[0].ID
		}
		res.Conflicts = append(res.Conflicts, c)
	}
}

// Subject is the reconciler's subject of a claim: its key, trimmed and
// case-folded, prefixed with its project ("proj_x:db-port") so one key in
// two projects names two subjects. Empty when the claim has no key.
func Subject(meta *frontmatter.Meta) string {
	k := strings.ToLower(strings.TrimSpace(meta.Key))
	if k == "" || meta.Project == "" {
		return k
	}
	return meta.Project + ":" + k
}

// rank sorts the winner first: a claim a person wrote or accepted before
// an unreviewed one (spec §5.2b: an unreviewed claim never outranks a
// reviewed one), then best by Compare, then the smaller id.
func rank(a, b *vault.Memory) int {
	if c := trustRank(a, b); c != 0 {
		return c
	}
	if c := Compare(a.Meta(), b.Meta()); c != 0 {
		return -c
	}
	return strings.Compare(a.ID, b.ID)
}

// trustRank sorts a reviewed claim before an unreviewed one; 0 when both
// are alike.
func trustRank(a, b *vault.Memory) int {
	switch ra, rb := Reviewed(a.Meta()), Reviewed(b.Meta()); {
	case ra && !rb:
		return -1
	case rb && !ra:
		return 1
	}
	return 0
}

// explain says why w beat the runner-up l.
func explain(w, l *vault.Memory) (reason, detail string) {
	wm, lm := w.Meta(), l.Meta()
	switch {
	case Reviewed(wm) != Reviewed(lm):
		return ReasonReviewed, fmt.Sprintf("%s, which a person wrote or accepted, beats %s, unreviewed (written by %s): "+
			"an unreviewed claim never outranks a reviewed one; 'mem accept %s' if it is right", w.ID, l.ID, WrittenBy(lm), l.ID)
	case frontmatter.ProvenanceRank(wm.Provenance) != frontmatter.ProvenanceRank(lm.Provenance):
		return ReasonProvenance, fmt.Sprintf("%s (%s) beats %s (%s): stated beats observed beats inferred",
			w.ID, wm.Provenance, l.ID, lm.Provenance)
	case Compare(wm, lm) == 0:
		return ReasonTie, fmt.Sprintf("%s and %s tie on provenance and valid_at; %s wins by id: "+
			"mark one with supersedes or correct a valid_at", w.ID, l.ID, w.ID)
	case lm.ValidAt.IsZero():
		return ReasonValidAt, fmt.Sprintf("%s (valid %s) beats undated %s", w.ID, wm.ValidAt, l.ID)
	}
	return ReasonValidAt, fmt.Sprintf("%s (valid %s) beats %s (valid %s): the later valid_at wins",
		w.ID, wm.ValidAt, l.ID, lm.ValidAt)
}
