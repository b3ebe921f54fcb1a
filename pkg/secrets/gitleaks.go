package secrets

import (
	"regexp"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/zricethezav/gitleaks/v8/config"
)

// The engine is gitleaks' default configuration (its rules with their
// keywords, secret groups, entropy floors and allowlists, and its global
// allowlist), each rule translated by gitleaks' own Translate when it first
// runs (rules, below). What mem does differently is where a rule runs, for
// speed: gitleaks runs each rule whose keyword a text holds over the whole
// text; mem runs it over the lines around each occurrence of its keyword
// (the line and the next, or to the end for a rule that spans lines, like
// a private key block), which finds the same matches in a note and keeps a
// vault-wide lint near the cost of one pass over its bytes. On top of gitleaks' matching come mem's
// passes (glued, joined and wrapped keys, in match), each run only at a
// keyword's occurrences.

// kind is what a hit's rule index names: the rule (gitleaks' or mem's)
// and a human name.
type kind struct {
	id, what string
	gl       *glRule
	mem      *memRule
}

// glRule is one of gitleaks' rules: what the engine needs of it to
// decide where it runs (its keywords and the shape of its regexp), read
// from the configuration at once, and the rule itself, built by gitleaks'
// Translate on first use. Compiling the regexps of all 222 rules and their
// allowlists was most of the cost of a command that scans a few files (a
// pre-commit lint); a run now compiles the rules whose keywords its texts
// hold.
type glRule struct {
	keywords []string // lower case, as Translate makes them
	// multiline: a match can span more lines than two (a private key).
	multiline bool
	// assigned: the regexp is gitleaks' semi-generic shape, a name, an
	// operator and a value (see worthRunning).
	assigned bool
	// operator: every match of the regexp (and of its relaxed and query
	// copies, which keep the operator) holds a byte of an operator
	// (withOperator), decided on first use.
	operator func() bool
	// generic: one of gitleaks' generic rules, whose matches are
	// assignments: it has no relaxed copy.
	generic bool
	// rule is the rule as gitleaks' Translate builds it (its regexp, secret
	// group and entropy floor), without its allowlists.
	rule func() *config.Rule
	// allowlists are the rule's allowlists as Translate builds them, the
	// global allowlists that target it included.
	allowlists func() []*config.Allowlist
	// relaxed is the rule's regexp without its boundaries, for a key glued
	// to a word or inside a URL (match's token pass; see relax); nil for
	// the generic rules.
	relaxed func() *regexp.Regexp
	// query is a generic rule's regexp with '&' ending its value, for a
	// URL's query (inQuery); nil for the specific rules.
	query func() *regexp.Regexp
}

// engine is the rule set: gitleaks' specific rules, mem's, then gitleaks'
// generic ones, so that a specific rule claims a span before they see it
// (gitleaks drops a generic finding inside a specific one the same way),
// and an index of every rule's keywords.
type engine struct {
	kinds     []kind
	global    func() []*config.Allowlist // gitleaks' global allowlists, built on first use
	words     *wordIndex
	wordKinds [][]int // the kinds whose keyword is words.words[i]
}

// assignment is the operator of gitleaks' semi-generic regexps (a name
// holding a keyword, at most 20 more name characters and 3 blanks or
// quotes, the operator, at most 5 blanks, quotes or '=', the value).
const assignment = `(?:=|>|:{1,3}=|\|\||:|=>|\?=|,)`

// rules is the engine, built on first use: most commands never scan a
// text. Building it reads gitleaks' default configuration (config.go's
// TOML as gitleaks' viper decodes it, decoded at generation:
// gitleaksConfig) and indexes the keywords; each rule is translated when it first runs.
var rules = sync.OnceValue(newEngine)

