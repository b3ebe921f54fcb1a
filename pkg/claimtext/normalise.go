// Package claimtext reads what a claim's text states, with no model and
// no vault: when two texts state the same fact (Normalise: the audit's
// duplicates, consolidate's merges, the harnesses' stores matched against
// the vault) and what one states as subject, relation and value, so that
// two facts can be found to contradict each other (ParseFact,
// Fact.Contradicts: consolidate's conflicts, a store's line against a
// claim). It imports nothing of mem's, so "the same fact" and "a
// contradiction" mean one thing in every package that asks.
package claimtext

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

// AppendNormalised appends to dst the text two claims must share to state
// the same fact: case-folded, runs of white space made one space,
// trailing full stops dropped ("Uses Go." and "uses  go" are one fact,
// and so is "uses go ."). A buffer, not a string, because the audit puts
// every memory of the vault through it.
func AppendNormalised(dst []byte, text string) []byte {
	start := len(dst)
	space := false
	for _, c := range text {
		switch {
		case unicode.IsSpace(c):
			space = len(dst) > start
			continue
		case space:
			dst, space = append(dst, ' '), false
		}
		switch {
		case 'A' <= c && c <= 'Z':
			dst = append(dst, byte(c+'a'-'A'))
		case c < utf8.RuneSelf:
			dst = append(dst, byte(c))
		default:
			dst = utf8.AppendRune(dst, unicode.ToLower(c))
		}
	}
	return dst[:start+len(bytes.TrimRight(dst[start:], ". "))]
}

// Normalise is AppendNormalised's text as a string.
func Normalise(text string) string { return string(AppendNormalised(nil, text)) }
