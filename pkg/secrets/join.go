package secrets

import "strings"

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
	maxJoin  = 300 // bytes of joined text: longer than the keys that are cut into parts
)

// part is one piece of a split key: text[start:end].
type part struct{ start, end int }

// joined finds a key cut into parts from the keyword occurrence o: the
// longest run of two or more parts that one of the keyword's rules finds a
// key in, one that goes on past the first part, trying all the parts split
// found and one or two fewer (a word that follows the key is at most one
// part: split stops at the first part that cannot be a key's), with
// blanks between the parts and then with hyphens too (AKIA-Q3ZR-…). The
// cheap tests come first: on text full of keywords ("xoxb-1 xoxb-1 …")
// the rules rarely run. It returns the span of the parts and the kind.
func (e *engine) joined(j *joiner, text string, o occurrence) (span, int, bool) {
	for _, hyphens := range []bool{false, true} {
		j.split(text, o.at, hyphens, maxJoin)
		for k := len(j.parts); k >= 2 && k > len(j.parts)-3; k-- {
			sub := string(j.joined[:j.ends[k-1]])
			if !keyLike(text, j.parts[1:k]) {
				continue
			}
			// A keyword inside a word ("task-", "they") starts a key only
			// if what follows looks random.
			if o.at > 0 && wordByte(text[o.at-1]) && !(strings.ContainsAny(sub, "0123456789") && strings.ContainsAny(sub, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")) {
				continue
			}
			if s, kind, ok := e.find(sub, false); ok && s.start < j.ends[0] && s.end > j.ends[0] {
				return span{j.parts[0].start, j.parts[k-1].end}, kind, true
			}
		}
	}
	return span{}, 0, false
}

// joiner holds the buffers of the joined calls of one scan.
type joiner struct {
	parts  []part
	ends   []int // ends[k]: length of the join of parts[:k+1]
	joined []byte
}

// split finds the parts from text[at]: runs of key characters separated
// by at most 8 spaces or tabs, one line break among them, or (with
// hyphens) one hyphen, until they join to maxLen bytes or can no longer be
// keyLike.
func (j *joiner) split(text string, at int, hyphens bool, maxLen int) {
	j.parts, j.ends, j.joined = j.parts[:0], j.ends[:0], j.joined[:0]
	var sh shape
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
		if !sh.add(len(j.parts)-1, text[pos:end]) {
			break
		}
		next, ok := separator(text, end, hyphens)
		if !ok {
			break
		}
		pos = next
	}
}

// shape follows whether the parts after the first can still be keyLike:
// all random, or groups of one length (the last may differ).
type shape struct {
	notRandom, notGroups bool
	n                    int // the length of the groups
}

// add takes part k (0 is the first, which says nothing) and reports
// whether the parts can still be a key's.
func (sh *shape) add(k int, p string) bool {
	if k == 0 {
		return true
	}
	sh.notRandom = sh.notRandom || !randomPart(p)
	switch {
	case k == 1:
		sh.n = len(p)
	case !sh.notGroups && len(p) != sh.n:
		sh.notGroups = true // this part can only be the last group
	}
	return !sh.notRandom || !sh.notGroups
}

// separator returns where the part after the one that ends at text[end]
// starts: after at most 8 spaces or tabs, one line break among them, or
// (with hyphens) one hyphen; false if there is none.
func separator(text string, end int, hyphens bool) (int, bool) {
	i, blanks, breaks, dashes := end, 0, 0, 0
	for ; i < len(text); i++ {
		c := text[i]
		if c == '-' && !hyphens || strings.IndexByte(" \t\n\r-", c) < 0 {
			break
		}
		switch c {
		case ' ', '\t':
			blanks++
		case '\n':
			breaks++
		case '-':
			dashes++
		}
	}
	return i, i > end && blanks <= 8 && breaks <= 1 && dashes <= 1
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