func newEngine() *engine {
	vc := gitleaksConfig()
	// Translate splits the global allowlists: those that name target
	// rules join those rules' own, the others apply to every rule.
	all := slices.Clip(vc.Allowlists)
	//lint:ignore SA1019 gitleaks' default configuration spells its global allowlist the older way, [allowlist]
	if old := vc.AllowList; old != nil {
		all = append(all, old)
	}
	global := all[:0:0]
	targeted := map[string][]int{}
	for n, a := range all {
		if len(a.TargetRules) == 0 {
			global = append(global, a)
		}
		for _, id := range a.TargetRules {
			targeted[id] = append(targeted[id], n)
		}
	}
	e := &engine{global: sync.OnceValue(func() []*config.Allowlist {
		return translate(config.ViperConfig{Allowlists: global}).Allowlists
	})}
	var specific, generic []kind
	for i := range vc.Rules {
		vr := vc.Rules[i]
		if vr.Regex == "" || vr.SkipReport || len(vr.Required) > 0 {
			continue // a rule on file paths only, or one part of a composite
		}
		g := &glRule{multiline: multiline(vr.Regex), assigned: strings.Contains(vr.Regex, assignment)}
		g.operator = sync.OnceValue(func() bool { return g.assigned && needsOperator(vr.Regex) })
		for _, w := range vr.Keywords {
			g.keywords = append(g.keywords, strings.ToLower(w))
		}
		// The rule and its allowlists are translated apart: a text that
		// holds a keyword needs the regexp, only a match needs the
		// allowlists, whose stop words (generic-api-key's ~1,500, a trie)
		// cost more to build than the regexp.
		bare := config.ViperConfig{Rules: slices.Clone(vc.Rules[i : i+1])}
		bare.Rules[0].AllowList, bare.Rules[0].Allowlists = nil, nil
		lists := ruleAllowlists(vc, i)
		for _, n := range targeted[vr.ID] {
			a := *all[n]
			a.TargetRules = nil
			lists.Allowlists = append(lists.Allowlists, &a)
		}
		g.rule = sync.OnceValue(func() *config.Rule {
			r := translate(bare).Rules[vr.ID]
			return &r
		})
		g.allowlists = sync.OnceValue(func() []*config.Allowlist { return translate(lists).Allowlists })
		if strings.Contains(vr.ID, "generic") {
			g.generic = true
			g.query = sync.OnceValue(func() *regexp.Regexp { return inQuery(vr.Regex) })
			generic = append(generic, kind{id: "secret-" + vr.ID, what: "a secret assigned to a name like a key's (gitleaks' " + vr.ID + ")", gl: g})
			continue
		}
		g.relaxed = sync.OnceValue(func() *regexp.Regexp { return relax(vr.Regex, g.assigned) })
		specific = append(specific, kind{id: "secret-" + vr.ID, what: "a key gitleaks calls " + vr.ID, gl: g})
	}
	byID := func(ks []kind) { sort.Slice(ks, func(i, j int) bool { return ks[i].id < ks[j].id }) }
	byID(specific)
	byID(generic)
	e.kinds = specific
	mem := memRules()
	for i := range mem {
		e.kinds = append(e.kinds, kind{id: mem[i].id, what: mem[i].what, mem: &mem[i]})
	}
	// The generic rules go after mem's: "password is hunter2" is mem's
	// password rule's.
	e.kinds = append(e.kinds, generic...)
	e.index()
	return e
}

// index builds the index of every kind's keywords.
func (e *engine) index() {
	index := map[string]int{}
	var words []string
	for k, kd := range e.kinds {
		var keywords []string
		if kd.gl != nil {
			keywords = kd.gl.keywords
		} else {
			keywords = kd.mem.keywords
		}
		for _, w := range keywords {
			n, ok := index[w]
			if !ok {
				n = len(words)
				index[w] = n
				words = append(words, w)
				e.wordKinds = append(e.wordKinds, nil)
			}
			e.wordKinds[n] = append(e.wordKinds[n], k)
		}
	}
	e.words = newWordIndex(words)
}

// gitleaksConfig is gitleaks' default configuration as gitleaks' viper
// decodes it (TestEngineIsGitleaksConfig), made from gitleaksDefault: its
// TOML decoded once, by go-toml in gen_gitleaks.go, into Go data, so a
// process that scans does not decode the TOML (a third of building the
// engine).
func gitleaksConfig() config.ViperConfig {
	d := &gitleaksDefault
	vc := config.ViperConfig{Title: d.Title, Description: d.Description, MinVersion: d.MinVersion}
	if d.Rules != nil {
		vc.Rules = makeLike(vc.Rules, len(d.Rules))
	}
	for i, s := range d.Rules {
		r := &vc.Rules[i]
		r.ID, r.Description, r.Path, r.Regex = s.ID, s.Description, s.Path, s.Regex
		r.SecretGroup, r.Entropy, r.Tags, r.SkipReport = s.SecretGroup, s.Entropy, s.Tags, s.SkipReport
		r.Keywords = slices.Clone(s.Keywords) // Translate lowers them in place
		if s.Allowlists != nil {
			r.Allowlists = makeLike(r.Allowlists, 0)
		}
		for k, sa := range slices.Concat([]*glAllowlist{s.AllowList}, s.Allowlists) {
			if sa == nil {
				continue
			}
			a := newOf(r.Allowlists)
			a.Description, a.Condition, a.Commits, a.Paths = sa.Description, sa.Condition, sa.Commits, sa.Paths
			a.RegexTarget, a.Regexes, a.StopWords = sa.RegexTarget, sa.Regexes, sa.StopWords
			if k == 0 {
				r.AllowList = a
			} else {
				r.Allowlists = append(r.Allowlists, a)
			}
		}
	}
	if d.Allowlists != nil {
		vc.Allowlists = makeLike(vc.Allowlists, 0)
	}
	for k, sa := range slices.Concat([]*glAllowlist{d.AllowList}, d.Allowlists) {
		if sa == nil {
			continue
		}
		a := newOf(vc.Allowlists)
		a.TargetRules, a.Description, a.Condition, a.Commits, a.Paths = sa.TargetRules, sa.Description, sa.Condition, sa.Commits, sa.Paths
		a.RegexTarget, a.Regexes, a.StopWords = sa.RegexTarget, sa.Regexes, sa.StopWords
		if k == 0 {
			//lint:ignore SA1019 gitleaks' default configuration spells its global allowlist the older way, [allowlist]
			vc.AllowList = a
		} else {
			vc.Allowlists = append(vc.Allowlists, a)
		}
	}
	return vc
}

