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
	maxJoin  = 300 // bytes of joined text: longer than any joinable rule's key
)

// part is one piece of a split key: text[start:end].
type part struct{ start, end int }

// joined returns the spans of text where parts of a split key, joined,
// are a secret of r. It is called only for a rule whose keywords the text
// holds, so its cost is paid at a prefix's occurrences only.
func (r *rule) joined(text string) []span {
	var out []span
	for _, kw := range r.split {
		for i := 0; ; {
			n := indexFold(text[i:], kw)
			if n < 0 {
				break
			}
			at := i + n
			i = at + len(kw)
			if at > 0 && !nonWordASCII(text[at-1]) {
				continue
			}
			for _, hyphens := range []bool{false, true} {
				if s, ok := r.joinAt(text, at, hyphens); ok {
					out = append(out, s)
					i = max(i, s.end)
					break
				}
			}
		}
	}
	return out
}

// joinAt joins the parts of a key that starts at text[at] and reports the
// longest run of two or more of them that r's regexp matches whole.
// hyphens makes a hyphen a separator (AKIA-Q3ZR-…) rather than a key
// character. One run of r.prefix (r's regexp anchored at the start, its
// final \b dropped) over all the parts bounds the runs worth trying, so a
// prefix that no key follows costs one match.
func (r *rule) joinAt(text string, at int, hyphens bool) (span, bool) {
	parts := splitParts(text, at, hyphens)
	if len(parts) < 2 {
		return span{}, false
	}
	var b []byte
	ends := make([]int, len(parts)) // ends[k]: joined length of parts[:k+1]
	for k, p := range parts {
		b = append(b, text[p.start:p.end]...)
		ends[k] = len(b)
	}
	joined := string(b)
	m := r.prefix.FindStringIndex(joined)
	if m == nil {
		return span{}, false
	}
	k := len(parts)
	for k > 1 && ends[k-1] > m[1] {
		k--
	}
	for ; k >= 2; k-- {
		sub := joined[:ends[k-1]]
		w := r.whole.FindStringSubmatchIndex(sub)
		if w == nil || w[2*r.group] < 0 || !keyLike(text, parts[1:k]) {
			continue
		}
		if r.accept(sub[w[2*r.group]:w[2*r.group+1]]) {
			return span{parts[0].start, parts[k-1].end}, true
		}
	}
	return span{}, false
}

// splitParts returns the parts from text[at]: runs of key characters
// separated by at most 8 spaces or tabs, one line break among them, or
// (with hyphens) one hyphen.
func splitParts(text string, at int, hyphens bool) []part {
	var parts []part
	total := 0
	for pos := at; len(parts) < maxParts && total < maxJoin; {
		end := pos
		for end < len(text) && keyChar(text[end], hyphens) {
			end++
		}
		if end == pos {
			break
		}
		parts = append(parts, part{pos, end})
		total += end - pos
		j, blanks, breaks, dashes := end, 0, 0, 0
	sep:
		for ; j < len(text); j++ {
			switch text[j] {
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
		if j == end || blanks > 8 || breaks > 1 || dashes > 1 {
			break
		}
		pos = j
	}
	return parts
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
	for i := 0; i+len(lower) <= len(s); i++ {
		if foldASCII[s[i]] == lower[0] && equalASCIIFold(s[i:i+len(lower)], lower) {
			return i
		}
	}
	return -1
}
