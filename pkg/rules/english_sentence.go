package rules

import (
	"strings"
	"sync"
	"unicode"
)

// English orders written with a capital (docs/security.md, "Session 28,
// English requests written with a capital"): a sentence that opens with
// a capital and a word that is a verb and a noun alike ("Book", "Lock",
// "Order") is a note's title as often ("Book club notes", "Order history
// export for finance"), so case tells nothing there. What tells the
// order is what comes before it: a reply. A title or a statement does
// not follow "Yes", "Okay," or "Sounds good,"; a turn of a conversation
// does, and after a reply a verb's bare form with no subject and no
// finite verb after it is the order the reply leads to ("Yes, book it
// for 5 people", "Okay, then book a room …", "Yes . Book for 5
// people"). The same clause alone stays a title.

// englishReplyOrder returns the verb of an English order that follows a
// reply, or "": in the same sentence after a reply word (englishReply)
// and a comma or none, or after a short reply before the sentence's one
// comma ("Ok that's fine, set the GPS for there"), or in the sentence
// after one that is a reply alone ("Yes . Book for 5 people"). The
// adverbs that link the order to the reply ("then", "well", "just") are
// read past.
func englishReplyOrder(text string) string {
	if notEnglishProse(text) {
		return ""
	}
	replied := false
	for _, s := range sentences(text) {
		for _, rest := range englishAfterReply(s, replied) {
			if w := englishOrderAfterReply(rest); w != "" {
				return w
			}
		}
		replied = englishReplyAlone(s)
		if w := englishCountOrder(text, s); w != "" {
			return w
		}
	}
	return ""
}

// englishReply are the words that open a reply: those that answer, agree
// or thank.
var englishReply = sync.OnceValue(set("yes", "yeah", "yep", "yup", "ok", "okay", "sure", "alright", "great", "perfect", "fine", "good", "awesome", "excellent", "cool", "thanks", "sounds", "no", "nope", "please", "well", "right"))

// englishReplyYes are the reply words that may stand before an order
// with no comma ("Yes book it for 7 people"); "No" there is a
// determiner ("No book for kids").
var englishReplyYes = sync.OnceValue(set("yes", "yeah", "yep", "yup", "ok", "okay", "sure", "alright", "please"))

// englishAfterReply returns the words of s that may follow the reply
// that opens it: after a reply word and its comma or none, after the
// sentence's one comma when a short reply opens it; or s whole when the
// sentence before it was a reply alone (replied).
func englishAfterReply(s string, replied bool) []string {
	if replied {
		return []string{s}
	}
	first, rest, ok := strings.Cut(s, " ")
	if !ok {
		return nil
	}
	var out []string
	lo := strings.ToLower(first)
	if w, comma := strings.CutSuffix(lo, ","); comma && englishReply()[w] || englishReplyYes()[lo] {
		out = append(out, strings.TrimSpace(rest))
	}
	parts := strings.Split(s, ",")
	if len(parts) == 2 {
		// The part before the comma may hold no word ("\u200b, yes").
		if pw := words(parts[0]); len(pw) > 0 && len(pw) <= 6 && englishReply()[strings.ToLower(pw[0])] {
			out = append(out, strings.TrimSpace(parts[1]))
		}
	}
	return out
}

// englishReplyAlone reports s, a sentence, as a reply alone ("Yes",
// "Okay, great"): every word a reply word.
func englishReplyAlone(s string) bool {
	ws := words(s)
	for _, w := range ws {
		if !englishReply()[strings.ToLower(w)] {
			return false
		}
	}
	return len(ws) > 0
}

// englishLinkAdverb are the adverbs that link an order to the reply
// before it ("Okay, then book a room", "Ok, well make a route").
var englishLinkAdverb = map[string]bool{"then": true, "well": true, "just": true, "so": true, "now": true, "also": true}

// englishOrderAfterReply returns the verb of rest, the words after a
// reply, read as an order, or "": an order englishBareOrderOf or
// englishLowerOrder reads (the first word's capital put aside), or a
// verb of WordNet's before "for", a numeral or an object pronoun, with
// no finite verb after it ("book for 8 people", "book one day").
func englishOrderAfterReply(rest string) string {
	ws := words(rest)
	for len(ws) > 2 && englishLinkAdverb[strings.ToLower(ws[0])] {
		rest = strings.TrimSpace(strings.TrimPrefix(rest, ws[0]))
		ws = ws[1:]
	}
	if len(ws) < 2 || !unicode.IsLetter(firstRune(rest, 0)) {
		return ""
	}
	if w := englishBareOrderOf(rest); w != "" {
		return w
	}
	typed := strings.ToLower(rest[:1]) + rest[1:]
	if w := englishLowerOrder(typed); w != "" {
		return w
	}
	lo := strings.Fields(strings.ToLower(strings.Join(ws, " ")))
	if englishVerbBefore(lo) && !englishAfterVerbFinite(lo[1:], treebank()) {
		return lo[0]
	}
	return ""
}