// newOf and makeLike make a new element of a slice of pointers and a
// slice of s's type: gitleaks' ViperConfig holds its rules and allowlists
// in types it does not export, which inference names.
func newOf[E any](_ []*E) *E { return new(E) }

func makeLike[S ~[]E, E any](_ S, n int) S { return make(S, n) }

// glConfig is gitleaks' ViperConfig as Go data (gitleaks_default.go): the
// same fields, by the same names, in types this package can spell.
type glConfig struct {
	Title, Description, MinVersion string
	Rules                          []glConfigRule
	AllowList                      *glAllowlist
	Allowlists                     []*glAllowlist
}

type glConfigRule struct {
	ID, Description, Path, Regex string
	SecretGroup                  int
	Entropy                      float64
	Keywords, Tags               []string
	AllowList                    *glAllowlist
	Allowlists                   []*glAllowlist
	SkipReport                   bool
}

// glAllowlist is a rule's allowlist or a global one (TargetRules).
type glAllowlist struct {
	TargetRules            []string
	Description, Condition string
	Commits, Paths         []string
	RegexTarget            string
	Regexes, StopWords     []string
}

// ruleAllowlists is a configuration whose global allowlists are rule i's
// own, in the order Translate gives them to the rule (the older spelling
// first): Translate parses a rule's allowlists and the global ones alike
// (parseAllowlist), and a rule would have its regexp built.
func ruleAllowlists(vc config.ViperConfig, i int) config.ViperConfig {
	r := vc.Rules[i]
	own := r.Allowlists
	if r.AllowList != nil {
		own = append(append(own[:0:0], r.AllowList), own...)
	}
	var out config.ViperConfig
	for _, a := range own {
		g := newOf(out.Allowlists)
		g.Description, g.Condition, g.Commits, g.Paths = a.Description, a.Condition, a.Commits, a.Paths
		g.RegexTarget, g.Regexes, g.StopWords = a.RegexTarget, a.Regexes, a.StopWords
		out.Allowlists = append(out.Allowlists, g)
	}
	return out
}

// translate is gitleaks' Translate of part of its configuration: one rule
// with the global allowlists that target it, or the other global
// allowlists. Translate treats each rule on its own, so the parts make
// the whole (TestEngineIsGitleaksConfig compares them).
func translate(vc config.ViperConfig) config.Config {
	cfg, err := vc.Translate()
	if err != nil {
		panic("secrets: gitleaks' default configuration: " + err.Error())
	}
	return cfg
}

// relax returns gitleaks' regexp src without what fences a key off from
// its neighbours, for a key glued to a word or inside a URL: every word
// boundary (\b), and a group at either end of a branch that matches a
// delimiter or the start or the end of the text (the generator's
// terminator, (?:[\x60'"\s;]|\\[nr]|$), and the other rules' own:
// (?:[^\w-]|\z), (?:^|[\\'"\x60\s>=:(,)]) …). In a semi-generic rule
// (assigned: a name, an operator, the value) a run of key characters may
// also come between the operator and the key, a word glued to its left
// ("token=deploy<key>"). Matches of the relaxed regexp are taken only where
// the text looks random and the key does (match).
func relax(src string, assigned bool) *regexp.Regexp {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		panic("secrets: gitleaks' regexp " + src + ": " + err.Error())
	}
	re = unfence(re)
	branches := []*syntax.Regexp{re}
	if re.Op == syntax.OpAlternate {
		branches = re.Sub
	}
	for _, b := range branches {
		if b.Op != syntax.OpConcat {
			continue
		}
		b.Sub = trimEnds(b.Sub)
		if assigned {
			b.Sub = gluedValue(b.Sub)
		}
	}
	return regexp.MustCompile(re.String())
}

// unfence replaces every word boundary in re by an empty match.
func unfence(re *syntax.Regexp) *syntax.Regexp {
	if re.Op == syntax.OpWordBoundary {
		return &syntax.Regexp{Op: syntax.OpEmptyMatch}
	}
	for i, sub := range re.Sub {
		re.Sub[i] = unfence(sub)
	}
	return re
}

