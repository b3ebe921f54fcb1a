// Package consolidate finds what keeps a vault from staying clean — the
// same fact stored twice, claims that contradict each other, claims past
// stale_after, imports nobody reviewed, a view over its budget — and
// proposes what to do about each; Apply carries the proposals out through
// pkg/writer as one commit, and Undo puts the files of the last batch back
// byte for byte (spec §11).
package consolidate

import (
	"cmp"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"

	"github.com/mem-md/mem/pkg/claimtext"
	"github.com/mem-md/mem/pkg/frontmatter"
	"github.com/mem-md/mem/pkg/gate"
	"github.com/mem-md/mem/pkg/render"
	"github.com/mem-md/mem/pkg/rules"
	"github.com/mem-md/mem/pkg/vault"
)

// Kinds of finding, and the actions proposed for them.
const (
	KindDuplicate = "duplicate"
	KindConflict  = "conflict"
	KindStale     = "stale"
	KindImport    = "import"
	KindBudget    = "budget"

	ActMerge  = "merge"
	ActRetire = "retire"
	ActAccept = "accept"
	ActReject = "reject"
	ActNone   = "none" // reported; the other proposals are what shrinks it
)

// Defaults: defaultThreshold is the word-pair Jaccard similarity from
// which two claims of one scope are one fact; defaultReviewAfter is how
// long an import may wait for review (consolidate.review_after);
// maxDropped is the share of the merged claims' words a merge may lose.
const (
	defaultThreshold   = 0.5
	defaultReviewAfter = 14 * 24 * time.Hour
	maxDropped         = 0.25
	// minContainment: the share of the shorter claim's words the longer
	// must hold for the two to be one fact.
	minContainment = 0.8
)

// Options tune Find.
type Options struct {
	Now         time.Time
	threshold   float64       // 0 is defaultThreshold
	reviewAfter time.Duration // 0 is the vault's consolidate.review_after, else defaultReviewAfter
}

// Proposal is one thing to do, with the claims it concerns.
type Proposal struct {
	Kind   string   `json:"kind"`
	Action string   `json:"action"`
	IDs    []string `json:"ids"`
	Paths  []string `json:"paths"`
	// Keep is the claim that stands after a conflict's retirement, or the
	// merged claim's model for a merge.
	Keep       string  `json:"keep,omitempty"`
	Text       string  `json:"text,omitempty"` // a merge's text
	Similarity float64 `json:"similarity,omitempty"`
	Dropped    float64 `json:"dropped,omitempty"` // share of the merged words the text loses
	// Refused says why the proposal cannot be applied as it is.
	Refused string `json:"refused,omitempty"`
	// Waits says why the proposal waits for a person: --apply --yes
	// applies only what harms nothing — a merge of true duplicates, the
	// retirement of a stale claim nobody pinned (spec §5.2b, §11).
	Waits  string `json:"waits,omitempty"`
	Detail string `json:"detail"`
}

// Report is what Find found.
type Report struct {
	Counts    map[string]int `json:"counts"`
	Proposals []Proposal     `json:"proposals"`
	// Views are the bytes of each view now, by name; the last --apply
	// kept them, so a view that grew since is reported.
	Views map[string]int `json:"views"`
}

// claim is a memory taking part, with its comparable text.
type claim struct {
	m     *vault.Memory
	scope string
	norm  string
	words []string
	pairs map[string]bool
	links string // the link targets, sorted: a pointer memory is about its note
	fact  claimtext.Fact
	// stated: the claim reads as subject, relation and value (claimtext.ParseFact).
	stated bool
}

