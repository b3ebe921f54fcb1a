package secrets

import (
	"regexp"
	"regexp/syntax"
	"strings"
)

// A word glued to a key can hide it from every regexp mem has for it:
// inside the key's own shape (a webhook URL's group of 4 that a word makes
// 10), before a quote the rule takes into the secret (curl -u deploy":…"),
// after base64's padding (…=now'), as a key that looks like a word
// ("deploycafebabe:deadbeef") or as one of gitleaks' stop words inside a
// generic rule's value (creds = deploy<key>, dropped for "deploy"). Where a
// rule's keyword occurred and no rule found anything, the unglue pass takes
// out one glued word at a time and runs the rule's own regexp, with its
// fences, entropy floor and allowlists, on what is left: a secret that
// reaches the cut is the key, and the hit spans it and the word. A glued
// word is 3 to 12 lower-case letters at either end of a run of letters and
// digits, with more of its token on the other side, in a token of 10 to
// 1024 bytes that is not a word itself.

const (
	minGlued      = 3
	maxGlued      = 12
	minGluedToken = 10
	// maxGluedToken: a longer token is no key's (a key and a word, or a
	// URL that holds one, are shorter), and a text of one long token
	// ("key=key=…") would be tried at every word.
	maxGluedToken = reach
	// maxCuts bounds the words tried in one window (a long URL holds
	// many), in order.
	maxCuts = 256
)

// ungluedHits adds to hits the keys that a glued word hid, trying each
// rule of kinds on its windows that no hit overlaps.
func (e *engine) ungluedHits(text string, kinds []int, wins map[int][]span, hits []hit) []hit {
	var add []hit
	var buf []byte
	for _, k := range kinds {
		kd := &e.kinds[k]
		if kd.gl == nil || kd.gl.multiline {
			continue
		}
		add = add[:0]
		for _, w := range wins[k] {
			if overlaps(hits, w.start, w.end) || overlaps(add, w.start, w.end) {
				continue
			}
			if h, ok := e.unglued(kd, k, text, w, &buf); ok {
				add = append(add, h)
			}
		}
		hits = merge(hits, add)
	}
	return hits
}

// unglued finds the first key of kind k in text[w.start:w.end] once a
// glued word is taken out. The rule runs on the text around the cut, at
// most reach bytes either side, as it runs around a keyword (windows).
func (e *engine) unglued(kd *kind, k int, text string, w span, buf *[]byte) (hit, bool) {
	found, h, tries := false, hit{}, 0
	keyToken := func(ts, te int) bool { return e.keyToken(kd.gl, text, w.start+ts, w.start+te) }
	gluedWords(text[w.start:w.end], keyToken, func(a, b int) bool {
		tries++
		a, b = w.start+a, w.start+b
		rs, re := around(text, a, w.start, min(w.end, b+reach)-1)
		rs = max(rs, w.start)
		*buf = append(append((*buf)[:0], text[rs:a]...), text[b:re]...)
		cut := string(*buf)
		at := a - rs
		e.glMatches(kd.gl, kd.gl.rule().Regex, cut, span{0, len(cut)}, func(s, end int) {
			// The word was glued to the secret: it starts or ends at
			// the cut. A generic rule's value must look random once the
			// word is out, and be no identifier (a name and an operator
			// are all such a rule has).
			if found || s != at && end != at || kd.gl.generic && (!randomPart(cut[s:end]) || identifier(cut[s:end])) {
				return
			}
			// The allowlists' regexps see the secret with its word
			// (curl -u user:changemenow is changeme's), the stop words
			// not (the word is likely one).
			s, end = rs+s, rs+end+b-a
			orig := text[s:end]
			line := text[strings.LastIndexByte(text[:s], '\n')+1 : lineEnd(text, end)]
			if allowed(e.global(), orig, orig, line, false) || allowed(kd.gl.allowlists(), orig, orig, line, false) {
				return
			}
			found, h = true, hit{s, end, k}
		})
		return !found && tries < maxCuts
	})
	return h, found
}

// keyToken reports whether the token text[ts:te] may hold a key of rule g
// with a word glued to it, which most tokens of a text where g's keyword
// occurs cannot: it holds a run of 8 or more letters and digits that
// looks random (randomPart), or, for a specific rule of a name and an
// operator, it is the value after them (the key itself may look like words:
// "deploycafebabe:deadbeef").
func (e *engine) keyToken(g *glRule, text string, ts, te int) bool {
	tok := text[ts:te]
	if randomRun(tok) {
		return true
	}
	before := text[max(strings.LastIndexByte(text[:ts], '\n')+1, ts-assignedName):ts]
	for _, kw := range g.keywords {
		if !g.assigned || g.generic {
			break // a generic rule's value must look random anyway
		}
		if at := lastIndexFold(before, kw); at >= 0 {
			if v := valueStart(text, ts-len(before)+at+len(kw)); v >= ts && v < te {
				return true
			}
		}
	}
	return false
}

// assignedName bounds how far before a value its rule's keyword is looked
// for: the keyword, 20 more characters of the name, 3 blanks or quotes, an
// operator of 3 bytes and 5 blanks, quotes or '=', with room.
const assignedName = 128

