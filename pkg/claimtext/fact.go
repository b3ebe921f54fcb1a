package claimtext

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// A conflict is two current claims that cannot both be true (spec §11):
// the same key, or the same subject and the same attribute with different
// values. Two true claims about one subject are no conflict: "the blog is
// hosted on Netlify" and "the blog is built with Hugo" say two things
// about the blog. So a claim is read as subject, relation and value:
//
//	the database | runs on | port 5432
//	the blog     | is hosted on | Netlify
//
// The subject is the words before the verb (a small lexicon of verbs and
// their inflections, so no model is needed); the relation is the verb as
// its base form, with the participle, particle and preposition that
// follow it ("is backed up", "runs on"); the value is the rest. Two
// values of one subject and relation contradict each other when they
// differ only in a number (a port, a version, a time, a count), when
// one denies the other ("is not allergic", "disabled" against
// "enabled"), or, for a relation that holds one value at a time (a
// location, a host, a language; not "uses", "has", "likes"), when they are
// of one kind — two names, two numbers or two plain phrases — and neither
// holds the other. The measure of the rule is the pair set in
// testdata/pairs.txt (docs/consolidate.md).

// Fact is a claim read as subject, relation and value.
type Fact struct {
	Subject  string
	Relation string
	Value    []token
	Negated  bool
}

// token is one word of a value: its lower-case text and its kind.
type token struct {
	text string
	kind kind
}

type kind int

const (
	plain  kind = iota // an ordinary word
	name               // a capitalised word, a `code` span or an identifier such as Europe/Lisbon
	number             // holds a digit, or is a number word
)

// ParseFact reads a one-line claim. ok is false when the text does not
// read as a statement about a subject: a question, no verb, or a subject
// of pronouns and function words only.
func ParseFact(text string) (f Fact, ok bool) {
	ws := split(text)
	if len(ws) < 2 || question()[ws[0].lower] {
		return f, false
	}
	v := verbAt(ws)
	if v < 0 {
		// "Editor: Vim" — a label and its value.
		for i, w := range ws[:min(len(ws)-1, maxSubject)] {
			if w.colon {
				return label(ws[:i+1], ws[i+1:])
			}
		}
		return f, false
	}
	if f.Subject = subject(ws[:v]); f.Subject == "" {
		return f, false
	}
	rel, rest, neg := relation(ws[v:])
	f.Relation, f.Negated = rel, neg
	for _, w := range rest {
		f.Value = append(f.Value, w.token())
	}
	f.Value, f.Negated = opposite(f.Value, f.Negated)
	return f, true
}

func label(subj, rest []word) (Fact, bool) {
	f := Fact{Subject: subject(subj), Relation: "be"}
	for _, w := range rest {
		f.Value = append(f.Value, w.token())
	}
	return f, f.Subject != "" && len(f.Value) > 0
}

// Contradicts reports two facts that cannot both hold.
func (f Fact) Contradicts(g Fact) bool {
	if f.Subject != g.Subject || f.Relation != g.Relation {
		return false
	}
	a, b := content(f.Value), content(g.Value)
	if sameWords(a, b) {
		return f.Negated != g.Negated
	}
	if f.Negated != g.Negated || within(a, b) || within(b, a) {
		return false // a denial of another value, or one value saying more of the other
	}
	if slotDiffers(a, b) {
		return true // port 5432 / port 5433, Debian 12 / Debian 13
	}
	if f.multi() || g.multi() || len(a) == 0 || len(b) == 0 {
		return false
	}
	return a[0].kind == b[0].kind
}

// multi: the relation holds many values at once ("uses Slack", "uses
// Jira"), or the value is a category ("is a Go developer").
func (f Fact) multi() bool {
	parts := strings.Fields(f.Relation)
	verb := parts[0]
	if manyPreposition()[parts[len(parts)-1]] || len(parts) == 1 && manyVerb()[verb] {
		return true
	}
	return verb == "be" && len(f.Value) > 0 && (f.Value[0].text == "a" || f.Value[0].text == "an" || f.Value[0].text == "one")
}