// trimEnds drops a fence at either end of a branch: an alternation, one
// of whose alternatives is the start (first) or the end (last) of the
// text or the line.
func trimEnds(subs []*syntax.Regexp) []*syntax.Regexp {
	if len(subs) > 1 && fence(subs[0], syntax.OpBeginText, syntax.OpBeginLine) {
		subs = subs[1:]
	}
	if len(subs) > 1 && fence(subs[len(subs)-1], syntax.OpEndText, syntax.OpEndLine) {
		subs = subs[:len(subs)-1]
	}
	return subs
}

// fence reports an alternation with an alternative of op a or b.
func fence(re *syntax.Regexp, a, b syntax.Op) bool {
	if re.Op != syntax.OpAlternate {
		return false
	}
	for _, alt := range re.Sub {
		if alt.Op == a || alt.Op == b {
			return true
		}
	}
	return false
}

// gluedWord is a run of key characters, as short as can be, before the
// value of a semi-generic rule.
var gluedWord = syntax.Regexp{Op: syntax.OpStar, Flags: syntax.NonGreedy, Sub: []*syntax.Regexp{{Op: syntax.OpCharClass, Rune: []rune{'+', '+', '-', '/', '0', '9', '=', '=', 'A', 'Z', '_', '_', 'a', 'z', '~', '~'}}}}

// gluedValue puts gluedWord before the first capture of a branch.
func gluedValue(subs []*syntax.Regexp) []*syntax.Regexp {
	for i, sub := range subs {
		if sub.Op == syntax.OpCapture {
			w := gluedWord
			return slices.Insert(subs, i, &w)
		}
	}
	return subs
}

// multiline reports whether a regexp can match across more than one line
// break: an unbounded repetition of a class that holds a line break.
func multiline(src string) bool {
	return strings.Contains(src, `[\s\S`) || strings.Contains(src, `(?s`)
}

// glMatches calls fn with the span of the secret of each finding of
// gitleaks' rule g in text[w.start:w.end], as gitleaks' detector decides
// it: the rule's secret group (or its first non-empty group), its entropy
// floor, and the global and the rule's allowlists. re is the rule's
// regexp or its relaxed copy.
func (e *engine) glMatches(g *glRule, re *regexp.Regexp, text string, w span, fn func(start, end int)) {
	r := g.rule()
	sub := text[w.start:w.end]
	ls, le, from := -1, -1, 0 // the current line's bounds; ls holds for text[from]
	for _, m := range re.FindAllStringSubmatchIndex(sub, -1) {
		ms, me := trimBreaks(sub, m[0], m[1])
		ss, se := secretSpan(m, r.SecretGroup)
		ss, se = max(ss, ms), min(se, me)
		if ss >= se {
			continue
		}
		secret := sub[ss:se]
		if r.Entropy != 0 && entropy(secret) <= r.Entropy {
			continue
		}
		// Matches come in order: the line's bounds are searched on from
		// the last match's, so a long line of many matches stays linear.
		if nl := strings.LastIndexByte(text[from:w.start+ms], '\n'); nl >= 0 || ls < 0 {
			ls = from + nl + 1
		}
		from = w.start + ms
		if w.start+me > le {
			le = lineEnd(text, w.start+me)
		}
		if allowed(e.global(), secret, sub[ms:me], text[ls:le], true) || allowed(g.allowlists(), secret, sub[ms:me], text[ls:le], true) {
			continue
		}
		fn(w.start+ss, w.start+se)
	}
}

// trimBreaks trims line breaks off the match s[ms:me], as gitleaks does.
func trimBreaks(s string, ms, me int) (int, int) {
	for ms < me && s[ms] == '\n' {
		ms++
	}
	for me > ms && s[me-1] == '\n' {
		me--
	}
	return ms, me
}

// secretSpan is the span of a match m's secret, as gitleaks picks it: the
// rule's secret group, or with none, the first group that matched
// something, or the whole match. A group beyond the regexp's is the whole
// match.
func secretSpan(m []int, group int) (int, int) {
	if group > 0 && 2*group+1 < len(m) {
		return m[2*group], m[2*group+1]
	}
	if group == 0 {
		for g := 1; 2*g+1 < len(m); g++ {
			if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
				return m[2*g], m[2*g+1]
			}
		}
	}
	return m[0], m[1]
}

// allowed is gitleaks' allowlist check of a finding (detect's
// checkFindingAllowed) for a text that has no path and no commit: an
// allowlist that names either never applies. Without stops, the stop
// words are not asked (a word glued to a key is one: unglued).
func allowed(lists []*config.Allowlist, secret, match, line string, stops bool) bool {
	for _, a := range lists {
		target := secret
		switch a.RegexTarget {
		case "match":
			target = match
		case "line":
			target = line
		}
		regex := a.RegexAllowed(target)
		stop := false
		if stops {
			stop, _ = a.ContainsStopWord(secret)
		}
		if a.MatchCondition != config.AllowlistMatchAnd {
			if regex || stop {
				return true
			}
			continue
		}
		if len(a.Commits) > 0 || len(a.Paths) > 0 {
			continue
		}
		if (len(a.Regexes) == 0 || regex) && (len(a.StopWords) == 0 || stop) {
			return true
		}
	}
	return false
}

