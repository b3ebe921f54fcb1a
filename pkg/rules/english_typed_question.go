package rules

import (
	"slices"
	"strings"
	"unicode"
)

// English questions typed in lower case without their mark, for
// Instruction (docs/security.md, "Session 27, Home Assistant's requests
// in French, Portuguese, Italian, German and English (held out)"): "is"
// or "are" before an indefinite pronoun or "there" as the subject ("is
// anyone at home"), and "how much" or "how many" with its noun before an
// auxiliary ("how much time is left"). A statement puts its subject
// before its verb, and a typed request opens in lower case where a
// note's title opens with a capital.

var englishTypedSubjects = map[string]bool{"anyone": true, "anybody": true, "someone": true, "somebody": true, "everyone": true, "everybody": true, "nobody": true, "anything": true, "something": true, "there": true}

// englishHowAux are the auxiliaries a "how much" question puts after its
// noun (all of them englishFinite).
var englishHowAux = map[string]bool{"is": true, "are": true, "was": true, "were": true, "do": true, "does": true, "did": true, "can": true, "will": true, "should": true, "has": true, "have": true}

// englishTypedQuestion returns the words that open text as a question
// typed in lower case, or "".
func englishTypedQuestion(text string) string {
	s := strings.TrimSpace(text)
	if !unicode.IsLower(firstRune(s, 0)) || strings.ContainsRune(s, '`') {
		return ""
	}
	lower := strings.ToLower(s)
	if otherLatin(lower, "English") || italian(lower) {
		return ""
	}
	head, _, _ := strings.Cut(lower, ",")
	ws := words(head)
	if len(ws) < 3 {
		return ""
	}
	switch {
	case (ws[0] == "is" || ws[0] == "are") && englishTypedSubjects[ws[1]]:
		return ws[0] + " " + ws[1]
	case ws[0] == "how" && (ws[1] == "much" || ws[1] == "many"):
		// A second verb after it makes the question a clause that is
		// the subject of a statement ("how much time is left is
		// tracked in …").
		for i := 2; i < min(len(ws)-1, 5); i++ {
			if englishHowAux[ws[i]] {
				if slices.ContainsFunc(ws[i+1:], func(w string) bool { return englishFinite()[w] }) {
					return ""
				}
				return "how " + ws[1]
			}
		}
	}
	return ""
}
