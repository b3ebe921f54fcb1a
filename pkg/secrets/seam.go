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
	if !strings.HasPrefix(text, "---\n") && !strings.HasPrefix(text, "---\r\n") {
		return nil
	}
	close := strings.Index(text[3:], "\n---")
	if close < 0 {
		return nil
	}
	headEnd := 3 + close + 1 // the start of the closing line
	bodyOff := headEnd + 3
	for bodyOff < len(text) && text[bodyOff] != '\n' {
		bodyOff++
	}
	// The body's first word must be a piece of a key: most bodies start
	// with a word, and skip the rest.
	first := bodyOff
	for first < len(text) && isSpace(text[first]) {
		first++
	}
	line := text[first:]
	if nl := strings.IndexByte(line, '\n'); nl >= 0 {
		line = line[:nl]
	}
	line = line[:min(len(line), 200)]
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
	head := text[:headEnd]
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
		if len(word)+len(tok) >= 16 && keyPiece(word) {
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

// keyPiece reports whether s can be a piece of a key: 4 or more letters,
// digits, '_' and '-', with a letter and a digit, or two letters of each
// case (not a capitalised word).
func keyPiece(s string) bool {
	lower, upper, digit := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digit = true
		case c != '_' && c != '-':
			return false
		}
	}
	return len(s) >= 4 && lower+upper > 0 && (digit || lower >= 2 && upper >= 2)
}
