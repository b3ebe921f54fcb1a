package secrets

import (
	"sort"
	"strings"
)

// A key split into parts ("AKIA Q3ZR TV5W X7HJ 2LNB", "AKIA-Q3ZR-…", or
// wrapped onto the next line of a YAML folded string) is found by joining
// the parts that follow one of a rule's prefixes and matching the rule's
// whole regexp against the joined text. Prose after a prefix must not be
// glued into a key ("ghp_ tokens are what GitHub calls …"), so the parts
// after the first must look like a key's: each holds a digit, or they are
// groups of one length (the last one may be shorter), as people split keys
// to read them.

const (
	maxParts = 64  // a 108-character Anthropic key in groups of 4, with room
	maxJoin  = 300 // bytes of joined text: longer than any joinable rule's key
)

// part is one piece of a split key: text[start:end].
type part struct{ start, end int }

// joined returns the spans of text where parts of a split key, joined,
// are a secret of r. It is called only for a rule whose keywords the text
// holds, so its cost is paid at a prefix's occurrences only, and there it
// is bounded by the longest key of r.
func (r *rule) joined(text string) []span {
	var out []span
	var j joiner
	for _, kw := range r.split {
		for i := 0; ; {
			n := indexFold(text[i:], kw)
			if n < 0 {
				break
			}
			at := i + n
			i = at + len(kw)
			for _, hyphens := range []bool{false, true} {
				if s, ok := j.join(r, text, at, hyphens); ok {
					out = append(out, s)
					i = max(i, s.end)
					break
				}
			}
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].start < out[b].start })
	return out
}

// joiner holds the buffers of one joined call.
type joiner struct {
	parts  []part
	ends   []int // ends[k]: length of the join of parts[:k+1]
	joined []byte
}

// join joins the parts of a key that starts at text[at] and reports the
// longest run of two or more of them that r's regexp matches whole, trying
// all the parts split found and one or two fewer (a word that follows the
// key is at most one part: split stops at the first part that cannot be
// a key's). hyphens makes a hyphen a separator (AKIA-Q3ZR-…) rather than a
// key character. The cheap tests come first: on text full of prefixes
// ("xoxb-1 xoxb-1 …") the regexp rarely runs.
func (j *joiner) join(r *rule, text string, at int, hyphens bool) (span, bool) {
	j.split(text, at, hyphens, r.joinMax)
	for k := len(j.parts); k >= 2 && k > len(j.parts)-3; k-- {
		sub := j.joined[:j.ends[k-1]]
		// Every joinable rule's secret is its whole match (group 0).
		if keyLike(text, j.parts[1:k]) && r.accept(string(sub)) && !r.glued(text, at, string(sub)) && r.whole.Match(sub) {
			return span{j.parts[0].start, j.parts[k-1].end}, true
		}
	}
	return span{}, false
}

// split finds the parts from text[at]: runs of key characters separated
// by at most 8 spaces or tabs, one line break among them, or (with
// hyphens) one hyphen, until they join to maxLen bytes or can no longer be
// keyLike.
func (j *joiner) split(text string, at int, hyphens bool, maxLen int) {
	j.parts, j.ends, j.joined = j.parts[:0], j.ends[:0], j.joined[:0]
	random, groups, n := true, true, 0
	for pos := at; len(j.parts) < maxParts && len(j.joined) < maxLen; {
		// A run longer than the key is not a piece of it: stopping at
		// maxLen keeps a text of one long run ("sk-ant-sk-ant-…", with a
		// candidate at every prefix) linear.
		end, limit := pos, min(len(text), pos+maxLen-len(j.joined)+1)
		for end < limit && keyChar(text[end], hyphens) {
			end++
		}
		if end == pos {
			break
		}
		j.parts = append(j.parts, part{pos, end})
		j.joined = append(j.joined, text[pos:end]...)
		j.ends = append(j.ends, len(j.joined))
		if k := len(j.parts) - 1; k > 0 {
			random = random && randomPart(text[pos:end])
			switch {
			case k == 1:
				n = end - pos
			case groups && end-pos != n:
				groups = false // this part can only be the last group
			}
			if !random && !groups {
				break
			}
		}
		i, blanks, breaks, dashes := end, 0, 0, 0
	sep:
		for ; i < len(text); i++ {
			switch text[i] {
			case ' ', '\t':
				blanks++
			case '\n':
				breaks++
			case '\r':
			case '-':
				if !hyphens {
					break sep
				}
				dashes++
			default:
				break sep
			}
		}
		if i == end || blanks > 8 || breaks > 1 || dashes > 1 {
			break
		}
		pos = i
	}
}

// keyChar is a character of the joinable keys' alphabets.
func keyChar(c byte, hyphens bool) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' && !hyphens
}

// keyLike reports whether parts (those after the first) look like pieces
// of a key rather than words: each holds a digit or is mixed case like a
// random string (3 or more letters of each case), or they are three or
// more groups of one length of 3 or more but the last, which is no longer
// and not a lower-case word (a word after the key: "… p7dc for now").
func keyLike(text string, parts []part) bool {
	random := true
	for _, p := range parts {
		if !randomPart(text[p.start:p.end]) {
			random = false
			break
		}
	}
	if random {
		return true
	}
	if len(parts) < 3 {
		return false
	}
	n := parts[0].end - parts[0].start
	for _, p := range parts[1 : len(parts)-1] {
		if p.end-p.start != n {
			return false
		}
	}
	last := text[parts[len(parts)-1].start:parts[len(parts)-1].end]
	return n >= 3 && len(last) <= n && strings.Trim(last, "abcdefghijklmnopqrstuvwxyz") != ""
}

// randomPart reports whether s holds a digit, or 3 upper-case and 3
// lower-case letters.
func randomPart(s string) bool {
	upper, lower := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			return true
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= 'a' && c <= 'z':
			lower++
		}
	}
	return upper >= 3 && lower >= 3
}

// indexFold is strings.Index(strings.ToLower(s), lower) for ASCII lower,
// without lowering a copy of s.
func indexFold(s, lower string) int {
	c := lower[0]
	if c < 'a' || c > 'z' {
		// The first byte has one case: a byte search finds each candidate.
		for i := 0; ; {
			n := strings.IndexByte(s[i:], c)
			if n < 0 || i+n+len(lower) > len(s) {
				return -1
			}
			if equalASCIIFold(s[i+n:i+n+len(lower)], lower) {
				return i + n
			}
			i += n + 1
		}
	}
	for i := 0; i+len(lower) <= len(s); i++ {
		if foldASCII[s[i]] == c && equalASCIIFold(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}