// slotDiffers: the values are the same words but for numbers.
func slotDiffers(a, b []token) bool {
	if len(a) != len(b) {
		return false
	}
	differ := false
	for i := range a {
		if a[i].text == b[i].text {
			continue
		}
		if a[i].kind != number || b[i].kind != number {
			return false
		}
		differ = true
	}
	return differ
}

// content is a value without its determiners.
func content(v []token) []token {
	return slices.DeleteFunc(slices.Clone(v), func(t token) bool { return determiner()[t.text] })
}

func sameWords(a, b []token) bool {
	return slices.EqualFunc(a, b, func(x, y token) bool { return x.text == y.text })
}

// within: every word of a is in b.
func within(a, b []token) bool {
	for _, t := range a {
		if !slices.ContainsFunc(b, func(u token) bool { return u.text == t.text }) {
			return false
		}
	}
	return true
}

// word is one whitespace-separated word of a claim.
type word struct {
	raw   string // as written, without the punctuation around it
	lower string
	code  bool // in backticks
	colon bool // a colon followed it
	first bool
}

func (w word) token() token {
	t := token{text: w.lower}
	switch {
	case strings.ContainsFunc(w.raw, unicode.IsDigit) || numberWord()[w.lower]:
		t.kind = number
	case w.code || !w.first && startsUpper(w.raw) || strings.ContainsAny(w.raw, "/_@"):
		t.kind = name
	}
	return t
}

func startsUpper(s string) bool {
	for _, r := range s {
		return unicode.IsUpper(r)
	}
	return false
}

// maxSubject is the most words a subject may have: a longer run before
// the first verb is a sentence read wrong.
const maxSubject = 8

func split(text string) []word {
	var out []word
	for i, f := range strings.Fields(text) {
		w := word{first: i == 0}
		w.colon = strings.HasSuffix(strings.TrimRight(f, "\"')*_"), ":")
		w.code = strings.Contains(f, "`")
		w.raw = strings.TrimFunc(f, func(r rune) bool {
			return unicode.IsPunct(r) && r != '%' && r != '#' && r != '$' || unicode.IsSymbol(r) && r != '$' && r != '€' && r != '£'
		})
		if w.raw == "" {
			continue
		}
		w.lower = strings.ToLower(w.raw)
		out = append(out, w)
	}
	return out
}

// verbAt is the index of the claim's verb, or -1: an auxiliary or a verb
// of the lexicon after at least one word, a base form only after a plural
// or a pronoun ("deploys happen", "we use"), never right after a
// determiner ("the build", "the log").
func verbAt(ws []word) int {
	for i := 1; i < len(ws) && i <= maxSubject; i++ {
		w, prev := ws[i].lower, ws[i-1].lower
		if ws[i].code || ws[i-1].colon {
			continue
		}
		if auxiliary()[w] {
			return i
		}
		if determiner()[prev] || prev == "to" {
			continue
		}
		if lemma, ok := inflected()[w]; ok && (lemma != w || pronoun()[prev] || strings.HasSuffix(prev, "s") && !strings.HasSuffix(prev, "ss")) {
			return i
		}
	}
	return -1
}

func subject(ws []word) string {
	var parts []string
	named := false
	for _, w := range ws {
		if len(parts) == 0 && determiner()[w.lower] {
			continue
		}
		parts = append(parts, w.lower)
		named = named || !functionWord()[w.lower] && !pronoun()[w.lower]
	}
	if !named || len(parts) > maxSubject {
		return ""
	}
	return strings.Join(parts, " ")
}

// relation reads the verb phrase at the start of ws: the verb as its base
// form, an auxiliary's main verb or participle, particles and one
// preposition; what follows is the value. Negations are taken out and
// reported.
func relation(ws []word) (rel string, rest []word, neg bool) {
	p := &phrase{ws: ws, i: 1}
	verb := p.verb()
	parts := []string{verb}
	p.skipAdverbs()
	if verb == "be" || verb == "was" || verb == "get" {
		if part, ok := p.passive(); ok {
			parts = append(parts, part)
		}
	}
	for particle()[p.next()] {
		parts = append(parts, p.next())
		p.i++
	}
	if p.i < len(ws)-1 && preposition()[p.next()] {
		parts = append(parts, p.next())
		p.i++
	}
	return strings.Join(parts, " "), ws[p.i:], p.neg
}