// reach bounds a window on either side of a keyword within a long line:
// longer than any of gitleaks' single-line matches around its keyword
// (the generic rule's: a 50-byte name, 20 more, an operator and a 150-byte
// value).
const reach = 1024

// occurrence is a keyword of the index at text[at:].
type occurrence struct{ at, word int }

// match runs the rules over text (as scan has normalised it) where their
// keywords occur, then mem's passes at the same occurrences: a key glued
// to a word or in a URL (the relaxed regexps), a key cut into parts
// (joined) and a key wrapped onto the next line (unwrapped). The hits come
// back in order and apart; where two rules match one span, the first in
// the engine's order has it.
func match(text string) []hit {
	e := rules()
	var occs []occurrence
	e.words.each(text, func(at, w int) bool { occs = append(occs, occurrence{at, w}); return true })
	if len(occs) == 0 {
		return nil
	}
	wins := e.windows(text, occs)
	kinds := make([]int, 0, len(wins))
	for k := range wins {
		kinds = append(kinds, k)
	}
	sort.Ints(kinds)
	hits := e.ruleHits(text, kinds, wins)
	hits = e.gluedHits(text, kinds, wins, hits)
	hits = e.queryHits(text, kinds, wins, hits)
	hits = e.ungluedHits(text, kinds, wins, hits)
	return e.rejoin(text, occs, hits)
}

// ruleHits are the matches of the rules of kinds (in order) over their
// windows, in order and apart: the first rule to match a span has it.
func (e *engine) ruleHits(text string, kinds []int, wins map[int][]span) []hit {
	var hits, add []hit
	for _, k := range kinds {
		kd := &e.kinds[k]
		add = add[:0]
		keep := func(s, end int) {
			if !overlaps(hits, s, end) && (len(add) == 0 || s >= add[len(add)-1].end) {
				add = append(add, hit{s, end, k})
			}
		}
		for _, w := range wins[k] {
			if kd.mem != nil {
				kd.mem.matches(text, w, keep)
			} else {
				e.glMatches(kd.gl, kd.gl.rule().Regex, text, w, keep)
			}
		}
		hits = merge(hits, add)
	}
	return hits
}

// gluedHits adds to hits the keys glued to a word ("tokenghp_…",
// "…AKIA…v2", "token=deploy<key>") or in a URL ("/ghp_…/", "?k=<key>&"),
// which gitleaks' boundaries and terminators turn away: the relaxed
// regexps, on windows that hold a token that looks random, a key glued
// to a word only if it looks random itself.
func (e *engine) gluedHits(text string, kinds []int, wins map[int][]span, hits []hit) []hit {
	random := map[span]bool{}
	var add []hit
	for _, k := range kinds {
		kd := &e.kinds[k]
		if kd.gl == nil || kd.gl.generic {
			continue
		}
		add = add[:0]
		for _, w := range wins[k] {
			r, ok := random[w]
			if !ok {
				r = randomToken(text[w.start:w.end])
				random[w] = r
			}
			if !r {
				continue
			}
			e.glMatches(kd.gl, kd.gl.relaxed(), text, w, func(s, end int) {
				if overlaps(hits, s, end) || len(add) > 0 && s < add[len(add)-1].end || glued(text, s, end) && !randomPart(text[s:end]) {
					return
				}
				add = append(add, hit{s, end, k})
			})
		}
		hits = merge(hits, add)
	}
	return hits
}

// windows returns, for each kind whose keyword text holds, the spans of
// text its regexp runs over, in order and apart: for gitleaks' rules the
// line of each occurrence and the next (at most reach bytes either side of
// it), or to the end for a rule that spans lines; for mem's, its own.
func (e *engine) windows(text string, occs []occurrence) map[int][]span {
	wins := map[int][]span{}
	ls, le, nle := -1, -1, -1 // the line of the last occurrence, and the next line's end
	for _, o := range occs {
		if o.at >= le {
			ls = strings.LastIndexByte(text[:o.at], '\n') + 1
			le = lineEnd(text, o.at)
			nle = nextLines(text, le)
		}
		start, end := around(text, o.at, ls, nle)
		word := e.words.words[o.word]
		for _, k := range e.wordKinds[o.word] {
			kd := &e.kinds[k]
			if kd.gl != nil && !worthRunning(kd.gl, text, o.at, len(word)) {
				continue
			}
			ws, seen := wins[k]
			if kd.mem != nil {
				if !seen {
					wins[k] = []span{{0, len(text)}}
					if kd.mem.windows != nil {
						wins[k] = kd.mem.windows(text)
					}
				}
				continue
			}
			w := span{start, end}
			if kd.gl.multiline {
				w.end = len(text)
			}
			if n := len(ws) - 1; n >= 0 && w.start <= ws[n].end {
				ws[n].end = max(ws[n].end, w.end)
			} else {
				ws = append(ws, w)
			}
			wins[k] = ws
		}
	}
	// A window with no operator cannot hold a match of a rule whose every
	// match has one, nor can it once a glued word is cut out of it
	// (unglued): a run of key characters after a keyword ("…-password-
	// ae6349…", a path, or two parts seamPairs joins) passes worthRunning,
	// and the generic rule's cuts of it cost a millisecond.
	for k, ws := range wins {
		if g := e.kinds[k].gl; g == nil || !g.operator() {
			continue
		}
		kept := ws[:0]
		for _, w := range ws {
			if strings.ContainsAny(text[w.start:w.end], operatorBytes) {
				kept = append(kept, w)
			}
		}
		if len(kept) == 0 {
			delete(wins, k)
		} else {
			wins[k] = kept
		}
	}
	return wins
}