// link is a wiki link's or a markdown link's target, compiled on first
// use (not at every mem process's start).
var link = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\[\[([^\]|#]+)|\]\(([^)\s]+)`) })

func links(text string) string {
	var out []string
	for _, m := range link().FindAllStringSubmatch(text, -1) {
		out = append(out, m[1]+m[2])
	}
	slices.Sort(out)
	return strings.Join(out, "\x00")
}

// Find reads mems (one vault load) and proposes.
func Find(v *vault.Vault, mems []*vault.Memory, o Options) (*Report, error) {
	if o.threshold == 0 {
		o.threshold = defaultThreshold
	}
	if o.reviewAfter == 0 {
		o.reviewAfter = cmp.Or(v.Config.Consolidate.ReviewAfter, defaultReviewAfter)
	}
	res := gate.Reconcile(mems, o.Now)
	r := &Report{Counts: map[string]int{}, Proposals: []Proposal{}, Views: map[string]int{}}
	var live []*claim
	var imports []*vault.Memory
	for _, m := range mems {
		if !m.OK() || !frontmatter.IsMemoryType(m.Meta().Type) || vault.IsReserved(m.Rel) {
			continue
		}
		switch s, _ := res.Status(m); s {
		case vault.StatusImport:
			imports = append(imports, m)
			continue
		case vault.StatusStale:
			p := Proposal{Kind: KindStale, Action: ActRetire, IDs: []string{m.ID}, Paths: []string{m.Rel},
				Detail: fmt.Sprintf("past its stale_after %s and still standing: retire it, or re-check it and give it a new stale_after with 'mem edit %s'", m.Meta().StaleAfter, m.ID)}
			if m.Meta().Pinned {
				p.Waits = "a person pinned it: a person retires it"
			}
			r.add(p)
			continue
		case vault.StatusCurrent:
		default:
			continue
		}
		live = append(live, newClaim(m))
	}
	r.conflicts(res, live, o.Now)
	r.duplicates(live, o.threshold)
	known := map[string]string{}
	for _, c := range live {
		known[c.scope+"\x00"+c.norm] = c.m.ID
	}
	for _, m := range imports {
		r.importProposal(m, known, o)
	}
	if err := r.budget(v, mems, o.Now); err != nil {
		return nil, err
	}
	slices.SortStableFunc(r.Proposals, func(a, b Proposal) int {
		return cmp.Or(cmp.Compare(kindOrder[a.Kind], kindOrder[b.Kind]), strings.Compare(a.Paths[0], b.Paths[0]))
	})
	return r, nil
}

var kindOrder = map[string]int{KindDuplicate: 0, KindConflict: 1, KindStale: 2, KindImport: 3, KindBudget: 4}

func (r *Report) add(p Proposal) {
	r.Counts[p.Kind]++
	r.Proposals = append(r.Proposals, p)
}

func newClaim(m *vault.Memory) *claim {
	c := &claim{m: m, scope: m.Meta().Project, norm: claimtext.Normalise(m.Summary()), links: links(m.Summary())}
	if c.links == "" { // a pointer memory is about its note: its title is no claim to contradict
		c.fact, c.stated = claimtext.ParseFact(m.Summary())
	}
	c.words = words(c.norm)
	c.pairs = shingles(c.words)
	return c
}

// words are the normalised text's runs of letters and digits.
func words(norm string) []string {
	return strings.FieldsFunc(norm, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' })
}

// shingles are the text's consecutive word pairs (the one word of a
// one-word text), so word order counts and one extra word costs little.
func shingles(ws []string) map[string]bool {
	out := map[string]bool{}
	if len(ws) == 1 {
		out[ws[0]] = true
	}
	for i := 0; i+1 < len(ws); i++ {
		out[ws[i]+" "+ws[i+1]] = true
	}
	return out
}

// containment is the share of the shorter text's words the longer holds:
// a restatement adds words, it does not swap them ("written before pass a"
// and "... pass b" are alike by word pairs, and two facts).
func containment(a, b []string) float64 {
	if len(a) > len(b) {
		a, b = b, a
	}
	seen, n := map[string]bool{}, 0
	for _, w := range a {
		if !seen[w] {
			seen[w] = true
			if slices.Contains(b, w) {
				n++
			}
		}
	}
	if len(seen) == 0 {
		return 0
	}
	return float64(n) / float64(len(seen))
}

func jaccard(a, b map[string]bool) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	n := 0
	for s := range a {
		if b[s] {
			n++
		}
	}
	return float64(n) / float64(len(a)+len(b)-n)
}

// conflicts proposes retiring the claims that lose a disagreement: those
// the reconciler already hides for a shared key (made explicit), and
// current claims of one scope with one subject and contradicting values
// (both render today). The loser is the weaker by the reconciler's order.
func (r *Report) conflicts(res gate.Resolution, live []*claim, now time.Time) {
	for _, c := range res.Conflicts {
		switch c.Reason {
		case gate.ReasonProvenance, gate.ReasonValidAt, gate.ReasonTie:
		default:
			continue // an accepted supersedes is the history working as meant
		}
		for _, l := range c.Losers {
			if l.Meta().IsRetired(now) {
				continue
			}
			r.add(Proposal{Kind: KindConflict, Action: ActRetire, IDs: []string{l.ID}, Paths: []string{l.Rel}, Keep: c.Winner.ID,
				Waits:  "two claims disagree: a person decides which is true",
				Detail: fmt.Sprintf("shares key %q with %s, which wins (%s): retire it so the disagreement is settled on record", c.Subject, c.Winner.ID, c.Reason)})
		}
	}
	// Claims of one scope, subject and relation, compared pairwise: the
	// weaker of two that contradict each other is proposed for retirement.
	type subj struct{ scope, subject, relation string }
	by := map[subj][]*claim{}
	for _, c := range live {
		if c.stated {
			k := subj{c.scope, c.fact.Subject, c.fact.Relation}
			by[k] = append(by[k], c)
		}
	}
	proposed := map[string]bool{}
	for k, cs := range by {
		slices.SortFunc(cs, func(a, b *claim) int { return -gate.Compare(a.m.Meta(), b.m.Meta()) })
		for i, win := range cs {
			for _, c := range cs[i+1:] {
				if proposed[c.m.ID] || !c.fact.Contradicts(win.fact) {
					continue
				}
				proposed[c.m.ID] = true
				r.add(Proposal{Kind: KindConflict, Action: ActRetire, IDs: []string{c.m.ID}, Paths: []string{c.m.Rel}, Keep: win.m.ID,
					Waits:  "two claims disagree: a person decides which is true",
					Detail: fmt.Sprintf("says %q, which cannot be true with %s (stronger or newer) about %q %s: retire it, or correct the other", rules.Show(c.m.Summary()), win.m.ID, k.subject, k.relation)})
			}
		}
	}
}

// duplicates groups the current claims of one scope that state one fact —
// word pairs at least threshold alike and the shorter's words (nearly) all
// in the longer — and proposes one merge per group. A shared key is the
// reconciler's already (a conflict below). Claims in a conflict of subject are no duplicates.
func (r *Report) duplicates(live []*claim, threshold float64) {
	parent := make([]int, len(live))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	sim := map[int]float64{}
	for _, pair := range candidates(live, threshold) {
		x, y := live[pair[0]], live[pair[1]]
		if differ(x, y) || x.links != y.links {
			continue // two pointers to two notes are two facts, however alike their titles
		}
		s := jaccard(x.pairs, y.pairs)
		if s < threshold || containment(x.words, y.words) < minContainment {
			continue
		}
		ra, rb := find(pair[0]), find(pair[1])
		if ra != rb {
			parent[rb] = ra
		}
		sim[ra] = max(sim[ra], s, sim[rb])
	}
	groups := map[int][]*claim{}
	for i, c := range live {
		groups[find(i)] = append(groups[find(i)], c)
	}
	for root, g := range groups {
		if len(g) < 2 {
			continue
		}
		r.add(mergeProposal(g, sim[root]))
	}
}

// candidates are the pairs of one scope that can reach threshold, by
// prefix filtering: with each claim's shingles ordered rarest first, two
// sets with Jaccard ≥ t share one of the first |A| − ⌈t·|A|⌉ + 1 of
// either, so only claims sharing a prefix shingle are compared, not all
// pairs of a scope (a 50k vault has millions).
func candidates(live []*claim, t float64) [][2]int {
	freq := map[string]int{}
	for _, c := range live {
		for s := range c.pairs {
			freq[s]++
		}
	}
	type token struct{ scope, s string }
	index := map[token][]int{}
	seen := map[[2]int]bool{}
	var out [][2]int
	for i, c := range live {
		sorted := make([]string, 0, len(c.pairs))
		for s := range c.pairs {
			sorted = append(sorted, s)
		}
		slices.SortFunc(sorted, func(a, b string) int { return cmp.Or(cmp.Compare(freq[a], freq[b]), strings.Compare(a, b)) })
		n := len(sorted) - int(math.Ceil(t*float64(len(sorted)))) + 1
		for _, s := range sorted[:max(0, min(n, len(sorted)))] {
			k := token{c.scope, s}
			for _, j := range index[k] {
				if p := [2]int{j, i}; !seen[p] {
					seen[p] = true
					out = append(out, p)
				}
			}
			index[k] = append(index[k], i)
		}
	}
	return out
}

// differ reports two claims that contradict each other: a conflict, not
// a duplicate.
func differ(a, b *claim) bool {
	return a.stated && b.stated && a.fact.Contradicts(b.fact)
}

// mergeProposal is one claim for the group: the text of the member that
// keeps the most of the group's words, refused when it still loses more
// than maxDropped of them.
func mergeProposal(g []*claim, similarity float64) Proposal {
	slices.SortFunc(g, func(a, b *claim) int { return strings.Compare(a.m.Rel, b.m.Rel) })
	all := map[string]bool{}
	for _, c := range g {
		for _, w := range c.words {
			all[w] = true
		}
	}
	best, kept := g[0], -1
	for _, c := range g {
		n := 0
		seen := map[string]bool{}
		for _, w := range c.words {
			if all[w] && !seen[w] {
				seen[w], n = true, n+1
			}
		}
		if n > kept {
			best, kept = c, n
		}
	}
	p := Proposal{Kind: KindDuplicate, Action: ActMerge, Keep: best.m.ID, Text: best.m.Summary(), Similarity: round(similarity)}
	for _, c := range g {
		p.IDs, p.Paths = append(p.IDs, c.m.ID), append(p.Paths, c.m.Rel)
	}
	p.Dropped = round(1 - float64(kept)/float64(len(all)))
	p.Detail = fmt.Sprintf("%d claims state one fact: one claim with the strongest provenance and the earliest valid_at replaces them", len(g))
	switch {
	case p.Dropped > 0:
		p.Waits = "the merged text leaves words out: a person checks it says all they did"
	case !slices.ContainsFunc(g, func(c *claim) bool { return !c.m.Meta().ValidAt.IsZero() }):
		p.Waits = "no claim has a valid_at: the merged one would take today's date"
	}
	if p.Dropped > maxDropped {
		p.Refused = fmt.Sprintf("the merged text would drop %.0f%% of the claims' words (more than %.0f%%): merge them by hand with 'mem remember --supersedes'", 100*p.Dropped, 100*maxDropped)
	}
	// A hand-written claim may hold what no writer stores (spec §8): such a
	// merge is never applied, and a proposal is a read, shown redacted.
	if found := rules.Text(p.Text); len(found) > 0 {
		p.Text = rules.Show(p.Text)
		p.Refused = fmt.Sprintf("the merged text breaks %s: fix the claims first ('mem lint' names them)", found[0].Rule)
	}
	return p
}

func round(x float64) float64 { return float64(int(x*1000+0.5)) / 1000 }

// importProposal: an import waiting longer than reviewAfter since it was
// written is proposed for rejection when a current claim of its scope
// already says it (known: scope and normalised text to id), else for
// acceptance.
func (r *Report) importProposal(m *vault.Memory, known map[string]string, o Options) {
	meta := m.Meta()
	if meta.Generated == nil || o.Now.Sub(meta.Generated.At.Time) < o.reviewAfter {
		return
	}
	days := int(o.Now.Sub(meta.Generated.At.Time).Hours() / 24)
	p := Proposal{Kind: KindImport, Action: ActAccept, IDs: []string{m.ID}, Paths: []string{m.Rel},
		Waits:  "an import is accepted or rejected by a person ('mem review')",
		Detail: fmt.Sprintf("imported %s and not reviewed for %d days: accept it (it renders, still %s), or reject it with 'mem review --reject %s'", meta.Generated.At.Day(), days, meta.Provenance, m.ID)}
	if id, ok := known[meta.Project+"\x00"+claimtext.Normalise(m.Summary())]; ok {
		p.Action, p.Keep = ActReject, id
		p.Detail = fmt.Sprintf("imported %s, not reviewed for %d days, and %s already says it: reject it", meta.Generated.At.Day(), days, id)
	}
	r.add(p)
}

// budget reports the global view, and each of mem.yaml's outputs, when
// claims did not fit its budget or it grew since the last --apply.
func (r *Report) budget(v *vault.Vault, mems []*vault.Memory, now time.Time) error {
	last, err := loadState(v)
	if err != nil {
		return err
	}
	targets, err := render.Outputs(v)
	if err != nil {
		return err
	}
	if len(targets) == 0 {
		targets = []render.Target{{Cwd: v.Root, Format: "markdown"}} // the view 'mem render' prints
	}
	projects := v.Projects(mems)
	for _, t := range targets {
		res, _, err := t.Render(v, mems, projects, now)
		if err != nil {
			return err
		}
		over := 0
		for _, d := range res.Dropped {
			if d.Reason == "over budget" {
				over++
			}
		}
		name := "mem render"
		if t.Output != "" {
			name = v.Rel(t.Output)
		}
		r.Views[name] = len(res.Doc)
		var detail []string
		if over > 0 {
			detail = append(detail, fmt.Sprintf("the view is %d bytes against a budget of %d: %d claims did not fit", len(res.Doc), res.Budget, over))
		}
		if before, ok := last.Views[name]; ok && len(res.Doc) > before {
			detail = append(detail, fmt.Sprintf("the view grew from %d to %d bytes since the last consolidation (%s)", before, len(res.Doc), last.At))
		}
		if len(detail) == 0 {
			continue
		}
		// The claims left out are no finding of their own: the view is.
		r.add(Proposal{Kind: KindBudget, Action: ActNone, IDs: []string{}, Paths: []string{name},
			Detail: strings.Join(detail, "; ") + "; the merges and retirements above make room"})
	}
	return nil
}