// phrase is a verb phrase being read: its words, the next one's index and
// whether a negation was taken out so far.
type phrase struct {
	ws  []word
	i   int
	neg bool
}

// next is the next word in lower case, "" past the last.
func (p *phrase) next() string {
	if p.i < len(p.ws) {
		return p.ws[p.i].lower
	}
	return ""
}

// verb reads the first word as a verb's base form: after a modal or do,
// the main verb that follows (adverbs and negations between skipped); a
// contraction's "n't" taken out as a negation.
func (p *phrase) verb() string {
	verb := p.ws[0].lower
	switch {
	case modal()[verb] || verb == "do" || verb == "does" || verb == "did":
		p.skipAdverbs()
		if l, ok := inflected()[p.next()]; ok {
			verb = l
			p.i++
		}
	case strings.HasSuffix(verb, "n't"):
		p.neg, verb = true, strings.TrimSuffix(verb, "n't")
	}
	if l, ok := inflected()[verb]; ok {
		verb = l
	}
	return verb
}

// skipAdverbs steps over adverbs and negations ("not", "never", "no
// longer"), noting a negation.
func (p *phrase) skipAdverbs() {
	for ; p.i < len(p.ws); p.i++ {
		switch w := p.ws[p.i].lower; {
		case w == "not" || w == "never":
			p.neg = true
		case w == "no" && p.i+1 < len(p.ws) && p.ws[p.i+1].lower == "longer":
			p.neg = true
			p.i++
		case adverb()[w]:
		default:
			return
		}
	}
}

// passive reads the participle after a form of be or get ("is being
// deployed", "was built"); a denial ("disabled") is read as the word it
// denies, negated. False when none follows.
func (p *phrase) passive() (string, bool) {
	if w := p.next(); w == "being" || w == "been" {
		p.i++
	}
	if !participle(p.next()) {
		return "", false
	}
	part, n := canonical(p.next())
	p.neg = p.neg != n
	p.i++
	return part, true
}

func participle(w string) bool {
	return irregularParticiple()[w] || len(w) > 4 && strings.HasSuffix(w, "ed") && !adjectiveEd()[w]
}

// opposite turns a value word that is the denial of another ("disabled",
// "off") into that word, negated.
func opposite(v []token, neg bool) ([]token, bool) {
	for i, t := range v {
		if p, n := canonical(t.text); n {
			v[i].text, neg = p, !neg
		}
	}
	return v, neg
}

// canonical is w, or the word it denies and true.
func canonical(w string) (string, bool) {
	if p, ok := opposites[w]; ok {
		return p, true
	}
	return w, false
}

// set returns what builds the set of words; each set is
// sync.OnceValue(set(…)), built when first asked for, as pkg/rules' are:
// only consolidate and audit read a claim's parts.
func set(words string) func() map[string]bool {
	return func() map[string]bool {
		m := map[string]bool{}
		for _, w := range strings.Fields(words) {
			m[w] = true
		}
		return m
	}
}