// operatorBytes are the bytes of the semi-generic rules' operators
// (assignment): each of its alternatives holds one.
const operatorBytes = "=>:|,"

// needsOperator reports whether every match of the regexp src holds a byte
// of operatorBytes. It answers false when unsure: a rule that has a branch
// without the operator (atlassian-api-token's ATATT3 key) runs everywhere.
func needsOperator(src string) bool {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		panic("secrets: gitleaks' regexp " + src + ": " + err.Error())
	}
	return holdsOperator(re.Simplify())
}

// holdsOperator reports whether every match of re holds a byte of
// operatorBytes.
func holdsOperator(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return strings.ContainsAny(string(re.Rune), operatorBytes)
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				if r > 0x7f || !strings.ContainsRune(operatorBytes, r) {
					return false
				}
			}
		}
		return len(re.Rune) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return holdsOperator(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min >= 1 && holdsOperator(re.Sub[0])
	case syntax.OpConcat:
		return slices.ContainsFunc(re.Sub, holdsOperator)
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !holdsOperator(sub) {
				return false
			}
		}
		return len(re.Sub) > 0
	}
	return false
}

// around is the window of gitleaks' rules at an occurrence at text[at]
// on the line that starts at ls, whose next line ends at nle: the two
// lines, at most reach bytes either side of the occurrence.
func around(text string, at, ls, nle int) (start, end int) {
	start, end = ls, min(nle+1, len(text), at+reach)
	if at-reach > start {
		start = at - reach
		// Back to a byte that is not a word's, so that a leading \b
		// sees what it would in the whole text.
		for n := 0; start > ls && n < 64 && !nonWordASCII(text[start-1]); n++ {
			start--
		}
	}
	return start, end
}

// nextLines is the end of the line after the one that ends at le, and of
// blank lines before it (gitleaks' generic rule allows up to 8 line breaks
// between a name and its value).
func nextLines(text string, le int) int {
	for n := 0; n < 8 && le < len(text); n++ {
		next := lineEnd(text, le+1)
		blank := strings.TrimSpace(text[le+1:next]) == ""
		le = next
		if !blank {
			break
		}
	}
	return le
}

// worthRunning reports whether gitleaks' rule r can match at the
// occurrence of its keyword text[at:at+n], by what every match there
// holds, so that a rule whose keyword is a common word ("key", "token",
// "jira") or a common pair of letters ("ey", "s.") runs where a value can
// follow, not on every line that holds the word. A semi-generic rule needs
// an operator after the name, then a value of 8 or more key characters,
// unless the keyword starts a key itself; a keyword of two bytes is the
// start of a key of 8 or more key characters.
func worthRunning(r *glRule, text string, at, n int) bool {
	switch {
	case keyRun(text, at) >= 8 && (n > 2 || r.assigned):
		return true
	case n <= 2 && !r.assigned:
		return keyRun(text, at) >= 8
	case !r.assigned:
		return true
	}
	return valueAfter(text, at+n)
}

// valueAfter reports whether a value of 8 or more key characters can
// follow the keyword that ends at text[i] in a semi-generic rule's shape:
// at most 20 more characters of the name, 3 blanks or quotes, the operator
// (at most 3 bytes), 5 blanks, quotes or '='.
func valueAfter(text string, i int) bool {
	i = valueStart(text, i)
	return i >= 0 && keyRun(text, i) >= 8
}

// valueStart is where the value of a semi-generic rule's shape starts
// after the keyword that ends at text[i], or -1 if no operator follows.
func valueStart(text string, i int) int {
	i = skip(text, i, 20, func(c byte) bool { return c == ' ' || c == '\t' || c == '.' || c == '-' || !nonWordASCII(c) })
	i = skip(text, i, 3, func(c byte) bool { return isSpace(c) || c == '\'' || c == '"' })
	if i == len(text) || !operatorByte(text[i]) {
		return -1
	}
	i = skip(text, i, 3, operatorByte)
	return skip(text, i, 5, func(c byte) bool { return isSpace(c) || strings.IndexByte("`'\"=", c) >= 0 })
}