// randomRun reports whether s holds a run of 8 or more ASCII letters and
// digits that looks random (randomPart).
func randomRun(s string) bool {
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && alnum(s[j]) {
			j++
		}
		if j-i >= 8 && randomPart(s[i:j]) {
			return true
		}
		i = j + 1
	}
	return false
}

// lastIndexFold is where the last lower (lower-case ASCII) in s, in any
// ASCII case, starts, or -1.
func lastIndexFold(s, lower string) int {
	for i := len(s) - len(lower); i >= 0; i-- {
		if equalASCIIFold(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}

// gluedWords calls fn with the span of each glued word of s (see the
// package's comment above) in the tokens keyToken accepts, until fn
// returns false.
func gluedWords(s string, keyToken func(ts, te int) bool, fn func(a, b int) bool) {
	for ts := 0; ts < len(s); {
		if isSpace(s[ts]) {
			ts++
			continue
		}
		te := ts
		for te < len(s) && !isSpace(s[te]) {
			te++
		}
		if te-ts >= minGluedToken && te-ts <= maxGluedToken && !word(strings.TrimRight(s[ts:te], ".,;:!?)")) && keyToken(ts, te) && !tokenWords(s, ts, te, fn) {
			return
		}
		ts = te
	}
}

// tokenWords calls fn with the glued words of the token s[ts:te]; false
// if fn stopped.
func tokenWords(s string, ts, te int, fn func(a, b int) bool) bool {
	for rs := ts; rs < te; {
		if !alnum(s[rs]) {
			rs++
			continue
		}
		re := rs
		for re < te && alnum(s[re]) {
			re++
		}
		// A run of lower-case letters alone is a word glued to what is
		// around it in the token.
		whole := lowerRun(s, rs, re) == re-rs
		if whole && re-rs >= minGlued && re-rs <= maxGlued && (rs > ts || re < te) && !fn(rs, re) {
			return false
		}
		for n := minGlued; n < re-rs && n <= maxGlued && n <= lowerRun(s, rs, re); n++ {
			if !fn(rs, rs+n) {
				return false
			}
		}
		for n := minGlued; n < re-rs && n <= maxGlued && n <= lowerRunBack(s, rs, re); n++ {
			if !fn(re-n, re) {
				return false
			}
		}
		rs = re
	}
	return true
}

// lowerRun is the length of the run of lower-case letters at s[rs:re]'s
// start, lowerRunBack at its end.
func lowerRun(s string, rs, re int) int {
	i := rs
	for i < re && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	return i - rs
}

func lowerRunBack(s string, rs, re int) int {
	i := re
	for i > rs && s[i-1] >= 'a' && s[i-1] <= 'z' {
		i--
	}
	return re - i
}

// alnum reports an ASCII letter or digit.
func alnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// inQuery is gitleaks' generic rule src with '&' among the characters
// that end its value: in a URL's query an '&' ends a parameter, and with
// it the value (?next=creds%20%3D%20<key>&v=1), where the generic
// terminator, the end of the line, a blank, a quote or ';', turns it away.
// It is run on a URL's query only (queryHits).
func inQuery(src string) *regexp.Regexp {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		panic("secrets: gitleaks' regexp " + src + ": " + err.Error())
	}
	branches := []*syntax.Regexp{re}
	if re.Op == syntax.OpAlternate {
		branches = re.Sub
	}
	for _, b := range branches {
		if b.Op != syntax.OpConcat || len(b.Sub) == 0 {
			continue
		}
		if last := b.Sub[len(b.Sub)-1]; fence(last, syntax.OpEndText, syntax.OpEndLine) {
			last.Sub = append(last.Sub, &syntax.Regexp{Op: syntax.OpLiteral, Rune: []rune{'&'}})
		}
	}
	return regexp.MustCompile(re.String())
}

// queryHits adds to hits the values of gitleaks' generic rules that end at
// an '&' in a URL's query, on the windows of kinds that no hit overlaps.
func (e *engine) queryHits(text string, kinds []int, wins map[int][]span, hits []hit) []hit {
	if !strings.Contains(text, "://") {
		return hits
	}
	var add []hit
	for _, k := range kinds {
		kd := &e.kinds[k]
		if kd.gl == nil || !kd.gl.generic {
			continue
		}
		add = add[:0]
		for _, w := range wins[k] {
			if overlaps(hits, w.start, w.end) || !strings.Contains(text[w.start:w.end], "?") {
				continue
			}
			e.glMatches(kd.gl, kd.gl.query(), text, w, func(s, end int) {
				if end < len(text) && text[end] == '&' && inURLQuery(text, s) && (len(add) == 0 || s >= add[len(add)-1].end) {
					add = append(add, hit{s, end, k})
				}
			})
		}
		hits = merge(hits, add)
	}
	return hits
}

// inURLQuery reports whether text[at] is in a URL's query: after a "://"
// on its line, then a '?' with no blank between them.
func inURLQuery(text string, at int) bool {
	ls := strings.LastIndexByte(text[:at], '\n') + 1
	u := strings.LastIndex(text[ls:at], "://")
	if u < 0 {
		return false
	}
	rest := text[ls+u : at]
	q := strings.IndexByte(rest, '?')
	return q >= 0 && strings.IndexFunc(rest[:q], func(r rune) bool { return r == ' ' || r == '\t' }) < 0
}