var (
	question   = sync.OnceValue(set("who what when where why how which whose whom if does do did is are can could should would will"))
	determiner = sync.OnceValue(set("the a an our my your his her their its this that these those every each some any all"))
	pronoun    = sync.OnceValue(set("i we you they he she it who"))
	// functionWord are the words that name nothing by themselves.
	functionWord = sync.OnceValue(set("a an the to of in on at by and or but for with from after before when while if this that these those it its is are was be as so then than"))
	auxiliary    = sync.OnceValue(set("is are am was were isn't aren't wasn't weren't has have had hasn't haven't will would can could should must may might shall does do did doesn't don't didn't won't can't"))
	modal        = sync.OnceValue(set("will would can could should must may might shall won't can't"))
	adverb       = sync.OnceValue(set("always usually often also still now currently mostly only just already normally typically generally"))
	particle     = sync.OnceValue(set("up down out off over back away"))
	preposition  = sync.OnceValue(set("on in at to from with by for of under behind via into onto after before until since during through across within without between as per about near inside outside"))
	// manyVerb holds many values at once: "uses Slack" and "uses Jira"
	// are both true.
	manyVerb = sync.OnceValue(set("have had use support include contain like love enjoy know speak need require cache serve handle own read write store call expose emit publish eat drink run import export prefer depend watch follow visit play"))
	// manyPreposition: "built with Hugo" and "built with Tailwind", "used for
	// chat" and "used for alerts".
	manyPreposition     = sync.OnceValue(set("with for about and alongside including"))
	numberWord          = sync.OnceValue(set("zero one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand million once twice thrice half dozen"))
	irregularParticiple = sync.OnceValue(set("built written kept held made taken run set put paid taught spoken known given shown done seen hidden bound sent spent lent sold told found left begun broken chosen driven frozen grown thrown worn hung led met read won"))
	// adjectiveEd are -ed words that name a state, not an action.
	adjectiveEd = sync.OnceValue(set("need red bed speed seed feed"))
	opposites   = map[string]string{
		"disabled": "enabled", "off": "on", "closed": "open", "private": "public", "optional": "required",
		"inactive": "active", "offline": "online", "forbidden": "allowed", "denied": "allowed", "unlocked": "locked",
		"false": "true", "unavailable": "available", "unsupported": "supported", "unencrypted": "encrypted",
	}
)

// inflected maps a verb's base, third-person and past forms to its base.
// It is built on first use: most mem processes never parse a fact, and
// every one would pay for it at start (GODEBUG=inittrace=1).
var inflected = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for _, v := range []string{"is", "are", "am", "be", "isn't", "aren't"} {
		m[v] = "be"
	}
	for _, v := range []string{"was", "were", "wasn't", "weren't"} {
		m[v] = "was"
	}
	for _, v := range []string{"has", "have", "hasn't", "haven't"} {
		m[v] = "have"
	}
	m["had"] = "had"
	for _, base := range strings.Fields(`run use host store deploy build write read log listen live work speak like love enjoy
		prefer need require support include contain cache serve send receive handle target expire retry mean meet
		open close start end begin finish stop depart arrive leave join report belong own pay cost take make keep
		hold eat drink sleep teach study change rotate sync push pull fetch call point connect depend rely talk wake
		go come get become remain stay happen occur sit stand fall last mirror back replicate route forward proxy
		terminate encrypt sign compile test manage wrap expose default print emit publish release ship cover charge
		earn weigh measure know watch follow visit play drive ride commute live lead own teach sell buy renew bill
		import export sit weigh grow run point live resolve fail pass cost limit allow block`) {
		m[base] = base
		m[third(base)] = base
		m[past(base)] = base
	}
	for past, base := range map[string]string{"ran": "run", "wrote": "write", "built": "build", "kept": "keep", "held": "hold",
		"made": "make", "took": "take", "met": "meet", "began": "begin", "left": "leave", "went": "go", "came": "come",
		"got": "get", "became": "become", "sat": "sit", "stood": "stand", "fell": "fall", "paid": "pay", "taught": "teach",
		"bought": "buy", "sold": "sell", "spoke": "speak", "led": "lead", "drove": "drive", "rode": "ride", "grew": "grow"} {
		m[past] = base
	}
	return m
})

func third(v string) string {
	switch {
	case strings.HasSuffix(v, "y") && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
		return v[:len(v)-1] + "ies"
	case strings.HasSuffix(v, "s") || strings.HasSuffix(v, "sh") || strings.HasSuffix(v, "ch") || strings.HasSuffix(v, "x") || strings.HasSuffix(v, "o"):
		return v + "es"
	}
	return v + "s"
}

func past(v string) string {
	switch {
	case strings.HasSuffix(v, "e"):
		return v + "d"
	case strings.HasSuffix(v, "y") && !strings.ContainsRune("aeiou", rune(v[len(v)-2])):
		return v[:len(v)-1] + "ied"
	}
	return v + "ed"
}