// operatorByte is a byte of the semi-generic rules' operators.
func operatorByte(c byte) bool { return strings.IndexByte("=>:|?,", c) >= 0 }

// skip returns i moved past at most n bytes of text for which in holds.
func skip(text string, i, n int, in func(byte) bool) int {
	for k := 0; k < n && i < len(text) && in(text[i]); k++ {
		i++
	}
	return i
}

// keyRun is the length of the run of key characters (letters, digits and
// _+/=~.-) at text[i:], counted up to 8, all its callers ask: a line of
// keywords glued together ("key=key=...") would make counting it whole at
// each occurrence quadratic.
func keyRun(text string, i int) int {
	j := i
	for j < len(text) && j-i < 8 && (!nonWordASCII(text[j]) && text[j] < 0x80 || strings.IndexByte("+/=~.-", text[j]) >= 0) {
		j++
	}
	return j - i
}

// lineEnd is the offset of the line break that ends the line holding
// text[at], or len(text).
func lineEnd(text string, at int) int {
	if n := strings.IndexByte(text[at:], '\n'); n >= 0 {
		return at + n
	}
	return len(text)
}

// matches calls fn with each secret of mem's rule r in text[w.start:w.end].
func (r *memRule) matches(text string, w span, fn func(start, end int)) {
	for _, m := range r.re().FindAllStringSubmatchIndex(text[w.start:w.end], -1) {
		s, end := m[2*r.group], m[2*r.group+1]
		if s >= 0 && (r.allow == nil || !r.allow(text[w.start+s:w.start+end])) {
			fn(w.start+s, w.start+end)
		}
	}
}

// randomToken reports whether s holds a run of 16 or more bytes without a
// blank or a quote that looks random (randomPart): what a key looks like,
// and few words of prose do.
func randomToken(s string) bool {
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || isSpace(s[i]) || s[i] == '"' || s[i] == '\'' || s[i] == '`' {
			if i-start >= 16 && randomPart(s[start:i]) {
				return true
			}
			start = i + 1
		}
	}
	return false
}

// glued reports whether text[s:end] runs on into a word on either side.
func glued(text string, s, end int) bool {
	return s > 0 && wordByte(text[s-1]) && wordByte(text[s]) || end < len(text) && wordByte(text[end]) && wordByte(text[end-1])
}

// rejoin adds the keys cut in two: into parts at a keyword ("AKIA Q3ZR
// TV5W …", "ghp_…" wrapped in a YAML folded string: joined), and any key
// of a rule whose keyword a line holds that the line's last word and the
// next line's first make (unwrapped). A joined span replaces the hits it
// covers whole, and is dropped if it overlaps one in part or an earlier
// joined span.
func (e *engine) rejoin(text string, occs []occurrence, hits []hit) []hit {
	var joins []hit
	var j joiner
	le := -1 // the end of the line of the last occurrence tried unwrapped
	for _, o := range occs {
		if overlaps(joins, o.at, o.at+1) {
			continue
		}
		if s, k, ok := e.joined(&j, text, o); ok {
			joins = append(joins, hit{s.start, s.end, k})
			continue
		}
		// Once a line: occurrences come in order, so a long line full of
		// keywords costs one search back for its start.
		if o.at > le {
			ls := strings.LastIndexByte(text[:o.at], '\n') + 1
			le = lineEnd(text, o.at)
			if h, ok := e.unwrapped(text, ls, e.atBreak(text, o, le)); ok {
				joins = append(joins, h)
				continue
			}
			// A keyword in the line's first token may end a key that
			// the line before began (http://cafebabe / :…@gems.…).
			if ls > 0 && !strings.ContainsAny(strings.TrimLeft(text[ls:o.at], " \t"), " \t") {
				if h, ok := e.unwrapped(text, strings.LastIndexByte(text[:ls-1], '\n')+1, true); ok {
					joins = append(joins, h)
				}
			}
		}
	}
	if len(joins) == 0 {
		return hits
	}
	return cover(joins, hits)
}

// cover returns hits with the joined spans of joins (a key put back
// together) in place of the hits each covers whole; a joined span that
// overlaps a hit in part, or an earlier joined span, is dropped.
func cover(joins, hits []hit) []hit {
	sort.Slice(joins, func(i, j int) bool { return joins[i].start < joins[j].start })
	covered := make([]bool, len(hits))
	var kept []hit
	for _, h := range joins {
		if len(kept) > 0 && h.start < kept[len(kept)-1].end {
			continue
		}
		first := sort.Search(len(hits), func(k int) bool { return hits[k].end > h.start })
		k := first
		for k < len(hits) && hits[k].start < h.end && h.start <= hits[k].start && hits[k].end <= h.end {
			k++
		}
		if k < len(hits) && hits[k].start < h.end {
			continue // overlaps a hit in part
		}
		for c := first; c < k; c++ {
			covered[c] = true
		}
		kept = append(kept, h)
	}
	out := kept
	for k, h := range hits {
		if !covered[k] {
			out = append(out, h)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].start < out[j].start })
	return out
}