// englishVerbBefore reports ws (lower case) as opening with a verb of
// WordNet's bare form (no past, gerund or third singular, no auxiliary)
// before "for", a numeral or an object pronoun.
func englishVerbBefore(ws []string) bool {
	v, next := ws[0], ws[1]
	if !wordnetVerbs()[v] || !englishLowerOpener(v) || englishInflected(v) {
		return false
	}
	return next == "for" || englishNumeral()[next] || englishDigits(next) || englishObjectPronoun()[next]
}

// englishCountOrder returns the verb of s, a sentence of text that opens
// it or follows a sentence's end, read as an order for a count ("book
// for 3 people", "Book one for 8 people at 18:45"), or "": a verb of
// WordNet's before "for" (or "one for") and a count of people, nights or
// seats (englishCounted; of anything in a sentence typed in lower case),
// with no finite verb after. A noun's head before
// "for" names what it is for ("Fix for the login bug", "Support for 3
// languages", "Plan for 2 teams"); a count of people or nights is what a
// booking is for.
func englishCountOrder(text, s string) string {
	if !englishOpensSentence(text, s) {
		return ""
	}
	head, _, _ := strings.Cut(s, ",")
	ws := strings.Fields(strings.ToLower(head))
	if len(ws) < 4 || !englishVerbBefore(ws) || englishAfterVerbFinite(ws[1:], treebank()) {
		return ""
	}
	at := 1
	if ws[1] == "one" {
		at = 2
	}
	// Typed in lower case it is no title (englishLowerOrder): any count
	// ("mute for two hours").
	counted := unicode.IsLower(firstRune(s, 0)) || englishCounted[strings.Trim(ws[min(at+2, len(ws)-1)], ".,;:!?")]
	if len(ws) > at+2 && ws[at] == "for" && (englishNumeral()[ws[at+1]] || englishDigits(ws[at+1])) && counted {
		return ws[0]
	}
	return ""
}

// englishCounted are what a booking counts.
var englishCounted = map[string]bool{"people": true, "person": true, "persons": true, "guests": true, "adults": true, "children": true, "kids": true, "nights": true, "night": true, "seats": true, "tickets": true}

// englishAboutQuestion returns the words that open s, a sentence of text
// that opens it or follows a sentence's end, as a proposal put as a
// question without its mark ("How about a college to visit in the same
// area.", "Sure, how about one that serves indian food"), or "": "how about"
// or "what about" opening it, after a reply word or a conjunction at
// most. A statement does not open with either; it puts them after its
// verb ("asked how about …" is no English).
func englishAboutQuestion(text, s string) string {
	if !englishOpensSentence(text, s) {
		return ""
	}
	ws := words(strings.ToLower(s))
	if len(ws) > 2 && (englishReply()[ws[0]] || ws[0] == "and" || ws[0] == "or" || ws[0] == "so") {
		ws = ws[1:]
	}
	if len(ws) > 2 && (ws[0] == "how" || ws[0] == "what") && ws[1] == "about" {
		return ws[0] + " about"
	}
	return ""
}

// englishReplyQuestion returns the words after a reply (englishAfterReply)
// that Instruction reads as a question on their own ("perfect, what is
// their phone #"), or "": a reply before a question hides the
// interrogative that opens it from the rules that read a sentence's
// opening.
func englishReplyQuestion(text string) string {
	if notEnglishProse(text) {
		return ""
	}
	replied := false
	for _, s := range sentences(text) {
		for _, rest := range englishAfterReply(s, replied) {
			// Every reply word at once ("ok ok ok what is it"): judged one
			// reply word shorter each time, the recursion went as deep as
			// the replies, seconds for a line of "ok"s.
			rest = strings.TrimLeft(rest, " ,")
			for ws := words(rest); len(ws) > 2 && englishReply()[strings.ToLower(ws[0])]; ws = words(rest) {
				rest = strings.TrimLeft(rest[strings.Index(rest, ws[0])+len(ws[0]):], " ,.!")
			}
			if len(words(rest)) < 2 || len(rest) >= len(text) {
				continue
			}
			if rule, _ := Instruction(rest); rule == "instruction-question" {
				return rest
			}
		}
		replied = englishReplyAlone(s)
	}
	return ""
}

// englishAskedBare returns why text is an English question without its mark
// (englishTypedAsked, englishReplyQuestion), or "".
func englishAskedBare(text string) string {
	if w := englishTypedAsked(text); w != "" {
		return "an English question without its mark, typed as one asks an assistant, its auxiliary before its subject (" + w + "): it asks its reader something instead of stating a claim"
	}
	if w := englishReplyQuestion(text); w != "" {
		return "an English question after a reply (" + w + "): it asks its reader something instead of stating a claim"
	}
	return ""
}
