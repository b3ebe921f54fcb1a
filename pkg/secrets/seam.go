package secrets

import "strings"

// A key may be split between a frontmatter field and the body ("title:
// deploy AKIAQ3ZR", then the body "TV5WX7HJ2LNB …"): to a reader fields and
// body are one text. A file's text is scanned with the last word of each
// field value read with the body's first line; such a key is reported as
// two hits of its rule, the word and the body's part, so that redacting it
// keeps the frontmatter's lines.

// seam returns the hits of a key split between a field of text's
// frontmatter and its body, or nil.
func seam(text string) []hit {
	headEnd, first, ok := splitFrontmatter(text)
	if !ok {
		return nil
	}
	if hits := seamFirst(text, headEnd, first); hits != nil {
		return hits
	}
	return seamPairs(text, headEnd, first)
}

// seamFirst finds a key whose head is the last word of a field and whose
// rest opens the body (the body's first line, which may hold it in groups).
func seamFirst(text string, headEnd, first int) []hit {
	line := text[first:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	line = line[:min(len(line), 200)]
	// The body's first word must be a piece of a key: most bodies start
	// with a word, and skip the rest.
	tok := line
	if sp := strings.IndexAny(tok, " \t"); sp >= 0 {
		tok = tok[:sp]
	}
	if !keyPiece(tok) {
		return nil
	}
	// A split key holds a rule's keyword, in the word or the body's line
	// (a keyword cut in two at the seam is missed).
	if !rules().words.any(line) && !rules().words.any(text[:headEnd]) {
		return nil
	}
	return seamHits(text[:headEnd], first, line, len(tok))
}

// splitFrontmatter returns where text's frontmatter ends (the start of its
// closing line) and where the body's first word starts.
func splitFrontmatter(text string) (headEnd, first int, ok bool) {
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return 0, 0, false
	}
	close := strings.Index(text[3:], "\n---")
	if close < 0 {
		return 0, 0, false
	}
	headEnd = 3 + close + 1
	first = headEnd + 3
	for first < len(text) && text[first] != '\n' {
		first++
	}
	for first < len(text) && isSpace(text[first]) {
		first++
	}
	return headEnd, first, true
}

// seamHits tries the last word of each line of head (a frontmatter) with
// the body's first line, which starts at first with a piece of a key of
// tokLen bytes.
func seamHits(head string, first int, line string, tokLen int) []hit {
	for at := 0; at < len(head); {
		end := strings.IndexByte(head[at:], '\n')
		if end < 0 {
			end = len(head)
		} else {
			end += at
		}
		l := strings.TrimRight(head[at:end], " \t\r\"'")
		word := l[strings.LastIndexAny(l, " \t:\"'")+1:]
		// The shortest joinable key is 20 bytes.
		if len(word)+tokLen >= 16 && keyPiece(word) {
			joined := word + " " + line
			if hits := scan(joined, 0); len(hits) > 0 && hits[0].start < len(word) && hits[0].end > len(word) {
				w := at + len(l) - len(word)
				return []hit{{w, w + len(word), hits[0].rule}, {first, first + hits[0].end - len(word) - 1, hits[0].rule}}
			}
		}
		at = end + 1
	}
	return nil
}

// keyPiece reports whether s can be a piece of a key: keyChars, with a
// digit or two letters of each case (not a capitalised word).
func keyPiece(s string) bool {
	if !keyChars(s) {
		return false
	}
	lower, upper := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			return true
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		}
	}
	return lower >= 2 && upper >= 2
}

// keyChars reports whether s is 4 or more characters of the keys'
// alphabets: letters, digits and _-+/=~. (base64, hex, and the
// separators keys use).
func keyChars(s string) bool {
	for i := 0; i < len(s); i++ {
		if !keyByte(s[i]) {
			return false
		}
	}
	return len(s) >= 4
}

// keyByte reports a character of keyChars' alphabet.
func keyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("_-+/=~.", c) >= 0
}

// maxSeamBody bounds the body seamPairs reads: a memory (280 characters)
// is read whole, and so is a note of this size or less.
const maxSeamBody = 8 << 10

// seamPairs finds a key whose two parts are a word of a frontmatter line
// (a title, an alias, a tag) and a word anywhere in the body, in either
// order: "the deploy token is ghp_R8s2…" with an alias "1Nv6…", or an
// alias "ghp_R8s2…" and a body that ends "…with 1Nv6…". The parts are
// joined as they are; a hit must take from both. Only pairs whose first
// part holds a rule's keyword are scanned: a keyword opens a key (ghp_,
// AKIA) or stands before it (api_key=), so it is never only in the part
// that follows, and each scan costs about a millisecond.
func seamPairs(text string, headEnd, first int) []hit {
	end := min(len(text), first+maxSeamBody)
	if !rules().words.any(text[:end]) {
		return nil // most texts: one pass, no piece listed
	}
	head := keyPieces(text, 0, headEnd)
	body := keyPieces(text, first, end)
	for _, h := range head {
		for _, b := range body {
			for _, p := range [2][2]piece{{h, b}, {b, h}} {
				if !p[0].keyword {
					continue
				}
				x, y := text[p[0].start:p[0].end], text[p[1].start:p[1].end]
				if hits := scan(x+y, 0); len(hits) > 0 && hits[0].start < len(x) && hits[0].end > len(x) {
					return []hit{{h.start, h.end, hits[0].rule}, {b.start, b.end, hits[0].rule}}
				}
			}
		}
	}
	return nil
}

// piece is a word of text that can be part of a key (keyPiece), and
// whether it holds a rule's keyword.
type piece struct {
	start, end int
	keyword    bool
}

// keyPieces lists the pieces of text[from:to].
func keyPieces(text string, from, to int) []piece {
	var out []piece
	for i := from; i < to; {
		if !keyByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < to && keyByte(text[j]) {
			j++
		}
		if w := text[i:j]; keyPiece(w) {
			out = append(out, piece{i, j, rules().words.any(w)})
		}
		i = j
	}
	return out
}