// wraps reports whether line can end and next go on with a key: the
// runs of key characters at the end of the line and the start of the next
// (in a URL, between its '/' or '@' and the break) are both 4 or more
// long, and one looks random. A key wraps anywhere: one piece may be
// letters alone ("…Ab3x" and "qfhe…").
func wraps(line, next string) bool {
	from := len(line)
	for from > 0 && keyByte(line[from-1]) {
		from--
	}
	to := 0
	for to < len(next) && keyByte(next[to]) {
		to++
	}
	last, first := line[from:], next[:to]
	return keyChars(last) && keyChars(first) && (keyPiece(last) || keyPiece(first))
}

// find reports the first secret in s (with a blank before it, for the
// rules' boundaries) of a rule whose keyword s holds, and its kind:
// the test of a key put back together from its parts. The generic rules
// are asked only with generic (a name, an operator and a value cut by a
// line break): parts glued together are no name's value.
func (e *engine) find(s string, generic bool) (span, int, bool) {
	// No blank after: a rule may end in the end of the text alone
	// ((?:[/#?:]|$), sidekiq-sensitive-url's), which every rule that
	// ends in a fence also takes.
	padded := " " + s
	var kinds []int
	e.words.each(padded, func(_, w int) bool { kinds = append(kinds, e.wordKinds[w]...); return true })
	sort.Ints(kinds)
	for i, k := range kinds {
		kd := &e.kinds[k]
		if i > 0 && kinds[i-1] == k || kd.gl == nil || kd.gl.generic && !generic {
			continue
		}
		found, at := false, span{}
		e.glMatches(kd.gl, kd.gl.rule().Regex, padded, span{0, len(padded)}, func(st, end int) {
			if !found {
				found, at = true, span{max(st-1, 0), end - 1}
			}
		})
		if found {
			return at, k, true
		}
	}
	return span{}, 0, false
}

// unwrapped finds a key that the line at ls and the next line make once
// the line break and the next line's indent are taken out, when the line
// ends in a piece of a key and the next starts with one (wraps), or, with
// near (a rule's keyword points at the break: atBreak), in two pieces of
// hex (hexWrap); the hit spans both pieces (and the break between them).
func (e *engine) unwrapped(text string, ls int, near bool) (hit, bool) {
	le := lineEnd(text, ls)
	if le == len(text) {
		return hit{}, false
	}
	line := strings.TrimRight(text[ls:le], " \t\r")
	ns := le + 1
	for ns < len(text) && (text[ns] == ' ' || text[ns] == '\t') {
		ns++
	}
	ne := lineEnd(text, ns)
	next := text[ns:ne]
	random := wraps(line, next)
	if !random && !(near && hexWrap(line, next)) {
		return hit{}, false
	}
	if s, k, ok := e.find(line+next, random); ok && s.start < len(line) && s.end > len(line) {
		return hit{ls + s.start, ns + s.end - len(line), k}, true
	}
	return hit{}, false
}

// hexWrap reports whether line ends in 4 or more hex digits and next
// starts with 4 or more, after at most one ':' or '@' (a key of hex cut at
// its separator, "cafebabe" / ":deadbeef"): pieces that may be letters
// alone, which wraps turns away, and few words are.
func hexWrap(line, next string) bool {
	from := len(line)
	for from > 0 && isHex(line[from-1]) {
		from--
	}
	if len(next) > 0 && (next[0] == ':' || next[0] == '@') {
		next = next[1:]
	}
	to := 0
	for to < len(next) && isHex(next[to]) {
		to++
	}
	return len(line)-from >= 4 && (from == 0 || !alnum(line[from-1])) && to >= 4 && (to == len(next) || !alnum(next[to]))
}

// atBreak reports whether the keyword occurrence o, on a line that ends
// at le, points at the line's end: it is in the line's last token, or one
// of its rules is a name and an operator (assigned) and the value after
// them starts the last token. There a key cut by the break is the rule's
// whatever its pieces look like (BUNDLE_GEMS__CONTRIBSYS__COM: "cafebabe /
// :deadbeef").
func (e *engine) atBreak(text string, o occurrence, le int) bool {
	line := strings.TrimRight(text[o.at:le], " \t\r")
	last := strings.LastIndexAny(line, " \t") + 1
	if last == 0 {
		return true
	}
	for _, k := range e.wordKinds[o.word] {
		if kd := &e.kinds[k]; kd.gl != nil && kd.gl.assigned {
			at := valueStart(line, len(e.words.words[o.word]))
			return at >= last
		}
	}
	return false
}
