package rules

// latinRequest asks, in order, the rules of "Session 27, Home Assistant's
// requests in French, Portuguese, Italian, German and English (held out)"
// (docs/security.md): the French, Portuguese and Italian infinitive and
// familiar imperative (romance_request.go), German typed in lower case
// (german_request.go), English questions typed without their mark
// (english_typed_question.go). formRequest (slavic_request.go) asks it.
func latinRequest(text string) (rule, msg string) {
	if rule, msg := romanceRequest(text); rule != "" {
		return rule, msg
	}
	if w := germanTypedOrder(text); w != "" {
		return "instruction-imperative", "a German text typed in lower case that opens with a verb or ends with its infinitive (" + w + "): an order or a question, not a statement about the world"
	}
	if w := englishTypedQuestion(text); w != "" {
		return "instruction-question", "an English question typed in lower case (" + w + "): it asks its reader something instead of stating a claim"
	}
	return "", ""
}
